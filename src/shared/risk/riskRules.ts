/**
 * The pure rules of the risk limits (issue 39): the day's PnL, the drawdown from the day's peak, the room
 * each limit leaves and whether an order may go. Main gathers the figures (the service's fills, funding
 * and positions, the venue's marks); these functions only judge them, so the same answer holds in the
 * app, the command line and every algorithm.
 *
 * The one promise above all: an order that only reduces exposure (reduce-only legs, attached TP/SL legs,
 * and plain legs that shrink a position without flipping it) is never refused, by any limit or lockout,
 * so a trader can always get out.
 */
import { Decimal, canonical } from '../decimal/index.js';
import { LIMIT_LABELS, type Lockout, type RiskLimits } from './riskLimits.js';

/** A fill as the day's PnL needs it (trade-history: closed_pnl on reduce and close fills only). */
export interface PnlFill {
  filled_at: number;
  fee: string;
  closed_pnl?: string | null | undefined;
}
export interface PnlPayment {
  settled_at: number;
  payment: string;
}

/**
 * PnL since the reset: realized (closed PnL of the fills at or after the reset, less their fees), plus
 * funding settled since then, plus the open positions' unrealized PnL now.
 */
export function pnlSinceReset(dayStart: number, fills: readonly PnlFill[], payments: readonly PnlPayment[], unrealized: Decimal): Decimal {
  let pnl = unrealized;
  for (const f of fills) {
    if (f.filled_at < dayStart) continue;
    pnl = pnl.plus(f.closed_pnl ?? 0).minus(f.fee);
  }
  for (const p of payments) if (p.settled_at >= dayStart) pnl = pnl.plus(p.payment);
  return pnl;
}

/** The new peak: the higher of the day's peak so far (null: none yet this day) and equity now. */
export function nextPeak(peak: Decimal | null, equity: Decimal): Decimal {
  return peak === null || equity.gt(peak) ? equity : peak;
}

/** Drawdown from the peak in percent (0 at or above the peak; 100 when the peak is not positive and equity is below it). */
export function drawdownPct(peak: Decimal, equity: Decimal): Decimal {
  if (equity.gte(peak)) return new Decimal(0);
  if (peak.lte(0)) return new Decimal(100);
  return peak.minus(equity).div(peak).mul(100);
}

/** The account's state for the day's limits. */
export interface DayFigures {
  pnl: Decimal;
  drawdown: Decimal;
}

/** The limit a day's figures break (the daily loss first), with its words; null when none. */
export function dayBreach(limits: Pick<RiskLimits, 'daily_loss' | 'max_drawdown'>, f: DayFigures): { limit: Lockout['limit']; reason: string } | null {
  if (limits.daily_loss !== null && f.pnl.neg().gte(limits.daily_loss)) {
    return { limit: 'daily_loss', reason: `daily_loss: PnL since the reset is ${money(f.pnl)} USD, at or beyond the limit of -${limits.daily_loss} USD` };
  }
  if (limits.max_drawdown !== null && f.drawdown.gte(limits.max_drawdown)) {
    return { limit: 'max_drawdown', reason: `max_drawdown: equity is ${pct(f.drawdown)}% below the day's peak, at or beyond the limit of ${limits.max_drawdown}%` };
  }
  return null;
}

/** Room left of one limit: how much is left of how much, and whether it is under a quarter. */
export interface Room {
  limit: 'daily_loss' | 'max_drawdown';
  left: string;
  of: string;
  unit: 'USD' | '%';
  warning: boolean;
  /** "Daily loss: 38 of 100 USD left". */
  text: string;
}

/** A warning shows when less than this share of a limit is left. */
export const ROOM_WARNING_SHARE = new Decimal('0.25');

