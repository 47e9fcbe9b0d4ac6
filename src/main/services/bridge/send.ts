/**
 * A bridge transfer from the main wallet, in the two public steps of every signed action
 * (signing/prepared.ts).
 *
 * prepareBridgeSend (or prepareQuotedBridgeSend, from a quote the user compared routes on) does everything
 * up to the first signature:
 *   1. inputs and the core-spot rules checked (nothing sent on a failure);
 *   2. the source chain's RPC opened and checked to serve that chain, before the 30 seconds start;
 *   3. points estimated when the caller gave the USD values (before anything is spent; a points service
 *      that fails is reported as pointsError and the transfer goes on: points never block a funds move);
 *   4. quoted with sender = the main wallet; the chosen route (best, or the named protocol) encoded
 *      within the requestId's lifetime, re-quoting on `no quotes found`;
 *   5. the transactions to sign planned (chains/transactionPlan.ts): an ERC-20 approve to the encoded
 *      transaction's target when the allowance is short, the token and gas-token balances checked, gas
 *      estimated. The view shows all of it.
 * submitBridgeSend then sends the approve when needed and the encoded transaction, signed by the wallet's
 * transaction signer (which must be the prepared sender), and follows them to their receipts.
 * sendBridge and sendQuotedBridge run both steps in one go. Tracking the order afterwards is track.ts.
 */
import type { TransactionSigner } from '../../signers/transactions/transactionSigner.js';
import type { CompanionContext } from '../companion/companionContext.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { isNativeToken, parseWallet } from '../chains/chainIds.js';
import { sendPreparedTransaction, type SendProgress, type SentTransaction } from '../chains/sendTransaction.js';
import { assertPlannedSender, planTransaction, type TransactionPlan } from '../chains/transactionPlan.js';
import { estimatePointsForTransfer, validatePointsEstimate, type TransferPoints } from '../points/estimate.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { ValidationError } from '../errors.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { checkCoreSpotRules, type CoreSpotCheck } from './coreSpotRules.js';
import { encodeRoute, minimumOut, type EncodedBridge } from './encode.js';
import { DEFAULT_SLIPPAGE_BPS, validateQuoteInput, type BridgeQuoteInput, type BridgeQuoteParams } from './params.js';
import { requestQuote, type BridgeQuote } from './quotes.js';
import { chooseRoute, type BridgeRoute } from './routes.js';

export type BridgeSendProgress =
  | { phase: 'quoting' }
  | { phase: 'estimating-points' }
  | { phase: 'encoding'; protocol: string; amountOut: string }
  | { phase: 'requoting'; reason: 'expiring' | 'no_quotes_found'; attempt: number }
  | ({ step: 'transaction' } & SendProgress);

export interface BridgeSendInput extends Omit<BridgeQuoteInput, 'sender'> {
  signer: TransactionSigner;
  /** Encode the best route of this protocol instead of the best overall. */
  protocol?: string;
  /** USD values of both sides, to estimate points before sending (both or neither). */
  pointsUsd?: { src: string; dst: string };
  onProgress?: (p: BridgeSendProgress) => void;
  maxRequotes?: number;
  receiptTimeoutMs?: number;
}

export interface BridgeSendResult extends TransferPoints {
  srcTx: string;
  fromChain: string;
  toChain: string;
  sender: string;
  receiver: string;
  amount: string;
  route: BridgeRoute;
  /** Every route of the quote that was encoded, best first. */
  alternatives: BridgeRoute[];
  /** The requestId /encode issued. */
  requestId: string;
  requotes: number;
  transaction: SentTransaction;
}

/** A route as a person reviews it. */
export interface BridgeRouteView {
  quote_idx: number;
  protocol: string;
  amount_out: string;
}

/** What a person reviews before the first signature of a bridge transfer. */
export interface BridgeSendView {
  action: 'bridge';
  from_chain: string;
  to_chain: string;
  from_token: string;
  to_token: string;
  /** Smallest units of the source token. */
  amount: string;
  sender: string;
  receiver: string;
  route: BridgeRouteView;
  /** What the route must still deliver (amount_out less the slippage tolerance), smallest units of to_token. */
  min_amount_out: string;
  slippage_bps: number;
  /** Other routes of the same quote, best first. */
  alternatives: BridgeRouteView[];
  /** The requestId /encode issued; re-quotes taken to get it. */
  request_id: string;
  requotes: number;
  core_spot: boolean;
  points: TransferPoints['points'];
  points_error: string | null;
  /** Every transaction the wallet will sign, in order, with balances and gas (chains/transactionPlan.ts). */
  transactions: TransactionPlan['transactions'];
  gas_balance: string;
  token_balance: string | null;
  warnings: string[];
}

