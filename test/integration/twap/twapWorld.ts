/**
 * What the TWAP tests share: the simulator's own record of a wallet's orders, read over loopback HTTP
 * from its order-history (whose rows carry client_order_id), so "no slice sent twice, none lost" is
 * checked against what the simulator holds, not against what the TWAP believes.
 */
import { expect } from 'vitest';

export interface SimOrderRow {
  order_id: string;
  client_order_id: string;
  size: string;
  filled_size: string;
  status: string;
  submitted_at: number;
  avg_fill_price?: string;
}

/** Every order of `wallet` in the simulator: its latest row per order id (history is newest first). */
export async function simOrders(baseUrl: string, wallet: string): Promise<SimOrderRow[]> {
  const latest = new Map<string, SimOrderRow>();
  for (let offset = 0; ; offset += 200) {
    const res = await fetch(`${baseUrl}/account/order-history?wallet=${wallet}&limit=200&offset=${offset}`);
    const body = (await res.json()) as { data: { orders: SimOrderRow[]; total: number } };
    expect(res.status).toBe(200);
    for (const row of body.data.orders) if (!latest.has(row.order_id)) latest.set(row.order_id, row);
    if (offset + body.data.orders.length >= body.data.total || body.data.orders.length === 0) break;
  }
  return [...latest.values()];
}

/** Orders per client order id. */
export function byCloid(rows: readonly SimOrderRow[]): Map<string, SimOrderRow[]> {
  const out = new Map<string, SimOrderRow[]>();
  for (const r of rows) out.set(r.client_order_id, [...(out.get(r.client_order_id) ?? []), r]);
  return out;
}
