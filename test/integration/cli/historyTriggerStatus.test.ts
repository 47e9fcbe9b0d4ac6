/**
 * Order history reads a bracket's TP/SL legs as a trader would (issue 35: an armed leg read "open"):
 * `perps orders history` (table and --json) against the simulator over HTTP, the CLI's own main in process (test/support/perpsWorld.ts),
 * on the simulator's manual clock (issue 37): the test moves it where the legs' rows land later.
 * A leg whose entry filled reads "armed" (waiting on its trigger price), its way there "awaiting entry >
 * armed"; a leg whose LIMIT entry still rests reads "awaiting entry". Both come from the spec's fields
 * only (status, order_type, parent_order_id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';

const perps = perpsOn(() => w);

beforeAll(async () => {
  w = await TradingWorld.boot('cli-history-triggers');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

describe('order history of bracket legs', () => {
  it('an armed leg reads "armed" (awaiting entry > armed), a leg whose entry rests reads "awaiting entry"', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const size = sizeFor(m, mark, 8);
    const leg = (parent: string, tpsl: 'TP' | 'SL', factor: number) => ({ market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, limit_price: priceAt(m, mark, factor * 0.99), trigger: { trigger_price: priceAt(m, mark, factor), tpsl, is_market: true }, parent_client_order_id: parent });
    // A market entry that fills: its legs arm on the position.
    const filled = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size, leverage: 3, client_order_id: 'entry-now' }, leg('entry-now', 'TP', 1.2), leg('entry-now', 'SL', 0.8)] as never }, { wait: true });
    expect(filled.legs[0]!.final?.status).toBe('FILLED');
    await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'position');
    // A limit entry well below the mark: it rests, its legs wait for it.
    const resting = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', time_in_force: 'GTC', limit_price: priceAt(m, mark, 0.9), leverage: 3, client_order_id: 'entry-later' }, leg('entry-later', 'TP', 1.3)] as never }, { wait: true });
    expect(resting.legs.every((l) => l.status === 'SUBMITTED')).toBe(true);
    const armedIds = filled.legs.slice(1).map((l) => l.order_id!);
    const waitingId = resting.legs[1]!.order_id!;
    // The armed legs' own rows land later on the simulator's clock: move it until both show armed in position-triggers.
    for (let i = 0; i < 100 && (await w.ctx.api.positionTriggers(t.wallet)).orders.length < 2; i++) await w.advance(50);

    const json = await perps(['--json', 'orders', 'history', '--wallet', t.wallet]);
    expect(json.code, json.stderr).toBe(0);
    const rows = (JSON.parse(json.stdout) as { orders: { order_id: string; status: string; status_label: string; changes: { status: string; label: string }[] }[] }).orders;
    const by = new Map(rows.map((r) => [r.order_id, r]));
    for (const id of armedIds) {
      // The service's word is kept; the trader's word is beside it.
      expect(by.get(id)).toMatchObject({ status: 'open', status_label: 'armed' });
      expect(by.get(id)!.changes.map((c) => c.label)).toEqual(['awaiting entry', 'armed']);
    }
    expect(by.get(waitingId)).toMatchObject({ status: 'open', status_label: 'awaiting entry' });

    const table = await perps(['orders', 'history', '--wallet', t.wallet]);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    for (const id of armedIds) {
      const line = lines.find((l) => l.includes(id))!;
      expect(line).toMatch(/\barmed\s+awaiting entry > armed\b/);
      expect(line).not.toMatch(/\bopen\b/);
    }
    const waitingLine = lines.find((l) => l.includes(waitingId))!;
    expect(waitingLine).toMatch(/\bawaiting entry\s+awaiting entry\b/);
    expect(waitingLine).not.toMatch(/\bopen\b/);
  });
});
