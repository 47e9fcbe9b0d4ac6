/**
 * Following a bridge order on GET /bridge/orders?src_tx= until it ends: `done` (delivered), `refunded`
 * (the full value returned, on the venue) or `failed` (wait for a retry by the operator or contact them).
 * An empty `orders` list means the service has not indexed the source transaction yet, which is normal
 * for a while after sending; polling continues. Progress is reported on every change of state.
 *
 * The wait is measured in the intervals slept, not the wall clock, so an injected sleep (tests advancing
 * a simulated clock) gives the same behaviour as a real one.
 */
import type { BridgeOrders, BridgeOrderState } from '../../../shared/protocol/index.js';
import type { SleepFn } from '../../api/retry.js';
import type { BridgeClient } from '../../api/companion/bridgeClient.js';
import { OperationError, ValidationError } from '../errors.js';
import { withCompanionFailures } from '../companion/companionFailures.js';

export type BridgeOrder = BridgeOrders['orders'][number];
/** `unseen`: not indexed yet. */
export type BridgeOutcome = BridgeOrderState | 'unseen';
export type FinalBridgeState = Exclude<BridgeOrderState, 'pending'>;

export const DEFAULT_POLL_INTERVAL_MS = 3_000;

export interface BridgeStatus {
  srcTx: string;
  state: BridgeOutcome;
  orders: BridgeOrder[];
}

export interface TrackOptions {
  pollIntervalMs?: number;
  /** Give up after waiting this long (sum of the poll intervals). Default: no limit. */
  timeoutMs?: number;
  onUpdate?: (status: BridgeStatus & { polls: number }) => void;
  signal?: AbortSignal;
}

export interface TrackDeps {
  bridge: BridgeClient;
  sleep: SleepFn;
}

export function parseSrcTx(value: string | undefined): string {
  const v = value?.trim() ?? '';
  if (!/^0x[0-9a-fA-F]{64}$/.test(v)) throw new ValidationError(`'${v}' is not a transaction hash (0x + 64 hex)`, { field: 'src-tx' });
  return v.toLowerCase();
}

/**
 * One state for all the orders of a transaction: pending while any is pending; else failed if any failed,
 * refunded if any was refunded, done when all are done.
 */
export function outcomeOf(orders: readonly BridgeOrder[]): BridgeOutcome {
  if (orders.length === 0) return 'unseen';
  const states = orders.map((o) => o.state);
  if (states.includes('pending')) return 'pending';
  if (states.includes('failed')) return 'failed';
  if (states.includes('refunded')) return 'refunded';
  return 'done';
}

export function isFinalOutcome(state: BridgeOutcome): state is FinalBridgeState {
  return state === 'done' || state === 'refunded' || state === 'failed';
}

/** The orders of `srcTx` now. */
export async function bridgeStatus(deps: Pick<TrackDeps, 'bridge'>, srcTx: string): Promise<BridgeStatus> {
  const hash = parseSrcTx(srcTx);
  const res = await withCompanionFailures(() => deps.bridge.orders(hash));
  return { srcTx: hash, state: outcomeOf(res.orders), orders: res.orders };
}

/** Polls until the orders of `srcTx` end; resolves with the final status (done, refunded or failed). */
export async function trackBridgeOrder(deps: TrackDeps, srcTx: string, options: TrackOptions = {}): Promise<BridgeStatus & { state: FinalBridgeState }> {
  const interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  let waited = 0;
  let polls = 0;
  let last: BridgeOutcome | null = null;
  for (;;) {
    const status = await bridgeStatus(deps, srcTx);
    polls++;
    if (status.state !== last) {
      last = status.state;
      options.onUpdate?.({ ...status, polls });
    }
    if (isFinalOutcome(status.state)) return { ...status, state: status.state };
    if (options.timeoutMs !== undefined && waited >= options.timeoutMs) {
      throw new OperationError('TRACK_TIMEOUT', `the bridge order of ${status.srcTx} is still ${status.state} after ${Math.round(waited / 1000)} s`, {
        hint: `It may still complete: run \`perps bridge track --src-tx ${status.srcTx} --wait\` later.`,
        details: { src_tx: status.srcTx, state: status.state },
      });
    }
    await deps.sleep(interval, options.signal);
    waited += interval;
  }
}

/** An unsuccessful final state as an OperationError (the command's exit 1), with what to do. */
export function unsuccessfulBridgeError(status: BridgeStatus): OperationError {
  const hint =
    status.state === 'refunded'
      ? 'The full value was returned (refunds land on the venue, whatever the destination chain): check the venue balance.'
      : 'The order failed: wait for a retry by the operator, or contact them with the source transaction hash.';
  return new OperationError(`BRIDGE_${status.state.toUpperCase()}`, `the bridge order of ${status.srcTx} ended ${status.state}`, { hint, details: { src_tx: status.srcTx, state: status.state } });
}