/** The room the daily-loss and drawdown limits leave (only the limits that are set). */
export function roomLeft(limits: Pick<RiskLimits, 'daily_loss' | 'max_drawdown'>, f: DayFigures): Room[] {
  const out: Room[] = [];
  if (limits.daily_loss !== null) {
    const of = new Decimal(limits.daily_loss);
    const left = Decimal.max(0, of.plus(f.pnl));
    out.push({ limit: 'daily_loss', left: money(left), of: canonical(of), unit: 'USD', warning: left.lt(of.mul(ROOM_WARNING_SHARE)), text: `Daily loss: ${money(left)} of ${canonical(of)} USD left` });
  }
  if (limits.max_drawdown !== null) {
    const of = new Decimal(limits.max_drawdown);
    const left = Decimal.max(0, of.minus(f.drawdown));
    out.push({ limit: 'max_drawdown', left: pct(left), of: canonical(of), unit: '%', warning: left.lt(of.mul(ROOM_WARNING_SHARE)), text: `Drawdown: ${pct(left)} of ${canonical(of)}% left` });
  }
  return out;
}

// ---- orders -------------------------------------------------------------------------------------------

export interface RiskLeg {
  market: string;
  side: 'BUY' | 'SELL';
  /** The leg's size (0 on a whole-position trigger). */
  size: Decimal;
  /** Its notional as the review prices it. */
  notional: Decimal;
  reduce_only: boolean;
  /** An attached TP/SL leg (closes what its entry opens). */
  attached: boolean;
  leverage: number | null;
}

export interface RiskBook {
  /** Signed position size per market (positive long). */
  positions: ReadonlyMap<string, Decimal>;
  /** Marks of the legs' markets and of every held market (position notional is valued at the mark). */
  marks: ReadonlyMap<string, Decimal>;
}

export interface OrderRiskInput {
  limits: RiskLimits;
  legs: readonly RiskLeg[];
  book: RiskBook;
  /** Orders the wallet sent in the last 60 s (the service's order-history); null when the limit is not set. */
  ordersLastMinute: number | null;
  lockout: Lockout | null;
  /** Null when neither the daily loss nor the drawdown limit is set. */
  day: DayFigures | null;
}

export type RiskVerdict =
  | { ok: true }
  | { ok: false; code: 'RISK_LOCKOUT'; until: number; message: string }
  | { ok: false; code: 'RISK_LIMIT'; limit: string; value: string; would_be: string; message: string };

const ZERO = new Decimal(0);

function signed(leg: RiskLeg): Decimal {
  return leg.side === 'BUY' ? leg.size : leg.size.neg();
}

/**
 * True when the order only reduces exposure: every leg is reduce-only or an attached TP/SL, or (a plain
 * leg) moves its market's position toward zero without crossing it, taking the legs in order.
 */
export function onlyReduces(legs: readonly RiskLeg[], positions: ReadonlyMap<string, Decimal>): boolean {
  const pos = new Map(positions);
  for (const leg of legs) {
    if (leg.reduce_only || leg.attached) continue;
    const before = pos.get(leg.market) ?? ZERO;
    const after = before.plus(signed(leg));
    if (before.isZero() || after.abs().gt(before.abs()) || (!after.isZero() && after.s !== before.s)) return false;
    pos.set(leg.market, after);
  }
  return true;
}

/** The tighter of two limits, either of which may be unset. */
function tighter(a: string | number | null | undefined, b: string | number | null | undefined): Decimal | null {
  const xs = [a, b].filter((x): x is string | number => x !== null && x !== undefined).map((x) => new Decimal(x));
  return xs.length === 0 ? null : Decimal.min(...xs);
}

function refuse(limit: string, value: Decimal | string, wouldBe: Decimal | string, what: string): RiskVerdict {
  const name = limit.replace(/^markets\.[^.]+\./, '');
  const unit = LIMIT_LABELS[name as keyof typeof LIMIT_LABELS]?.unit ?? '';
  const v = typeof value === 'string' ? value : canonical(value);
  const w = typeof wouldBe === 'string' ? wouldBe : money(wouldBe);
  return { ok: false, code: 'RISK_LIMIT', limit, value: v, would_be: w, message: `${limit}: ${what} ${w}${unit === '%' ? '%' : ` ${unit}`}, above your limit of ${v}${unit === '%' ? '%' : ` ${unit}`}` };
}

/**
 * Whether an order may go. Only-reducing orders always may. Otherwise, in this order: a lockout refuses
 * (RISK_LOCKOUT); a day already past its loss or drawdown limit refuses as a lockout would (main then
 * records the lockout); then each limit the order would break (RISK_LIMIT) names itself, its value and
 * what the order would make it.
 */
