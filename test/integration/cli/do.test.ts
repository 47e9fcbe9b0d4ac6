/**
 * `perps do "<phrase>"` against the simulator on loopback: each kind of phrase prints the review and
 * sends nothing without --yes; with --yes it places, closes, cancels or runs the TWAP and the simulator
 * shows it; an incomplete, ambiguous or hostile phrase is exit 2 saying what was understood and what is
 * missing, and nothing reaches the simulator.
 *
 * Time (issue 37): the CLI's main runs in this process against a simulator with a manual clock, so its
 * waits (the TWAP's slices) move that clock (perpsWorld.ts), and the test's own waits for a fill move it
 * too (w.advance): nothing here waits on the wall clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { perpsOn, type WorldRun } from '../../support/perpsWorld.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;


/** `perps ARGS` on the world (test/support/perpsWorld.ts), in this process. */
const perps = perpsOn(() => w);

const doIt = (t: Trader, phrase: string, ...flags: string[]): Promise<WorldRun> => perps(['--json', 'do', phrase, '--wallet', t.wallet, ...flags]);

/** Everything the simulator holds for the trader: every order it ever got, open orders, positions. */
async function footprint(t: Trader): Promise<string> {
  const [history, open, positions] = await Promise.all([t.history(), t.openOrders(), w.ctx.api.positions(t.accountId)]);
  return JSON.stringify({ history: history.map((o) => [o.order_id, o.status]).sort(), open: open.map((o) => o.order_id).sort(), positions: positions.positions.map((p) => [p.market, p.size]) });
}

async function positionSize(t: Trader, sym: string, until: (size: Decimal | null) => boolean): Promise<Decimal | null> {
  for (let i = 0; i < 100; i++) {
    const p = (await w.ctx.api.positions(t.accountId)).positions.find((x) => x.market === sym);
    const size = p ? new Decimal(p.size) : null;
    if (until(size)) return size;
    await w.advance(100);
  }
  throw new Error(`${sym} position never reached the expected size`);
}

