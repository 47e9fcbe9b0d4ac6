/**
 * Whether a position is protected, from what the service says: its armed triggers (position-triggers),
 * its order history and its fills. A take-profit or stop-loss is
 *
 *  - "armed": a whole-position (or sized) reduce-only trigger of that kind is armed on the market;
 *  - "failed": none is armed, and the newest one of that kind fired (history row `triggered`) and then
 *    ended without closing the position (`cancelled`, e.g. no_liquidity_within_limit when the mark gapped
 *    past its fire price; `rejected`; or `partially_filled_cancelled`), and since then no trigger of that
 *    kind was placed on the market and the position has not been flat;
 *  - "none": neither.
 *
 * A failed stop is the day's worst surprise: the trader believes the position is protected and it is not.
 * The history is the only place the service says so (order status vocabulary: `triggered` is list-only).
 *
 * Pure, so the app, `perps positions` and every watcher judge the same rows the same way.
 */
import { Decimal } from '../decimal/decimal.js';
import { groupOrderHistory, type OrderHistoryRow } from './orderHistory.js';

export type ProtectionState = 'armed' | 'none' | 'failed';
export type ProtectionKind = 'tp' | 'sl';

/** The history/trigger row fields this reads (ListedOrder has them all). */
export interface ProtectionOrderRow extends OrderHistoryRow {
  market: string;
  side: string;
  size: string;
  order_type: string;
  tpsl?: 'tp' | 'sl' | null | undefined;
  trigger_price?: string | null | undefined;
  parent_order_id?: string | null | undefined;
}

export interface ProtectionFill {
  size: string;
  /** "Open Long", "Close Short", ... */
  dir: string;
  filled_at: number;
}

/** A trigger that fired and did not close the position. */
export interface TriggerFailure {
  order_id: string;
  kind: ProtectionKind;
  market: string;
  trigger_price: string | null;
  /** The fire price it was bounded by: the worst price it could fill at. */
  limit_price: string;
  /** The service's reason code (no_liquidity_within_limit, ...), or the terminal status when none was given. */
  reason_code: string;
  /** For people: "no liquidity within 10%". */
  reason: string;
  /** When it ended (Unix ms). */
  at: number;
  filled_size: string;
}

export interface ArmedLevel {
  order_id: string;
  trigger_price: string | null;
  /** The worst price it fills at once fired. */
  limit_price: string;
}

export interface KindProtection {
  state: ProtectionState;
  armed: ArmedLevel | null;
  failure: TriggerFailure | null;
}

/** How far the fire price sits from the trigger, as people read it: "10%", "0.5%". */
export function toleranceText(triggerPrice: string | null | undefined, limitPrice: string): string | null {
  if (!triggerPrice) return null;
  const t = new Decimal(triggerPrice);
  if (t.lte(0)) return null;
  return `${new Decimal(limitPrice).minus(t).abs().div(t).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed()}%`;
}

function failureReason(code: string, status: string, row: ProtectionOrderRow): string {
  const within = toleranceText(row.trigger_price, row.limit_price);
  if (status === 'partially_filled_cancelled') return `filled ${row.filled_size} only; no liquidity within ${within ?? 'its bound'} for the rest`;
  if (code === 'no_liquidity_within_limit') return `no liquidity within ${within ?? 'its bound'}`;
  return `${status} (${code})`;
}

const FAILED_END = new Set(['cancelled', 'rejected', 'partially_filled_cancelled']);

/** Signed change of the position a fill made, from its dir ("Open Long" +, "Close Long" -, ...). */
function signedDelta(f: ProtectionFill): Decimal | null {
  const dir = f.dir.toLowerCase();
  const size = new Decimal(f.size).abs();
  const long = dir.includes('long');
  const short = dir.includes('short');
  if (long === short) return null;
  if (dir.includes('open')) return long ? size : size.neg();
  if (dir.includes('close')) return long ? size.neg() : size;
  return null;
}

/**
 * Whether the position was flat at some moment after `since`: walk back from the size now through the
 * fills after it; a size of zero between two fills is a closed and reopened position (the failure belonged
 * to the old one). A fill whose direction cannot be read counts as flat: better to stop saying "failed"
 * than to say it of a position it may not concern.
 */
export function wasFlatSince(currentSize: string, fills: readonly ProtectionFill[], since: number): boolean {
  let size = new Decimal(currentSize);
  const after = fills.filter((f) => f.filled_at > since).sort((a, b) => b.filled_at - a.filled_at);
  for (const f of after) {
    const delta = signedDelta(f);
    if (delta === null) return true;
    size = size.minus(delta);
    if (size.isZero()) return true;
  }
  return false;
}

/**
 * The protection of one position. `position.size` is signed; `armed` the armed triggers (any market);
 * `history` the order-history rows (any order, any market; newest first or not); `fills` the trade history.
 */
export function protectionOf(
  position: { market: string; size: string },
  armed: readonly ProtectionOrderRow[],
  history: readonly ProtectionOrderRow[],
  fills: readonly ProtectionFill[],
): Record<ProtectionKind, KindProtection> {
  const long = new Decimal(position.size).isPos();
  const closingSide = long ? 'sell' : 'buy';
  const mine = (r: ProtectionOrderRow): boolean => r.market === position.market && r.order_type === 'TRIGGER' && r.side.toLowerCase() === closingSide;
  const entries = groupOrderHistory(history.filter(mine));
  const out = {} as Record<ProtectionKind, KindProtection>;
  for (const kind of ['tp', 'sl'] as const) {
    const live = armed.find((r) => mine(r) && r.tpsl === kind && r.status === 'open' && !r.parent_order_id);
    if (live) {
      out[kind] = { state: 'armed', armed: { order_id: live.order_id, trigger_price: live.trigger_price ?? null, limit_price: live.limit_price }, failure: null };
      continue;
    }
    // The newest trigger of this kind placed on the market decides: a later one (re-armed, then removed)
    // means the trader has acted since the failure.
    const newest = entries.filter((e) => e.latest.tpsl === kind && !e.latest.parent_order_id).sort((a, b) => b.submitted_at - a.submitted_at)[0];
    const fired = newest?.changes.some((c) => c.status === 'triggered') ?? false;
    const end = newest?.changes[newest.changes.length - 1];
    if (!newest || !fired || !end || !FAILED_END.has(end.status) || wasFlatSince(position.size, fills, end.at)) {
      out[kind] = { state: 'none', armed: null, failure: null };
      continue;
    }
    const row = newest.latest;
    const code = end.reason ?? end.status;
    out[kind] = {
      state: 'failed',
      armed: null,
      failure: {
        order_id: newest.order_id,
        kind,
        market: position.market,
        trigger_price: row.trigger_price ?? null,
        limit_price: row.limit_price,
        reason_code: code,
        reason: failureReason(code, end.status, row),
        at: end.at,
        filled_size: end.filled_size,
      },
    };
  }
  return out;
}

/** "Stop failed: no liquidity within 10%" / "Take-profit failed: ...". */
export function failureHeadline(f: Pick<TriggerFailure, 'kind' | 'reason'>): string {
  return `${f.kind === 'sl' ? 'Stop' : 'Take-profit'} failed: ${f.reason}`;
}
