/**
 * An aggregator swap from the main wallet: inputs checked, the chain's RPC opened and checked, points
 * estimated when the caller gave USD values, the swap quoted with the partner code, then (an ERC-20 approve
 * to the swap's target when the allowance is short and) the swap transaction signed by the wallet's
 * transaction signer, sent through the chain's JSON-RPC and followed to its receipt, like a bridge.
 */
import type { SwapQuote } from '../../api/companion/schemas.js';
import type { TransactionSigner } from '../../signers/transactions/transactionSigner.js';
import type { CompanionContext } from '../companion/companionContext.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { isNativeToken } from '../chains/chainIds.js';
import { sendPreparedTransaction, type SendProgress, type SentTransaction } from '../chains/sendTransaction.js';
import { estimatePoints, type PointsEstimateResult } from '../points/estimate.js';
import { quoteSwap, validateSwapInput, type SwapInput, type SwapParams } from './quote.js';

export type SwapProgress = { phase: 'estimating-points' } | { phase: 'quoting' } | ({ step: 'transaction' } & SendProgress);

export interface SwapExecuteInput extends Omit<SwapInput, 'receiver'> {
  signer: TransactionSigner;
  /** Default: the signer's wallet. */
  receiver?: string;
  pointsUsd?: { src: string; dst: string };
  onProgress?: (p: SwapProgress) => void;
  receiptTimeoutMs?: number;
}

export interface SwapResult {
  params: SwapParams;
  quote: SwapQuote;
  transaction: SentTransaction;
  points: PointsEstimateResult | null;
}

export async function executeSwap(ctx: CompanionContext, input: SwapExecuteInput): Promise<SwapResult> {
  const progress = input.onProgress ?? (() => undefined);
  const params = validateSwapInput({ ...input, receiver: input.receiver ?? input.signer.address });
  const rpc = await ctx.rpc(params.chain);
  try {
    let points: PointsEstimateResult | null = null;
    if (input.pointsUsd) {
      progress({ phase: 'estimating-points' });
      points = await estimatePoints(ctx, {
        user: input.signer.address,
        srcChain: params.chain,
        dstChain: params.chain,
        srcToken: params.tokenIn,
        dstToken: params.tokenOut,
        srcUsd: input.pointsUsd.src,
        dstUsd: input.pointsUsd.dst,
        source: params.source,
      });
    }
    progress({ phase: 'quoting' });
    const quote = await quoteSwap(ctx, params);
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
    return { params, quote, transaction, points };
  } finally {
    rpc.destroy();
  }
}
