/**
 * The account's ledger rebuilt from the service's own records (spec: Fill, Funding payment, Deposit,
 * Withdrawal): every record becomes a dated cash event, and fills also move the position of their market.
 *
 * Cash is what the service's free balance plus posted isolated margin must add up to:
 *   + a deposit when it is credited (CONFIRMED, at credited_at; DETECTED and BELOW_MIN credit nothing)
 *   - a withdrawal from its creation (the free balance already excludes funds an in-flight withdrawal
 *     locked), + the same amount again when it is REFUNDED (at completed_at). A REJECTED one never left.
 *   + closed_pnl - fee of every fill, + every funding payment (signed: negative paid).
 *
 * Rows are de-duplicated by their identity (a page shift during a walk can repeat a row) and put in one
 * total order (time, then kind, then identity), so the pages' order never changes a figure.
 */
import { Decimal } from '../decimal/index.js';
import { RISK_PRICE_PLACES, type Deposit, type Fill, type FundingPayment, type Withdrawal } from '../protocol/index.js';
import { plausibleRecordTime, shownRecordTime } from './ranges.js';

/** A fill with the market it was read under (the spec's fill has no market: trade-history is read per market). */
export type MarketFill = Fill & { market: string };
export type MarketFunding = FundingPayment & { market: string };

export type LedgerEvent =
  | { kind: 'deposit'; time: number; key: string; amount: Decimal }
  | { kind: 'withdrawal'; time: number; key: string; amount: Decimal }
  | { kind: 'refund'; time: number; key: string; amount: Decimal }
  | { kind: 'funding'; time: number; key: string; market: string; payment: Decimal }
  | { kind: 'fill'; time: number; key: string; fill: MarketFill; delta: Decimal | null; price: Decimal; size: Decimal; fee: Decimal; pnl: Decimal };

const NO_PNL = new Decimal(0);

const RANK: Record<LedgerEvent['kind'], number> = { deposit: 0, refund: 1, withdrawal: 2, funding: 3, fill: 4 };

