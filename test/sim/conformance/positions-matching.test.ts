/**
 * Fills, positions, fees, balance accounting, the exit procedure, funding and liquidation.
 * Spec: "Position", "Fill", "Funding payment", "Balance", "Position lifecycle rules" 1-6, POST /orders
 * rule 2 (maker rate), "Market" fee rates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Ctx,
  D,
  HOUR_MS,
  Trader,
  ceilTick,
  expectLegRejected,
  expectLegNotAccepted,
  expectLegSubmitted,
  expectOk,
  floorTick,
  marketSpec,
  openPosition,
  prices,
  restingSpec,
  triggerSpec,
  type J,
  type Market,
} from './support/fixtures.js';

let ctx: Ctx;
let m: Market;
beforeAll(async () => {
  ctx = await Ctx.boot();
  m = ctx.defaultMarket;
});
afterAll(async () => {
  await ctx?.stop();
});

const TERMINAL = ['FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'];
/** fee = price x size x rate, to the USDC unit (6 decimals; the spec does not fix the rounding). */
function expectFee(f: J, rate: string): void {
  const exact = D(f.price).mul(f.size).mul(rate);
  expect(D(f.fee).minus(exact).abs().lte('0.000001'), `fee ${f.fee} vs ${exact.toFixed()}`).toBe(true);
}

const sum = (xs: string[]): ReturnType<typeof D> => xs.reduce((a, x) => a.plus(x), D(0));

describe('positions', () => {
  it('a filled buy shows up (after the lag) as a long: signed size, entry_price = avg fill, no side or leverage', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'BUY');
    const id = expectLegSubmitted(await t.place(spec));
    const { order } = await ctx.waitStatus(id, 'FILLED');
    const pos = await t.waitPosition(m.symbol, (x) => x !== undefined);
    expect(pos).toMatchObject({ market: m.symbol, size: spec.size });
    expect(D(pos!.entry_price).eq(order.avg_fill_price)).toBe(true);
    for (const k of ['id', 'isolated_margin', 'closeable', 'status', 'version']) expect(pos![k], k).toBeDefined();
    expect(D(pos!.isolated_margin).gt(0)).toBe(true);
    expect(D(pos!.closeable).eq(spec.size)).toBe(true);
    expect(pos!.side).toBeUndefined();
    expect(pos!.leverage).toBeUndefined();
  });

  it('a filled sell shows up as a short: negative size', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'SELL');
    await ctx.waitStatus(expectLegSubmitted(await t.place(spec)), 'FILLED');
    const pos = await t.waitPosition(m.symbol, (x) => x !== undefined);
    expect(D(pos!.size).eq(D(spec.size).neg())).toBe(true);
  });

  it('version increments on every change of the position', async () => {
    const t = await Trader.create(ctx);
    const { position: first } = await openPosition(t, m, 'BUY');
    const { position: second } = await openPosition(t, m, 'BUY');
    expect(Number(second.version)).toBeGreaterThan(Number(first.version));
    expect(D(second.size).gt(first.size)).toBe(true);
    expect(second.id).toBe(first.id);
  });

  it('stop levels derive from the current mark, not entry_price', async () => {
    const t = await Trader.create(ctx);
    const { position } = await openPosition(t, m, 'BUY');
    const entry = D(position.entry_price);
    await ctx.setMark(m.symbol, ceilTick(entry.mul(1.1), m.tick_size));
    const mark = await ctx.mark(m.symbol);
    // SL above the entry but below the mark is a valid long stop.
    const sl = triggerSpec(m, mark, 'LONG', 'SL', 0.03);
    expect(D(sl.trigger!.trigger_price).gt(entry)).toBe(true);
    // TP above the entry but below the mark has already been passed.
    const tp = triggerSpec(m, mark, 'LONG', 'TP', 0.1);
    const tpPast = { ...tp, trigger: { ...tp.trigger!, trigger_price: ceilTick(entry.mul(1.05), m.tick_size) } };
    expectLegNotAccepted(await t.place(tpPast));
    expectLegSubmitted(await t.place(sl));
    await ctx.setMark(m.symbol, entry);
  });
});

