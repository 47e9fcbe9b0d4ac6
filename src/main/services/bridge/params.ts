/**
 * The inputs of a bridge quote, checked before anything is sent: lowercase chain ids, a token reference per
 * chain (native placeholder, address, or venue token id on venue_core), an integer amount in smallest
 * units, protocols from the spec's list, an integer slippage (100 = 1%), addresses, a partner code.
 */
import { ValidationError } from '../errors.js';
import { PROTOCOL_IDS, parseChainId, parsePartnerCode, parseTokenRef, parseUnits, parseWallet } from '../chains/chainIds.js';

/** The spec's default when slippage is omitted (100 = 1%). */
export const DEFAULT_SLIPPAGE_BPS = 100;
/** 100% in the spec's unit; more would be a unit mistake, never a real tolerance. */
export const MAX_SLIPPAGE_BPS = 10_000;

/** USD value of `amount` of `token` on `chain`, as a decimal string: the caller's price source. */
export type UsdValuer = (q: { chain: string; token: string; amount: string }) => Promise<string>;

export interface BridgeQuoteInput {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  /** Integer string in the source token's smallest unit. */
  amount: string;
  /** Protocol ids to consider. */
  protocols: readonly string[];
  /** Integer, 100 = 1%; the service's default (100) when omitted. */
  slippageBps?: number;
  sender?: string;
  receiver?: string;
  /** Partner code. */
  source?: string;
  /** USD value of `amount` at the source token's value (core-spot flow to venue_evm). */
  sourceUsdValue?: string;
  /** Or a price source that values it. */
  priceSource?: UsdValuer;
}

export interface BridgeQuoteParams {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  amount: string;
  protocols: string[];
  slippageBps: number | undefined;
  sender: string | undefined;
  receiver: string | undefined;
  source: string | undefined;
}

export function parseProtocols(protocols: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of protocols) {
    const p = raw.trim();
    if (p === '') continue;
    if (!(PROTOCOL_IDS as readonly string[]).includes(p)) {
      throw new ValidationError(`unknown protocol '${p}'`, { field: 'protocols', hint: `Use the spec's ids: ${PROTOCOL_IDS.join(', ')}.` });
    }
    if (!out.includes(p)) out.push(p);
  }
  if (out.length === 0) throw new ValidationError('at least one protocol id is required', { field: 'protocols', hint: `Use the spec's ids: ${PROTOCOL_IDS.join(', ')}.` });
  return out;
}

export function parseSlippageBps(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_SLIPPAGE_BPS) {
    throw new ValidationError(`'${value}' is not a slippage: an integer from 0 to ${MAX_SLIPPAGE_BPS}, where 100 = 1%`, { field: 'slippage' });
  }
  return n;
}

export function validateQuoteInput(input: BridgeQuoteInput): BridgeQuoteParams {
  const fromChain = parseChainId(input.fromChain, 'fromChain');
  const toChain = parseChainId(input.toChain, 'toChain');
  return {
    fromChain,
    toChain,
    fromToken: parseTokenRef(input.fromToken, fromChain, 'fromToken'),
    toToken: parseTokenRef(input.toToken, toChain, 'toToken'),
    amount: parseUnits(input.amount, 'amount'),
    protocols: parseProtocols(input.protocols),
    slippageBps: parseSlippageBps(input.slippageBps),
    sender: input.sender === undefined ? undefined : parseWallet(input.sender, 'sender'),
    receiver: input.receiver === undefined ? undefined : parseWallet(input.receiver, 'receiver'),
    source: input.source === undefined ? undefined : parsePartnerCode(input.source, 'source'),
  };
}
