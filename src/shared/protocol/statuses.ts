/**
 * The two order-status vocabularies and the mapping between them ("States and transitions").
 * GET /orders/{id} speaks uppercase; list reads speak lowercase, where `open` must be told apart by
 * order_type and parent_order_id.
 */
export const ORDER_STATUSES = [
  'SUBMITTED',
  'ACCEPTED',
  'EXECUTING',
  'PENDING_MODIFY',
  'PENDING_PARENT',
  'FILLED',
  'PARTIALLY_FILLED_CANCELLED',
  'CANCELLED',
  'REJECTED',
  'FAILED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const TERMINAL_ORDER_STATUSES = ['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'] as const satisfies readonly OrderStatus[];
/** Both count as a fill. */
export const FILLED_ORDER_STATUSES = ['FILLED', 'PARTIALLY_FILLED_CANCELLED'] as const satisfies readonly OrderStatus[];

export function isTerminalOrderStatus(s: OrderStatus): boolean {
  return (TERMINAL_ORDER_STATUSES as readonly string[]).includes(s);
}

export function countsAsFill(s: OrderStatus): boolean {
  return (FILLED_ORDER_STATUSES as readonly string[]).includes(s);
}

export const LIST_STATUSES = ['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
export const TERMINAL_LIST_STATUSES = ['filled', 'partially_filled_cancelled', 'cancelled', 'rejected'] as const satisfies readonly ListStatus[];

export function isTerminalListStatus(s: ListStatus): boolean {
  return (TERMINAL_LIST_STATUSES as readonly string[]).includes(s);
}

/** What a list row's status means in the single-order vocabulary. */
export interface ListRowStatusInput {
  status: ListStatus;
  order_type: string;
  parent_order_id?: string | null | undefined;
}

/**
 * List status -> single-order status. `open` is an armed trigger (SUBMITTED), a bracket leg awaiting its
 * entry (PENDING_PARENT, when parent_order_id is present) or a resting limit (ACCEPTED). `triggered` exists
 * only in lists (the trigger fired) and has no single-order counterpart: null.
 */
export function orderStatusOfListRow(row: ListRowStatusInput): OrderStatus | null {
  switch (row.status) {
    case 'open':
      if (row.order_type === 'TRIGGER') return row.parent_order_id ? 'PENDING_PARENT' : 'SUBMITTED';
      return 'ACCEPTED';
    case 'triggered':
      return null;
    case 'filled':
      return 'FILLED';
    case 'partially_filled_cancelled':
      return 'PARTIALLY_FILLED_CANCELLED';
    case 'cancelled':
      return 'CANCELLED';
    case 'rejected':
      return 'REJECTED';
  }
}

/**
 * Single-order status -> list status. EXECUTING, PENDING_MODIFY and FAILED appear on the single-order
 * route only (null); SUBMITTED lists as `open` only for a trigger (a non-trigger SUBMITTED order is not
 * yet live at the venue and is not listed: null); a fired trigger (ACCEPTED) lists as `triggered`.
 */
export function listStatusOfOrder(status: OrderStatus, orderType: string): ListStatus | null {
  switch (status) {
    case 'SUBMITTED':
      return orderType === 'TRIGGER' ? 'open' : null;
    case 'PENDING_PARENT':
      return 'open';
    case 'ACCEPTED':
      // A trigger reaches ACCEPTED only when it fires, which lists show as `triggered`.
      return orderType === 'TRIGGER' ? 'triggered' : 'open';
    case 'EXECUTING':
    case 'PENDING_MODIFY':
    case 'FAILED':
      return null;
    case 'FILLED':
      return 'filled';
    case 'PARTIALLY_FILLED_CANCELLED':
      return 'partially_filled_cancelled';
    case 'CANCELLED':
      return 'cancelled';
    case 'REJECTED':
      return 'rejected';
  }
}

export const WITHDRAWAL_STATUSES = ['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED', 'REJECTED', 'REFUNDED', 'FAILED'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const TERMINAL_WITHDRAWAL_STATUSES = ['COMPLETED', 'REJECTED', 'REFUNDED', 'FAILED'] as const satisfies readonly WithdrawalStatus[];
export function isTerminalWithdrawalStatus(s: WithdrawalStatus): boolean {
  return (TERMINAL_WITHDRAWAL_STATUSES as readonly string[]).includes(s);
}

export const DEPOSIT_STATUSES = ['DETECTED', 'CONFIRMED', 'BELOW_MIN'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export const MARGIN_REQUEST_STATUSES = ['SUBMITTED', 'APPLIED', 'REJECTED'] as const;
export type MarginRequestStatus = (typeof MARGIN_REQUEST_STATUSES)[number];

export const BRIDGE_ORDER_STATES = ['pending', 'done', 'refunded', 'failed'] as const;
export type BridgeOrderState = (typeof BRIDGE_ORDER_STATES)[number];
