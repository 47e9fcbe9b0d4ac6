/**
 * The close dialog as data: how much a close takes (a percentage of what is closeable, or an exact size,
 * rounded DOWN to the market's sz_decimals as main rounds it), whether a limit close trips the fat-finger
 * guard (a price that crosses the mark by more than the market's slippage bound executes at once: it
 * needs the person's FAR_PRICE confirmation), the position the close would leave, and the request sent
 * to positions:close. Pure functions over decimal strings, with the shared rules main applies
 * (src/shared/orders/priceGuard.ts, src/shared/protocol/riskMath.ts).
 */
import type { ConfirmationCode, IpcRequest, ListedOrderView, MarketView, PositionView, ReviewConfirmation } from '../../../../shared/ipc';
import { crossesBeyondBound, farPriceBound } from '../../../../shared/orders/priceGuard';
import { checkPrice } from '../../../../shared/protocol/marketRules';
import { positionAfterFills, type PositionAfter } from '../../../../shared/protocol/riskMath';
import { Decimal, dec, type DecimalValue } from '../../lib/decimal';

export type CloseKind = 'MARKET' | 'LIMIT';
export type SizeMode = 'percent' | 'size';

export interface CloseForm {
  kind: CloseKind;
  /** LIMIT: the limit price. */
  price: string;
  sizeMode: SizeMode;
  /** Percent of what is closeable, 1 to 100 (the presets and the slider). */
  percent: string;
  /** An exact size in the market's base unit. */
  size: string;
}

export const initialCloseForm: CloseForm = { kind: 'MARKET', price: '', sizeMode: 'percent', percent: '100', size: '' };

export const PERCENT_PRESETS = ['25', '50', '75', '100'] as const;

/** The side of the closing leg: a long closes by selling, a short by buying. */
export function closingSide(p: Pick<PositionView, 'side'>): 'BUY' | 'SELL' {
  return p.side === 'LONG' ? 'SELL' : 'BUY';
}

/** Whether armed triggers sit on the position's market (the close cancels them first). */
export function hasArmedTriggers(p: Pick<PositionView, 'market' | 'closeable_note' | 'tp' | 'sl'>, triggers: readonly Pick<ListedOrderView, 'market' | 'armed'>[]): boolean {
  return p.closeable_note !== null || p.tp !== null || p.sl !== null || triggers.some((t) => t.market === p.market && t.armed);
}

/**
 * What will be closeable once the armed triggers are gone, as main computes it: with triggers armed (they
 * hold the position: closeable 0) the size less what resting reduce-only limits reserve; otherwise the
 * service's own closeable.
 */
export function closeableBase(
  p: Pick<PositionView, 'market' | 'size' | 'closeable'>,
  triggersArmed: boolean,
  openOrders: readonly Pick<ListedOrderView, 'market' | 'reduce_only' | 'order_type' | 'status' | 'size' | 'filled_size'>[],
): DecimalValue {
  const closeable = dec(p.closeable) ?? new Decimal(0);
  if (!triggersArmed) return closeable;
  let reserved = new Decimal(0);
  for (const o of openOrders) {
    if (o.market !== p.market || !o.reduce_only || o.order_type !== 'LIMIT' || o.status !== 'open') continue;
    reserved = reserved.plus(new Decimal(o.size).minus(o.filled_size));
  }
  return Decimal.max((dec(p.size) ?? new Decimal(0)).abs().minus(reserved), 0);
}

export interface CloseCheck {
  /** The size the close takes, as main will round it; null when the input does not give one. */
  size: DecimalValue | null;
  /** The price of a limit close. */
  price: DecimalValue | null;
  errors: { size?: string; percent?: string; price?: string };
  /** A limit close that trips the far-price guard: the person must confirm it. */
  guard: ReviewConfirmation | null;
  /** The whole of what is closeable (no partial amount asked for). */
  whole: boolean;
  ok: boolean;
}

function stepOf(szDecimals: number): DecimalValue {
  return new Decimal(1).div(new Decimal(10).pow(szDecimals));
}

/**
 * The limit close's guard, worded as main words it: a price past mark x (1 -/+ slippage_bps) on the side
 * that executes at once (a sell below, a buy above).
 */