export function checkOrder(input: OrderRiskInput): RiskVerdict {
  const { limits, legs, book } = input;
  if (onlyReduces(legs, book.positions)) return { ok: true };
  if (input.lockout) return { ok: false, code: 'RISK_LOCKOUT', until: input.lockout.until, message: `opening orders are locked until ${new Date(input.lockout.until).toISOString()} (${input.lockout.reason}); reduce-only orders and closes still pass` };
  if (input.day) {
    const breach = dayBreach(limits, input.day);
    if (breach) return { ok: false, code: 'RISK_LOCKOUT', until: 0, message: breach.reason };
  }
  const opening = legs.filter((l) => !l.reduce_only && !l.attached);

  // Leverage, per leg.
  for (const leg of opening) {
    const cap = tighter(limits.max_leverage, limits.markets[leg.market]?.max_leverage);
    if (cap !== null && leg.leverage !== null && new Decimal(leg.leverage).gt(cap)) {
      const which = limits.markets[leg.market]?.max_leverage != null && new Decimal(limits.markets[leg.market]!.max_leverage!).eq(cap) ? `markets.${leg.market}.max_leverage` : 'max_leverage';
      return { ok: false, code: 'RISK_LIMIT', limit: which, value: canonical(cap), would_be: String(leg.leverage), message: `${which}: the order asks ${leg.leverage}x leverage on ${leg.market}, above your limit of ${canonical(cap)}x` };
    }
  }

  // The order's own notional.
  if (limits.max_order_notional !== null) {
    const notional = opening.reduce((s, l) => s.plus(l.notional), ZERO);
    if (notional.gt(limits.max_order_notional)) return refuse('max_order_notional', limits.max_order_notional, notional, "the order's notional would be");
  }

  // Orders per minute: the legs it sends count with those sent in the last 60 s.
  if (limits.max_orders_per_minute !== null && input.ordersLastMinute !== null) {
    const count = input.ordersLastMinute + legs.length;
    if (count > limits.max_orders_per_minute) {
      return { ok: false, code: 'RISK_LIMIT', limit: 'max_orders_per_minute', value: String(limits.max_orders_per_minute), would_be: String(count), message: `max_orders_per_minute: the order would make ${count} orders in the last minute, above your limit of ${limits.max_orders_per_minute}` };
    }
  }

  // Positions after the order fills, valued at the mark.
  const after = new Map(book.positions);
  for (const leg of legs) {
    if (leg.attached) continue;
    after.set(leg.market, (after.get(leg.market) ?? ZERO).plus(signed(leg)));
  }
  const notionalOf = (market: string, size: Decimal): Decimal => {
    const mark = book.marks.get(market);
    if (!mark) throw new Error(`no mark for ${market}: the risk check needs one`);
    return size.abs().mul(mark);
  };
  for (const market of new Set(opening.map((l) => l.market))) {
    const cap = tighter(limits.max_position_notional, limits.markets[market]?.max_position_notional);
    if (cap === null) continue;
    const before = (book.positions.get(market) ?? ZERO).abs();
    const size = after.get(market) ?? ZERO;
    if (size.abs().lte(before)) continue;
    const n = notionalOf(market, size);
    if (n.gt(cap)) {
      const which = limits.markets[market]?.max_position_notional != null && new Decimal(limits.markets[market]!.max_position_notional!).eq(cap) ? `markets.${market}.max_position_notional` : 'max_position_notional';
      return refuse(which, cap, n, `the ${market} position would be`);
    }
  }
  if (limits.max_total_notional !== null) {
    let before = ZERO;
    let total = ZERO;
    for (const [m, s] of book.positions) if (!s.isZero()) before = before.plus(notionalOf(m, s));
    for (const [m, s] of after) if (!s.isZero()) total = total.plus(notionalOf(m, s));
    if (total.gt(before) && total.gt(limits.max_total_notional)) return refuse('max_total_notional', limits.max_total_notional, total, 'the total position notional would be');
  }
  return { ok: true };
}

function money(d: Decimal): string {
  return canonical(d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
}

function pct(d: Decimal): string {
  return canonical(d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
}
