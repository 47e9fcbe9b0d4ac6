/**
 * Validation of GET {bridge_url}/quote. Strict where the spec is strict:
 * - required: fromChain, toChain, fromToken, toToken, amount, protocols;
 * - chain ids exactly as listed (lowercase), anything else is 400 `chain not found`;
 * - tokens are addresses (native placeholder allowed); for toChain venue_core a venue spot token id;
 * - amount is an integer string in smallest units; slippage an integer (100 = 1%), default 100;
 * - protocols a comma-separated list of known ids;
 * - core-spot flow (requested when `protocols` includes core_spot_swap, the venue-native swap leg):
 *   fromChain venue_evm, toChain venue_core or venue_evm, `source` required, and to venue_evm the amount must
 *   be worth at least 100 USD at the source token's value or no quotes are returned.
 * Messages other than `chain not found` are the simulator's own (the spec shows only that one); each names
 * the parameter.
 */
import type { ChainConfig, ProtocolId, TokenConfig } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { isUintString } from '../common/amounts.js';
import { isEvmAddress } from '../common/evm.js';
import { ParamError, optional, required } from '../common/query.js';

export interface QuoteParams {
  fromChain: ChainConfig;
  toChain: ChainConfig;
  fromToken: TokenConfig;
  toToken: TokenConfig;
  amount: bigint;
  protocols: ProtocolId[];
  slippageBps: number;
  sender: string | null;
  receiver: string | null;
  source: string | null;
  /** True when the request is a core-spot flow (see above). */
  coreSpot: boolean;
}

const REQUIRED = ['fromChain', 'toChain', 'fromToken', 'toToken', 'amount', 'protocols'] as const;

function chainParam(catalog: Catalog, q: URLSearchParams, name: string): ChainConfig {
  const chain = catalog.chain(required(q, name));
  // The spec's message for an unrecognized chain id, verbatim.
  if (!chain) throw new ParamError('chain not found');
  return chain;
}

function tokenParam(catalog: Catalog, q: URLSearchParams, name: string, chain: ChainConfig): TokenConfig {
  const v = required(q, name);
  if (chain.evmChainId === null) {
    if (!/^0x[0-9a-fA-F]{32}$/.test(v)) throw new ParamError(`invalid ${name}: ${chain.id} takes a venue spot token id`);
  } else if (!isEvmAddress(v)) {
    throw new ParamError(`invalid ${name}: expected a token address or the native placeholder`);
  }
  const token = catalog.token(chain.id, v);
  if (!token) throw new ParamError(`invalid ${name}: token not found on ${chain.id}`);
  return token;
}

export function parseQuote(catalog: Catalog, q: URLSearchParams): QuoteParams {
  for (const name of REQUIRED) required(q, name);
  const fromChain = chainParam(catalog, q, 'fromChain');
  const toChain = chainParam(catalog, q, 'toChain');
  // A source transaction is needed to bridge, and only EVM chains with a router can carry one.
  if (fromChain.evmChainId === null || fromChain.bridgeRouter === null) throw new ParamError(`invalid fromChain: ${fromChain.id} is not supported as a source chain`);
  const fromToken = tokenParam(catalog, q, 'fromToken', fromChain);
  const toToken = tokenParam(catalog, q, 'toToken', toChain);

  const amountRaw = required(q, 'amount');
  if (!isUintString(amountRaw)) throw new ParamError('invalid amount: expected an integer string in the token smallest unit');
  const amount = BigInt(amountRaw);
  if (amount === 0n) throw new ParamError('invalid amount: must be greater than 0');

  const protocols: ProtocolId[] = [];
  for (const id of required(q, 'protocols').split(',')) {
    if (id === '') throw new ParamError('invalid protocols: empty protocol id in list');
    const p = catalog.protocol(id);
    if (!p) throw new ParamError(`invalid protocols: unknown protocol ${id}`);
    if (!protocols.includes(p.id)) protocols.push(p.id);
  }

  const cfg = catalog.config.bridge;
  let slippageBps = cfg.defaultSlippageBps;
  const slippageRaw = optional(q, 'slippage');
  if (slippageRaw !== null) {
    if (!isUintString(slippageRaw)) throw new ParamError('invalid slippage: expected an integer, 100 = 1%');
    slippageBps = Number(slippageRaw);
    if (slippageBps > cfg.maxSlippageBps) throw new ParamError(`invalid slippage: at most ${cfg.maxSlippageBps}`);
  }

  const sender = optional(q, 'sender');
  if (sender !== null && !isEvmAddress(sender)) throw new ParamError('invalid sender: expected an address');
  const receiver = optional(q, 'receiver');
  if (receiver !== null && !isEvmAddress(receiver)) throw new ParamError('invalid receiver: expected an address');
  const source = optional(q, 'source');

  const coreSpot = protocols.includes('core_spot_swap');
  if (coreSpot) {
    if (fromChain.id !== 'venue_evm') throw new ParamError('invalid fromChain: the core-spot flow starts on venue_evm');
    if (toChain.id !== 'venue_core' && toChain.id !== 'venue_evm') throw new ParamError('invalid toChain: the core-spot flow ends on venue_core or venue_evm');
    if (source === null) throw new ParamError('missing required parameter: source (required for the core-spot flow)');
  }

  return { fromChain, toChain, fromToken, toToken, amount, protocols, slippageBps, sender, receiver, source, coreSpot };
}
