/**
 * The one paging loop of order-history look-ups after a send (sentOrderLookup.ts): rows newest first,
 * page by page, down to the page that reaches a row older than asked, and no page more than needed.
 */
import { describe, expect, it } from 'vitest';
import type { ListedOrder } from '../../../src/shared/protocol/index.js';
import { findSentOrder, historyRowsSince, latestHistoryRow } from '../../../src/main/services/algos/sentOrderLookup.js';

/** 450 rows of one order each, newest first: row i changed status at 10,000 - i. */
function history(): { api: { orderHistory(q: { offset?: number; limit?: number }): Promise<{ orders: ListedOrder[]; total: number }> }; offsets: number[] } {
  const rows = Array.from({ length: 450 }, (_, i) => ({ order_id: String(1000 - i), status_at: 10_000 - i, submitted_at: 10_000 - i, client_order_id: `c${1000 - i}` }) as unknown as ListedOrder);
  const offsets: number[] = [];
  return {
    offsets,
    api: {
      orderHistory: async (q) => {
        offsets.push(q.offset ?? 0);
        return { orders: rows.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 200)), total: rows.length };
      },
    },
  };
}

async function all(g: AsyncGenerator<ListedOrder>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of g) out.push(r.order_id);
  return out;
}

describe('historyRowsSince', () => {
  it('reads pages down to the one that reaches an older row, and to the end when none does', async () => {
    const h = history();
    // Row 250 is the first older than 9,750: the second page reaches it, the third is not read.
    expect(await all(historyRowsSince(h as never, '0xw', 'ETH', 9_750))).toHaveLength(400);
    expect(h.offsets).toEqual([0, 200]);
    const everything = history();
    expect(await all(historyRowsSince(everything as never, '0xw', 'ETH', 0))).toHaveLength(450);
    expect(everything.offsets).toEqual([0, 200, 400]);
  });

  it('stopping early reads no further page; the look-ups stop at their hit', async () => {
    const h = history();
    for await (const r of historyRowsSince(h as never, '0xw', 'ETH', 0)) if (r.order_id === '990') break;
    expect(h.offsets).toEqual([0]);
    const l = history();
    expect((await latestHistoryRow(l as never, '0xw', 'ETH', '700', 0))?.status_at).toBe(9_700);
    expect(l.offsets).toEqual([0, 200]);
    const f = history();
    expect(await findSentOrder(f as never, { wallet: '0xw', market: 'ETH', clientOrderId: 'c600', sentAt: 0, claimed: new Set(), matches: () => false })).toMatchObject({ order_id: '600', by: 'client_order_id' });
    expect(f.offsets).toEqual([0, 200, 400]);
  });
});
