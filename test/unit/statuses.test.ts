/** The two status vocabularies and their mapping ("States and transitions"). */
import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES,
  countsAsFill,
  isTerminalListStatus,
  isTerminalOrderStatus,
  listStatusOfOrder,
  orderStatusOfListRow,
} from '../../src/shared/protocol/index.js';

describe('order status vocabularies', () => {
  it('tells `open` apart by order_type and parent_order_id', () => {
    expect(orderStatusOfListRow({ status: 'open', order_type: 'TRIGGER' })).toBe('SUBMITTED');
    expect(orderStatusOfListRow({ status: 'open', order_type: 'TRIGGER', parent_order_id: 'o-1' })).toBe('PENDING_PARENT');
    expect(orderStatusOfListRow({ status: 'open', order_type: 'LIMIT' })).toBe('ACCEPTED');
    expect(orderStatusOfListRow({ status: 'open', order_type: 'LIMIT', parent_order_id: null })).toBe('ACCEPTED');
  });

  it('maps `triggered` to no single-order status (list-only)', () => {
    expect(orderStatusOfListRow({ status: 'triggered', order_type: 'TRIGGER' })).toBeNull();
  });

  it('maps terminal statuses both ways', () => {
    for (const [list, single] of [
      ['filled', 'FILLED'],
      ['partially_filled_cancelled', 'PARTIALLY_FILLED_CANCELLED'],
      ['cancelled', 'CANCELLED'],
      ['rejected', 'REJECTED'],
    ] as const) {
      expect(orderStatusOfListRow({ status: list, order_type: 'LIMIT' })).toBe(single);
      expect(listStatusOfOrder(single, 'LIMIT')).toBe(list);
      expect(isTerminalListStatus(list)).toBe(true);
    }
  });

  it('keeps single-route-only statuses out of lists', () => {
    for (const s of ['EXECUTING', 'PENDING_MODIFY', 'FAILED'] as const) expect(listStatusOfOrder(s, 'LIMIT')).toBeNull();
    expect(listStatusOfOrder('SUBMITTED', 'TRIGGER')).toBe('open');
    expect(listStatusOfOrder('PENDING_PARENT', 'TRIGGER')).toBe('open');
    expect(listStatusOfOrder('ACCEPTED', 'LIMIT')).toBe('open');
    expect(listStatusOfOrder('ACCEPTED', 'TRIGGER')).toBe('triggered');
  });

  it('has exactly the spec\'s terminal set, and FILLED / PARTIALLY_FILLED_CANCELLED count as fills', () => {
    expect(ORDER_STATUSES.filter(isTerminalOrderStatus)).toEqual(['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED']);
    expect(ORDER_STATUSES.filter(countsAsFill)).toEqual(['FILLED', 'PARTIALLY_FILLED_CANCELLED']);
    expect(isTerminalListStatus('open')).toBe(false);
  });
});
