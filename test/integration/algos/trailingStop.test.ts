/**
 * Trailing stops against the simulator over loopback HTTP, on the simulator's clock (its waits advance
 * it): the stop ratchets with new highs (only up, at most once a second, by whole ticks), keeps the last
 * level armed when the runner stops, catches up from the candles after time away, and settles a move in
 * flight at a crash from order history without sending it twice. Each test reads the armed stop from the
 * simulator's own position-triggers, not from what the runner believes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import type { TrailRecord } from '../../../src/shared/algos/trailRecord.js';
import { moveClientOrderId } from '../../../src/shared/algos/trailRecord.js';
import { openTrailRunner, prepareTrail, startTrail, trailStoreOf, turnOffTrail } from '../../../src/main/services/algos/trailing/index.js';
import { prepareModify, submitModify } from '../../../src/main/services/orders/modifyOrder.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { closePosition, waitForPosition } from '../../../src/main/services/positions/index.js';
import type { AlgoEvent } from '../../../src/main/services/algos/engine/index.js';
import { groupedDecimal } from '../../../src/shared/decimal/display.js';
import { ScriptedClock } from './scriptedClock.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';

let w: TradingWorld;
let clock: ScriptedClock;

beforeAll(async () => {
  w = await TradingWorld.boot('trailing-stop');
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

/** The armed whole-position stop-losses of ETH, as the simulator lists them. */
async function armedStops(t: Trader): Promise<{ order_id: string; trigger_price: string }[]> {
  return (await w.ctx.api.positionTriggers(t.wallet)).orders
    .filter((o) => o.market === 'ETH' && o.order_type === 'TRIGGER' && o.tpsl === 'sl')
    .map((o) => ({ order_id: o.order_id, trigger_price: canonical(o.trigger_price!) }));
}

function modifies(from: number): number {
  return w.since(from).filter((r) => r.method === 'POST' && /\/orders\/[^/]+\/modify$/.test(r.path)).length;
}