export interface PreparedBridgeSend extends PreparedBase<'bridge'> {
  /** The main wallet that signs and sends (the transaction signer's address must equal it). */
  readonly sender: string;
  readonly params: BridgeQuoteParams;
  readonly encoded: EncodedBridge;
  /** What sendPreparedTransaction approves first when the allowance is short (null for the gas token). */
  readonly approval: { token: string; amount: string } | null;
  readonly points: TransferPoints;
  readonly plan: TransactionPlan;
  /** Local time (ms) it was encoded: the encoded transaction is best sent soon after. */
  readonly preparedAt: number;
  readonly view: BridgeSendView;
}

export interface PrepareBridgeSendInput extends Omit<BridgeQuoteInput, 'sender'> {
  /** The main wallet that will sign and send (its transaction signer's address). */
  sender: string;
  /** Encode the best route of this protocol instead of the best overall. */
  protocol?: string;
  /** USD values of both sides, to estimate points before sending (both or neither). */
  pointsUsd?: { src: string; dst: string };
  onProgress?: (p: BridgeSendProgress) => void;
  maxRequotes?: number;
}

export interface PrepareQuotedBridgeSendInput extends Pick<PrepareBridgeSendInput, 'sender' | 'pointsUsd' | 'onProgress' | 'maxRequotes'> {
  /**
   * Either a quote the user already compared routes on, with the route chosen there (its quoteIdx): that
   * route is encoded, re-quoted under the same floor when the requestId ran out; or validated parameters
   * to quote now, encoding the best route (or the best of `protocol`).
   */
  quote: { existing: BridgeQuote; quoteIdx: number } | { params: BridgeQuoteParams; check: CoreSpotCheck; protocol?: string | undefined };
}

export interface QuotedBridgeSendInput extends Omit<PrepareQuotedBridgeSendInput, 'sender'> {
  signer: TransactionSigner;
  receiptTimeoutMs?: number;
}

export interface SubmitBridgeSendOptions {
  onProgress?: (p: BridgeSendProgress) => void;
  receiptTimeoutMs?: number;
}

