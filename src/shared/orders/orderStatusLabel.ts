/**
 * An order's status as a trader reads it, from the spec's fields only (status, order_type,
 * parent_order_id). The service says SUBMITTED on the order route, and `open` in every list, both for a
 * trigger armed on the position and for a bracket leg still waiting for its entry (PENDING_PARENT, "logged
 * as open in history"). Those two are told apart by `parent_order_id`, present only while the leg waits
 * and gone once it arms (spec, "Listed order" and "Status vocabulary of list reads"):
 *  - a TRIGGER `open` (or SUBMITTED) with no parent: "armed", waiting on its trigger price;
 *  - a TRIGGER `open` with a parent (or PENDING_PARENT): "awaiting entry", not armed, cannot fire;
 * every other status is the service's own word.
 */
export interface StatusSubject {
  order_type?: string | undefined;
  parent_order_id?: string | null | undefined;
}

export const ARMED_LABEL = 'armed';
export const AWAITING_ENTRY_LABEL = 'awaiting entry';

export function orderStatusLabel(status: string, o: StatusSubject): string {
  if (o.order_type !== 'TRIGGER') return status;
  if (status === 'PENDING_PARENT' || (status === 'open' && typeof o.parent_order_id === 'string' && o.parent_order_id.length > 0)) return AWAITING_ENTRY_LABEL;
  if (status === 'SUBMITTED' || status === 'open') return ARMED_LABEL;
  return status;
}
