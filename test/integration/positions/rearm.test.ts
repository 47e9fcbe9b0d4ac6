/**
 * Protection kept through partial closes (issue 35, item 2), through the services against the simulator:
 * the whole-position TP/SL a reduce-only close must lift (lifecycle rules 3 and 4) are re-armed at the
 * same levels on what remains, exactly once; the review says so; a limit close re-arms them once it rests
 * (they then cover what is left as it fills); a close that does not fill puts them back; a level the mark
 * has passed is reported with the choice, not re-armed; a record left by a dead process is restored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { cancelOrders, placeOrders } from '../../../src/main/services/orders/index.js';
import { closePosition, prepareClose, preparePositionTpsl, restorePendingProtection, submitClose, submitPositionTpsl, waitForPosition } from '../../../src/main/services/positions/index.js';
import { hasPendingProtection, writeRearmIntent } from '../../../src/main/services/positions/rearm.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
let start: Decimal;
beforeAll(async () => {
  w = await TradingWorld.boot('rearm');
  await w.control('/funding-rate', { market: SYM, rate: '0' });
  start = await w.mark(SYM);
});
afterAll(async () => {
  await w?.stop();
});

async function longWithLevels(t: Trader): Promise<{ size: Decimal; tp: string; sl: string; fire: Record<string, string> }> {
  await w.setMark(SYM, start.toFixed());
  const m = w.market(SYM);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, start, 8), leverage: 3 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  const p = await waitForPosition(w.ctx, t.accountId, SYM, (x) => x !== undefined, 'position');
  const tp = priceAt(m, start, 1.1);
  const sl = priceAt(m, start, 0.95);
  const prepared = await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, tp, sl });
  expect((await submitPositionTpsl(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet))).ok).toBe(true);
  return { size: new Decimal(p!.size), tp, sl, fire: Object.fromEntries(prepared.view.changes.map((c) => [c.kind, c.fire_price!])) };
}

async function armed(t: Trader): Promise<{ tpsl: string; trigger_price: string; limit_price: string; order_id: string; size: string }[]> {
  return (await w.ctx.api.positionTriggers(t.wallet)).orders
    .filter((o) => o.market === SYM)
    .map((o) => ({ tpsl: o.tpsl!, trigger_price: canonical(new Decimal(o.trigger_price!)), limit_price: canonical(new Decimal(o.limit_price)), order_id: o.order_id, size: o.size }))
    .sort((a, b) => (a.tpsl < b.tpsl ? -1 : 1));
}

describe('a partial close keeps the protection', () => {
  it('50% at market: TP and SL lifted, then re-armed at the same levels on the rest, exactly once; the review says it', async () => {
    const t = await w.trader();
    const { size, tp, sl, fire } = await longWithLevels(t);
    const before = await armed(t);
    const prepared = await prepareClose(w.ctx, { wallet: t.wallet, market: SYM, percent: '50' });
    const remaining = canonical(size.minus(new Decimal(prepared.view.close_size)));
    const fmt = (x: string) => new Decimal(x).toNumber().toLocaleString('en-US', { maximumFractionDigits: 8 });
    expect(prepared.view.summary).toContain(`TP ${fmt(tp)} and SL ${fmt(sl)} are lifted for the close and re-armed on the remaining ${remaining}`);
    expect(prepared.view.warnings.join(' ')).not.toMatch(/no TP\/SL/);
    const r = await submitClose(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet));
    expect(r.order.final?.status).toBe('FILLED');
    expect(r.cancelled_triggers.map((c) => c.order_id).sort()).toEqual(before.map((b) => b.order_id).sort());
    expect(r.rearm).toMatchObject({ remaining, past_mark: [], failed: [], kept: [] });
    expect(r.rearm!.rearmed).toHaveLength(2);
    const after = await armed(t);
    expect(after.map(({ tpsl, trigger_price, limit_price, size: s }) => ({ tpsl, trigger_price, limit_price, size: s }))).toEqual([
      { tpsl: 'sl', trigger_price: sl, limit_price: fire.sl, size: '0' },
      { tpsl: 'tp', trigger_price: tp, limit_price: fire.tp, size: '0' },
    ]);
    expect(after.map((a) => a.order_id).some((id) => before.some((b) => b.order_id === id))).toBe(false);
    expect(hasPendingProtection(w.dataDir)).toBe(false);
    // Exactly once: a restore run now finds nothing to do, and the triggers stay one of each.
    expect((await restorePendingProtection(w.ctx)).outcomes).toEqual([]);
    expect((await armed(t)).map((a) => a.order_id)).toEqual(after.map((a) => a.order_id));
  });

  it('a limit close re-arms once it rests; what it leaves after a partial fill is still covered', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const { tp, sl } = await longWithLevels(t);
    const price = priceAt(m, start, 1.02);
    const prepared = await prepareClose(w.ctx, { wallet: t.wallet, market: SYM, percent: '40', price });
    expect(prepared.view.rearm?.when).toBe('once_resting');
    expect(prepared.view.summary.join('\n')).toMatch(/re-armed once the limit close rests/);
    const r = await submitClose(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet));
    expect(r.resting).toBe(true);
    expect((await armed(t)).map((a) => [a.tpsl, a.trigger_price])).toEqual([
      ['sl', sl],
      ['tp', tp],
    ]);
    // The limit fills when the mark gets there; the whole-position triggers cover the rest.
    await w.setMark(SYM, priceAt(m, start, 1.03));
    const left = await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined && new Decimal(p.size).lt(r.position_before.size), 'the limit close to fill');
    expect(new Decimal(left!.size).isPos()).toBe(true);
    expect((await armed(t)).map((a) => a.tpsl)).toEqual(['sl', 'tp']);
  });

  it('a close that does not fill puts the levels back before it reports the failure', async () => {
    const t = await w.trader();
    const { tp, sl } = await longWithLevels(t);
    // Bounded at the mark itself, the book has nothing for it: cancelled unfilled.
    const err = (await closePosition(w.ctx, { wallet: t.wallet, market: SYM, slippageBps: 0 }).catch((e: unknown) => e)) as { code: string; details: { rearm: { rearmed: unknown[] } } };
    expect(err.code).toBe('CLOSE_NOT_FILLED');
    expect(err.details.rearm.rearmed).toHaveLength(2);
    expect((await armed(t)).map((a) => [a.tpsl, a.trigger_price])).toEqual([
      ['sl', sl],
      ['tp', tp],
    ]);
  });

  it('a level the mark has passed is reported with the choice, never re-armed silently', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const { tp, sl, fire } = await longWithLevels(t);
    const rows = await armed(t);
    // As a process that lifted them and died: the record, the cancels, then the mark falls through the SL.
    const intent = writeRearmIntent(w.ctx, {
      wallet: t.wallet,
      market: SYM,
      side: 'LONG',
      lifted: rows.map((r) => ({ order_id: r.order_id, kind: r.tpsl as 'tp' | 'sl', trigger_price: r.trigger_price, limit_price: r.limit_price })),
    });
    intent.lock.release();
    await cancelOrders(w.ctx, { wallet: t.wallet, targets: rows.map((r) => ({ order_id: r.order_id, order_type: 'TRIGGER' as const })) });
    await w.advance(2_000);
    expect(await armed(t)).toEqual([]);
    await w.setMark(SYM, priceAt(m, new Decimal(sl), 0.99));
    const { outcomes } = await restorePendingProtection(w.ctx);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.past_mark).toEqual([{ kind: 'sl', trigger_price: sl, mark: expect.any(String) }]);
    expect(outcomes[0]!.summary.join('\n')).toMatch(/SL [\d,.]+ was not re-armed: the mark [\d,.]+ is already past it\. Close the remaining [\d.]+ ETH at market, or set a new stop/);
    expect((await armed(t)).map((a) => [a.tpsl, a.trigger_price, a.limit_price])).toEqual([['tp', tp, fire.tp]]);
    expect(hasPendingProtection(w.dataDir)).toBe(false);
  });
});
