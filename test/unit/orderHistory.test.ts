/**
 * Order history grouped into one entry per order: its latest status, its status changes oldest first
 * (same-millisecond changes in lifecycle order), the average fill price from the rows, and a market
 * order shown at that price rather than at its slippage bound.
 */
import { describe, expect, it } from 'vitest';
import { groupOrderHistory, type OrderHistoryRow } from '../../src/shared/orders/orderHistory.js';

const row = (over: Partial<OrderHistoryRow> & Pick<OrderHistoryRow, 'order_id' | 'status' | 'status_at'>): OrderHistoryRow => ({
  order_type: 'LIMIT',
  submitted_at: 1_000,
  limit_price: '3000',
  filled_size: '0',
  reason: null,
  avg_fill_price: null,
  ...over,
});

describe('groupOrderHistory', () => {
  it('one entry per order, newest placed first, each with its latest status and every change in order', () => {
    // The service lists history newest first.
    const rows = [
      row({ order_id: 'm1', order_type: 'MARKET', limit_price: '3416.1', submitted_at: 2_000, status: 'filled', status_at: 2_050, filled_size: '1', avg_fill_price: '3399.4' }),
      row({ order_id: 'l1', status: 'cancelled', status_at: 1_900, reason: 'user_cancelled' }),
      row({ order_id: 'm1', order_type: 'MARKET', limit_price: '3416.1', submitted_at: 2_000, status: 'open', status_at: 2_000 }),
      row({ order_id: 'l1', status: 'open', status_at: 1_000 }),
    ];
    const groups = groupOrderHistory(rows);
    expect(groups.map((g) => g.order_id)).toEqual(['m1', 'l1']);
    const [market, limit] = groups;
    expect(market!.latest.status).toBe('filled');
    expect(market!.changes.map((c) => c.status)).toEqual(['open', 'filled']);
    expect(limit!.latest.status).toBe('cancelled');
    expect(limit!.changes).toEqual([
      { status: 'open', label: 'open', at: 1_000, reason: null, filled_size: '0', avg_fill_price: null },
      { status: 'cancelled', label: 'cancelled', at: 1_900, reason: 'user_cancelled', filled_size: '0', avg_fill_price: null },
    ]);
  });

  it('a market order shows its average fill price, not its slippage bound; a limit its limit price', () => {
    const groups = groupOrderHistory([
      row({ order_id: 'm1', order_type: 'MARKET', limit_price: '3416.1', status: 'filled', status_at: 5, filled_size: '1', avg_fill_price: '3399.4' }),
      row({ order_id: 'm2', order_type: 'MARKET', limit_price: '3380', status: 'cancelled', status_at: 6, reason: 'no_liquidity_within_limit' }),
      row({ order_id: 'l1', limit_price: '3350', status: 'partially_filled_cancelled', status_at: 4, filled_size: '0.2', avg_fill_price: '3349.9' }),
    ]);
    const by = new Map(groups.map((g) => [g.order_id, g]));
    expect(by.get('m1')).toMatchObject({ price: '3399.4', avg_fill_price: '3399.4' });
    expect(by.get('m2')).toMatchObject({ price: null, avg_fill_price: null });
    expect(by.get('l1')).toMatchObject({ price: '3350', avg_fill_price: '3349.9' });
  });

  it('changes logged in the same millisecond keep the lifecycle order; the average survives a later row without it', () => {
    const groups = groupOrderHistory([
      row({ order_id: 't1', order_type: 'TRIGGER', status: 'filled', status_at: 10, filled_size: '2', avg_fill_price: '2990' }),
      row({ order_id: 't1', order_type: 'TRIGGER', status: 'triggered', status_at: 10 }),
      row({ order_id: 't1', order_type: 'TRIGGER', status: 'open', status_at: 10 }),
    ]);
    expect(groups[0]!.changes.map((c) => c.status)).toEqual(['open', 'triggered', 'filled']);
    const late = groupOrderHistory([
      row({ order_id: 'x', status: 'cancelled', status_at: 9, filled_size: '0.5' }),
      row({ order_id: 'x', status: 'open', status_at: 8, filled_size: '0.5', avg_fill_price: '3001' }),
    ]);
    expect(late[0]!.avg_fill_price).toBe('3001');
  });

  it('a bracket leg reads "awaiting entry" while its entry works and "armed" once it arms, from parent_order_id alone', () => {
    const leg = { order_type: 'TRIGGER', submitted_at: 1_000, limit_price: '3100' } as const;
    const groups = groupOrderHistory([
      row({ ...leg, order_id: 'tp', status: 'open', status_at: 1_400 }),
      row({ ...leg, order_id: 'tp', status: 'open', status_at: 1_000, parent_order_id: 'e1' }),
      row({ ...leg, order_id: 'waiting', submitted_at: 900, status: 'open', status_at: 900, parent_order_id: 'e2' }),
    ]);
    const by = new Map(groups.map((g) => [g.order_id, g]));
    expect(by.get('tp')!.status_label).toBe('armed');
    expect(by.get('tp')!.changes.map((c) => [c.status, c.label])).toEqual([
      ['open', 'awaiting entry'],
      ['open', 'armed'],
    ]);
    expect(by.get('waiting')!.status_label).toBe('awaiting entry');
  });

  it('the armed row is the latest even when both open rows share a millisecond, in whatever order the service lists them', () => {
    const leg = { order_type: 'TRIGGER', submitted_at: 1_000, limit_price: '3100', status: 'open', status_at: 1_000 } as const;
    for (const rows of [
      [row({ ...leg, order_id: 'sl' }), row({ ...leg, order_id: 'sl', parent_order_id: 'e1' })],
      [row({ ...leg, order_id: 'sl', parent_order_id: 'e1' }), row({ ...leg, order_id: 'sl' })],
    ]) {
      const [g] = groupOrderHistory(rows);
      expect(g!.status_label).toBe('armed');
      expect(g!.latest.parent_order_id ?? null).toBeNull();
      expect(g!.changes.map((c) => c.label)).toEqual(['awaiting entry', 'armed']);
    }
  });

  it('a trigger that fired keeps the service\'s word; a limit order\'s open stays open', () => {
    const [t] = groupOrderHistory([
      row({ order_id: 't', order_type: 'TRIGGER', status: 'filled', status_at: 3, filled_size: '1', avg_fill_price: '3000' }),
      row({ order_id: 't', order_type: 'TRIGGER', status: 'triggered', status_at: 2 }),
      row({ order_id: 't', order_type: 'TRIGGER', status: 'open', status_at: 1 }),
    ]);
    expect(t!.changes.map((c) => c.label)).toEqual(['armed', 'triggered', 'filled']);
    expect(groupOrderHistory([row({ order_id: 'l', status: 'open', status_at: 1 })])[0]!.status_label).toBe('open');
  });

  it('nothing in, nothing out', () => {
    expect(groupOrderHistory([])).toEqual([]);
  });
});
