/**
 * The reads a trader asks the command line (issue 14, points 1, 2 and 6), run by the CLI's own main in
 * this process (test/support/perpsWorld.ts) against a simulator on loopback (on its manual clock, issue
 * 37: the setup moves it where orders settle; marks frozen and set through the control API):
 *  - `perps positions`: mark, unrealized PnL, ROE, the liquidation ESTIMATE and the armed TP/SL, the
 *    table rounded to the market's decimals (money to cents, no version column), --json at full precision;
 *  - `perps balance`: the computed health figures, saying equity is computed;
 *  - `perps markets`: the venue's mark, 24 h change, hourly funding and open interest, joined on
 *    venue_symbol / venue_asset_index (PEPE is kPEPE on the venue);
 *  - `perps book SYM` (grouping and depth as the app's book) and `perps price SYM`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { liquidationForDisplay, liquidationPrice } from '../../../src/shared/protocol/index.js';
import { placeOrder, placeOrders } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import { perpsOn, type J } from '../../support/perpsWorld.js';
import { TradingWorld, priceAt, sizeFor, type Trader } from '../orders/tradingWorld.js';

let w: TradingWorld;
let t: Trader;


/** `perps ARGS` on the world (test/support/perpsWorld.ts), in this process. */
const perps = perpsOn(() => w);

async function json(args: string[]): Promise<J> {
  const r = await perps(['--json', ...args]);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout) as J;
}

/** The cells of a table row (columns are separated by two or more spaces). */
const cells = (line: string): string[] => line.trim().split(/ {2,}/);

beforeAll(async () => {
  w = await TradingWorld.boot('cli-reads');
  // Funding is paid into isolated margin on the hour: a zero rate keeps margins fixed between two reads.
  for (const m of ['ETH', 'BTC']) await w.control('/funding-rate', { market: m, rate: '0' });
  await w.control('/funding-rate', { market: 'SOL', rate: '0.0000125' });
  await w.setMark('ETH', '3400');
  await w.setMark('BTC', '97000');
  await w.setMark('PEPE', '0.012345');
  t = await w.trader();
  const eth = w.market('ETH');
  const mark = await w.mark('ETH');
  const bracket = await placeOrder(
    w.ctx,
    { wallet: t.wallet, intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '1', leverage: 10, tp: { trigger_price: priceAt(eth, mark, 1.2) }, sl: { trigger_price: priceAt(eth, mark, 0.9) } } },
    { wait: true },
  );
  expect(bracket.legs.map((l) => l.final?.status)).toEqual(['FILLED', 'SUBMITTED', 'SUBMITTED']);
  const btc = w.market('BTC');
  const short = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: 'BTC', side: 'SELL', size: sizeFor(btc, await w.mark('BTC'), 300), leverage: 20 }] }, { wait: true });
  expect(short.legs[0]!.final?.status).toBe('FILLED');
  for (const m of ['ETH', 'BTC']) await waitForPosition(w.ctx, t.accountId, m, (p) => p !== undefined, `the ${m} position`);
  // The bracket legs arm once the entry settled into the position (on the simulator's clock).
  for (let i = 0; i < 50 && (await w.ctx.api.positionTriggers(t.wallet)).orders.length < 2; i++) await w.advance(100);
}, 90_000);
afterAll(async () => {
  await w?.stop();
});

