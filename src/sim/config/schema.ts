/**
 * The simulator's configuration: the service's live configuration (what GET /markets and GET /config
 * serve, in the spec's exact shape) plus sim-only knobs (venue price model, limits the spec leaves
 * unnamed, progression delays, chaos defaults). One JSON file, validated here with messages that name
 * the bad field.
 */
import { z } from 'zod';
import { isCanonicalDecimal, isDecimalString, parseDecimal } from '../../shared/decimal/index.js';
import { isAddress } from '../../shared/identity/index.js';

const decimal = z.string().refine(isDecimalString, { message: 'expected a decimal string' });
const nonNegativeDecimal = decimal.refine((s) => !parseDecimal(s).isNegative(), { message: 'must not be negative' });
const positiveDecimal = decimal.refine((s) => parseDecimal(s).gt(0), { message: 'must be positive' });
/** Market numbers are served as sent; keep them canonical so clients can sign them back unchanged. */
const canonicalPositive = positiveDecimal.refine(isCanonicalDecimal, { message: 'must be canonical (no trailing zeros)' });
const canonicalNonNegative = nonNegativeDecimal.refine(isCanonicalDecimal, { message: 'must be canonical (no trailing zeros)' });
const ms = z.number().int().nonnegative();
const address = z.string().refine(isAddress, { message: 'expected a 0x address with a valid checksum' });

/** Per-market knobs of the venue's price model (never served by /markets). */
export const MarketSimSchema = z.strictObject({
  initial_mark: canonicalPositive,
  /** Per venue tick standard deviation of the mark, in basis points. 0 holds the mark still. */
  volatility_bps: z.number().finite().min(0),
  spread_bps: z.number().finite().min(0),
  /** Size at each synthetic book level. */
  depth_per_level: canonicalPositive,
  levels: z.number().int().min(1).max(200),
  /** Hourly funding rate, a raw fraction (may be negative). */
  funding_rate: decimal,
  /**
   * Leverage tiers by position notional, as the venue's meta.marginTables lists them: the first starts
   * at '0' with max_leverage, each later one higher with less. Absent: one tier at max_leverage.
   */
  margin_tiers: z.array(z.strictObject({ lowerBound: canonicalNonNegative, maxLeverage: z.number().int().positive() })).min(1).optional(),
});
export type MarketSim = z.infer<typeof MarketSimSchema>;

/** A market as configured: the spec's Market record plus its `sim` knobs. */
export const MarketConfigSchema = z.strictObject({
  symbol: z.string().min(1),
  venue_symbol: z.string().min(1),
  venue_asset_index: z.number().int().nonnegative(),
  max_leverage: z.number().int().positive(),
  display_max_leverage: z.number().int().positive(),
  initial_margin_ratio: canonicalPositive,
  maintenance_margin_ratio: canonicalPositive,
  maker_fee_rate: decimal.refine(isCanonicalDecimal, { message: 'must be canonical' }),
  taker_fee_rate: canonicalNonNegative,
  min_order_value: canonicalNonNegative,
  /** '0' is the no-ceiling sentinel. */
  max_notional: canonicalNonNegative,
  max_open_orders: z.number().int().positive(),
  slippage_bps: z.number().int().nonnegative(),
  tick_size: canonicalPositive,
  sz_decimals: z.number().int().min(0).max(18),
  px_decimals: z.number().int().min(0).max(18),
  only_isolated: z.boolean(),
  is_active: z.boolean(),
  sim: MarketSimSchema,
});
export type MarketConfig = z.infer<typeof MarketConfigSchema>;

const RailSchema = z.strictObject({ min_amount: canonicalNonNegative, address: address.optional() });

export const FundingConfigFileSchema = z.strictObject({
  deposit: z.object({ hypercore: RailSchema.extend({ address }), arbitrum: RailSchema }).catchall(RailSchema),
  withdrawal: z.strictObject({ min_amount: canonicalNonNegative, new_wallet_fee: canonicalNonNegative }),
  trader_share: z.number().min(0).max(1),
});

