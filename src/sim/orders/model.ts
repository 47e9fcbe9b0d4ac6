/**
 * Facts about an order that several parts need: how much is left, which way a trigger fires, whether
 * it counts toward max_open_orders, whether it is armed.
 */
import { toChecksumAddress } from '../../shared/identity/index.js';
import type { Side } from '../../shared/protocol/index.js';
import { d, type Decimal } from '../core/numbers.js';
import type { OrderTrigger, SimOrder } from '../state/model.js';

export function remaining(order: SimOrder): Decimal {
  return d(order.size).minus(order.filled_size);
}

export function isTrigger(order: SimOrder): boolean {
  return order.order_type === 'TRIGGER';
}

/** An armed trigger: SUBMITTED, waiting for the mark (not a bracket leg still awaiting its entry). */
export function isArmedTrigger(order: SimOrder): boolean {
  return order.order_type === 'TRIGGER' && order.status === 'SUBMITTED';
}

/** A resting (or about to rest) limit order: GTC or ALO, not yet executing or terminal. */
export function isRestingLimit(order: SimOrder): boolean {
  return order.order_type === 'LIMIT' && order.time_in_force !== 'IOC' && (order.status === 'SUBMITTED' || order.status === 'ACCEPTED');
}

/**
 * Counts toward max_open_orders: resting limits (including ones not yet live at the venue), armed
 * triggers and bracket legs awaiting their entry. A PENDING_MODIFY replacement does not count twice:
 * the order it replaces still counts until it terminates.
 */
export function countsTowardCap(order: SimOrder): boolean {
  return order.status === 'PENDING_PARENT' || isArmedTrigger(order) || isRestingLimit(order);
}

/**
 * Which way the mark must move for a trigger to fire. SL fires when the mark moves against the
 * position the order closes, TP when it moves in favour: a SELL closes a long (TP up, SL down), a BUY
 * closes a short (TP down, SL up).
 */
export function triggerDirection(side: Side, trigger: OrderTrigger): 'up' | 'down' {
  if (side === 'SELL') return trigger.tpsl === 'TP' ? 'up' : 'down';
  return trigger.tpsl === 'TP' ? 'down' : 'up';
}

/** True when the mark is at or past the trigger price on the fire side (it fires, or would fire at once). */
export function triggerCrossed(side: Side, trigger: OrderTrigger, mark: Decimal): boolean {
  const price = d(trigger.trigger_price);
  return triggerDirection(side, trigger) === 'up' ? mark.gte(price) : mark.lte(price);
}

export function walletChecksum(wallet: string): string {
  return toChecksumAddress(wallet);
}

export function oppositeSide(side: Side): Side {
  return side === 'BUY' ? 'SELL' : 'BUY';
}