describe('fills and fees', () => {
  it('a market fill is a taker fill: fee = price x size x taker_fee_rate; dir Open Long; no closed_pnl', async () => {
    const t = await Trader.create(ctx);
    const { orderId } = await openPosition(t, m, 'BUY');
    const fills = (await t.fills()).filter((f) => f.order_id === orderId);
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) {
      expectFee(f, m.taker_fee_rate);
      expect(f.dir).toBe('Open Long');
      expect(f.is_liquidation).toBe(false);
      expect(Number.isInteger(f.filled_at)).toBe(true);
      expect(f.tid).toBeDefined();
      expect(f.closed_pnl === undefined || f.closed_pnl === null).toBe(true);
    }
  });

  it('a post-only fill is a maker fill: fee = price x size x maker_fee_rate', async () => {
    const t = await Trader.create(ctx);
    const p = await prices(ctx, m);
    const spec = restingSpec(m, p, 'BUY', { time_in_force: 'ALO' });
    const id = expectLegSubmitted(await t.place(spec));
    await ctx.waitStatus(id, 'ACCEPTED');
    await ctx.setMark(m.symbol, floorTick(D(spec.limit_price).mul(0.97), m.tick_size));
    await ctx.waitStatus(id, 'FILLED');
    const fills = (await t.fills()).filter((f) => f.order_id === id);
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) expectFee(f, m.maker_fee_rate);
    await ctx.setMark(m.symbol, p.mark);
  });

  it('free_balance excludes unrealized PnL: a mark move does not change it', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    const before = await t.freeBalance();
    await ctx.setMark(m.symbol, ceilTick(D(position.entry_price).mul(1.05), m.tick_size));
    await ctx.advance(1000);
    expect(await t.freeBalance()).toBe(before);
    await ctx.setMark(m.symbol, floorTick(D(position.entry_price).mul(0.98), m.tick_size));
    await ctx.advance(1000);
    expect(await t.freeBalance()).toBe(before);
    await ctx.setMark(m.symbol, position.entry_price);
  });

  it('free_balance excludes posted margin: deposit = free_balance + isolated_margin + fees paid', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { orderId, position } = await openPosition(t, m, 'BUY');
    const fees = sum((await t.fills()).filter((f) => f.order_id === orderId).map((f) => f.fee));
    const free = D(await t.freeBalance());
    expect(free.plus(position.isolated_margin).plus(fees).eq(5000)).toBe(true);
  });
});

