/**
 * An aggregator swap from the main wallet, in the two public steps of every signed action
 * (signing/prepared.ts).
 *
 * prepareSwap does everything up to the first signature: inputs checked, the chain's RPC opened and
 * checked, points estimated when the caller gave USD values (best-effort), the swap quoted with the partner
 * code and held to the reviewed quote's minimum when there was one (swap/floor.ts), then the transactions
 * to sign planned (an ERC-20 approve to the swap's target when the allowance is short, balances, gas:
 * chains/transactionPlan.ts). submitSwap sends them, signed by the wallet's transaction signer (which must
 * be the prepared sender), through the chain's JSON-RPC and follows them to their receipts, like a bridge.
 * executeSwap runs both in one go.
 */
import type { SwapQuote } from '../../api/companion/schemas.js';
import type { TransactionSigner } from '../../signers/transactions/transactionSigner.js';
import type { CompanionContext } from '../companion/companionContext.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { isNativeToken, parseWallet } from '../chains/chainIds.js';
import { sendPreparedTransaction, type SendProgress, type SentTransaction } from '../chains/sendTransaction.js';
import { assertPlannedSender, planTransaction, type TransactionPlan } from '../chains/transactionPlan.js';
import { estimatePointsForTransfer, validatePointsEstimate, type TransferPoints } from '../points/estimate.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { checkSwapFloor, reviewedSwapFloor } from './floor.js';
import { quoteSwap, validateSwapInput, type SwapInput, type SwapParams } from './quote.js';

export type SwapProgress = { phase: 'estimating-points' } | { phase: 'quoting' } | ({ step: 'transaction' } & SendProgress);

export interface SwapExecuteInput extends Omit<SwapInput, 'receiver'> {
  signer: TransactionSigner;
  /** Default: the signer's wallet. */
  receiver?: string;
  pointsUsd?: { src: string; dst: string };
  /** The quote the user reviewed: the fresh quote sent must deliver at least its minimum (swap/floor.ts). */
  reviewed?: SwapQuote;
  onProgress?: (p: SwapProgress) => void;
  receiptTimeoutMs?: number;
}

export interface SwapResult extends TransferPoints {
  params: SwapParams;
  quote: SwapQuote;
  transaction: SentTransaction;
}

export interface PrepareSwapInput extends Omit<SwapInput, 'receiver'> {
  /** The main wallet that will sign and send (its transaction signer's address). */
  sender: string;
  /** Default: the sender. */
  receiver?: string;
  pointsUsd?: { src: string; dst: string };
  /** The quote the user reviewed: the fresh quote must deliver at least its minimum (swap/floor.ts). */
  reviewed?: SwapQuote;
  onProgress?: (p: SwapProgress) => void;
}

/** What a person reviews before the first signature of a swap. */
export interface SwapView {
  action: 'swap';
  chain: string;
  token_in: string;
  token_out: string;
  /** Smallest units of token_in. */
  amount_in: string;
  /** What the fresh quote delivers, and at least (smallest units of token_out); null when it does not say. */
  amount_out: string | null;
  min_amount_out: string | null;
  /** The minimum of the quote reviewed before, when there was one: the fresh quote meets it. */
  reviewed_min_amount_out: string | null;
  /** Fraction, e.g. 0.005. */
  slippage: string;
  sender: string;
  receiver: string;
  source: string;
  points: TransferPoints['points'];
  points_error: string | null;
  /** Every transaction the wallet will sign, in order, with balances and gas (chains/transactionPlan.ts). */
  transactions: TransactionPlan['transactions'];
  gas_balance: string;
  token_balance: string | null;
  warnings: string[];
}

export interface PreparedSwap extends PreparedBase<'swap'> {
  /** The main wallet that signs and sends (the transaction signer's address must equal it). */
  readonly sender: string;
  readonly params: SwapParams;
  /** The fresh quote whose transaction is sent. */
  readonly quote: SwapQuote;
  /** What sendPreparedTransaction approves first when the allowance is short (null for the gas token). */
  readonly approval: { token: string; amount: string } | null;
  readonly points: TransferPoints;
  readonly plan: TransactionPlan;
  /** Local time (ms) it was quoted: the aggregator's calldata carries a deadline, so send it soon after. */
  readonly preparedAt: number;
  readonly view: SwapView;
}