/** Numeric-looking ids compare as numbers (trade ids), anything else as text. */
function compareKeys(a: string, b: string): number {
  if (a.length !== b.length && /^\d+$/.test(a) && /^\d+$/.test(b)) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEvents(a: LedgerEvent, b: LedgerEvent): number {
  return a.time - b.time || RANK[a.kind] - RANK[b.kind] || compareKeys(a.key, b.key);
}

/**
 * Signed size change of a fill from its `dir` (the spec's only side information on a fill): opening a
 * long and closing a short buy, the other two sell. A flip written as one fill ("Long > Short") moves the
 * whole size. Null for a direction the desk does not know (reported, never guessed).
 */
export function fillDelta(dir: string, size: Decimal): Decimal | null {
  switch (dir.trim().toLowerCase()) {
    case 'open long':
    case 'close short':
    case 'short > long':
      return size;
    case 'open short':
    case 'close long':
    case 'long > short':
      return size.neg();
    default:
      return null;
  }
}

export interface LedgerRecords {
  fills: readonly MarketFill[];
  funding: readonly MarketFunding[];
  deposits: readonly Deposit[];
  withdrawals: readonly Withdrawal[];
}

export interface Ledger {
  events: LedgerEvent[];
  /** Records that could not be placed exactly; shown with the ledger, never dropped silently. */
  issues: string[];
}

/**
 * Every record as a dated event, de-duplicated and in one total order. With `now`, a record dated outside
 * the plausible span (ranges.ts plausibleRecordTime) is flagged in the issues and left out, so one absurd
 * date can neither stretch the window nor be booked at a time that never was.
 */
export function ledgerEvents(records: LedgerRecords, now?: number): Ledger {
  const events: LedgerEvent[] = [];
  const issues: string[] = [];
  const seen = new Set<string>();
  const once = (id: string): boolean => !seen.has(id) && !!seen.add(id);
  const dated = (what: string, time: number): boolean => {
    if (now === undefined || plausibleRecordTime(time, now)) return true;
    issues.push(`${what} is dated ${shownRecordTime(time)}, ${time > now ? 'in the future' : 'before any record can be'}: left out of the portfolio`);
    return false;
  };
  const unknownDirs = new Map<string, number>();

  for (const d of records.deposits) {
    if (d.status !== 'CONFIRMED' || !once(`d:${d.tx_hash}`)) continue;
    if (!dated(`deposit ${d.tx_hash}`, d.credited_at ?? d.detected_at)) continue;
    if (d.credited_at == null) issues.push(`deposit ${d.tx_hash} is CONFIRMED without credited_at: counted from its detection`);
    events.push({ kind: 'deposit', time: d.credited_at ?? d.detected_at, key: d.tx_hash, amount: new Decimal(d.amount) });
  }
  for (const w of records.withdrawals) {
    if (w.status === 'REJECTED' || !once(`w:${w.withdrawal_id}`)) continue;
    if (!dated(`withdrawal ${w.withdrawal_id}`, w.created_at) || (w.status === 'REFUNDED' && w.completed_at != null && !dated(`the refund of withdrawal ${w.withdrawal_id}`, w.completed_at))) continue;
    const amount = new Decimal(w.amount);
    events.push({ kind: 'withdrawal', time: w.created_at, key: w.withdrawal_id, amount });
    if (w.status === 'REFUNDED') {
      if (w.completed_at == null) issues.push(`withdrawal ${w.withdrawal_id} is REFUNDED without a time: counted as returned at its creation`);
      events.push({ kind: 'refund', time: w.completed_at ?? w.created_at, key: w.withdrawal_id, amount });
    }
  }
  for (const p of records.funding) {
    if (!once(`p:${p.market}:${p.epoch_time}`) || !dated(`the funding payment of ${p.market} at epoch ${p.epoch_time}`, p.settled_at)) continue;
    events.push({ kind: 'funding', time: p.settled_at, key: `${p.market}:${p.epoch_time}`, market: p.market, payment: new Decimal(p.payment) });
  }
  for (const f of records.fills) {
    if (!once(`f:${f.market}:${f.tid}`) || !dated(`fill ${f.tid} on ${f.market}`, f.filled_at)) continue;
    // Parsed once here: the sweep and the tallies read them again for every fill.
    const size = new Decimal(f.size);
    const delta = fillDelta(f.dir, size);
    if (delta === null) unknownDirs.set(f.dir, (unknownDirs.get(f.dir) ?? 0) + 1);
    events.push({ kind: 'fill', time: f.filled_at, key: f.tid, fill: f, delta, size, price: new Decimal(f.price), fee: new Decimal(f.fee), pnl: f.closed_pnl == null ? NO_PNL : new Decimal(f.closed_pnl) });
  }
  for (const [dir, n] of unknownDirs) issues.push(`${n} fill(s) with the direction "${dir}": their size is not in the positions`);
  events.sort(compareEvents);
  return { events, issues };
}

/** Cash effect of one event. */
export function cashEffect(e: LedgerEvent): Decimal {
  switch (e.kind) {
    case 'deposit':
    case 'refund':
      return e.amount;
    case 'withdrawal':
      return e.amount.neg();
    case 'funding':
      return e.payment;
    case 'fill':
      return e.pnl.minus(e.fee);
  }
}

/** Money moved in or out of the account (deposits - withdrawals + refunds): not PnL. */
export function flowEffect(e: LedgerEvent): Decimal | null {
  return e.kind === 'deposit' || e.kind === 'refund' ? e.amount : e.kind === 'withdrawal' ? e.amount.neg() : null;
}

export interface HeldPosition {
  /** Signed: positive long. */
  size: Decimal;
  /** Size-weighted average entry of the open part, rounded as the service books it (riskMath.ts). */
  entry: Decimal;
}

/** A position after a signed fill: adding averages the entry, reducing keeps it, crossing zero reopens at the fill price. */
export function applyFill(pos: HeldPosition | undefined, delta: Decimal, price: Decimal): HeldPosition | undefined {
  const size = pos?.size ?? new Decimal(0);
  const next = size.plus(delta);
  if (next.isZero()) return undefined;
  if (size.isZero()) return { size: next, entry: price };
  const sameWay = size.isPositive() === delta.isPositive();
  if (sameWay) return { size: next, entry: size.abs().mul(pos!.entry).plus(delta.abs().mul(price)).div(next.abs()).toDecimalPlaces(RISK_PRICE_PLACES, Decimal.ROUND_HALF_UP) };
  if (next.isPositive() === size.isPositive()) return { size: next, entry: pos!.entry };
  return { size: next, entry: price };
}

export function unrealized(pos: HeldPosition, mark: Decimal): Decimal {
  return mark.minus(pos.entry).mul(pos.size);
}