describe('trailing stop on the simulator', () => {
  it('ratchets with new highs, only up, at most once a second, by whole ticks; the last level stays armed when it stops', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    // 20.05 off the 0.1 tick grid: every level is put on the grid below (whole ticks).
    const prepared = await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20.05' });
    expect(prepared.view.level_from_mark).toBe('3379.9');
    expect(prepared.adopt).toBeNull();
    const moves: { at: number; to: string }[] = [];
    const runner = await startTrail(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet), {
      clock,
      onUpdate: (r) => {
        if (r.stop && moves.at(-1)?.to !== r.stop.trigger_price) moves.push({ at: w.sim.clock.now(), to: r.stop.trigger_price });
      },
    });
    expect(await armedStops(t)).toEqual([{ order_id: expect.any(String), trigger_price: '3379.9' }]);
    const t0 = w.sim.clock.now();
    clock.script = [
      { at: t0 + 1_500, mark: '3410' },
      // 300 ms after the move to 3390: the next move waits for the second to pass.
      { at: t0 + 2_700, mark: '3425' },
      // A fall: the stop stays where it is.
      { at: t0 + 6_000, mark: '3415' },
      // A new high: 3431.4 - 20.05 = 3411.35, down to the tick 3411.3.
      { at: t0 + 9_000, mark: '3431.4' },
    ];
    clock.stopAt = { at: t0 + 14_000, runner };
    const left = await runner.run();
    clock.stopAt = null;
    expect(left.status).toBe('trailing');
    const levels = moves.map((m) => m.to);
    expect(levels).toEqual(['3379.9', '3389.9', '3404.9', '3411.3']);
    for (let i = 2; i < moves.length; i++) expect(moves[i]!.at - moves[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
    expect(left.high_water).toBe('3431.4');
    // Stopped: the last level is still armed at the service, one stop-loss only.
    const armed = await armedStops(t);
    expect(armed).toEqual([{ order_id: left.stop!.order_id, trigger_price: '3411.3' }]);
  });

  it('after time away: the candles missed give the high; the stop moves to where it should be, never past the mark, and says what happened', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const first = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '1%' }), await w.ctx.tradingSigner(t.wallet), { clock });
    clock.stopAt = { at: w.sim.clock.now() + 2_000, runner: first };
    const left = await first.run();
    clock.stopAt = null;
    // 3400 less 1% = 3366.
    expect(left.stop!.trigger_price).toBe('3366');
    // While nothing runs: a high of 3500, then the mark falls back to 3460 (through where the stop should be: 3465).
    await w.advance(60_000);
    await w.setMark('ETH', '3500');
    await w.advance(120_000);
    await w.setMark('ETH', '3460');
    await w.advance(30_000);
    expect(await armedStops(t)).toEqual([{ order_id: left.stop!.order_id, trigger_price: '3366' }]);

    const events: string[] = [];
    const again = await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '1%' });
    expect(again.resumes?.id).toBe(left.id);
    const runner = await startTrail(w.ctx, again, await w.ctx.tradingSigner(t.wallet), { clock, onEvent: (e) => events.push(e) });
    clock.stopAt = { at: w.sim.clock.now() + 3_000, runner };
    const r = await runner.run();
    clock.stopAt = null;
    expect(r.high_water).toBe('3500');
    // Clamped to the last tick before the mark 3460.
    expect(r.stop!.trigger_price).toBe('3459.9');
    expect(await armedStops(t)).toEqual([{ order_id: r.stop!.order_id, trigger_price: '3459.9' }]);
    expect(r.away).toMatch(/While the desk was away \(\d+ min\), ETH made a high of 3,500; the mark is 3,460 now\. The stop should have trailed to 3,465, and the mark has since passed it: it is now at 3,459\.9, one tick before the mark \(it was 3,366\)\./);
    expect(events.join('\n')).toContain('While the desk was away');
  });

  it('a move in flight at a crash: sent before it, it is found in order history and never sent again; never sent, the stop stays and trailing goes on', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock });
    clock.stopAt = { at: w.sim.clock.now() + 1_500, runner };
    const left = await runner.run();
    clock.stopAt = null;
    const store = trailStoreOf(w.ctx);

    // 1. The process wrote the move and sent it, then died before it heard the answer.
    await w.setMark('ETH', '3450');
    const cloid = moveClientOrderId(left.run_key, left.moves + 1);
    const prepared = await prepareModify(w.ctx, { wallet: t.wallet, orderId: left.stop!.order_id, price: '3412.9', size: '0', triggerPrice: '3430', clientOrderId: cloid });
    const sentAt = w.sim.clock.now();
    store.update(left.id, (x) => ({ ...x, moving: { client_order_id: cloid, from_order_id: left.stop!.order_id, from_trigger: left.stop!.trigger_price, to_trigger: '3430', fire_price: '3412.9', nonce: prepared.nonce, sent_at: sentAt } }));
    await submitModify(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet), { wait: true });
    const before = w.requests.length;
    const reopened = openTrailRunner(w.ctx, left.id, { clock });
    clock.stopAt = { at: w.sim.clock.now() + 500, runner: reopened };
    const settled: TrailRecord = await reopened.run();
    clock.stopAt = null;
    expect(settled.moving).toBeNull();
    expect(settled.stop!.trigger_price).toBe('3430');
    expect(settled.notes.join('\n')).toMatch(/the move to 3,430 sent before the restart landed as order/);
    expect(modifies(before)).toBe(0);
    expect(await armedStops(t)).toEqual([{ order_id: settled.stop!.order_id, trigger_price: '3430' }]);

    // 2. The process wrote the move and died before sending it: not found after the grace period; the stop stays, then trails on.
    await w.setMark('ETH', '3470');
    store.update(left.id, (x) => ({ ...x, moving: { client_order_id: moveClientOrderId(x.run_key, x.moves + 1), from_order_id: x.stop!.order_id, from_trigger: '3430', to_trigger: '3450', fire_price: '3432.7', nonce: '1', sent_at: w.sim.clock.now() } }));
    const before2 = w.requests.length;
    const third = openTrailRunner(w.ctx, left.id, { clock, reconcileGraceMs: 3_000 });
    clock.stopAt = { at: w.sim.clock.now() + 6_000, runner: third };
    const r = await third.run();
    clock.stopAt = null;
    expect(r.notes.join('\n')).toMatch(/the move to 3,450 is not in order-history 3 s after it was sent: it never reached the service; the stop stays at 3,430/);
    // Then it trailed on to the mark 3470 less 20, once.
    expect(r.stop!.trigger_price).toBe('3450');
    expect(modifies(before2)).toBe(1);
    expect(await armedStops(t)).toEqual([{ order_id: r.stop!.order_id, trigger_price: '3450' }]);
  });

  it('says what it does as typed events: a move is acted, what happened while away is attention, the position closed is stopped; each after it is written', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const events: AlgoEvent[] = [];
    const unwritten: string[] = [];
    const store = trailStoreOf(w.ctx);
    const onAlgoEvent = (e: AlgoEvent): void => {
      events.push(e);
      const r = store.require(e.id, w.ctx.profile.name);
      // A move is said once the record holds the new stop; anything else (but the engine's own started) once its note is written.
      const written = e.type === 'started' ? true : e.reason === 'moved' ? e.text.includes(`-> ${groupedDecimal(r.stop!.trigger_price)}`) : r.notes.at(-1) === `${new Date(e.at).toISOString()} ${e.text}`;
      if (!written) unwritten.push(e.text);
    };
    const first = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '20' }), await w.ctx.tradingSigner(t.wallet), { clock, onAlgoEvent });
    const t0 = w.sim.clock.now();
    clock.script = [{ at: t0 + 1_500, mark: '3450' }];
    clock.stopAt = { at: t0 + 3_000, runner: first };
    const left = await first.run();
    clock.stopAt = null;
    expect(left.stop!.trigger_price).toBe('3430');
    // Away: a high of 3500, then back to 3490.
    await w.advance(60_000);
    await w.setMark('ETH', '3500');
    await w.advance(60_000);
    await w.setMark('ETH', '3490');
    const second = openTrailRunner(w.ctx, left.id, { clock, onAlgoEvent });
    clock.stopAt = { at: w.sim.clock.now() + 2_000, runner: second };
    expect((await second.run()).stop!.trigger_price).toBe('3480');
    clock.stopAt = null;
    expect((await closePosition(w.ctx, { wallet: t.wallet, market: 'ETH' })).closed).toBe(true);
    const ended = await openTrailRunner(w.ctx, left.id, { clock, onAlgoEvent }).run();
    expect(ended).toMatchObject({ status: 'ended', end_reason: 'position_closed' });
    expect(events.map((e) => `${e.type}:${e.reason ?? ''}`)).toEqual(['started:', 'acted:moved', 'started:', 'acted:moved', 'attention:away', 'started:', 'stopped:position_closed']);
    for (const e of events) expect(e).toMatchObject({ kind: 'trailing', id: left.id, market: 'ETH' });
    expect(unwritten).toEqual([]);
  });

  it('two processes never trail one position; off stops it and leaves the level armed', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openLong(t);
    const runner = await startTrail(w.ctx, await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '0.5%' }), await w.ctx.tradingSigner(t.wallet), { clock });
    runner.claim();
    // The run lock is held by this process: a second arming is refused before anything is sent.
    const again = await prepareTrail(w.ctx, { wallet: t.wallet, market: 'ETH', distance: '0.5%' }).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'TRAIL_LOCKED' });
    const off = turnOffTrail(w.ctx, { market: 'ETH', wallet: t.wallet });
    expect(off.status).toBe('off');
    const r = await runner.run();
    expect(r.status).toBe('off');
    expect(await armedStops(t)).toEqual([{ order_id: r.stop!.order_id, trigger_price: '3383' }]);
  });
});
