/**
 * The rules that decide when an alert fires, pure, so the app's evaluator (main, on the venue stream) and
 * `perps alert watch` decide alike.
 *
 * Threshold alerts (price, funding, PnL, liquidation distance) fire on a crossing, once per crossing:
 *  - the value must have been seen on the near side (armed) and is now at or past the level: it fires
 *    and disarms;
 *  - a value first seen already past the level does not fire (nothing was crossed): it waits;
 *  - a disarmed alert re-arms only once the value is back strictly on the near side by more than a band
 *    (hysteresis), so a mark wobbling by a tick around the level does not fire on every wobble. The band
 *    is 0.1 % of a price level, a quarter of a liquidation distance (what the liquidation warning has
 *    always used: 10 % warns, 12.5 % re-arms), and nothing for funding and PnL, whose levels are often 0
 *    (funding turning negative): those re-arm once strictly back across.
 *
 * Move alerts fire when the mark moved at least pct % (up or down) from any mark seen within the window,
 * the current one included. After a firing the window starts again from the firing mark, so a repeating
 * move alert fires again only after another full move.
 */
import { Decimal } from '../decimal/decimal.js';
import { formatDuration } from '../duration/duration.js';
import type { AlertKind, AlertRule, MoveRule, ThresholdAlertKind, ThresholdRule } from './alertRule.js';

/** Re-arm band of a price level, as a fraction of the level. */
export const PRICE_REARM_FRACTION = new Decimal('0.001');
/** Re-arm band of a liquidation distance, as a fraction of the level (the liquidation warning's 1.25x). */
export const DISTANCE_REARM_FRACTION = new Decimal('0.25');

const ABOVE: ReadonlySet<ThresholdAlertKind> = new Set(['price_above', 'funding_above', 'pnl_above']);

export function firesAbove(kind: ThresholdAlertKind): boolean {
  return ABOVE.has(kind);
}

/** How far back across the level a fired alert's value must go before it can fire again. */
export function rearmBand(rule: ThresholdRule): Decimal {
  const level = new Decimal(rule.level).abs();
  if (rule.kind === 'price_above' || rule.kind === 'price_below') return level.mul(PRICE_REARM_FRACTION);
  if (rule.kind === 'liq_distance_below') return level.mul(DISTANCE_REARM_FRACTION);
  return new Decimal(0);
}

export interface ThresholdStep {
  armed: boolean;
  fired: boolean;
}

/** One observation of a threshold alert's value. `armed` is the stored state (null: nothing seen yet). */
export function stepThreshold(rule: ThresholdRule, armed: boolean | null, value: Decimal): ThresholdStep {
  const level = new Decimal(rule.level);
  const above = firesAbove(rule.kind);
  const past = above ? value.gte(level) : value.lte(level);
  if (armed === null) return { armed: !past, fired: false };
  if (armed) return past ? { armed: false, fired: true } : { armed: true, fired: false };
  const band = rearmBand(rule);
  const back = above ? value.lt(level.minus(band)) : value.gt(level.plus(band));
  return { armed: back, fired: false };
}

interface Sample {
  at: number;
  price: Decimal;
}

/**
 * The marks of a move alert's window, with the highest and lowest at hand: two monotonic queues, so each
 * mark costs O(1) amortized whatever the window holds. Only the extremes matter: the largest move to a
 * price p from any earlier mark r, |p - r| / r, is from the highest r (a drop) or the lowest (a rise).
 */
export class MoveWindow {
  /** Decreasing prices (front: the highest in the window). */
  private readonly highs: Sample[] = [];
  /** Increasing prices (front: the lowest in the window). */
  private readonly lows: Sample[] = [];

  constructor(readonly windowMs: number) {}

  push(at: number, price: Decimal): void {
    while (this.highs.length > 0 && this.highs[this.highs.length - 1]!.price.lte(price)) this.highs.pop();
    this.highs.push({ at, price });
    while (this.lows.length > 0 && this.lows[this.lows.length - 1]!.price.gte(price)) this.lows.pop();
    this.lows.push({ at, price });
    const cutoff = at - this.windowMs;
    while (this.highs[0]!.at < cutoff) this.highs.shift();
    while (this.lows[0]!.at < cutoff) this.lows.shift();
  }

  /** The mark within the window farthest (relatively) from `price`, and that move as a fraction. */
  largestMoveTo(price: Decimal): { from: Decimal; fraction: Decimal } {
    const high = this.highs[0]?.price ?? price;
    const low = this.lows[0]?.price ?? price;
    const drop = high.minus(price).div(high);
    const rise = price.minus(low).div(low);
    return drop.gte(rise) ? { from: high, fraction: drop } : { from: low, fraction: rise };
  }

  /** Forgets everything but (at, price). */
  reset(at: number, price: Decimal): void {
    this.highs.length = 0;
    this.lows.length = 0;
    this.push(at, price);
  }
}

export interface MoveStep {
  fired: boolean;
  /** The mark the move is measured from, and the move in percent (signed: negative is a drop). */
  from: Decimal;
  movePct: Decimal;
}

/** One mark of a move alert. */
export function stepMove(rule: MoveRule, window: MoveWindow, at: number, price: Decimal): MoveStep {
  window.push(at, price);
  const { from, fraction } = window.largestMoveTo(price);
  const movePct = price.minus(from).div(from).mul(100);
  if (fraction.mul(100).lt(new Decimal(rule.pct))) return { fired: false, from, movePct };
  window.reset(at, price);
  return { fired: true, from, movePct };
}

const WHAT: Record<AlertKind, string> = {
  price_above: 'mark',
  price_below: 'mark',
  funding_above: 'funding rate',
  funding_below: 'funding rate',
  pnl_above: 'unrealized PnL',
  pnl_below: 'unrealized PnL',
  liq_distance_below: 'distance to liquidation',
  move: 'mark',
};

/** "ETH mark above 3500", "BTC funding rate below -0.0001", "ETH mark moves 2% within 5m": what the alert watches. */
export function describeRule(market: string, rule: AlertRule): string {
  if (rule.kind === 'move') return `${market} mark moves ${rule.pct}% within ${describeWindow(rule.window_ms)}`;
  const unit = rule.kind === 'liq_distance_below' ? '%' : rule.kind === 'pnl_above' || rule.kind === 'pnl_below' ? ' USDC' : '';
  return `${market} ${WHAT[rule.kind]} ${firesAbove(rule.kind) ? 'above' : 'below'} ${rule.level}${unit}`;
}

/** 90000 -> "1m30s": the shared duration grammar's spelling, to the whole second (a stored window may have ms). */
export function describeWindow(ms: number): string {
  return formatDuration(Math.floor(ms / 1000) * 1000);
}

/** The message of a firing: what was seen against what was asked. */
export function firingMessage(market: string, rule: AlertRule, value: string, from?: string): string {
  if (rule.kind === 'move') return `${market} mark moved ${value}% (from ${from ?? '?'}) within ${describeWindow(rule.window_ms)}`;
  const unit = rule.kind === 'liq_distance_below' ? '%' : rule.kind === 'pnl_above' || rule.kind === 'pnl_below' ? ' USDC' : '';
  return `${market} ${WHAT[rule.kind]} ${value}${unit} is ${firesAbove(rule.kind) ? 'at or above' : 'at or below'} ${rule.level}${unit}`;
}
