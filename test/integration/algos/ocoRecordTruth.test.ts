/**
 * An OCO record never cancels an order that is not its leg (issue 36, item 2), against the simulator over
 * loopback HTTP on its clock. The repro: a resting manual BTC limit, an ETH pair, and the record's
 * sell leg edited to the BTC order's id; after the buy leg filled, `--resume` cancelled the BTC order and
 * left the ETH sell open, reporting the real leg cancelled. Now each leg's order id is held to the service
 * (the pair's market, side, price, size, client order id where listed) before anything is sent: the record
 * is damaged, listed with why, refused, and no cancel goes out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOcos, ocoStoreOf, openOcoRunner, prepareOco, startOco } from '../../../src/main/services/algos/oco/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { ScriptedClock } from './scriptedClock.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';

let w: TradingWorld;
let clock: ScriptedClock;

beforeAll(async () => {
  w = await TradingWorld.boot('oco-record-truth');
  clock = new ScriptedClock(w);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

function cancels(from: number): number {
  return w.since(from).filter((r) => r.method === 'POST' && (r.path.endsWith('/cancel') || r.path.endsWith('/cancel-batch'))).length;
}

/** A resting manual limit order (GTC, far from the mark): its order id. */
async function restingLimit(t: Trader, market: string, side: 'BUY' | 'SELL', price: string): Promise<string> {
  const m = w.market(market);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market, side, size: sizeFor(m, await w.mark(market), 2), order_type: 'LIMIT', limit_price: price, time_in_force: 'GTC', leverage: 5 }] }, { wait: false });
  expect(r.legs[0]!.status).toBe('SUBMITTED');
  await w.advance(1_000);
  return r.legs[0]!.order_id!;
}

/** An ETH pair (buy 3,300, sell 3,500), placed and watched for a moment, then stopped with both legs resting. */
async function restingPair(t: Trader): Promise<string> {
  await w.setMark('ETH', '3400');
  const runner = await startOco(w.ctx, await prepareOco(w.ctx, { wallet: t.wallet, market: 'ETH', size: '0.01', buy: '3300', sell: '3500', leverage: 5 }), await w.ctx.tradingSigner(t.wallet), { clock });
  clock.stopAt = { at: w.sim.clock.now() + 1_500, runner };
  const r = await runner.run();
  clock.stopAt = null;
  expect(r.legs.map((l) => l.status)).toEqual(['open', 'open']);
  return r.id;
}

describe('an OCO record against the service', () => {
  it("a sell leg edited to a manual BTC order's id: damaged, listed, refused; the BTC order and the ETH sell stay open", async () => {
    const t = await w.trader();
    await w.setMark('BTC', '60000');
    const btc = await restingLimit(t, 'BTC', 'BUY', '50000');
    const id = await restingPair(t);
    const realSell = ocoStoreOf(w.ctx).get(id)!.legs[1].order_id!;
    ocoStoreOf(w.ctx).update(id, (x) => ({ ...x, legs: [x.legs[0], { ...x.legs[1], order_id: btc }] }));
    // The buy leg fills.
    await w.setMark('ETH', '3290');
    await w.advance(2_000);
    const from = w.requests.length;
    const events: string[] = [];
    const err = await openOcoRunner(w.ctx, id, { clock, onEvent: (e) => events.push(e) })
      .run()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'OCO_RECORD_DAMAGED', message: expect.stringMatching(/leg 2 \(sell 0\.01 at 3500\): order \S+ is not in the ETH order history/) });
    expect(cancels(from)).toBe(0);
    const open = await t.openOrders();
    expect(open.map((o) => o.order_id).sort()).toEqual([btc, realSell].sort());
    expect(events.join('\n')).toMatch(/disagrees with the service/);
    const listed = listOcos(w.ctx);
    expect(listed.pairs.find((p) => p.id === id)).toBeUndefined();
    expect(listed.damaged.find((d) => d.id === id)).toMatchObject({ reason: expect.stringMatching(/it disagrees with what the service says: leg 2/) });
    // Refused from now on, before anything is read or sent.
    expect(() => openOcoRunner(w.ctx, id, { clock })).toThrow(expect.objectContaining({ code: 'OCO_RECORD_DAMAGED' }));
  });

  it("a sell leg edited to another ETH order (a manual sell at another price): damaged (its client order id where listed, else its price), nothing cancelled", async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const manual = await restingLimit(t, 'ETH', 'SELL', '3700');
    const id = await restingPair(t);
    ocoStoreOf(w.ctx).update(id, (x) => ({ ...x, legs: [x.legs[0], { ...x.legs[1], order_id: manual }] }));
    await w.setMark('ETH', '3290');
    await w.advance(2_000);
    const from = w.requests.length;
    const err = await openOcoRunner(w.ctx, id, { clock })
      .run()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'OCO_RECORD_DAMAGED', message: expect.stringMatching(new RegExp(`leg 2 \\(sell 0\\.01 at 3500\\): order ${manual} (carries the client order id \\S+, not oco-${id}-1|is at 3700, not 3500)`)) });
    expect(cancels(from)).toBe(0);
    expect((await t.openOrders('ETH')).map((o) => o.order_id)).toContain(manual);
  });
});
