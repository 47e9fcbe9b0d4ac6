/**
 * Pause, cancel and stop, wherever the TWAP runs. The process running a TWAP holds its run lock
 * (twapLock.ts): a request from elsewhere (another terminal, the app for a command-line TWAP) is written
 * into the TWAP's file and that process acts on it before its next slice. A TWAP nobody runs (paused, or
 * interrupted by a crash or a quit) is changed here directly, under its run lock so no process starts
 * it meanwhile; a cancel or stop first settles a slice that was in flight when it was interrupted
 * (looked up, never resent), so its fills are counted.
 */
import { OperationError } from '../../errors.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { acquireRunLock, liveRunner } from './twapLock.js';
import { isTerminalTwap, sliceInFlight, withNote, type TwapRecord } from './twapRecord.js';
import { openTwapRunner, twapStoreOf, type TwapRunnerOptions } from './twapRunner.js';
import type { TwapStore } from './twapStore.js';

function finished(r: TwapRecord): OperationError {
  return new OperationError('TWAP_FINISHED', `TWAP ${r.id} is already ${r.status}${r.stop_detail ? `: ${r.stop_detail}` : ''}`);
}

/** Pauses a TWAP: asks its runner, or marks it paused when nothing runs it. */
export function pauseTwap(ctx: Pick<TradingContext, 'profile'>, id: string, store: TwapStore = twapStoreOf(ctx)): TwapRecord {
  const r = store.require(id, ctx.profile.name);
  if (isTerminalTwap(r.status)) throw finished(r);
  if (liveRunner(store.dir, id)) return store.update(id, (x) => (x.requested === 'cancel' ? x : { ...x, requested: 'pause' }));
  const lock = acquireRunLock(store.dir, id);
  try {
    return store.update(id, (x) => (x.status === 'paused' ? x : { ...x, status: 'paused', requested: null, notes: withNote(x, 'paused') }));
  } finally {
    lock.release();
  }
}

/**
 * Cancels a TWAP (`stop` for one that was interrupted: the same, recorded as stopped). Running
 * elsewhere: asked of its runner. Otherwise its in-flight slices are settled first, then what is left
 * is skipped.
 */
export async function cancelTwap(ctx: TradingContext, id: string, options: TwapRunnerOptions & { store?: TwapStore; as?: 'cancelled' | 'stopped' } = {}): Promise<TwapRecord> {
  const store = options.store ?? twapStoreOf(ctx);
  const r = store.require(id, ctx.profile.name);
  if (isTerminalTwap(r.status)) throw finished(r);
  if (liveRunner(store.dir, id)) {
    if (options.as === 'stopped') throw new OperationError('TWAP_RUNNING', `TWAP ${id} is running; stop is for an interrupted TWAP`, { hint: `Cancel it: \`perps twap cancel ${id}\`.` });
    return store.update(id, (x) => ({ ...x, requested: 'cancel' }));
  }
  const lock = acquireRunLock(store.dir, id);
  try {
    if (r.slices.some(sliceInFlight)) await openTwapRunner(ctx, id, { ...options, store }).settleInFlight();
    const status = options.as ?? 'cancelled';
    const detail = status === 'stopped' ? 'stopped after an interruption instead of resuming' : 'cancelled';
    return store.update(id, (x) => ({
      ...x,
      status,
      requested: null,
      stop_reason: status,
      stop_detail: detail,
      slices: x.slices.map((s) => (s.status === 'pending' ? { ...s, status: 'skipped' } : s)),
      notes: withNote(x, `${status}: ${detail}`),
    }));
  } finally {
    lock.release();
  }
}
