/**
 * A trailing stop's record never steers its stop against what the service says (issue 36, items 1 and 13),
 * against the simulator over loopback HTTP on its manual clock:
 *  - a record edited with schema-valid values (a lower high-water mark, the stop's level lowered under the
 *    same order id) is refused as damaged when the same command runs again: nothing is sent, the armed
 *    level stays, and `--list` shows it damaged with why (it used to replace the armed 3,430 with 3,381);
 *  - a stored high-water mark beyond any price the venue shows is brought back to what it shows: the stop
 *    is not pulled up to the mark by a price that never happened;
 *  - a stop that fired but could not fill is reported as a failed stop with the service's reason, not as
 *    "removed (cancelled)".
 * Each test reads the armed stop from the simulator's own position-triggers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { listTrails, prepareTrail, startTrail, trailStoreOf } from '../../../src/main/services/algos/trailing/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { ScriptedClock } from './scriptedClock.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';

let w: TradingWorld;
let clock: ScriptedClock;

beforeAll(async () => {
  w = await TradingWorld.boot('trailing-record-truth');
  await w.control('/funding-rate', { market: 'ETH', rate: '0' });
  clock = new ScriptedClock(w);
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

async function openLong(t: Trader): Promise<void> {
  const m = w.market('ETH');
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: 'ETH', side: 'BUY', size: sizeFor(m, await w.mark('ETH'), 6), leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, 'ETH', (p) => p !== undefined && new Decimal(p.size).isPos(), 'position');
}

async function armedStops(t: Trader): Promise<{ order_id: string; trigger_price: string }[]> {
  return (await w.ctx.api.positionTriggers(t.wallet)).orders
    .filter((o) => o.market === 'ETH' && o.order_type === 'TRIGGER' && o.tpsl === 'sl')
    .map((o) => ({ order_id: o.order_id, trigger_price: canonical(o.trigger_price!) }));
}

function modifies(from: number): number {
  return w.since(from).filter((r) => r.method === 'POST' && /\/orders\/[^/]+\/modify$/.test(r.path)).length;
}

/** A long trailed by 20 whose stop moved to 3,430 (the mark reached 3,450), then the runner stopped. */
async function trailedTo3430(t: Trader): Promise<{ id: string; order_id: string }> {
  await w.setMark('ETH', '3400');
  await openLong(t);
  const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock });
  const t0 = w.sim.clock.now();
  clock.script = [{ at: t0 + 1_200, mark: '3450' }];
  clock.stopAt = { at: t0 + 4_000, runner };
  const left = await runner.run();
  clock.stopAt = null;
  expect(left.stop!.trigger_price).toBe('3430');
  expect(await armedStops(t)).toEqual([{ order_id: left.stop!.order_id, trigger_price: '3430' }]);
  return { id: left.id, order_id: left.stop!.order_id };
}

