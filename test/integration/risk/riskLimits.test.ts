/**
 * Risk limits enforced in the prepare step every order goes through (issue 39 items 1 to 4), over real
 * loopback HTTP to the simulator with its manual clock: each limit refuses an order that would break it
 * (RISK_LIMIT naming the limit, its value and what the order would make it) before anything is signed;
 * a losing day locks opening orders (RISK_LOCKOUT) while closes still pass, and the next reset unlocks; a
 * loosened limit waits its cool-down while a tightened one applies at once; the store and its log are
 * 0600.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlgoEvent } from '../../../src/main/services/algos/engine/index.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/submitOrder.js';
import { prepareLegs } from '../../../src/main/services/orders/prepareOrder.js';
import { closePosition, waitForPosition } from '../../../src/main/services/positions/index.js';
import { setLimits, showLimits, limitsLog } from '../../../src/main/services/risk/limitsOps.js';
import { riskStoreOf } from '../../../src/main/services/risk/riskStore.js';
import { toAppError } from '../../../src/main/services/errors.js';
import { withdraw } from '../../../src/main/services/money/withdrawals/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';
const H = 3_600_000;
beforeAll(async () => {
  w = await TradingWorld.boot('risk-limits');
});
afterAll(async () => {
  await w?.stop();
});

async function refusal(p: Promise<unknown>): Promise<ReturnType<typeof toAppError>> {
  try {
    await p;
  } catch (err) {
    return toAppError(err);
  }
  throw new Error('expected a refusal');
}

/** Opens a long of about `multiple` x min_order_value and waits for it to show. */
async function openLong(t: Trader, multiple = 3): Promise<string> {
  const m = w.market(SYM);
  const size = sizeFor(m, await w.mark(SYM), multiple);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size, leverage: 5 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'long to show');
  return size;
}

const marketBuy = (t: Trader, size: string, leverage = 5) => prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size, leverage }] });