describe('exit procedure (rules 3-5)', () => {
  it('cancel the armed trigger, poll position-triggers until gone, then one reduce-only MARKET of closeable closes the position', async () => {
    const t = await Trader.create(ctx, { fund: '5000' });
    const { position } = await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const sl = expectLegSubmitted(await t.place(triggerSpec(m, p.mark, 'LONG', 'SL', 0.2)));
    await ctx.until('armed', async () => ((await t.triggers()).some((o) => o.order_id === sl) ? true : undefined));
    expectLegRejected(await t.place(marketSpec(m, p, 'SELL', { size: position.closeable, reduce_only: true })), 0, 'close_trigger_coexistence');
    expect(expectOk(await t.cancel(sl, 'TRIGGER')).status).toBe('SUBMITTED');
    await ctx.until('trigger gone', async () => ((await t.triggers()).length === 0 ? true : undefined));
    const p2 = await prices(ctx, m);
    const close = expectLegSubmitted(await t.place(marketSpec(m, p2, 'SELL', { size: position.closeable, reduce_only: true })));
    expect((await ctx.waitStatus(close, TERMINAL)).order.status).toBe('FILLED');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const closeFills = (await t.fills()).filter((f) => f.order_id === close);
    expect(closeFills.length).toBeGreaterThan(0);
    for (const f of closeFills) {
      expect(f.dir).toBe('Close Long');
      expect(typeof f.closed_pnl).toBe('string');
      const gross = D(f.price).minus(position.entry_price).mul(f.size);
      expect(D(f.closed_pnl).eq(gross) || D(f.closed_pnl).eq(gross.minus(f.fee))).toBe(true);
    }
    // All margin returns: balance = deposit - all fees + realized pnl (fee-inclusive or not).
    const fills = await t.fills();
    const fees = sum(fills.map((f) => f.fee));
    const pnl = sum(fills.filter((f) => f.closed_pnl != null).map((f) => f.closed_pnl));
    const free = D(await t.freeBalance());
    const grossPnl = sum(closeFills.map((f) => D(f.price).minus(position.entry_price).mul(f.size).toFixed()));
    expect(free.eq(D(5000).minus(fees).plus(grossPnl)) || free.eq(D(5000).minus(fees).plus(pnl))).toBe(true);
  });

  it('no atomic flip: exit then enter turns a long into a short', async () => {
    const t = await Trader.create(ctx);
    const { position } = await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const close = expectLegSubmitted(await t.place(marketSpec(m, p, 'SELL', { size: position.closeable, reduce_only: true })));
    await ctx.waitStatus(close, 'FILLED');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const { position: short } = await openPosition(t, m, 'SELL');
    expect(D(short.size).lt(0)).toBe(true);
    const closeFill = (await t.fills()).find((f) => f.order_id === close);
    expect(closeFill?.dir).toBe('Close Long');
    expect((await t.fills()).some((f) => f.dir === 'Open Short')).toBe(true);
  });

  it("size '0' on a reduce-only trigger closes the whole position at fire time, including size added after it armed", async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    const p = await prices(ctx, m);
    const spec = triggerSpec(m, p.mark, 'LONG', 'SL', 0.1);
    const sl = expectLegSubmitted(await t.place(spec));
    await ctx.until('armed', async () => ((await t.triggers()).some((o) => o.order_id === sl) ? true : undefined));
    const { position: grown } = await openPosition(t, m, 'BUY');
    await ctx.setMark(m.symbol, floorTick(D(spec.trigger!.trigger_price).mul(0.99), m.tick_size));
    expect((await ctx.waitStatus(sl, TERMINAL)).order.status).toBe('FILLED');
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const closed = sum((await t.fills()).filter((f) => f.order_id === sl).map((f) => f.size));
    expect(closed.eq(grown.size)).toBe(true);
    await ctx.setMark(m.symbol, p.mark);
  });

  it('an orphan liquidation is read back with order_type ORPHAN_LIQUIDATION and an is_liquidation fill', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    await ctx.liquidate(t.address, m.symbol, true);
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const hist = await t.history();
    const row = hist.find((r) => r.order_type === 'ORPHAN_LIQUIDATION');
    expect(row).toBeDefined();
    expect((await t.fills()).some((f) => f.is_liquidation === true && f.order_id === row.order_id)).toBe(true);
    const rec = await ctx.getOrder(row.order_id);
    expect(rec.status).toBe(200);
    expect(rec.body.data.status).toBe('FILLED');
  });
});

describe('funding (hourly, one entry per position per hour)', () => {
  it('a long pays a positive rate: one payment per hour with direction, size, signed payment, raw rate', async () => {
    const t = await Trader.create(ctx);
    const { position } = await openPosition(t, m, 'BUY');
    await ctx.advance(HOUR_MS);
    const first = await ctx.until('a funding payment', async () => {
      const ps = await t.fundingPayments();
      return ps.length > 0 ? ps : undefined;
    });
    expect(first).toHaveLength(1);
    const pay = first[0];
    expect(pay.direction).toBe('LONG');
    expect(D(pay.size).abs().eq(D(position.size).abs())).toBe(true);
    expect(typeof pay.payment).toBe('string');
    expect(typeof pay.funding_rate).toBe('string');
    expect(pay.epoch_time).toBeDefined();
    expect(pay.settled_at).toBeDefined();
    if (D(pay.funding_rate).gt(0)) expect(D(pay.payment).lt(0)).toBe(true);
    if (D(pay.funding_rate).lt(0)) expect(D(pay.payment).gt(0)).toBe(true);
    // The rate is the venue's hourly rate for that hour (a raw fraction).
    const venue = await ctx.venueInfo({ type: 'fundingHistory', coin: m.venue_symbol, startTime: ctx.now() - 2 * HOUR_MS });
    const rates = (venue.body as J[]).map((e) => e.fundingRate as string);
    expect(rates.some((r) => D(r).eq(pay.funding_rate))).toBe(true);
    await ctx.advance(2 * HOUR_MS);
    await ctx.advance(1000);
    expect(await t.fundingPayments()).toHaveLength(3);
  });

  it('a short receives a positive rate', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'SELL');
    await ctx.advance(HOUR_MS + 1000);
    const ps = await t.fundingPayments();
    expect(ps).toHaveLength(1);
    expect(ps[0].direction).toBe('SHORT');
    if (D(ps[0].funding_rate).gt(0)) expect(D(ps[0].payment).gt(0)).toBe(true);
  });
});

