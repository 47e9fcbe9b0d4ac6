/**
 * Configuration of the simulator's companion services (bridge, points, aggregator, inference, chain RPC).
 *
 * Everything here is plain JSON so a simulator profile can be saved, diffed and overridden. Amounts are
 * decimal or integer strings (never floats); chain, token and protocol ids follow the spec's neutral ids.
 * Token addresses marked "synthetic" are derived from a label: the simulator needs stable, distinct
 * addresses, not real deployments, and clients must read them from quotes rather than hardcode them.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { z } from 'zod';
import { DECIMAL_TEXT } from '../../shared/decimal/decimal.js';
import { BRIDGE_CHAIN_IDS, BRIDGE_PROTOCOL_IDS, NATIVE_TOKEN_PLACEHOLDER, type BridgeChainId, type BridgeProtocolId } from '../../shared/protocol/index.js';

// The spec's chain ids, protocol ids and native placeholder come from src/shared, as the client's do.
export const CHAIN_IDS = BRIDGE_CHAIN_IDS;
export type ChainId = BridgeChainId;
export const PROTOCOL_IDS = BRIDGE_PROTOCOL_IDS;
export type ProtocolId = BridgeProtocolId;
export const NATIVE_TOKEN = NATIVE_TOKEN_PLACEHOLDER;

const decimalString = z.string().regex(DECIMAL_TEXT, 'expected a non-negative decimal string');
const integerString = z.string().regex(/^(0|[1-9]\d*)$/, 'expected a non-negative integer string');
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an EVM address');

const chainSchema = z.strictObject({
  id: z.enum(CHAIN_IDS),
  /** EIP-155 chain id; null for the venue's non-EVM spot layer (venue_core), which has no RPC here. */
  evmChainId: z.number().int().positive().nullable(),
  nativeSymbol: z.string().min(1),
  /** Constant base fee of the simulated chain, in wei (the sim has no congestion model). */
  baseFeeWei: integerString,
  /** Tip suggested by eth_maxPriorityFeePerGas, in wei. */
  priorityFeeWei: integerString,
  blockTimeMs: z.number().int().positive(),
  /** Height of the chain when the simulator starts, so block numbers look like the real chain's. */
  startBlock: z.number().int().nonnegative(),
  /** Contract that encoded bridge transactions are sent to on this chain (null where bridging from it is not offered). */
  bridgeRouter: evmAddress.nullable(),
  /** Contract that aggregator swap transactions are sent to (null where the aggregator does not serve the chain). */
  aggregatorRouter: evmAddress.nullable(),
});
export type ChainConfig = z.infer<typeof chainSchema>;

const tokenSchema = z.strictObject({
  chain: z.enum(CHAIN_IDS),
  /** EVM address (NATIVE_TOKEN for the gas token); on venue_core the venue spot token id (0x + 32 hex). */
  address: z.string().regex(/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{32})$/),
  symbol: z.string().min(1),
  /** Underlying asset, so ETH and WETH (or USDC on two chains) are recognised as the same value. */
  asset: z.string().min(1),
  kind: z.enum(['native', 'wrapped', 'stable', 'erc20']),
  decimals: z.number().int().min(0).max(36),
  usdPrice: decimalString,
});
export type TokenConfig = z.infer<typeof tokenSchema>;

const protocolSchema = z.strictObject({
  id: z.enum(PROTOCOL_IDS),
  name: z.string().min(1),
  /** Proportional fee in basis points of the value moved. */
  feeBps: z.number().int().min(0).max(10_000),
  /** Flat fee in USD (destination gas, relayer cost). */
  fixedFeeUsd: decimalString,
  /** Typical time from source transaction to settlement, in seconds of SimClock time. */
  etaSeconds: z.number().int().nonnegative(),
  /** Liquidity depth used for price impact when the route changes asset. */
  depthUsd: decimalString,
  /** Optional bounds of the source value in USD where the protocol quotes. */
  minUsd: decimalString.nullable(),
  maxUsd: decimalString.nullable(),
});
export type ProtocolConfig = z.infer<typeof protocolSchema>;

const partnerSchema = z.strictObject({
  code: z.string().min(1),
  /** Partner bonus as basis points of the base points. */
  bonusBps: z.number().int().min(1).max(100_000),
});
export type PartnerConfig = z.infer<typeof partnerSchema>;