export function farCloseGuard(side: 'BUY' | 'SELL', price: DecimalValue, mark: DecimalValue | null, market: Pick<MarketView, 'slippage_bps' | 'px_decimals' | 'symbol'>): ReviewConfirmation | null {
  if (!mark || !crossesBeyondBound(side, price, mark, market.slippage_bps)) return null;
  const bound = farPriceBound(side, mark, market.slippage_bps).toDecimalPlaces(market.px_decimals, side === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
  return {
    code: 'FAR_PRICE',
    message: `the ${side} limit price ${price.toFixed()} crosses the mark ${mark.toFixed()} by more than ${market.symbol}'s slippage bound of ${market.slippage_bps} bps (${side === 'BUY' ? 'above' : 'below'} ${bound.toFixed()}): it would execute at once at the book's prices, not at ${price.toFixed()}`,
  };
}

export function checkClose(form: CloseForm, p: PositionView, market: MarketView, base: DecimalValue, mark: string | null): CloseCheck {
  const errors: CloseCheck['errors'] = {};
  const step = stepOf(market.sz_decimals);
  let size: DecimalValue | null = null;
  let whole = false;
  if (form.sizeMode === 'percent') {
    const pct = dec(form.percent);
    if (!pct) errors.percent = 'Enter a percentage';
    else if (pct.lt(1) || pct.gt(100)) errors.percent = 'From 1 to 100 %';
    else {
      whole = pct.eq(100);
      size = base.mul(pct).div(100).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_DOWN);
      if (size.lt(step)) errors.percent = `${pct.toFixed()}% of ${base.toFixed()} is less than one size step (${step.toFixed()})`;
    }
  } else {
    const asked = dec(form.size);
    if (form.size.trim() === '') errors.size = 'Enter a size';
    else if (!asked || asked.lte(0)) errors.size = 'Enter a size greater than 0';
    else {
      size = asked.toDecimalPlaces(market.sz_decimals, Decimal.ROUND_DOWN);
      if (size.lt(step)) errors.size = `Less than one size step (${step.toFixed()}) once rounded down to ${market.sz_decimals} decimals`;
      else if (size.gt(base)) errors.size = `More than the closeable ${base.toFixed()}`;
      whole = size.eq(base);
    }
  }
  let price: DecimalValue | null = null;
  let guard: ReviewConfirmation | null = null;
  if (form.kind === 'LIMIT') {
    const d = dec(form.price);
    if (form.price.trim() === '') errors.price = 'Enter a limit price';
    else if (!d || d.lte(0)) errors.price = 'Enter a price greater than 0';
    else if (checkPrice(market, d.toFixed()) !== null) errors.price = `A multiple of the tick ${market.tick_size}, at most ${market.px_decimals} decimals`;
    else {
      price = d;
      guard = farCloseGuard(closingSide(p), d, dec(mark), market);
    }
  }
  const ok = Object.values(errors).every((e) => !e) && size !== null && base.gt(0);
  return { size, price, errors, guard, whole, ok };
}

/** The positions:close request: nothing for the whole at market; percent or size for a part; price for a limit. */
export function closeRequest(market: string, form: CloseForm, check: CloseCheck, confirm: readonly ConfirmationCode[]): IpcRequest<'positions:close'> {
  return {
    market,
    ...(form.sizeMode === 'percent' && !check.whole ? { percent: form.percent.trim() } : {}),
    ...(form.sizeMode === 'size' ? { size: form.size.trim() } : {}),
    ...(form.kind === 'LIMIT' && check.price ? { price: check.price.toFixed() } : {}),
    ...(confirm.length > 0 ? { confirm: [...confirm] } : {}),
  };
}

/**
 * The position the close would leave (null: flat), when it fills: a reduce-only fill of `size` at the
 * limit price (or the mark), with the shared arithmetic main books it with. The liquidation estimate of
 * a partly closed isolated position barely moves: its margin is released in proportion.
 */
export function positionAfterClose(p: PositionView, market: MarketView, size: DecimalValue, price: DecimalValue | null, mark: string | null): PositionAfter | null {
  const at = price ?? dec(mark) ?? dec(p.entry_price)!;
  return positionAfterFills(p, [{ side: closingSide(p), size, price: at, leverage: 0, reduce_only: true }], market);
}