describe('the records add up to the balance (a reader rebuilds cash from them)', () => {
  it('free balance = deposits + closed_pnl - fee of every fill + every funding payment, through funding larger than the margin and the liquidation after it', async () => {
    const t = await Trader.create(ctx, { fund: '20000' });
    const live = await ctx.venueInfo({ type: 'metaAndAssetCtxs' });
    const rateBefore = live.body[1][m.venue_asset_index].funding as string;
    try {
      const p = await prices(ctx, m);
      await ctx.waitStatus(expectLegSubmitted(await t.place(marketSpec(m, p, 'BUY', { leverage: m.max_leverage }))), 'FILLED');
      const pos = await t.waitPosition(m.symbol, (x) => x !== undefined);
      // One hour's payment of 1.2 times the posted margin: the margin is all the position can pay. (At the
      // market's maximum leverage this stays inside the control API's funding-rate bound, the venue's cap.)
      const rate = D(pos!.isolated_margin).mul('1.2').div(D(pos!.size).abs().mul(p.mark)).mul(1e8).ceil().div(1e8);
      await ctx.setFundingRate(m.symbol, rate.toFixed());
      await ctx.advance(HOUR_MS + 1000);
      await t.waitPosition(m.symbol, (x) => x === undefined);
      const payments = await t.fundingPayments();
      expect(payments).toHaveLength(1);
      expect(D(payments[0].payment).eq(D(pos!.isolated_margin).neg())).toBe(true);
      const fills = await t.fills();
      expect(fills.some((f) => f.is_liquidation === true)).toBe(true);
      const rebuilt = fills.reduce((s, f) => s.plus(f.closed_pnl ?? 0).minus(f.fee), D(20000)).plus(payments.reduce((s, x) => s.plus(x.payment), D(0)));
      expect(rebuilt.toFixed()).toBe(D(await t.freeBalance()).toFixed());
    } finally {
      await ctx.setFundingRate(m.symbol, rateBefore);
    }
  });
});

describe('liquidation (server-generated order types appear on reads)', () => {
  it('a long at max leverage is liquidated when the mark falls far enough: is_liquidation fill, position gone', async () => {
    const t = await Trader.create(ctx, { fund: '20000' });
    const p = await prices(ctx, m);
    const spec = marketSpec(m, p, 'BUY', { leverage: m.max_leverage });
    await ctx.waitStatus(expectLegSubmitted(await t.place(spec)), 'FILLED');
    const pos = await t.waitPosition(m.symbol, (x) => x !== undefined);
    // A fall of twice the initial margin ratio wipes the posted margin.
    const crash = floorTick(D(pos!.entry_price).mul(D(1).minus(D(m.initial_margin_ratio).mul(2))), m.tick_size);
    await ctx.setMark(m.symbol, crash);
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const liq = (await t.fills()).filter((f) => f.is_liquidation === true);
    expect(liq.length).toBeGreaterThan(0);
    const hist = await t.history();
    expect(hist.some((r) => r.order_type === 'LIQUIDATION' || r.order_type === 'ORPHAN_LIQUIDATION')).toBe(true);
    await ctx.setMark(m.symbol, p.mark);
  });

  it('an orphan liquidation is read back with order_type ORPHAN_LIQUIDATION and an is_liquidation fill', async () => {
    const t = await Trader.create(ctx);
    await openPosition(t, m, 'BUY');
    await ctx.liquidate(t.address, m.symbol, true);
    await t.waitPosition(m.symbol, (x) => x === undefined);
    const hist = await t.history();
    const row = hist.find((r) => r.order_type === 'ORPHAN_LIQUIDATION');
    expect(row).toBeDefined();
    expect((await t.fills()).some((f) => f.is_liquidation === true && f.order_id === row.order_id)).toBe(true);
    const rec = await ctx.getOrder(row.order_id);
    expect(rec.status).toBe(200);
    expect(rec.body.data.status).toBe('FILLED');
  });
});