const balanceSchema = z.strictObject({
  chain: z.enum(CHAIN_IDS),
  address: evmAddress,
  /** Smallest units (wei for the native token). */
  amount: integerString,
  /** ERC-20 address; omitted for the native token. */
  token: evmAddress.optional(),
});

const inferenceModelSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(['chat', 'video']),
  ownedBy: z.string().min(1),
  hosts: z.array(z.string().min(1)).min(1),
  /** Chat: USD per million prompt / completion tokens. */
  inputPerMTok: decimalString,
  outputPerMTok: decimalString,
  contextTokens: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  /** Used for the balance reservation when a request gives no max_tokens. */
  defaultMaxTokens: z.number().int().positive(),
  vision: z.boolean(),
  /** Video: USD per second of video, render time per second of video, longest clip. */
  usdPerSecond: decimalString,
  renderMsPerSecond: z.number().int().nonnegative(),
  maxSeconds: z.number().int().positive(),
});
export type InferenceModelConfig = z.infer<typeof inferenceModelSchema>;

const inferenceKeySchema = z.strictObject({
  key: z.string().min(8),
  /** Available balance in USD. */
  balance: decimalString,
  disabled: z.boolean(),
  /** USD that may be spent per spending period; null for no limit. */
  spendingLimit: decimalString.nullable(),
});
export type InferenceKeyConfig = z.infer<typeof inferenceKeySchema>;

const rateLimitSchema = z.strictObject({ max: z.number().int().positive(), windowMs: z.number().int().positive() });

export const companionConfigSchema = z.strictObject({
  chains: z.array(chainSchema).min(1),
  tokens: z.array(tokenSchema).min(1),
  protocols: z.array(protocolSchema).min(1),
  partners: z.array(partnerSchema),
  points: z.strictObject({
    /** Base points per USD of the smaller side of a swap or bridge. */
    pointsPerUsd: decimalString,
    /** Multiplier on base points when source and destination chains differ. */
    crossChainMultiplier: decimalString,
  }),
  bridge: z.strictObject({
    /** The spec's requestId lifetime (Limits: 30 seconds). */
    requestIdLifetimeMs: z.number().int().positive(),
    /** The spec's core-spot minimum to venue_evm (Limits: 100 USD). */
    coreSpotMinUsd: decimalString,
    defaultSlippageBps: z.number().int().min(0),
    /**
     * Largest slippage accepted. The spec sets no maximum; the default is the whole range of the unit
     * (10000 = 100%, the client's own bound), so the simulator refuses nothing a client may offer. A test
     * config can lower it to play a stricter service.
     */
    maxSlippageBps: z.number().int().min(0).max(10_000),
    /** Settlement time is etaSeconds times a random factor in [1 - jitter, 1 + jitter]. */
    etaJitter: z.number().min(0).max(0.9),
  }),
  rpc: z.strictObject({
    balances: z.array(balanceSchema),
    /** When true, ERC-20 sources need an approve() to the router first, as on a real chain. */
    enforceErc20Allowance: z.boolean(),
  }),
  aggregator: z.strictObject({
    feeBps: z.number().int().min(0).max(10_000),
    /** Largest slippage fraction accepted. */
    maxSlippage: decimalString,
    /** Swap transactions carry a deadline this many seconds after the quote. */
    deadlineSeconds: z.number().int().positive(),
    depthUsd: decimalString,
  }),
  inference: z.strictObject({
    keys: z.array(inferenceKeySchema),
    models: z.array(inferenceModelSchema).min(1),
    rateLimit: rateLimitSchema,
    spendingPeriodMs: z.number().int().positive(),
    maxMessages: z.number().int().positive(),
    maxRequestChars: z.number().int().positive(),
  }),
});

export type CompanionConfig = z.infer<typeof companionConfigSchema>;

/** Overrides: each section replaces its default; object sections merge one level, arrays replace whole. */
export interface CompanionConfigOverrides {
  chains?: ChainConfig[];
  tokens?: TokenConfig[];
  protocols?: ProtocolConfig[];
  partners?: PartnerConfig[];
  points?: Partial<CompanionConfig['points']>;
  bridge?: Partial<CompanionConfig['bridge']>;
  rpc?: Partial<CompanionConfig['rpc']>;
  aggregator?: Partial<CompanionConfig['aggregator']>;
  inference?: Partial<CompanionConfig['inference']>;
}