beforeAll(async () => {
  w = await TradingWorld.boot('cli-do');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

describe.concurrent('perps do', () => {
  it('a market order: the review without --yes sends nothing; with --yes it fills', async () => {
    const t = await w.trader();
    const m = w.market('BTC');
    const size = sizeFor(m, await w.mark('BTC'), 3);
    const before = await footprint(t);

    const review = await doIt(t, `buy ${size} btc`);
    expect(review.code, review.stderr).toBe(0);
    expect(review.json).toMatchObject({ dry_run: true, action: 'order', view: { market: 'BTC', legs: [{ side: 'BUY', order_type: 'MARKET', size }] } });
    expect(await footprint(t)).toBe(before);

    const human = await perps(['do', `buy ${size} btc`, '--wallet', t.wallet]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/REVIEW: nothing was signed or sent/);
    expect(human.stderr).toMatch(/review: Buy .* BTC at market/);
    expect(human.stderr).toMatch(/not signed or sent.*Add --yes to sign and send it/);
    expect(await footprint(t)).toBe(before);

    const placed = await doIt(t, `BUY ${size} BTC`, '--yes');
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.json.legs[0]).toMatchObject({ status: 'SUBMITTED' });
    expect((await positionSize(t, 'BTC', (s) => s !== null))!.eq(size)).toBe(true);
  });

  it('a limit order at a price on the tick rests on the book with --yes; cancel all takes it off only with --yes', async () => {
    const t = await w.trader();
    const m = w.market('ETH');
    const mark = await w.mark('ETH');
    const price = priceAt(m, mark, 1.05);
    const size = sizeFor(m, new Decimal(price), 3);
    const placed = await doIt(t, `sell ${size} eth at ${price}`, '--yes');
    expect(placed.code, placed.stderr).toBe(0);
    let open = await t.openOrders('ETH');
    for (let i = 0; i < 100 && open.length === 0; i++) {
      await w.advance(100);
      open = await t.openOrders('ETH');
    }
    expect(open.map((o) => [o.side, new Decimal(o.size).toFixed(), new Decimal(o.limit_price!).toFixed()])).toEqual([['sell', size, price]]);

    const before = await footprint(t);
    const review = await doIt(t, 'cancel all eth');
    expect(review.code, review.stderr).toBe(0);
    expect(review.json).toMatchObject({ dry_run: true });
    expect(await footprint(t)).toBe(before);

    const cancelled = await doIt(t, 'cancel all eth', '--yes');
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(await t.openOrders('ETH')).toEqual([]);
  });

  it('close eth 50% closes half at market with --yes; close all closes the rest', async () => {
    const t = await w.trader();
    const m = w.market('ETH');
    const size = sizeFor(m, await w.mark('ETH'), 12);
    expect((await doIt(t, `long ${size} eth`, '--yes')).code).toBe(0);
    const full = (await positionSize(t, 'ETH', (s) => s !== null))!;

    const before = await footprint(t);
    const review = await doIt(t, 'close eth 50%');
    expect(review.code, review.stderr).toBe(0);
    expect(review.json).toMatchObject({ dry_run: true, action: 'close' });
    expect(await footprint(t)).toBe(before);

    const half = await doIt(t, 'close eth 50%', '--yes');
    expect(half.code, half.stderr).toBe(0);
    const closed = full.div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN);
    expect(half.json).toMatchObject({ closed: false, order: { leg: { side: 'SELL', reduce_only: true, size: closed.toFixed() } } });
    await positionSize(t, 'ETH', (s) => s !== null && s.eq(full.minus(closed)));

    const all = await doIt(t, 'close all', '--yes');
    expect(all.code, all.stderr).toBe(0);
    await positionSize(t, 'ETH', (s) => s === null);
  });

  it('a TWAP: the review shows the schedule; with --yes it runs its slices in the foreground', async () => {
    const t = await w.trader();
    const m = w.market('BTC');
    const size = sizeFor(m, await w.mark('BTC'), 6);
    const before = await footprint(t);
    const review = await doIt(t, `twap buy ${size} btc over 10s in 2 slices`);
    expect(review.code, review.stderr).toBe(0);
    expect(review.json).toMatchObject({ dry_run: true, action: 'twap', view: { market: 'BTC', side: 'BUY', slices: 2 } });
    expect(await footprint(t)).toBe(before);

    const run = await doIt(t, `twap buy ${size} btc over 10s in 2 slices`, '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ status: 'completed', slices_total: 2 });
    expect((await positionSize(t, 'BTC', (s) => s !== null && s.eq(size)))!.eq(size)).toBe(true);
  });

  it.each([
    ['buy 1e3 btc', 'PHRASE_INVALID', /size “1e3” is not a decimal/],
    ['buy -1 btc', 'PHRASE_INVALID', /must not be negative/],
    ['buy 0.1 btc at 0x10', 'PHRASE_INVALID', /price “0x10” is not a decimal/],
    ['buy 0.1 dogecoinz', 'PHRASE_INVALID', /no market “dogecoinz”/],
    ['buy 0.123456789 btc', 'PHRASE_INVALID', /not rounded/],
    ['buy 0.1', 'PHRASE_INCOMPLETE', /Understood “buy 0.1”; missing a market/],
    ['close eth 50', 'PHRASE_AMBIGUOUS', /50% of the position or a size of 50/],
    ['cancel', 'PHRASE_INCOMPLETE', /what to cancel/],
    ['history', 'PHRASE_INVALID', /not a trade/],
    [`buy 0.1 btc ${'x'.repeat(300)}`, 'PHRASE_INVALID', /longer than 200 characters/],
    ['buy 0.1 btc\u0007', 'PHRASE_INVALID', /control or invisible/],
    ['buy 0.1 \u202ebtc', 'PHRASE_INVALID', /control or invisible/],
    ['', 'PHRASE_INCOMPLETE', /Type a command/],
  ])('%j is exit 2 (%s) with nothing sent, even with --yes', async (phrase, code, message) => {
    const t = await w.trader();
    const before = await footprint(t);
    const r = await doIt(t, phrase, '--yes');
    expect(r.code, r.stderr).toBe(2);
    expect(r.json.error).toMatchObject({ code, exit_code: 2 });
    expect(r.json.error.message).toMatch(message);
    expect(await footprint(t)).toBe(before);
  });
});