/** Step 1 (inputs, core-spot rules), then prepareQuotedBridgeSend. Nothing is signed or sent. */
export async function prepareBridgeSend(ctx: CompanionContext, input: PrepareBridgeSendInput): Promise<PreparedBridgeSend> {
  const sender = parseWallet(input.sender, 'sender');
  const params = validateQuoteInput({ ...input, sender, receiver: input.receiver ?? sender });
  const check = await checkCoreSpotRules(params, { sourceUsdValue: input.sourceUsdValue, priceSource: input.priceSource });
  return prepareQuotedBridgeSend(ctx, {
    sender,
    quote: { params, check, protocol: input.protocol },
    ...(input.pointsUsd ? { pointsUsd: input.pointsUsd } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    ...(input.maxRequotes !== undefined ? { maxRequotes: input.maxRequotes } : {}),
  });
}

/** Steps 2 to 5 for parameters already validated (and checked against the core-spot rules). Nothing is signed or sent. */
export async function prepareQuotedBridgeSend(ctx: CompanionContext, input: PrepareQuotedBridgeSendInput): Promise<PreparedBridgeSend> {
  const progress = input.onProgress ?? (() => undefined);
  const sender = parseWallet(input.sender, 'sender');
  const params = 'existing' in input.quote ? input.quote.existing.params : input.quote.params;
  if (params.sender !== undefined && !sameAddress(params.sender, sender)) {
    throw new ValidationError(`the quote was made for ${params.sender}, but the connected wallet is ${sender}`, { field: 'sender', hint: 'Quote again with the connected wallet.' });
  }
  // The points query is checked before anything is opened or sent; only the asking is best-effort.
  const pointsQuery =
    input.pointsUsd && params.source !== undefined
      ? validatePointsEstimate(ctx, {
          user: sender,
          srcChain: params.fromChain,
          dstChain: params.toChain,
          srcToken: params.fromToken,
          dstToken: params.toToken,
          srcUsd: input.pointsUsd.src,
          dstUsd: input.pointsUsd.dst,
          source: params.source,
        })
      : null;
  const rpc = await ctx.rpc(params.fromChain);
  try {
    let points: TransferPoints = { points: null, pointsError: null };
    if (pointsQuery) {
      progress({ phase: 'estimating-points' });
      points = await estimatePointsForTransfer(ctx, pointsQuery);
    }
    const deps = { bridge: ctx.bridge, now: () => ctx.now() };
    let quote: BridgeQuote;
    let route: BridgeRoute;
    if ('existing' in input.quote) {
      const { existing, quoteIdx } = input.quote;
      quote = existing;
      const chosen = existing.routes.find((r) => r.quoteIdx === quoteIdx);
      if (!chosen) throw new ValidationError(`the quote has no route ${quoteIdx}; it offers ${existing.routes.map((r) => r.quoteIdx).join(', ') || 'none'}`, { field: 'quote_idx' });
      route = chosen;
    } else {
      progress({ phase: 'quoting' });
      quote = await requestQuote(deps, params, input.quote.check);
      route = chooseRoute(quote.routes, { protocol: input.quote.protocol, protocolOrder: params.protocols });
    }
    progress({ phase: 'encoding', protocol: route.protocol, amountOut: route.amountOut });
    const encoded: EncodedBridge = await encodeRoute(deps, quote, route, {
      ...(input.maxRequotes !== undefined ? { maxRequotes: input.maxRequotes } : {}),
      onRequote: (i) => progress({ phase: 'requoting', ...i }),
    });
    const approval = isNativeToken(params.fromToken) ? null : { token: params.fromToken, amount: params.amount };
    const plan = await withCompanionFailures(() =>
      planTransaction({ rpc, from: sender, tx: encoded.tx, ...(approval ? { approval: { token: approval.token, amount: BigInt(approval.amount) } } : {}) }),
    );
    const receiver = params.receiver ?? sender;
    const slippageBps = params.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
    const routeView = (r: BridgeRoute): BridgeRouteView => ({ quote_idx: r.quoteIdx, protocol: r.protocol, amount_out: r.amountOut });
    const warnings: string[] = [];
    if (!sameAddress(receiver, sender)) warnings.push(`the tokens go to ${receiver}, not to the sending wallet ${sender}`);
    if (encoded.requotes > 0) warnings.push(`the route was quoted again ${encoded.requotes} time(s) before it could be encoded; it still delivers at least the first quote less the slippage`);
    return {
      action: 'bridge',
      profile: ctx.profile.name,
      wallet: sender,
      signer: { role: 'main-wallet', address: sender },
      requests: [],
      sender,
      params,
      encoded,
      approval,
      points,
      plan,
      preparedAt: ctx.now(),
      view: {
        action: 'bridge',
        from_chain: params.fromChain,
        to_chain: params.toChain,
        from_token: params.fromToken,
        to_token: params.toToken,
        amount: params.amount,
        sender,
        receiver,
        route: routeView(encoded.route),
        min_amount_out: minimumOut(encoded.route.amountOut, slippageBps).toString(),
        slippage_bps: slippageBps,
        alternatives: encoded.quote.ranked.filter((r) => r.quoteIdx !== encoded.route.quoteIdx).map(routeView),
        request_id: encoded.requestId,
        requotes: encoded.requotes,
        core_spot: encoded.quote.coreSpot,
        points: points.points,
        points_error: points.pointsError,
        transactions: plan.transactions,
        gas_balance: plan.gas_balance,
        token_balance: plan.token_balance,
        warnings,
      },
    };
  } finally {
    rpc.destroy();
  }
}

/**
 * Sends a prepared transfer: the approve when the allowance is short, then the encoded transaction, both
 * signed by `txSigner` (which must be the prepared sender) and followed to their receipts.
 */
export async function submitBridgeSend(ctx: CompanionContext, prepared: PreparedBridgeSend, txSigner: TransactionSigner, options: SubmitBridgeSendOptions = {}): Promise<BridgeSendResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  assertPlannedSender(prepared.sender, txSigner.address, 'transfer');
  const progress = options.onProgress ?? (() => undefined);
  const { params, encoded } = prepared;
  const rpc = await ctx.rpc(params.fromChain);
  try {
    const transaction = await withCompanionFailures(() =>
      sendPreparedTransaction({
        rpc,
        signer: txSigner,
        tx: encoded.tx,
        ...(prepared.approval ? { approval: { token: prepared.approval.token, amount: BigInt(prepared.approval.amount) } } : {}),
        onProgress: (p) => progress({ step: 'transaction', ...p }),
        ...(options.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: options.receiptTimeoutMs } : {}),
      }),
    );
    return {
      srcTx: transaction.hash,
      fromChain: params.fromChain,
      toChain: params.toChain,
      sender: prepared.sender,
      receiver: params.receiver ?? prepared.sender,
      amount: params.amount,
      route: encoded.route,
      alternatives: encoded.quote.ranked,
      requestId: encoded.requestId,
      requotes: encoded.requotes,
      transaction,
      ...prepared.points,
    };
  } finally {
    rpc.destroy();
  }
}

/** Prepares and submits in one go, with sender = the signer's wallet. */
export async function sendBridge(ctx: CompanionContext, input: BridgeSendInput): Promise<BridgeSendResult> {
  const prepared = await prepareBridgeSend(ctx, { ...input, sender: input.signer.address });
  return submitBridgeSend(ctx, prepared, input.signer, submitOptions(input));
}

/** prepareQuotedBridgeSend and submitBridgeSend in one go, with sender = the signer's wallet. */
export async function sendQuotedBridge(ctx: CompanionContext, input: QuotedBridgeSendInput): Promise<BridgeSendResult> {
  const prepared = await prepareQuotedBridgeSend(ctx, { ...input, sender: input.signer.address });
  return submitBridgeSend(ctx, prepared, input.signer, submitOptions(input));
}

function submitOptions(input: { onProgress?: ((p: BridgeSendProgress) => void) | undefined; receiptTimeoutMs?: number | undefined }): SubmitBridgeSendOptions {
  return {
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    ...(input.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: input.receiptTimeoutMs } : {}),
  };
}
