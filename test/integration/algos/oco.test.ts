/**
 * One-cancels-the-other entries against the simulator over loopback HTTP, on its clock: the first fill
 * cancels the other leg at once and exactly once (counted in the requests sent and in the simulator's own
 * order history); a fill while nothing watched is found at the next start and the other leg cancelled
 * then; a cancel written before a crash is not sent twice; a leg that would fill at once is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ocoStoreOf, openOcoRunner, prepareOco, startOco } from '../../../src/main/services/algos/oco/index.js';
import { cancelOrder } from '../../../src/main/services/orders/cancelOrders.js';
import { ScriptedClock } from './scriptedClock.js';
import { TradingWorld, type Trader } from '../orders/tradingWorld.js';
import { simOrders } from '../twap/twapWorld.js';

let w: TradingWorld;
let clock: ScriptedClock;

beforeAll(async () => {
  w = await TradingWorld.boot('oco');
  clock = new ScriptedClock(w);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

const input = (t: Trader) => ({ wallet: t.wallet, market: 'ETH', size: '0.01', buy: '3300', sell: '3500', leverage: 5 });

/** Cancel requests sent since `from` (single or batch). */
function cancels(from: number): number {
  return w.since(from).filter((r) => r.method === 'POST' && (r.path.endsWith('/cancel') || r.path.endsWith('/cancel-batch'))).length;
}

describe('OCO pair on the simulator', () => {
  it('the first fill cancels the other leg at once, exactly once', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const from = w.requests.length;
    const runner = await startOco(w.ctx, await prepareOco(w.ctx, input(t)), await w.ctx.tradingSigner(t.wallet), { clock });
    clock.script = [{ at: w.sim.clock.now() + 2_000, mark: '3290' }];
    const r = await runner.run();
    expect(r.status).toBe('done');
    expect(r.winner).toBe(0);
    expect(r.legs.map((l) => l.status)).toEqual(['filled', 'cancelled']);
    expect(cancels(from)).toBe(1);
    const sim = await simOrders(w.sim.urls.base_url, t.wallet);
    expect(sim.map((o) => [o.client_order_id, o.status]).sort()).toEqual([
      [r.legs[0].client_order_id, 'filled'],
      [r.legs[1].client_order_id, 'cancelled'],
    ]);
  });

  it('a fill while nothing watches is found at the next start; a cancel written before a crash is not sent again', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await startOco(w.ctx, await prepareOco(w.ctx, input(t)), await w.ctx.tradingSigner(t.wallet), { clock });
    clock.stopAt = { at: w.sim.clock.now() + 1_500, runner };
    const stopped = await runner.run();
    clock.stopAt = null;
    expect(stopped.status).toBe('working');
    // Down: the sell leg fills.
    await w.setMark('ETH', '3510');
    await w.advance(3_000);
    const from = w.requests.length;
    const r = await openOcoRunner(w.ctx, stopped.id, { clock }).run();
    expect(r.status).toBe('done');
    expect(r.winner).toBe(1);
    expect(r.legs.map((l) => l.status)).toEqual(['cancelled', 'filled']);
    expect(cancels(from)).toBe(1);

    // A crash just after the cancel was sent: the record says so; the restart reads the leg, sends nothing.
    const t2 = await w.trader();
    await w.setMark('ETH', '3400');
    const second = await startOco(w.ctx, await prepareOco(w.ctx, input(t2)), await w.ctx.tradingSigner(t2.wallet), { clock });
    clock.stopAt = { at: w.sim.clock.now() + 1_500, runner: second };
    const s = await second.run();
    clock.stopAt = null;
    await w.setMark('ETH', '3290');
    await w.advance(2_000);
    await cancelOrder(w.ctx, { wallet: t2.wallet, orderId: s.legs[1].order_id!, orderType: 'LIMIT' }, { confirm: true });
    ocoStoreOf(w.ctx).update(s.id, (x) => ({ ...x, winner: 0, cancel_sent_at: w.sim.clock.now() }));
    const from2 = w.requests.length;
    const r2 = await openOcoRunner(w.ctx, s.id, { clock }).run();
    expect(r2.status).toBe('done');
    expect(r2.legs.map((l) => l.status)).toEqual(['filled', 'cancelled']);
    expect(cancels(from2)).toBe(0);
  });

  it('a leg past the mark would fill at once: refused before anything is sent', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const from = w.requests.length;
    const err = await prepareOco(w.ctx, { ...input(t), buy: '3450' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'OCO_LEG_WOULD_FILL', field: 'buy' });
    expect(w.since(from).filter((r) => r.method === 'POST')).toEqual([]);
  });
});
