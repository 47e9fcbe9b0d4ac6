/**
 * Preparing a TWAP: the input checked against the live market, the schedule made (src/shared/algos/twap/
 * twapSchedule.ts), and what a person reviews before it starts. Nothing is sent.
 *
 *  - every slice must be worth min_order_value at the price it would be bounded by now (reduce-only
 *    TWAPs are exempt); otherwise the error names the smallest slice;
 *  - an opening TWAP must be payable as a whole: the margin and taker fees of the total at the mark,
 *    against the free balance (INSUFFICIENT_BALANCE otherwise); a reduce-only one needs a position on the
 *    side it reduces, and is warned when the total is larger than that position (it stops once flat);
 *  - the total notional above the user's cap is LARGE_ORDER: refused unless allowed (the app's review
 *    asks, the command line needs --allow-large), as for a single order;
 *  - the first slice is prepared exactly as it would be sent now (typed data, bound from the mark, every
 *    order rule, the trading key): the review shows it, and --dry-run prints it.
 */
import { randomInt } from 'node:crypto';
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import type { TwapPlanView } from '../../../../shared/ipc/twap.js';
import { exceedsNotionalCap } from '../../../../shared/orders/priceGuard.js';
import type { ReviewConfirmation } from '../../../../shared/orders/review.js';
import { feeEstimate, feeRateOf, initialMargin, orderNotional, type Market, type Side } from '../../../../shared/protocol/index.js';
import { TwapScheduleError, twapInterval, twapSchedule, type PlannedSlice } from '../../../../shared/algos/twap/twapSchedule.js';
import { ValidationError } from '../../errors.js';
import { parseSide, type LegInput } from '../../orders/buildOrder.js';
import { readMark, walletIds, type TradingContext } from '../../orders/orderContext.js';
import { prepareLegs, type GuardAllowance, type PreparedOrder } from '../../orders/prepareOrder.js';
import { slippageBound } from '../../orders/slippage.js';
import { defaultLeverageFor, readPreferences } from '../../settings/preferences.js';

export interface TwapInput {
  wallet: string;
  market: string;
  /** buy or sell, any case. */
  side: string;
  totalSize: string;
  durationMs: number;
  slices: number;
  randomizeTimePct?: number;
  randomizeSizePct?: number;
  reduceOnly?: boolean;
  slippageBps?: number;
  leverage?: number;
  /** LARGE_ORDER on the total: let through (the app then asks for a confirmation; the CLI's --allow-large). */
  allow?: GuardAllowance;
  /** The randomization's seed (default: a random one). */
  seed?: number;
}

/** A reviewed TWAP: what starts it (twapRunner.startTwap) and what the review shows. */
export interface TwapPlan {
  readonly wallet: string;
  readonly market: Market;
  readonly side: Side;
  readonly totalSize: string;
  readonly durationMs: number;
  readonly intervalMs: number;
  readonly randomizeTimePct: number;
  readonly randomizeSizePct: number;
  readonly reduceOnly: boolean;
  readonly slippageBps: number;
  readonly leverage: number | null;
  readonly seed: number;
  readonly schedule: readonly PlannedSlice[];
  readonly arrivalMark: Decimal;
  /** The first slice prepared as it would be sent now: its review, or what --dry-run prints. */
  readonly firstSlice: PreparedOrder;
  readonly view: TwapPlanView;
}

const MONEY_PLACES = 6;

function money(d: Decimal): string {
  return canonical(d.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_HALF_UP));
}

/** A slice's leg: a MARKET IOC order whose bound comes from the mark when it is prepared. */
export function sliceLeg(p: { market: string; side: Side; reduceOnly: boolean; leverage: number | null; slippageBps: number }, size: string, clientOrderId?: string): LegInput {
  return {
    market: p.market,
    side: p.side,
    size,
    order_type: 'MARKET',
    time_in_force: 'IOC',
    reduce_only: p.reduceOnly,
    slippage_bps: p.slippageBps,
    ...(p.leverage !== null ? { leverage: p.leverage } : {}),
    ...(clientOrderId !== undefined ? { client_order_id: clientOrderId } : {}),
  };
}