/** A stable, checksummed address derived from a label (used for contracts and tokens with no real deployment here). */
export function syntheticAddress(label: string): string {
  return getAddress('0x' + keccak256(toUtf8Bytes(label)).slice(-40));
}

/** A venue spot token id (16 bytes) derived from a label; the format mirrors the venue's spot metadata ids. */
function syntheticTokenId(label: string): string {
  return '0x' + keccak256(toUtf8Bytes(label)).slice(2, 34);
}

function evmChain(id: ChainId, evmChainId: number, nativeSymbol: string, baseFeeWei: string, priorityFeeWei: string, blockTimeMs: number, startBlock: number, aggregator: boolean): ChainConfig {
  return {
    id,
    evmChainId,
    nativeSymbol,
    baseFeeWei,
    priorityFeeWei,
    blockTimeMs,
    startBlock,
    bridgeRouter: syntheticAddress(`sim-bridge-router:${id}`),
    aggregatorRouter: aggregator ? syntheticAddress(`sim-aggregator-router:${id}`) : null,
  };
}

function token(chain: ChainId, address: string, symbol: string, asset: string, kind: TokenConfig['kind'], decimals: number, usdPrice: string): TokenConfig {
  return { chain, address, symbol, asset, kind, decimals, usdPrice };
}

function protocol(id: ProtocolId, name: string, feeBps: number, fixedFeeUsd: string, etaSeconds: number, depthUsd: string, minUsd: string | null = null, maxUsd: string | null = null): ProtocolConfig {
  return { id, name, feeBps, fixedFeeUsd, etaSeconds, depthUsd, minUsd, maxUsd };
}