export const WithdrawalLimitsSchema = z.strictObject({
  /** Per-transaction ceiling (ABOVE_MAX); the spec gives no value. */
  max_per_tx: canonicalPositive,
  /** Rolling 24 h allowance (DAILY_LIMIT_EXCEEDED). */
  daily_limit: canonicalPositive,
  /** RATE_LIMITED after this many signed withdrawal requests per wallet within the window. */
  rate_limit_max: z.number().int().positive(),
  rate_limit_window_ms: z.number().int().positive(),
});

/**
 * Sim-time delays of every asynchronous step. The conformance suite advances the clock by these:
 * after a write, advancing by `settle_ms()` of the relevant path is always enough.
 */
export const TimingsSchema = z.strictObject({
  /** SUBMITTED -> ACCEPTED (or REJECTED post_only_would_take) for a submitted leg. */
  order_accept_ms: ms,
  /** ACCEPTED -> EXECUTING (fills computed) for a marketable order. */
  order_execute_ms: ms,
  /** EXECUTING -> FILLED / PARTIALLY_FILLED_CANCELLED. */
  order_settle_ms: ms,
  /** A fired trigger: SUBMITTED -> ACCEPTED after the mark crosses. */
  trigger_fire_ms: ms,
  /** Cancel request -> CANCELLED. */
  cancel_ms: ms,
  /** Modify request -> old order terminated, new order live. */
  modify_ms: ms,
  /** Fill -> visible on /positions (and bracket legs arm at that moment). */
  position_lag_ms: ms,
  /** Margin request SUBMITTED -> APPLIED/REJECTED. */
  margin_apply_ms: ms,
  /** Deposit DETECTED -> CONFIRMED (credited). */
  deposit_confirm_ms: ms,
  /** Withdrawal REQUESTED -> ACCEPTED (balance check at this step). */
  withdrawal_accept_ms: ms,
  /** Withdrawal ACCEPTED -> PROCESSING (multi-signature review). */
  withdrawal_review_ms: ms,
  /** Withdrawal PROCESSING -> COMPLETED. */
  withdrawal_complete_ms: ms,
  /** Venue mark walk step. */
  venue_tick_ms: z.number().int().positive(),
});
export type Timings = z.infer<typeof TimingsSchema>;

export const ChaosSchema = z.strictObject({
  /** Probability a trading-API request answers 500 INTERNAL_ERROR without being processed. */
  error_rate: z.number().min(0).max(1),
  /** Wall-clock delay added to every trading-API answer; at most a minute, past any client's timeout. */
  latency_ms: ms.max(60_000),
  /** How long new orders and margin requests read 404 after they were accepted; at most an hour. */
  persist_lag_ms: ms.max(3_600_000),
  /** Probability a trading-API request is processed and then its connection destroyed without an answer. */
  drop_rate: z.number().min(0).max(1),
});
export type ChaosSettings = z.infer<typeof ChaosSchema>;

/**
 * How much of each account's past the simulator keeps. By default everything: the state file holds all
 * of it, and memory holds it compactly (history rows reduced to what differs from their order, nonces as
 * numbers). A number keeps only the newest that many order-history rows, fills and funding payments per
 * account (each); older ones leave memory and the next state file, and an order whose last history row
 * left is forgotten (GET /orders/{id} answers 404). Nonces and client order ids are always kept: they
 * are what refuses a replay.
 */
export const RetentionSchema = z.strictObject({
  rows_per_account: z.number().int().min(100).nullable(),
});
export type Retention = z.infer<typeof RetentionSchema>;

/**
 * Bounds of the control API's numeric inputs (POST /sim/*, never served to clients). The control API
 * has no signature, so these keep a typo or a runaway script from minting without limit, moving a
 * mark where no arithmetic stays meaningful, or stalling the simulator (and the app it runs in) with
 * one advance. A value over its bound is refused with a 400 naming the field and the range.
 */