describe.concurrent('perps positions / balance / markets / book / price', () => {
  it('positions --json: mark, PnL, ROE, the liquidation estimate, the armed TP/SL, full precision', async () => {
    const doc = await json(['positions', '--wallet', t.wallet]);
    const { positions } = await w.ctx.api.positions(t.accountId);
    const triggers = (await w.ctx.api.positionTriggers(t.wallet)).orders;
    for (const p of positions) {
      const row = (doc.positions as J[]).find((r) => r.market === p.market)!;
      const market = w.market(p.market);
      const mark = (await w.mark(p.market)).toFixed();
      expect(row).toMatchObject({ id: p.id, size: p.size, entry_price: p.entry_price, isolated_margin: p.isolated_margin, closeable: p.closeable, mark });
      expect(row.unrealized_pnl).toBe(canonical(new Decimal(p.size).mul(new Decimal(mark).minus(p.entry_price))));
      expect(row.return_on_margin).toBe(canonical(new Decimal(row.unrealized_pnl).div(p.isolated_margin).toDecimalPlaces(8, Decimal.ROUND_HALF_UP)));
      expect(row.liquidation_price).toBe(canonical(liquidationPrice(p, market.maintenance_margin_ratio)!));
    }
    const eth = (doc.positions as J[]).find((r) => r.market === 'ETH')!;
    const tp = triggers.find((o) => o.market === 'ETH' && o.tpsl === 'tp')!;
    const sl = triggers.find((o) => o.market === 'ETH' && o.tpsl === 'sl')!;
    expect(eth).toMatchObject({ side: 'LONG', tp: { order_id: tp.order_id, trigger_price: tp.trigger_price, limit_price: tp.limit_price }, sl: { order_id: sl.order_id, trigger_price: sl.trigger_price }, closeable: '0', closeable_note: 'Close cancels the armed TP/SL first' });
    expect((doc.positions as J[]).find((r) => r.market === 'BTC')).toMatchObject({ side: 'SHORT', tp: null, sl: null, closeable_note: null });
  });

  it('positions table: the trader\'s columns, prices and sizes to the market\'s decimals, money to cents, the estimate toward the mark', async () => {
    const r = await perps(['positions', '--wallet', t.wallet]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(cells(lines[0]!)).toEqual(['MARKET', 'SIDE', 'SIZE', 'ENTRY', 'MARK', 'PNL', 'ROE', 'LIQ (est.)', 'LIQ DIST', 'MARGIN', 'TP', 'SL', 'CLOSEABLE']);
    expect(r.stdout).not.toMatch(/VERSION/);
    expect(r.stdout).toMatch(/LIQ \(est\.\) is an estimate/);
    const doc = await json(['positions', '--wallet', t.wallet]);
    for (const row of doc.positions as J[]) {
      const m = w.market(row.market);
      const line = cells(lines.find((l) => l.startsWith(row.market + ' '))!);
      const px = (v: string) => new Decimal(v).toFixed(m.px_decimals, Decimal.ROUND_HALF_UP);
      const pnl = new Decimal(row.unrealized_pnl).toFixed(2, Decimal.ROUND_HALF_UP);
      const roe = `${new Decimal(row.return_on_margin).mul(100).gt(0) ? '+' : ''}${new Decimal(row.return_on_margin).mul(100).toFixed(2, Decimal.ROUND_HALF_UP)}%`;
      const liq = liquidationForDisplay(row.size, row.liquidation_price, m.px_decimals).toFixed(m.px_decimals);
      // Rounded toward the mark: never below the exact estimate of a long, never above a short's.
      expect(row.side === 'LONG' ? new Decimal(liq).gte(row.liquidation_price) : new Decimal(liq).lte(row.liquidation_price)).toBe(true);
      expect(line.slice(0, 11)).toEqual([
        row.market,
        row.side.toLowerCase(),
        new Decimal(row.size).toFixed(m.sz_decimals),
        px(row.entry_price),
        px(row.mark),
        pnl,
        roe,
        liq,
        // Floored: the distance never promises more room than there is.
        `${new Decimal(row.liquidation_distance).mul(100).toFixed(1, Decimal.ROUND_FLOOR)}%`,
        new Decimal(row.isolated_margin).toFixed(2, Decimal.ROUND_HALF_UP),
        row.tp ? px(row.tp.trigger_price) : 'none',
      ]);
    }
    const csv = await perps(['positions', '--wallet', t.wallet, '--csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('market,side,size,entry_price,mark,unrealized_pnl,return_on_margin,liquidation_price,liquidation_distance,isolated_margin,tp_trigger_price,sl_trigger_price,closeable,id');
  });

  it('balance: equity = free + posted margin + uPnL (computed, and it says so), maintenance, margin ratio, leverage, withdrawable', async () => {
    const [doc, positions] = await Promise.all([json(['balance', '--wallet', t.wallet]), json(['positions', '--wallet', t.wallet])]);
    const rows = positions.positions as J[];
    const free = new Decimal((await w.ctx.api.balance(t.accountId)).free_balance);
    const posted = rows.reduce<Decimal>((s, p) => s.plus(p.isolated_margin), new Decimal(0));
    const pnl = rows.reduce<Decimal>((s, p) => s.plus(new Decimal(p.size).mul(new Decimal(p.mark).minus(p.entry_price))), new Decimal(0));
    const notional = rows.reduce<Decimal>((s, p) => s.plus(new Decimal(p.size).abs().mul(p.mark)), new Decimal(0));
    const maintenance = rows.reduce<Decimal>((s, p) => s.plus(new Decimal(p.size).abs().mul(p.mark).mul(w.market(p.market).maintenance_margin_ratio)), new Decimal(0));
    const equity = free.plus(posted).plus(pnl);
    const r8 = (v: Decimal) => canonical(v.toDecimalPlaces(8, Decimal.ROUND_HALF_UP));
    expect(doc).toMatchObject({
      wallet: t.wallet,
      free_balance: canonical(free),
      posted_margin: canonical(posted),
      unrealized_pnl: canonical(pnl),
      equity: canonical(equity),
      open_notional: canonical(notional),
      maintenance_margin: canonical(maintenance.toDecimalPlaces(6, Decimal.ROUND_HALF_UP)),
      margin_ratio: r8(maintenance.div(equity)),
      account_leverage: r8(notional.div(equity)),
      withdrawable: canonical(free),
      computed: true,
    });
    const human = await perps(['balance', '--wallet', t.wallet]);
    expect(human.stdout).toMatch(new RegExp(`equity \\(computed\\): +${equity.toFixed(2, Decimal.ROUND_HALF_UP)} USDC`));
    expect(human.stdout).toMatch(/account leverage: +\d+\.\d\dx/);
    expect(human.stdout).toMatch(/the service has no equity endpoint/);
  });

  it("markets: the venue's mark, 24 h change, hourly funding and open interest, joined on venue_symbol (PEPE is kPEPE)", async () => {
    const doc = (await json(['markets'])) as unknown as J[];
    const [meta, ctxs] = await w.ctx.venue.metaAndAssetCtxs();
    for (const m of doc) {
      const ctx = ctxs[meta.universe.findIndex((a) => a.name === m.venue_symbol)]!;
      expect(m).toMatchObject({ joined: true, mark: ctx.markPx, funding_rate: ctx.funding, open_interest: ctx.openInterest });
      expect(m.change_24h).toBe(canonical(new Decimal(ctx.markPx).minus(ctx.prevDayPx).div(ctx.prevDayPx).toDecimalPlaces(8, Decimal.ROUND_HALF_UP)));
    }
    expect(doc.find((m) => m.symbol === 'PEPE')).toMatchObject({ venue_symbol: 'kPEPE', mark: '0.012345' });
    expect(doc.find((m) => m.symbol === 'SOL')!.funding_rate).toBe('0.0000125');
    const table = await perps(['markets']);
    const lines = table.stdout.split('\n');
    expect(cells(lines[0]!).slice(0, 6)).toEqual(['SYMBOL', 'VENUE', 'MARK', '24H', 'FUNDING 1H', 'OI']);
    expect(cells(lines.find((l) => l.startsWith('SOL '))!)[4]).toBe('+0.0013%');
    expect(cells(lines.find((l) => l.startsWith('PEPE '))!)[2]).toBe('0.012345');
  });

  it('price: the venue mark, --json { market, mark, at }', async () => {
    const before = Date.now();
    const doc = await json(['price', 'PEPE']);
    expect(doc).toEqual({ market: 'PEPE', mark: '0.012345', at: expect.any(Number) });
    expect(doc.at).toBeGreaterThanOrEqual(before);
    const human = await perps(['price', 'ETH']);
    expect(human.stdout).toMatch(/^ETH mark: +3400$/m);
    const unknown = await perps(['--json', 'price', 'kPEPE']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.message).toMatch(/unknown market 'kPEPE'/);
  });

  it("book: the venue's levels best first with running totals, the depth asked for, grouped by the venue like the app's", async () => {
    const doc = await json(['book', 'ETH', '--depth', '4']);
    expect(doc).toMatchObject({ market: 'ETH', venue_symbol: 'ETH', n_sig_figs: null, price_places: 1 });
    expect(doc.asks).toHaveLength(4);
    expect(doc.bids).toHaveLength(4);
    for (const side of [doc.asks, doc.bids] as J[][]) {
      let sum = new Decimal(0);
      for (const l of side) {
        sum = sum.plus(l.size);
        expect(l.total).toBe(sum.toFixed());
      }
    }
    for (let i = 1; i < 4; i++) {
      expect(new Decimal(doc.asks[i].price).gt(doc.asks[i - 1].price)).toBe(true);
      expect(new Decimal(doc.bids[i].price).lt(doc.bids[i - 1].price)).toBe(true);
    }
    const bestBid = new Decimal(doc.bids[0].price);
    const bestAsk = new Decimal(doc.asks[0].price);
    expect(bestBid.lt(3400) && bestAsk.gt(3400)).toBe(true);
    expect(doc.spread.abs).toBe(bestAsk.minus(bestBid).toFixed());

    const grouped = await json(['book', 'BTC', '--sig-figs', '2', '--depth', '3']);
    expect(grouped).toMatchObject({ n_sig_figs: 2, price_places: 0 });
    for (const l of [...grouped.asks, ...grouped.bids] as J[]) expect(new Decimal(l.price).toSignificantDigits(2).eq(l.price)).toBe(true);
    const human = await perps(['book', 'BTC', '--sig-figs', '3', '--depth', '3']);
    expect(human.stdout).toMatch(/^BTC order book \(venue BTC, grouped to 3 significant figures\)/);
    const printed = human.stdout.split('\n').filter((l) => /^(ask|bid) /.test(l)).map(cells);
    // Asks above bids (worst ask first), the best of each meeting at the spread; prices on the grouping's hundreds.
    const same = await json(['book', 'BTC', '--sig-figs', '3', '--depth', '3']);
    expect(printed.map((c) => [c[0], c[1]])).toEqual([
      ...[...(same.asks as J[])].reverse().map((l) => ['ask', l.price]),
      ...(same.bids as J[]).map((l) => ['bid', l.price]),
    ]);
    for (const c of printed) expect(new Decimal(c[1]!).mod(100).isZero()).toBe(true);

    for (const bad of [['--sig-figs', '7'], ['--sig-figs', 'x'], ['--depth', '0'], ['--depth', '101']]) {
      const r = await perps(['--json', 'book', 'ETH', ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
    }
    const unknown = await perps(['--json', 'book', 'NOPE']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.code).toBe('UNKNOWN_MARKET');
  });
});
