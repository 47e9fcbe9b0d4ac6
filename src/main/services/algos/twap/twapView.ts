/**
 * A TWAP record as people read it (src/shared/ipc/twap.ts TwapView): filled of target, the average price
 * against the arrival mark, the next slice time, whether a process runs it, and each slice with its
 * fills. The app's panel and `perps twap status --json` show the same view.
 */
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import type { DamagedTwapView, TwapSliceView, TwapView } from '../../../../shared/ipc/twap.js';
import { isTerminalTwap, type TwapRecord } from './twapRecord.js';
import type { RunLockHolder } from './twapLock.js';
import type { DamagedTwap } from './twapStore.js';

const PRICE_PLACES = 8;

export interface TwapTotals {
  filled: Decimal;
  /** Volume-weighted average fill price; null before the first fill. */
  avg: Decimal | null;
}

export function twapTotals(r: TwapRecord): TwapTotals {
  let filled = new Decimal(0);
  let value = new Decimal(0);
  for (const s of r.slices) {
    const f = new Decimal(s.filled_size);
    if (f.isZero() || s.avg_fill_price === null) continue;
    filled = filled.plus(f);
    value = value.plus(f.mul(s.avg_fill_price));
  }
  return { filled, avg: filled.isZero() ? null : value.div(filled) };
}

/** (avg - arrival) / arrival in bps, signed so that positive is worse for the trader. */
export function slippageVsArrivalBps(side: 'BUY' | 'SELL', avg: Decimal, arrival: Decimal): Decimal {
  const diff = avg.minus(arrival).div(arrival).mul(10_000);
  return side === 'BUY' ? diff : diff.neg();
}

export function twapView(r: TwapRecord, runner: RunLockHolder | null): TwapView {
  const { filled, avg } = twapTotals(r);
  const interrupted = r.status === 'running' && runner === null;
  const pending = r.slices.filter((s) => s.status === 'pending');
  const running = r.status === 'running' && runner !== null;
  const slices: TwapSliceView[] = r.slices.map((s) => ({
    index: s.index,
    due_at: s.due_at,
    size: s.size,
    status: s.status,
    client_order_id: s.client_order_id,
    order_id: s.order_id,
    sent_size: s.sent_size,
    limit_price: s.limit_price,
    sent_at: s.sent_at,
    filled_size: s.filled_size,
    avg_fill_price: s.avg_fill_price,
    fills: s.fills.map((f) => ({ price: f.price, size: f.size, time: f.time })),
    reason: s.reason,
  }));
  return {
    id: r.id,
    wallet: r.wallet,
    market: r.market,
    side: r.side,
    reduce_only: r.reduce_only,
    total_size: r.total_size,
    filled_size: canonical(filled),
    remaining_size: canonical(Decimal.max(new Decimal(r.total_size).minus(filled), 0)),
    avg_fill_price: avg ? canonical(avg.toDecimalPlaces(PRICE_PLACES, Decimal.ROUND_HALF_UP)) : null,
    arrival_mark: r.arrival_mark,
    slippage_vs_arrival_bps: avg ? canonical(slippageVsArrivalBps(r.side, avg, new Decimal(r.arrival_mark)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)) : null,
    status: interrupted ? 'interrupted' : r.status,
    needs_decision: interrupted || r.status === 'paused',
    runner: runner ? { pid: runner.pid, this_process: runner.pid === process.pid } : null,
    requested: isTerminalTwap(r.status) ? null : r.requested,
    stop_reason: r.stop_reason,
    stop_detail: r.stop_detail,
    created_at: r.created_at,
    duration_ms: r.duration_ms,
    interval_ms: r.interval_ms,
    slippage_bps: r.slippage_bps,
    randomize_time_pct: r.randomize_time_pct,
    randomize_size_pct: r.randomize_size_pct,
    next_slice_at: running && pending.length > 0 ? pending[0]!.due_at : null,
    slices_total: r.slices.length,
    slices_sent: r.slices.filter((s) => s.order_id !== null || s.status === 'sending').length,
    slices_missed: r.slices.filter((s) => s.status === 'missed').length,
    slices,
    notes: [...r.notes],
    updated_at: r.updated_at,
  };
}

/** A damaged TWAP as people read it: which one it was (what could still be read), and what is wrong. */
export function damagedTwapView(d: DamagedTwap): DamagedTwapView {
  return {
    id: d.id,
    status: 'damaged',
    damage: d.reason,
    market: d.summary.market,
    side: d.summary.side,
    total_size: d.summary.total_size,
    created_at: d.summary.created_at,
    updated_at: d.changedAt,
  };
}