describe('risk limits in the prepare step', () => {
  it('with no limits nothing changes: no read is added before an order', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    // A new trader has no limits; other tests' limits (for their own traders) may already be in the store.
    const store = riskStoreOf(w.ctx).file;
    const stored = () => (fs.existsSync(store) ? fs.readFileSync(store, 'utf8') : null);
    const before = stored();
    const from = w.requests.length;
    await prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, await w.mark(SYM)), order_type: 'LIMIT', limit_price: priceAt(m, await w.mark(SYM), 0.9) }] });
    expect(w.since(from).map((r) => r.path).filter((p) => p.includes('history'))).toEqual([]);
    // Nothing is written either: no store where there was none, the same bytes where there was one.
    expect(stored()).toBe(before);
  });

  it('refuses at each limit, naming it, its value and what the order would make it; nothing signed', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const size = sizeFor(m, mark, 3);
    const notional = new Decimal(size).mul(mark);

    await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: notional.div(2).toFixed(2) } });
    let e = await refusal(marketBuy(t, size));
    expect(e).toMatchObject({ code: 'RISK_LIMIT', kind: 'validation', exitCode: 2 });
    expect(e.details).toMatchObject({ limit: 'max_order_notional', value: notional.div(2).toFixed(2) });
    expect(e.message).toMatch(/max_order_notional: the order's notional would be [\d.]+ USD, above your limit of [\d.]+ USD/);
    await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: null } }); // loosening: waits

    const t2 = await w.trader();
    await setLimits(w.ctx, { wallet: t2.wallet, limits: { max_leverage: '3' } });
    e = await refusal(marketBuy(t2, size, 5));
    expect(e.details).toMatchObject({ limit: 'max_leverage', value: '3', would_be: '5' });
    await expect(marketBuy(t2, size, 3)).resolves.toBeDefined();

    const t3 = await w.trader();
    await setLimits(w.ctx, { wallet: t3.wallet, market: SYM, limits: { max_leverage: '2' } });
    e = await refusal(marketBuy(t3, size, 3));
    expect(e.details).toMatchObject({ limit: `markets.${SYM}.max_leverage`, value: '2', would_be: '3' });
    // Above the market's own maximum: refused as input, nothing stored.
    const above = await refusal(setLimits(w.ctx, { wallet: t3.wallet, market: SYM, limits: { max_leverage: String(m.max_leverage + 1) } }));
    expect(above).toMatchObject({ code: 'INVALID_LIMIT', kind: 'validation' });

    const t4 = await w.trader();
    await openLong(t4, 3);
    await setLimits(w.ctx, { wallet: t4.wallet, limits: { max_position_notional: notional.mul(1.5).toFixed(2) } });
    e = await refusal(marketBuy(t4, size));
    expect(e.details).toMatchObject({ limit: 'max_position_notional' });
    expect(new Decimal(e.details!['would_be'] as string).gt(notional.mul(1.5))).toBe(true);
    await setLimits(w.ctx, { wallet: t4.wallet, limits: { max_total_notional: notional.mul(1.2).toFixed(2) } });
    e = await refusal(prepareLegs(w.ctx, { wallet: t4.wallet, legs: [{ market: 'ETH', side: 'BUY', size: sizeFor(w.market('ETH'), await w.mark('ETH'), 2), leverage: 5 }] }));
    expect(e.details).toMatchObject({ limit: 'max_total_notional' });
    // A close is never refused, whatever the limits.
    const closed = await closePosition(w.ctx, { wallet: t4.wallet, market: SYM });
    expect(closed.closed).toBe(true);

    const t5 = await w.trader();
    await setLimits(w.ctx, { wallet: t5.wallet, limits: { max_orders_per_minute: '2' } });
    await placeOrders(w.ctx, { wallet: t5.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.9) }] });
    await placeOrders(w.ctx, { wallet: t5.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.89) }] });
    e = await refusal(prepareLegs(w.ctx, { wallet: t5.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.88) }] }));
    expect(e.details).toMatchObject({ limit: 'max_orders_per_minute', value: '2', would_be: '3' });
    // A minute later by the service's clock, there is room again.
    await w.advance(61_000);
    await expect(prepareLegs(w.ctx, { wallet: t5.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.88) }] })).resolves.toBeDefined();
  });

  it('a losing day locks opening orders until the next reset; closes still pass', async () => {
    const t = await w.trader('100000');
    const mark = await w.mark(SYM);
    // A position of about 200 x min_order_value; a 2% fall loses about 4 x min_order_value.
    const size = await openLong(t, 200);
    const notional = new Decimal(size).mul(mark);
    const limit = notional.mul('0.01').toDecimalPlaces(0, Decimal.ROUND_UP).toFixed();
    await setLimits(w.ctx, { wallet: t.wallet, limits: { daily_loss: limit, max_drawdown: '50' } });
    let shown = await showLimits(w.ctx, t.wallet);
    expect(shown.lockout).toBeNull();
    expect(shown.room[0]!.text).toMatch(new RegExp(`^Daily loss: [\\d.]+ of ${limit} USD left$`));

    // The mark falls 2%: the day's loss passes the 1% limit.
    await w.setMark(SYM, priceAt(w.market(SYM), mark, '0.98'));
    const e = await refusal(marketBuy(t, size));
    expect(e).toMatchObject({ code: 'RISK_LOCKOUT', exitCode: 2 });
    expect(e.message).toMatch(/locked until \d{4}-\d\d-\d\dT00:00:00\.000Z: daily_loss: PnL since the reset is -[\d.]+ USD/);
    shown = await showLimits(w.ctx, t.wallet);
    expect(shown.lockout).not.toBeNull();
    expect(shown.room[0]).toMatchObject({ left: '0', warning: true });
    expect(limitsLog(w.ctx, t.wallet).entries.map((l) => l.action)).toContain('lockout');

    // Closes pass during the lockout.
    const closed = await closePosition(w.ctx, { wallet: t.wallet, market: SYM });
    expect(closed.closed).toBe(true);
    await expect(refusal(marketBuy(t, size))).resolves.toMatchObject({ code: 'RISK_LOCKOUT' });

    // The next reset unlocks: the day's PnL starts again from zero.
    await w.setMark(SYM, mark.toFixed());
    const until = shown.lockout!.until;
    const now = await w.ctx.clock.now();
    await w.advance(until - now + 1000);
    await expect(marketBuy(t, size)).resolves.toBeDefined();
    shown = await showLimits(w.ctx, t.wallet);
    expect(shown.lockout).toBeNull();
    expect(limitsLog(w.ctx, t.wallet).entries.map((l) => l.action)).toContain('unlocked');
  });

  it('money withdrawn is not a drawdown: a tenth of the account withdrawn leaves a 5% limit unbroken', async () => {
    const t = await w.trader('100000');
    await setLimits(w.ctx, { wallet: t.wallet, limits: { max_drawdown: '5' } });
    let shown = await showLimits(w.ctx, t.wallet);
    expect(shown.lockout).toBeNull();
    const before = new Decimal(shown.day!.peak_equity);
    const out = await withdraw(w.ctx, { wallet: t.wallet, amount: '10000', signer: t.mainSigner! });
    expect(out.withdrawal.status).toBe('REQUESTED');
    // An opening order still passes, and the day reads no drawdown: the peak came down with the money.
    await expect(marketBuy(t, sizeFor(w.market(SYM), await w.mark(SYM)))).resolves.toBeDefined();
    shown = await showLimits(w.ctx, t.wallet);
    expect(shown.lockout).toBeNull();
    expect(new Decimal(shown.day!.drawdown_pct).lt('0.5')).toBe(true);
    expect(new Decimal(shown.day!.peak_equity).minus(before.minus(10000)).abs().lt(50)).toBe(true);
    expect(limitsLog(w.ctx, t.wallet).entries.map((l) => l.action)).not.toContain('lockout');
  });

  it('a loosened limit waits its cool-down while a tightened one applies at once; every change is logged; files are 0600', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const size = sizeFor(m, mark, 3);
    const notional = new Decimal(size).mul(mark);
    const low = notional.div(2).toFixed(2);
    const high = notional.mul(2).toFixed(2);
    let r = await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: low }, cooldown: '2h' });
    expect(r.show.cooldown_ms).toBe(2 * H);
    await expect(refusal(marketBuy(t, size))).resolves.toMatchObject({ code: 'RISK_LIMIT' });

    r = await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: high } });
    expect(r.show.limits.max_order_notional).toBe(low);
    expect(r.show.pending).toEqual([{ limit: 'max_order_notional', value: high, effective_at: expect.any(Number) }]);
    expect(r.show.pending[0]!.effective_at - r.show.at).toBeGreaterThanOrEqual(2 * H - 1000);
    await expect(refusal(marketBuy(t, size))).resolves.toMatchObject({ code: 'RISK_LIMIT' });

    // Not yet: an hour later it still binds.
    await w.advance(H);
    await expect(refusal(marketBuy(t, size))).resolves.toMatchObject({ code: 'RISK_LIMIT' });
    await w.advance(H + 2000);
    await expect(marketBuy(t, size)).resolves.toBeDefined();

    // Tightening applies at once.
    await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: low } });
    await expect(refusal(marketBuy(t, size))).resolves.toMatchObject({ code: 'RISK_LIMIT' });

    const log = limitsLog(w.ctx, t.wallet).entries.map((l) => `${l.limit} ${l.old ?? 'none'}->${l.new ?? 'none'} ${l.action}`);
    expect(log).toEqual([
      `max_order_notional none->${low} applied`,
      `cooldown none->${2 * H} applied`,
      `max_order_notional ${low}->${high} pending`,
      `max_order_notional ${low}->${high} applied`,
      `max_order_notional ${high}->${low} applied`,
    ]);
    const store = riskStoreOf(w.ctx);
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(store.logFile).mode & 0o777).toBe(0o600);
  });

  it('a damaged limits file refuses opening orders (never read as no limits), and still lets a close through', async () => {
    const t = await w.trader();
    await openLong(t, 3);
    const store = riskStoreOf(w.ctx);
    // The store as this test finds it (none yet when it runs before any test that sets a limit), put back after.
    const saved = fs.existsSync(store.file) ? fs.readFileSync(store.file, 'utf8') : null;
    fs.writeFileSync(store.file, '{"version":1,"wallets":[{"profile":"sim"}]}', { mode: 0o600 });
    try {
      const m = w.market(SYM);
      const e = await refusal(marketBuy(t, sizeFor(m, await w.mark(SYM))));
      expect(e.code).toBe('RISK_STORE_DAMAGED');
      expect((await closePosition(w.ctx, { wallet: t.wallet, market: SYM })).closed).toBe(true);
    } finally {
      if (saved === null) fs.rmSync(store.file);
      else fs.writeFileSync(store.file, saved);
    }
  });
});