export async function prepareTwap(ctx: TradingContext, input: TwapInput): Promise<TwapPlan> {
  const { wallet, accountId } = walletIds(input.wallet);
  const side = parseSide(input.side, 'twap');
  const market = await ctx.config.market(input.market);
  const reduceOnly = input.reduceOnly === true;
  const prefs = readPreferences(ctx.settings);
  const slippageBps = input.slippageBps ?? prefs.default_slippage_bps ?? market.slippage_bps;
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 5000) throw new ValidationError(`must be an integer from 0 to 5000 basis points, got ${String(slippageBps)}`, { field: 'slippage_bps' });
  const leverage = reduceOnly ? (input.leverage ?? null) : (input.leverage ?? defaultLeverageFor(prefs, market));
  if (leverage !== null && (!Number.isInteger(leverage) || leverage < 1 || leverage > market.max_leverage)) {
    throw new ValidationError(`must be an integer from 1 to ${market.max_leverage} (max_leverage of ${market.symbol}), got ${String(leverage)}`, { field: 'leverage' });
  }
  const seed = input.seed ?? randomInt(0, 2 ** 31);
  let schedule: PlannedSlice[];
  try {
    schedule = twapSchedule({
      totalSize: input.totalSize,
      slices: input.slices,
      durationMs: input.durationMs,
      szDecimals: market.sz_decimals,
      randomizeTimePct: input.randomizeTimePct ?? 0,
      randomizeSizePct: input.randomizeSizePct ?? 0,
      seed,
    });
  } catch (err) {
    if (err instanceof TwapScheduleError) throw new ValidationError(err.message, { field: err.field, code: err.errorCode, ...(err.errorHint ? { hint: err.errorHint } : {}), cause: err });
    throw err;
  }
  const totalSize = canonical(new Decimal(input.totalSize));
  const mark = await readMark(ctx, market);
  const warnings: string[] = [];

  if (!reduceOnly) {
    // The service checks size x limit_price: a SELL bound lies below the mark, so the bound is what counts.
    const bound = slippageBound(side, mark, slippageBps, market, 'slippage_bps');
    const price = side === 'SELL' ? bound : mark;
    const smallest = schedule.reduce((a, s) => (new Decimal(s.size).lt(a.size) ? s : a));
    const value = orderNotional(new Decimal(smallest.size), price);
    if (value.lt(market.min_order_value)) {
      throw new ValidationError(
        `the smallest slice, ${smallest.index + 1} of ${schedule.length} (${smallest.size}), is worth ${money(value)} USDC at ${canonical(price)}, below ${market.symbol}'s min_order_value ${market.min_order_value}`,
        { field: 'slices', code: 'TWAP_SLICE_BELOW_MIN', hint: 'Use fewer slices, a larger total or less size randomization; only reduce-only TWAPs are exempt.' },
      );
    }
  }

  const positions = (await ctx.api.positions(accountId)).positions;
  const held = new Decimal(positions.find((p) => p.market === market.symbol)?.size ?? '0');
  if (reduceOnly) {
    const reducible = side === 'SELL' ? Decimal.max(held, 0) : Decimal.max(held.neg(), 0);
    if (reducible.isZero()) {
      throw new ValidationError(`a reduce-only ${side} TWAP needs a ${side === 'SELL' ? 'long' : 'short'} ${market.symbol} position to reduce, and there is none`, {
        field: 'reduce_only',
        code: 'NO_POSITION_TO_REDUCE',
        hint: 'Drop --reduce-only to open a position, or choose the other side.',
      });
    }
    if (reducible.lt(totalSize)) warnings.push(`only ${canonical(reducible)} ${market.symbol} is open on that side: the TWAP stops once the position is closed`);
  }

  const notional = orderNotional(new Decimal(totalSize), mark);
  const confirmations: ReviewConfirmation[] = [];
  if (!reduceOnly) {
    // A TWAP against an open position first closes it (no margin); only the rest opens.
    const signed = side === 'BUY' ? new Decimal(totalSize) : new Decimal(totalSize).neg();
    const closing = !held.isZero() && held.isPos() !== signed.isPos() ? Decimal.min(held.abs(), signed.abs()) : new Decimal(0);
    const opening = orderNotional(signed.abs().minus(closing), mark);
    const required = initialMargin(opening, leverage ?? 1, market, false).plus(feeEstimate(notional, feeRateOf(market, 'taker')));
    const free = new Decimal((await ctx.api.balance(accountId)).free_balance);
    if (required.gt(free)) {
      throw new ValidationError(`the whole TWAP needs about ${money(required)} USDC of initial margin and fees at the mark ${canonical(mark)}, more than the free balance of ${canonical(free)} USDC`, {
        field: 'total_size',
        code: 'INSUFFICIENT_BALANCE',
        hint: 'Lower the total size or raise the leverage (within max_leverage), or deposit first.',
      });
    }
    const cap = prefs.max_order_notional;
    if (exceedsNotionalCap(notional, cap)) {
      confirmations.push({ code: 'LARGE_ORDER', message: `the TWAP's total notional ${money(notional)} USDC is above your cap of ${cap} USDC (setting max_order_notional)` });
      if (input.allow?.large !== true) {
        throw new ValidationError(confirmations[0]!.message, {
          field: 'total_size',
          code: 'LARGE_ORDER',
          hint: 'Lower the total. To run it anyway: --allow-large on the command line, or confirm it in the app\'s review.',
        });
      }
    }
  }

  const common = { market: market.symbol, side, reduceOnly, leverage, slippageBps };
  // Each slice is checked against the whole TWAP's confirmation, not the cap on its own.
  const firstSlice = await prepareLegs(ctx, { wallet, legs: [sliceLeg(common, schedule[0]!.size)], labels: [`slice 1/${schedule.length}`], kind: 'twap', allow: { large: true } });
  const intervalMs = twapInterval(input.durationMs, input.slices);
  const view: TwapPlanView = {
    wallet,
    market: market.symbol,
    side,
    total_size: totalSize,
    slices: schedule.length,
    duration_ms: input.durationMs,
    interval_ms: intervalMs,
    randomize_time_pct: input.randomizeTimePct ?? 0,
    randomize_size_pct: input.randomizeSizePct ?? 0,
    reduce_only: reduceOnly,
    slippage_bps: slippageBps,
    leverage,
    arrival_mark: canonical(mark),
    notional_estimate: money(notional),
    schedule: schedule.map((s) => ({ ...s })),
    first_slice: firstSlice.view,
    warnings: [...warnings, ...firstSlice.view.warnings.filter((w) => !w.startsWith('reduce-only'))],
    confirmations,
  };
  return {
    wallet,
    market,
    side,
    totalSize,
    durationMs: input.durationMs,
    intervalMs,
    randomizeTimePct: view.randomize_time_pct,
    randomizeSizePct: view.randomize_size_pct,
    reduceOnly,
    slippageBps,
    leverage,
    seed,
    schedule,
    arrivalMark: mark,
    firstSlice,
    view,
  };
}