export interface SubmitSwapOptions {
  onProgress?: (p: SwapProgress) => void;
  receiptTimeoutMs?: number;
}

/** Everything up to the first signature (module comment). Nothing is signed or sent. */
export async function prepareSwap(ctx: CompanionContext, input: PrepareSwapInput): Promise<PreparedSwap> {
  const progress = input.onProgress ?? (() => undefined);
  const sender = parseWallet(input.sender, 'sender');
  const params = validateSwapInput({ ...input, receiver: input.receiver ?? sender });
  const floor = input.reviewed ? reviewedSwapFloor(input.reviewed) : null;
  // Checked before anything is opened or sent; only the asking is best-effort (points never block a swap).
  const pointsQuery = input.pointsUsd
    ? validatePointsEstimate(ctx, {
        user: sender,
        srcChain: params.chain,
        dstChain: params.chain,
        srcToken: params.tokenIn,
        dstToken: params.tokenOut,
        srcUsd: input.pointsUsd.src,
        dstUsd: input.pointsUsd.dst,
        source: params.source,
      })
    : null;
  const rpc = await ctx.rpc(params.chain);
  try {
    let points: TransferPoints = { points: null, pointsError: null };
    if (pointsQuery) {
      progress({ phase: 'estimating-points' });
      points = await estimatePointsForTransfer(ctx, pointsQuery);
    }
    progress({ phase: 'quoting' });
    const quote = await quoteSwap(ctx, params);
    checkSwapFloor(floor, quote);
    const approval = isNativeToken(params.tokenIn) ? null : { token: params.tokenIn, amount: params.amountIn };
    const plan = await withCompanionFailures(() =>
      planTransaction({ rpc, from: sender, tx: quote.tx, ...(approval ? { approval: { token: approval.token, amount: BigInt(approval.amount) } } : {}) }),
    );
    const warnings: string[] = [];
    if (!sameAddress(params.receiver, sender)) warnings.push(`the tokens bought go to ${params.receiver}, not to the sending wallet ${sender}`);
    if (quote.amountOut === undefined && quote.minAmountOut === undefined) warnings.push('the aggregator did not say what this swap delivers');
    return {
      action: 'swap',
      profile: ctx.profile.name,
      wallet: sender,
      signer: { role: 'main-wallet', address: sender },
      requests: [],
      sender,
      params,
      quote,
      approval,
      points,
      plan,
      preparedAt: ctx.now(),
      view: {
        action: 'swap',
        chain: params.chain,
        token_in: params.tokenIn,
        token_out: params.tokenOut,
        amount_in: params.amountIn,
        amount_out: quote.amountOut ?? null,
        min_amount_out: quote.minAmountOut ?? null,
        reviewed_min_amount_out: floor?.toString() ?? null,
        slippage: params.slippage,
        sender,
        receiver: params.receiver,
        source: params.source,
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
 * Sends a prepared swap: the approve when the allowance is short, then the swap transaction, both signed
 * by `txSigner` (which must be the prepared sender) and followed to their receipts.
 */
export async function submitSwap(ctx: CompanionContext, prepared: PreparedSwap, txSigner: TransactionSigner, options: SubmitSwapOptions = {}): Promise<SwapResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  assertPlannedSender(prepared.sender, txSigner.address, 'swap');
  const progress = options.onProgress ?? (() => undefined);
  const rpc = await ctx.rpc(prepared.params.chain);
  try {
    const transaction = await withCompanionFailures(() =>
      sendPreparedTransaction({
        rpc,
        signer: txSigner,
        tx: prepared.quote.tx,
        ...(prepared.approval ? { approval: { token: prepared.approval.token, amount: BigInt(prepared.approval.amount) } } : {}),
        onProgress: (p) => progress({ step: 'transaction', ...p }),
        ...(options.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: options.receiptTimeoutMs } : {}),
      }),
    );
    return { params: prepared.params, quote: prepared.quote, transaction, ...prepared.points };
  } finally {
    rpc.destroy();
  }
}

/** Prepares and submits in one go, with sender = the signer's wallet. */
export async function executeSwap(ctx: CompanionContext, input: SwapExecuteInput): Promise<SwapResult> {
  const prepared = await prepareSwap(ctx, { ...input, sender: input.signer.address });
  return submitSwap(ctx, prepared, input.signer, {
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    ...(input.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: input.receiptTimeoutMs } : {}),
  });
}