describe('a trailing record against the service', () => {
  it('edited to a lower stop under the same order id: refused as damaged, nothing sent, the armed 3,430 stays', async () => {
    const t = await w.trader();
    const { id, order_id } = await trailedTo3430(t);
    const store = trailStoreOf(w.ctx);
    // Schema-valid edits, as in the issue: high-water 3,400, stop 3,000.
    store.update(id, (x) => ({ ...x, high_water: '3400', stop: { ...x.stop!, trigger_price: '3000' } }));
    // Above the armed 3,430 (it does not fire); from the record's 3,400 high and 3,000 stop, 3,440 would "move" the stop to 3,420.
    await w.setMark('ETH', '3440');
    const before = w.requests.length;
    const again = await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'TRAIL_RECORD_DAMAGED', message: expect.stringMatching(/the record's stop .* is at 3000, and the service lists that order at 3430/) });
    expect(modifies(before)).toBe(0);
    expect(await armedStops(t)).toEqual([{ order_id, trigger_price: '3430' }]);
    const listed = listTrails(w.ctx);
    expect(listed.trails.find((r) => r.record.id === id)).toBeUndefined();
    expect(listed.damaged.find((d) => d.id === id)).toMatchObject({ reason: expect.stringMatching(/disagrees with what the service says: the record's stop/) });
    // Refused every time after, too.
    await expect(prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' })).rejects.toMatchObject({ code: 'TRAIL_RECORD_DAMAGED' });
  });

  it('edited while a runner holds it: the runner ratchets from the armed level, finds the disagreement, and sends nothing', async () => {
    const t = await w.trader();
    const { id, order_id } = await trailedTo3430(t);
    await w.setMark('ETH', '3440');
    const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock });
    // Edited between the arming and the first look.
    trailStoreOf(w.ctx).update(id, (x) => ({ ...x, high_water: '3400', stop: { ...x.stop!, trigger_price: '3000' } }));
    const before = w.requests.length;
    clock.stopAt = { at: w.sim.clock.now() + 5_000, runner };
    const outcome = await runner.run().catch((e: unknown) => e);
    clock.stopAt = null;
    expect(outcome).toMatchObject({ code: 'TRAIL_RECORD_DAMAGED' });
    expect(modifies(before)).toBe(0);
    expect(await armedStops(t)).toEqual([{ order_id, trigger_price: '3430' }]);
  });

  it('a stored high beyond any price the venue showed: brought back to what it shows, the stop is not pulled up to the mark', async () => {
    const t = await w.trader();
    const { id, order_id } = await trailedTo3430(t);
    trailStoreOf(w.ctx).update(id, (x) => ({ ...x, high_water: '5000' }));
    await w.setMark('ETH', '3445');
    const before = w.requests.length;
    const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock });
    clock.stopAt = { at: w.sim.clock.now() + 3_000, runner };
    const r = await runner.run();
    clock.stopAt = null;
    expect(r.notes.join('\n')).toMatch(/the stored high of 5,000 is beyond any price the venue shows since the stop was armed \(at most 3,450\); trailing goes on from 3,450/);
    expect(r.high_water).toBe('3450');
    // 3,450 less 20 is 3,430: where it is. Unchecked, 5,000 would have pulled it to 3,444.9, a tick under the mark.
    expect(modifies(before)).toBe(0);
    expect(await armedStops(t)).toEqual([{ order_id, trigger_price: '3430' }]);
  });
});

describe('a trailing stop that fired but could not fill', () => {
  it('is reported as a failed stop with the reason from order history, not as removed', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const events: string[] = [];
    const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock, onEvent: (e) => events.push(e) });
    expect(await armedStops(t)).toEqual([{ order_id: expect.any(String), trigger_price: '3380' }]);
    // A gap far through the stop and past its stop tolerance (10%): it fires, and nothing is there to fill it within its bound.
    clock.script = [{ at: w.sim.clock.now() + 1_500, mark: "2900" }];
    clock.stopAt = { at: w.sim.clock.now() + 20_000, runner };
    const r = await runner.run();
    clock.stopAt = null;
    // Whatever the runner concluded, the stop's execution has ended by now.
    await w.advance(2_000);
    const history = await t.history();
    const stopRows = history.filter((h) => h.order_type === 'TRIGGER' && h.market === 'ETH');
    expect(stopRows.map((h) => h.status)).toContain('triggered');
    const last = stopRows[0]!;
    expect(['cancelled', 'rejected']).toContain(last.status);
    expect(r.status).toBe('ended');
    expect(r.end_reason).toBe('stop_failed');
    const said = events.join('\n');
    expect(said).toMatch(new RegExp(`FAILED STOP: the stop-loss ${last.order_id} at 3,380 fired but was ${last.status} \\(${last.reason}\\); the ETH long is still open with no stop-loss armed`));
    expect(said).not.toMatch(/was removed/);
    expect(r.notes.at(-1)).toMatch(/FAILED STOP/);
  });
});