export function defaultCompanionConfig(): CompanionConfig {
  const eth = '3000';
  const ethChains: ChainId[] = ['ethereum', 'arbitrum', 'optimism', 'base', 'unichain'];
  const tokens: TokenConfig[] = [];
  for (const c of ethChains) tokens.push(token(c, NATIVE_TOKEN, 'ETH', 'ETH', 'native', 18, eth));
  tokens.push(
    // Real mainnet addresses for the best-known tokens, synthetic ones elsewhere.
    token('ethereum', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USDC', 'USDC', 'stable', 6, '1'),
    token('ethereum', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'USDT', 'USDT', 'stable', 6, '1'),
    token('ethereum', '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'WETH', 'ETH', 'wrapped', 18, eth),
    token('arbitrum', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 'USDC', 'USDC', 'stable', 6, '1'),
    token('arbitrum', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 'WETH', 'ETH', 'wrapped', 18, eth),
    token('arbitrum', syntheticAddress('sim-token:arbitrum:USDT0'), 'USDT0', 'USDT', 'stable', 6, '1'),
    token('optimism', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 'USDC', 'stable', 6, '1'),
    token('optimism', '0x4200000000000000000000000000000000000006', 'WETH', 'ETH', 'wrapped', 18, eth),
    token('base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 'USDC', 'stable', 6, '1'),
    token('base', '0x4200000000000000000000000000000000000006', 'WETH', 'ETH', 'wrapped', 18, eth),
    token('unichain', syntheticAddress('sim-token:unichain:USDC'), 'USDC', 'USDC', 'stable', 6, '1'),
    token('unichain', '0x4200000000000000000000000000000000000006', 'WETH', 'ETH', 'wrapped', 18, eth),
    token('flare', NATIVE_TOKEN, 'FLR', 'FLR', 'native', 18, '0.02'),
    token('flare', syntheticAddress('sim-token:flare:WFLR'), 'WFLR', 'FLR', 'wrapped', 18, '0.02'),
    token('flare', syntheticAddress('sim-token:flare:USDT0'), 'USDT0', 'USDT', 'stable', 6, '1'),
    token('plasma', NATIVE_TOKEN, 'XPL', 'XPL', 'native', 18, '0.5'),
    token('plasma', syntheticAddress('sim-token:plasma:WXPL'), 'WXPL', 'XPL', 'wrapped', 18, '0.5'),
    token('plasma', syntheticAddress('sim-token:plasma:USDT0'), 'USDT0', 'USDT', 'stable', 6, '1'),
    token('venue_evm', NATIVE_TOKEN, 'HYPE', 'HYPE', 'native', 18, '40'),
    token('venue_evm', '0x5555555555555555555555555555555555555555', 'WHYPE', 'HYPE', 'wrapped', 18, '40'),
    token('venue_evm', syntheticAddress('sim-token:venue_evm:USDC'), 'USDC', 'USDC', 'stable', 6, '1'),
    token('venue_evm', syntheticAddress('sim-token:venue_evm:USDT0'), 'USDT0', 'USDT', 'stable', 6, '1'),
    // The venue's spot layer counts balances in 8-decimal wei units.
    token('venue_core', syntheticTokenId('sim-core-token:USDC'), 'USDC', 'USDC', 'stable', 8, '1'),
    token('venue_core', syntheticTokenId('sim-core-token:HYPE'), 'HYPE', 'HYPE', 'erc20', 8, '40'),
    token('venue_core', syntheticTokenId('sim-core-token:USDT0'), 'USDT0', 'USDT', 'stable', 8, '1'),
  );
  return {
    chains: [
      evmChain('ethereum', 1, 'ETH', '2000000000', '100000000', 12_000, 21_000_000, true),
      evmChain('arbitrum', 42161, 'ETH', '10000000', '0', 250, 300_000_000, true),
      evmChain('optimism', 10, 'ETH', '1000000', '1000000', 2_000, 130_000_000, true),
      evmChain('base', 8453, 'ETH', '5000000', '1000000', 2_000, 25_000_000, true),
      evmChain('unichain', 130, 'ETH', '1000000', '100000', 1_000, 10_000_000, true),
      evmChain('flare', 14, 'FLR', '25000000000', '0', 1_800, 40_000_000, false),
      evmChain('plasma', 9745, 'XPL', '1000000000', '100000000', 1_000, 2_000_000, false),
      evmChain('venue_evm', 999, 'HYPE', '100000000', '100000000', 1_000, 10_000_000, true),
      { id: 'venue_core', evmChainId: null, nativeSymbol: 'HYPE', baseFeeWei: '0', priorityFeeWei: '0', blockTimeMs: 100, startBlock: 0, bridgeRouter: null, aggregatorRouter: null },
    ],
    tokens,
    protocols: [
      protocol('rail_canonical', 'Canonical stablecoin rail', 0, '0.10', 600, '100000000'),
      protocol('rail_native_assets', 'Native asset rail', 5, '0.20', 300, '50000000'),
      protocol('rail_fast', 'Fast rail', 4, '0.05', 20, '20000000'),
      protocol('rail_size', 'Size rail', 8, '1.00', 120, '20000000', '1000'),
      protocol('rail_gas', 'Gas rail', 10, '0.02', 15, '1000000', null, '500'),
      protocol('core_bridge', 'Venue bridge', 0, '1.00', 60, '100000000'),
      protocol('core_spot_swap', 'Venue spot swap', 7, '0', 10, '5000000'),
      protocol('swap_evm', 'EVM swap', 25, '0.05', 5, '10000000'),
      protocol('swap_aggregator', 'Service aggregator', 10, '0.02', 5, '10000000'),
      protocol('swap_wrap', 'Wrap', 0, '0', 5, '1000000000'),
    ],
    partners: [
      { code: 'perpsdesk', bonusBps: 1000 },
      { code: 'alpha', bonusBps: 500 },
    ],
    points: { pointsPerUsd: '1', crossChainMultiplier: '1.5' },
    bridge: { requestIdLifetimeMs: 30_000, coreSpotMinUsd: '100', defaultSlippageBps: 100, maxSlippageBps: 10_000, etaJitter: 0.2 },
    rpc: { balances: [], enforceErc20Allowance: true },
    aggregator: { feeBps: 5, maxSlippage: '0.5', deadlineSeconds: 1_200, depthUsd: '10000000' },
    inference: {
      keys: [
        { key: 'sk-sim-default-0001', balance: '10', disabled: false, spendingLimit: null },
        { key: 'sk-sim-empty-0002', balance: '0', disabled: false, spendingLimit: null },
        { key: 'sk-sim-disabled-0003', balance: '10', disabled: true, spendingLimit: null },
      ],
      models: [
        { id: 'sim-chat-mini', kind: 'chat', ownedBy: 'sim', hosts: ['host-a', 'host-b'], inputPerMTok: '0.15', outputPerMTok: '0.60', contextTokens: 32_768, maxOutputTokens: 8_192, defaultMaxTokens: 1_024, vision: false, usdPerSecond: '0', renderMsPerSecond: 0, maxSeconds: 1 },
        { id: 'sim-chat-pro', kind: 'chat', ownedBy: 'sim', hosts: ['host-c'], inputPerMTok: '3', outputPerMTok: '15', contextTokens: 131_072, maxOutputTokens: 16_384, defaultMaxTokens: 2_048, vision: true, usdPerSecond: '0', renderMsPerSecond: 0, maxSeconds: 1 },
        { id: 'sim-video-1', kind: 'video', ownedBy: 'sim', hosts: ['host-v1', 'host-v2'], inputPerMTok: '0', outputPerMTok: '0', contextTokens: 4_096, maxOutputTokens: 1, defaultMaxTokens: 1, vision: false, usdPerSecond: '0.10', renderMsPerSecond: 5_000, maxSeconds: 20 },
      ],
      rateLimit: { max: 60, windowMs: 60_000 },
      spendingPeriodMs: 86_400_000,
      maxMessages: 256,
      maxRequestChars: 400_000,
    },
  };
}

/** Applies overrides to the defaults and validates the result, including references between sections. */
export function resolveCompanionConfig(overrides: CompanionConfigOverrides | CompanionConfig | undefined): CompanionConfig {
  const base = defaultCompanionConfig();
  const o = overrides ?? {};
  const merged = {
    chains: o.chains ?? base.chains,
    tokens: o.tokens ?? base.tokens,
    protocols: o.protocols ?? base.protocols,
    partners: o.partners ?? base.partners,
    points: { ...base.points, ...o.points },
    bridge: { ...base.bridge, ...o.bridge },
    rpc: { ...base.rpc, ...o.rpc },
    aggregator: { ...base.aggregator, ...o.aggregator },
    inference: { ...base.inference, ...o.inference },
  };
  const config = companionConfigSchema.parse(merged);
  checkReferences(config);
  return config;
}

function checkReferences(config: CompanionConfig): void {
  const chains = new Map(config.chains.map((c) => [c.id, c]));
  if (chains.size !== config.chains.length) throw new Error('companion config: duplicate chain id');
  for (const t of config.tokens) {
    const chain = chains.get(t.chain);
    if (!chain) throw new Error(`companion config: token ${t.symbol} on unknown chain ${t.chain}`);
    const isTokenId = t.address.length === 34;
    if ((chain.evmChainId === null) !== isTokenId) throw new Error(`companion config: token ${t.symbol} on ${t.chain} must use ${chain.evmChainId === null ? 'a venue token id' : 'an EVM address'}`);
    if ((t.kind === 'native') !== (t.address.toLowerCase() === NATIVE_TOKEN.toLowerCase())) throw new Error(`companion config: token ${t.symbol} on ${t.chain}: only the native token uses the placeholder address`);
  }
  const seen = new Set<string>();
  for (const t of config.tokens) {
    const k = `${t.chain}:${t.address.toLowerCase()}`;
    if (seen.has(k)) throw new Error(`companion config: duplicate token ${k}`);
    seen.add(k);
  }
  for (const b of config.rpc.balances) {
    const chain = chains.get(b.chain);
    if (!chain || chain.evmChainId === null) throw new Error(`companion config: balance on non-EVM or unknown chain ${b.chain}`);
  }
  const models = new Set<string>();
  for (const m of config.inference.models) {
    if (models.has(m.id)) throw new Error(`companion config: duplicate model ${m.id}`);
    models.add(m.id);
    if (new Set(m.hosts).size !== m.hosts.length) throw new Error(`companion config: duplicate host in model ${m.id}`);
  }
  if (new Set(config.partners.map((p) => p.code)).size !== config.partners.length) throw new Error('companion config: duplicate partner code');
  if (new Set(config.protocols.map((p) => p.id)).size !== config.protocols.length) throw new Error('companion config: duplicate protocol');
}
