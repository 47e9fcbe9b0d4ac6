/**
 * A terminal order stands for its own last history row (issue 17, item 2: memory per terminal order):
 * only when that row shows exactly the order as it is, so a read answers the same either way.
 */
import { describe, expect, it } from 'vitest';
import { compactEntry, entryOf, historyEntry, historyRow } from '../../../src/sim/orders/views.js';
import type { SimOrder } from '../../../src/sim/state/model.js';

function order(change: Partial<SimOrder> = {}): SimOrder {
  return {
    order_id: '100000001',
    wallet: '0xabc',
    account_id: '0xabc000',
    client_order_id: 'pd-1',
    market: 'BTC',
    side: 'BUY',
    order_type: 'LIMIT',
    size: '0.01',
    whole_position: false,
    filled_size: '0',
    filled_notional: '0',
    fees: '0',
    limit_price: '50000',
    time_in_force: 'GTC',
    reduce_only: false,
    leverage: 0,
    trigger: null,
    status: 'ACCEPTED',
    reason: null,
    submitted_at: 1_770_000_000_000,
    status_at: 1_770_000_000_100,
    visible_at: 1_770_000_000_000,
    avg_fill_price: null,
    parent_order_id: null,
    bracket_entry_id: null,
    bracket_legs: [],
    is_modifying: false,
    replaced_by: null,
    replaces: null,
    fired_at: null,
    mark_at_submit: null,
    forced_failure: false,
    ...change,
  };
}

describe('history records', () => {
  it('a terminal order is kept as its own last row, which reads back the same', () => {
    const o = order({ status: 'FILLED', filled_size: '0.01', avg_fill_price: '49999', status_at: 1_770_000_000_900 });
    const entry = historyEntry(o, 'filled');
    const kept = compactEntry(entry);
    expect(kept).toBe(o);
    expect(historyRow(entryOf(kept))).toEqual(historyRow(entry));
    expect(historyRow(entryOf(kept))).toMatchObject({ status: 'filled', status_at: 1_770_000_000_900, avg_fill_price: '49999' });
  });

  it('keeps the entry when the row is not the order as it now is', () => {
    // A live order's row: the order will still change.
    const open = order();
    expect(compactEntry(historyEntry(open, 'open'))).not.toBe(open);
    // A row under another list status than the order's own (a fired trigger's `triggered` row, say).
    const done = order({ status: 'CANCELLED', reason: 'modified' });
    const other = historyEntry(done, 'open');
    expect(compactEntry(other)).toBe(other);
    // An older row of a terminal order (written before the fill) shows other figures.
    const filled = order({ status: 'FILLED', filled_size: '0.01', avg_fill_price: '49999', status_at: 1_770_000_000_900 });
    const earlier = { ...historyEntry(filled, 'filled'), filled_size: '0', after: 100 };
    expect(compactEntry(earlier)).toBe(earlier);
  });
});
