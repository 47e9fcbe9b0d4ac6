/**
 * An aggregator swap quote (GET {aggregator_url}/<chain>/swap) with the partner code, inputs checked first:
 * an EVM chain id, token addresses (native placeholder for the gas token), an integer amount in smallest
 * units, slippage as a fraction string (0.005 = 0.5%; this API's unit differs from the bridge's integer
 * basis points), a receiver and the partner code.
 */
import type { SwapQuote } from '../../api/companion/schemas.js';
import type { AggregatorClient } from '../../api/companion/aggregatorClient.js';
import { Decimal } from '../../../shared/decimal/index.js';
import { decimalInput } from '../decimalInput.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { parseEvmChainId, parsePartnerCode, parseTokenRef, parseUnits, parseWallet } from '../chains/chainIds.js';
import { ValidationError } from '../errors.js';

export interface SwapInput {
  chain: string;
  tokenIn: string;
  tokenOut: string;
  /** Integer string, smallest unit of tokenIn. */
  amountIn: string;
  /** Fraction as a decimal string, 0 < slippage < 1. */
  slippage: string;
  receiver: string;
  /** Partner code. */
  source: string;
}

/** Validated: canonical chain, checksummed addresses, integer amount, canonical slippage. */
export type SwapParams = SwapInput;

/** A fraction strictly between 0 and 1, kept as the typed text (canonicalised), never a float. */
export function parseSlippageFraction(value: string | undefined): string {
  const v = value ?? '';
  if (v === '') throw new ValidationError('is required', { field: 'slippage' });
  const d = decimalInput(v, 'slippage');
  if (d.lte(0) || d.gte(1)) {
    throw new ValidationError(`'${v}' is not a slippage fraction: give a value between 0 and 1 (0.005 = 0.5%)`, { field: 'slippage' });
  }
  return new Decimal(d).toFixed();
}

export function validateSwapInput(input: SwapInput): SwapParams {
  const chain = parseEvmChainId(input.chain, 'chain');
  const tokenIn = parseTokenRef(input.tokenIn, chain, 'tokenIn');
  const tokenOut = parseTokenRef(input.tokenOut, chain, 'tokenOut');
  if (tokenIn.toLowerCase() === tokenOut.toLowerCase()) throw new ValidationError('must differ from tokenIn', { field: 'tokenOut' });
  return {
    chain,
    tokenIn,
    tokenOut,
    amountIn: parseUnits(input.amountIn, 'amountIn'),
    slippage: parseSlippageFraction(input.slippage),
    receiver: parseWallet(input.receiver, 'receiver'),
    source: parsePartnerCode(input.source, 'source'),
  };
}

export async function quoteSwap(ctx: { aggregator: AggregatorClient }, params: SwapParams): Promise<SwapQuote> {
  return withCompanionFailures(() => ctx.aggregator.swap(params));
}
