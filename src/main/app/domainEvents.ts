/**
 * What happened in a session, as events: desks raise them after an action, pumps and caches react. A desk
 * never reaches into a pump (no "kick the order loop" calls from a use case); it says what it did, and
 * whoever cares listens. Delivery is synchronous and a failing listener is logged, never allowed to fail
 * the action that raised the event.
 */
import type { TrackedWithdrawalView } from '../../shared/ipc.js';
import type { TrackHint } from '../services/orders/orderTracker.js';

export type HistoryKind = 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals';

export type DomainEvent =
  /** Orders were just placed, modified or cancelled: follow these ids. */
  | { type: 'orders.submitted'; orders: { order_id: string; hint: TrackHint }[] }
  /** Orders changed in a way the order stream should look at soon (a close, a reverse). */
  | { type: 'orders.changed' }
  /** A position changed (a close, a reverse, a margin change, a fill): read /positions again soon. */
  | { type: 'positions.changed' }
  /** A withdrawal was submitted or changed. */
  | { type: 'withdrawals.changed'; withdrawal?: TrackedWithdrawalView }
  /** A trading key was authorized, renewed or revoked, or the expiry warning window changed. */
  | { type: 'keys.changed' }
  /** Something a history list shows changed: cached copies of that history are stale. */
  | { type: 'history.changed'; kinds: HistoryKind[] };

type Listener<T extends DomainEvent['type']> = (event: Extract<DomainEvent, { type: T }>) => void;

export class DomainEvents {
  private readonly listeners = new Map<DomainEvent['type'], Set<(event: DomainEvent) => void>>();

  constructor(private readonly onListenerError: (err: unknown, event: DomainEvent) => void) {}

  /** Listens to one type; returns the unsubscribe function. */
  on<T extends DomainEvent['type']>(type: T, listener: Listener<T>): () => void {
    const set = this.listeners.get(type) ?? new Set();
    const wrapped = listener as (event: DomainEvent) => void;
    set.add(wrapped);
    this.listeners.set(type, set);
    return () => set.delete(wrapped);
  }

  emit(event: DomainEvent): void {
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, event);
      }
    }
  }
}
