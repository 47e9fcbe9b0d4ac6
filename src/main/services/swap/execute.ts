/**
 * An aggregator swap from the main wallet: inputs checked, the chain's RPC opened and checked, points
 * estimated when the caller gave USD values (best-effort), the swap quoted with the partner code and held
 * to the reviewed quote's minimum when there was one, then (an ERC-20 approve
 * to the swap's target when the allowance is short and) the swap transaction signed by the wallet's
 * transaction signer, sent through the chain's JSON-RPC and followed to its receipt, like a bridge.
 */
import type { SwapQuote } from '../../api/companion/schemas.js';
import type { TransactionSigner } from '../../signers/transactions/transactionSigner.js';
import type { CompanionContext } from '../companion/companionContext.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { isNativeToken } from '../chains/chainIds.js';
import { sendPreparedTransaction, type SendProgress, type SentTransaction } from '../chains/sendTransaction.js';
import { estimatePointsForTransfer, validatePointsEstimate, type TransferPoints } from '../points/estimate.js';
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

export async function executeSwap(ctx: CompanionContext, input: SwapExecuteInput): Promise<SwapResult> {
  const progress = input.onProgress ?? (() => undefined);
  const params = validateSwapInput({ ...input, receiver: input.receiver ?? input.signer.address });
  const floor = input.reviewed ? reviewedSwapFloor(input.reviewed) : null;
  // Checked before anything is opened or sent; only the asking is best-effort (points never block a swap).
  const pointsQuery = input.pointsUsd
    ? validatePointsEstimate(ctx, {
        user: input.signer.address,
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
    let estimate: TransferPoints = { points: null, pointsError: null };
    if (pointsQuery) {
      progress({ phase: 'estimating-points' });
      estimate = await estimatePointsForTransfer(ctx, pointsQuery);
    }
    progress({ phase: 'quoting' });
    const quote = await quoteSwap(ctx, params);
    checkSwapFloor(floor, quote);
    const transaction = await withCompanionFailures(() =>
      sendPreparedTransaction({
        rpc,
        signer: input.signer,
        tx: quote.tx,
        ...(isNativeToken(params.tokenIn) ? {} : { approval: { token: params.tokenIn, amount: BigInt(params.amountIn) } }),
        onProgress: (p) => progress({ step: 'transaction', ...p }),
        ...(input.receiptTimeoutMs !== undefined ? { receiptTimeoutMs: input.receiptTimeoutMs } : {}),
      }),
    );
    return { params, quote, transaction, ...estimate };
  } finally {
    rpc.destroy();
  }
}