describe('algorithms meet the limits in the same prepare step', () => {
  it('a TWAP whose next slice would break a limit pauses with the limit as its reason; the slice is not sent', async () => {
    const { prepareTwap, startTwap } = await import('../../../src/main/services/algos/twap/index.js');
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    // Each slice is 0.01 ETH (34 USD): a position limit of 50 USD lets one slice through, not two.
    await setLimits(w.ctx, { wallet: t.wallet, market: 'ETH', limits: { max_position_notional: '50' } });
    const clock = { now: async () => w.sim.clock.now(), sleep: (ms: number) => w.ctx.sleep(ms) };
    const plan = await prepareTwap(w.ctx, { wallet: t.wallet, market: 'ETH', side: 'BUY', totalSize: '0.05', durationMs: 25_000, slices: 5, leverage: 5, seed: 1 });
    const record = await (await startTwap(w.ctx, plan, { clock })).run();
    expect(record.status).toBe('paused');
    expect(record.slices.map((s) => s.status)).toEqual(['filled', 'pending', 'pending', 'pending', 'pending']);
    expect(record.notes.at(-1)).toMatch(/paused by a risk limit before slice 2\/5.*markets\.ETH\.max_position_notional: the ETH position would be 68 USD, above your limit of 50 USD/);
    const { simOrders } = await import('../twap/twapWorld.js');
    expect((await simOrders(w.sim.urls.base_url, t.wallet)).length).toBe(1);
  });

  it('a risk-limit pause is a typed event (paused, reason risk_limit) a front end acts on without reading its text', async () => {
    const { prepareTwap, startTwap, RISK_PAUSE_REASON } = await import('../../../src/main/services/algos/twap/index.js');
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await setLimits(w.ctx, { wallet: t.wallet, market: 'ETH', limits: { max_position_notional: '50' } });
    const clock = { now: async () => w.sim.clock.now(), sleep: (ms: number) => w.ctx.sleep(ms) };
    const plan = await prepareTwap(w.ctx, { wallet: t.wallet, market: 'ETH', side: 'BUY', totalSize: '0.05', durationMs: 25_000, slices: 5, leverage: 5, seed: 1 });
    const events: AlgoEvent[] = [];
    const record = await (await startTwap(w.ctx, plan, { clock, onAlgoEvent: (e) => events.push(e) })).run();
    expect(record.status).toBe('paused');
    const paused = events.filter((e) => e.type === 'paused');
    expect(paused).toEqual([{ kind: 'twap', id: record.id, type: 'paused', reason: RISK_PAUSE_REASON, market: 'ETH', at: expect.any(Number), text: expect.stringMatching(/max_position_notional/) }]);
    expect(RISK_PAUSE_REASON).toBe('risk_limit');
    // Said once written, at the time it was written.
    expect(record.notes.at(-1)).toBe(`${new Date(paused[0]!.at).toISOString()} ${paused[0]!.text}`);
  });
});

describe('a modify meets the limits too', () => {
  it('making a resting order larger beyond max_order_notional is refused; making it smaller is not', async () => {
    const { prepareModify } = await import('../../../src/main/services/orders/modifyOrder.js');
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const size = sizeFor(m, mark, 3);
    const price = priceAt(m, mark, 0.9);
    const placed = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size, order_type: 'LIMIT', limit_price: price }] }, { wait: true });
    const id = placed.legs[0]!.order_id!;
    const notional = new Decimal(size).mul(price);
    await setLimits(w.ctx, { wallet: t.wallet, limits: { max_order_notional: notional.mul('1.5').toFixed(2) } });
    const e = await refusal(prepareModify(w.ctx, { wallet: t.wallet, orderId: id, price, size: new Decimal(size).mul(3).toFixed() }));
    expect(e).toMatchObject({ code: 'RISK_LIMIT' });
    expect(e.details).toMatchObject({ limit: 'max_order_notional' });
    await expect(prepareModify(w.ctx, { wallet: t.wallet, orderId: id, price, size: new Decimal(size).div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_UP).toFixed() })).resolves.toBeDefined();
  });
});
