/**
 * A bridge transfer from the main wallet, start to source-chain receipt:
 *   1. inputs and the core-spot rules checked (nothing sent on a failure);
 *   2. the source chain's RPC opened and checked to serve that chain, before the 30 seconds start;
 *   3. points estimated when the caller gave the USD values (before anything is spent; a points service
 *      that fails is reported as pointsError and the transfer goes on: points never block a funds move);
 *   4. quoted with sender = the signer's wallet; the chosen route (best, or the named protocol) encoded
 *      within the requestId's lifetime, re-quoting on `no quotes found`;
 *   5. an ERC-20 approve to the encoded transaction's target when the allowance is short, then the
 *      encoded transaction, both signed by the wallet's transaction signer and followed to their receipts.
 * Tracking the order afterwards is track.ts.
 */
import type { TransactionSigner } from '../../signers/transactions/transactionSigner.js';
import type { CompanionContext } from '../companion/companionContext.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { isNativeToken } from '../chains/chainIds.js';
import { sendPreparedTransaction, type SendProgress, type SentTransaction } from '../chains/sendTransaction.js';
import { estimatePointsForTransfer, validatePointsEstimate, type TransferPoints } from '../points/estimate.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { ValidationError } from '../errors.js';
import { checkCoreSpotRules, type CoreSpotCheck } from './coreSpotRules.js';
import { encodeRoute, type EncodedBridge } from './encode.js';
import { validateQuoteInput, type BridgeQuoteInput, type BridgeQuoteParams } from './params.js';
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

export async function sendBridge(ctx: CompanionContext, input: BridgeSendInput): Promise<BridgeSendResult> {
  const sender = input.signer.address;
  const params = validateQuoteInput({ ...input, sender, receiver: input.receiver ?? sender });
  const check = await checkCoreSpotRules(params, { sourceUsdValue: input.sourceUsdValue, priceSource: input.priceSource });
  return sendQuotedBridge(ctx, { ...input, quote: { params, check } });
}

export interface QuotedBridgeSendInput extends Pick<BridgeSendInput, 'signer' | 'pointsUsd' | 'onProgress' | 'maxRequotes' | 'receiptTimeoutMs'> {
  /**
   * Either a quote the user already compared routes on, with the route chosen there (its quoteIdx): that
   * route is encoded, re-quoted under the same floor when the requestId ran out; or validated parameters
   * to quote now, encoding the best route (or the best of `protocol`).
   */
  quote: { existing: BridgeQuote; quoteIdx: number } | { params: BridgeQuoteParams; check: CoreSpotCheck; protocol?: string | undefined };
}

/** Steps 2 to 5 for parameters already validated (and checked against the core-spot rules). */
export async function sendQuotedBridge(ctx: CompanionContext, input: QuotedBridgeSendInput): Promise<BridgeSendResult> {
  const progress = input.onProgress ?? (() => undefined);
  const sender = input.signer.address;
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
    let estimate: TransferPoints = { points: null, pointsError: null };
    if (pointsQuery) {
      progress({ phase: 'estimating-points' });
      estimate = await estimatePointsForTransfer(ctx, pointsQuery);
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
    const transaction = await withCompanionFailures(() =>
      sendPreparedTransaction({
        rpc,
        signer: input.signer,
        tx: encoded.tx,
        ...(isNativeToken(params.fromToken) ? {} : { approval: { token: params.fromToken, amount: BigInt(params.amount) } }),
        onProgress: (p) => progress({ step: 'transaction', ...p }),
        ...(input.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: input.receiptTimeoutMs } : {}),
      }),
    );
    return {
      srcTx: transaction.hash,
      fromChain: params.fromChain,
      toChain: params.toChain,
      sender,
      receiver: params.receiver ?? sender,
      amount: params.amount,
      route: encoded.route,
      alternatives: encoded.quote.ranked,
      requestId: encoded.requestId,
      requotes: encoded.requotes,
      transaction,
      ...estimate,
    };
  } finally {
    rpc.destroy();
  }
}