export const ControlLimitsSchema = z.strictObject({
  /** Most USDC one POST /sim/deposit may credit. */
  max_deposit: canonicalPositive,
  /** Highest mark POST /sim/mark may set, on every market. */
  max_mark: canonicalPositive,
  /** Largest hourly funding rate (either sign) POST /sim/funding-rate may set, a raw fraction. */
  max_funding_rate: canonicalPositive,
  /** Longest span one POST /sim/advance may move the clock; a longer one takes several calls. */
  max_advance_ms: z.number().int().positive(),
});
export type ControlLimits = z.infer<typeof ControlLimitsSchema>;

export const ENVIRONMENTS = ['Testnet', 'Mainnet'] as const;

export const SimConfigSchema = z
  .strictObject({
    /** The service environment the sim pretends to be. Testnet by default so sim signatures never replay on mainnet. */
    environment: z.enum(ENVIRONMENTS),
    /** Pinned chainId of trading actions; defaults from the environment (998 testnet, 999 mainnet). */
    trading_chain_id: z.number().int().positive().optional(),
    /** destination_chain_id of the Arbitrum withdrawal rail; defaults from the environment (421614 / 42161). */
    arbitrum_chain_id: z.number().int().positive().optional(),
    markets: z.array(MarketConfigSchema).min(1),
    funding_config: FundingConfigFileSchema,
    withdrawal_limits: WithdrawalLimitsSchema,
    keys: z.strictObject({ max_lifetime_days: z.number().int().positive() }),
    timings: TimingsSchema,
    chaos: ChaosSchema,
    control_limits: ControlLimitsSchema,
    retention: RetentionSchema.default({ rows_per_account: null }),
    /** Passed to createCompanions as its config overrides. */
    companion: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((config, ctx) => {
    const symbols = new Set<string>();
    const venueSymbols = new Set<string>();
    const indexes = new Set<number>();
    config.markets.forEach((m, i) => {
      if (symbols.has(m.symbol)) ctx.addIssue({ code: 'custom', path: ['markets', i, 'symbol'], message: `duplicate symbol ${m.symbol}` });
      if (venueSymbols.has(m.venue_symbol)) ctx.addIssue({ code: 'custom', path: ['markets', i, 'venue_symbol'], message: `duplicate venue_symbol ${m.venue_symbol}` });
      if (indexes.has(m.venue_asset_index)) ctx.addIssue({ code: 'custom', path: ['markets', i, 'venue_asset_index'], message: `duplicate venue_asset_index ${m.venue_asset_index}` });
      symbols.add(m.symbol);
      venueSymbols.add(m.venue_symbol);
      indexes.add(m.venue_asset_index);
      // tick_size "binds harder than px_decimals": a tick finer than px_decimals would accept unlistable prices.
      if (parseDecimal(m.tick_size).decimalPlaces() > m.px_decimals) {
        ctx.addIssue({ code: 'custom', path: ['markets', i, 'tick_size'], message: `tick_size ${m.tick_size} has more places than px_decimals ${m.px_decimals}` });
      }
      if (parseDecimal(m.maintenance_margin_ratio).gte(parseDecimal(m.initial_margin_ratio))) {
        ctx.addIssue({ code: 'custom', path: ['markets', i, 'maintenance_margin_ratio'], message: 'must be below initial_margin_ratio' });
      }
    });
    // The venue addresses assets by position: indexes are 0..n-1.
    for (let i = 0; i < config.markets.length; i++) {
      if (!indexes.has(i)) ctx.addIssue({ code: 'custom', path: ['markets'], message: `venue_asset_index values must be 0..${config.markets.length - 1}; ${i} is missing` });
    }
  });
export type SimConfig = z.infer<typeof SimConfigSchema>;

/** The environment's chain ids, with the config's explicit overrides. */
export function chainIdsOf(config: SimConfig): { trading: number; arbitrum: number } {
  const mainnet = config.environment === 'Mainnet';
  return {
    trading: config.trading_chain_id ?? (mainnet ? 999 : 998),
    arbitrum: config.arbitrum_chain_id ?? (mainnet ? 42161 : 421614),
  };
}
