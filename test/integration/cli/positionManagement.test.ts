/**
 * Position management and the fat-finger guard on the command line, run by the CLI's own main in this
 * process (test/support/perpsWorld.ts) with --json against a simulator on loopback, on its manual clock
 * (issue 37: the commands' waits move it, so they settle without waiting): `position tpsl` (set, move,
 * remove; a wrong-side level is exit 2), `position close --percent/--size/--price`, `position close-all`,
 * and `order place|batch` refusing a far limit price or an order above the user's cap (exit 2, nothing
 * sent) unless --allow-far-price / --allow-large is given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { perpsOn, type J } from '../../support/perpsWorld.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;


/** `perps ARGS` on the world (test/support/perpsWorld.ts), in this process. */
const perps = perpsOn(() => w);


beforeAll(async () => {
  w = await TradingWorld.boot('cli-position-mgmt');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

/** Opens a position with `order place --wait` and waits until /positions shows it. */
async function open(t: Trader, sym: string, side: 'buy' | 'sell', multiple = 6): Promise<string> {
  const m = w.market(sym);
  const r = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', sym, '--side', side, '--size', sizeFor(m, await w.mark(sym), multiple), '--leverage', '5', '--wait']);
  expect(r.code, r.stderr).toBe(0);
  for (let i = 0; i < 100; i++) {
    const p = (await w.ctx.api.positions(t.accountId)).positions.find((x) => x.market === sym);
    if (p) return p.size;
    // The fill reaches /positions a moment later on the simulator's clock.
    await w.advance(100);
  }
  throw new Error(`no ${sym} position`);
}

describe.concurrent('perps position tpsl / close / close-all', () => {
  it('tpsl sets both levels, moves one and removes the other; a wrong-side level is exit 2 with nothing sent', async () => {
    const t = await w.trader();
    const sym = 'ETH';
    const m = w.market(sym);
    await open(t, sym, 'buy');
    const mark = await w.mark(sym);
    const [tp, sl, sl2] = [priceAt(m, mark, 1.1), priceAt(m, mark, 0.9), priceAt(m, mark, 0.92)];

    const dry = await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', sym, '--tp', tp, '--sl', sl, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ dry_run: true, action: 'tpsl', view: { side: 'LONG', after: { tp, sl } } });
    expect((dry.json as J).requests.map((r: J) => r.typed_data.primaryType)).toEqual(['Order', 'Order']);

    const set = await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', sym, '--tp', tp, '--sl', sl]);
    expect(set.code, set.stderr).toBe(0);
    expect((set.json as J).changes.map((c: J) => [c.kind, c.action, c.status])).toEqual([
      ['tp', 'set', 'done'],
      ['sl', 'set', 'done'],
    ]);

    const change = await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', sym, '--tp', 'none', '--sl', sl2]);
    expect(change.code, change.stderr).toBe(0);
    const changes = (change.json as J).changes as J[];
    expect(changes.map((c) => [c.kind, c.action, c.status])).toEqual([
      ['tp', 'remove', 'done'],
      ['sl', 'move', 'done'],
    ]);
    const words = /^Move the stop-loss from ([\d,.]+) to ([\d,.]+)$/.exec(changes[1]!.summary);
    expect(words?.slice(1).map((x) => x.replace(/,/g, ''))).toEqual([sl, sl2]);
    // Levels are written the way traders write them: thousands grouped (ETH trades above 1,000).
    expect(words![1]).toMatch(/^\d{1,3}(,\d{3})+(\.\d+)?$/);
    const triggers = (await w.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === sym);
    expect(triggers.map((o) => [o.tpsl, canonical(o.trigger_price!)])).toEqual([['sl', sl2]]);

    const before = (await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 200 })).total;
    const wrong = await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', sym, '--tp', priceAt(m, mark, 0.95)]);
    expect(wrong.code).toBe(2);
    expect((wrong.json as J).error).toMatchObject({ code: 'TPSL_WRONG_SIDE', exit_code: 2 });
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 200 })).total).toBe(before);
  });

  it('close --percent takes part at market (its triggers cancelled first); --size that much; --price rests as a reduce-only limit', async () => {
    const t = await w.trader();
    const sym = 'BTC';
    const m = w.market(sym);
    const size = new Decimal(await open(t, sym, 'buy', 12));
    const mark = await w.mark(sym);
    expect((await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', sym, '--sl', priceAt(m, mark, 0.9)])).code).toBe(0);

    const half = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym, '--percent', '50']);
    expect(half.code, half.stderr).toBe(0);
    const h = half.json as J;
    const closed = size.div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN);
    expect(h).toMatchObject({ closed: false, resting: false, order: { leg: { order_type: 'MARKET', reduce_only: true, side: 'SELL', size: canonical(closed) }, final: { status: 'FILLED' } } });
    expect(h.cancelled_triggers).toHaveLength(1);
    expect(new Decimal(h.position_after.size).eq(size.minus(closed))).toBe(true);

    const left = new Decimal(h.position_after.size);
    const some = canonical(left.div(3).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN));
    const bySize = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym, '--size', some]);
    expect(bySize.code, bySize.stderr).toBe(0);
    expect((bySize.json as J).order.leg.size).toBe(some);

    const tooMuch = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym, '--size', canonical(size)]);
    expect(tooMuch.code).toBe(2);
    expect((tooMuch.json as J).error.code).toBe('SIZE_ABOVE_CLOSEABLE');

    const far = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym, '--price', priceAt(m, mark, 0.5)]);
    expect(far.code).toBe(2);
    expect((far.json as J).error).toMatchObject({ code: 'FAR_PRICE' });
    expect((far.json as J).error.hint).toContain('--allow-far-price');

    const price = priceAt(m, mark, 1.05);
    const limit = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym, '--price', price]);
    expect(limit.code, limit.stderr).toBe(0);
    expect(limit.json).toMatchObject({ resting: true, closed: false, order: { leg: { order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: true, limit_price: price }, final: { status: 'ACCEPTED' } } });
    // The resting limit reserves the rest: a further close says so (exit 2), nothing sent.
    const more = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym]);
    expect(more.code).toBe(2);
    expect((more.json as J).error.code).toBe('NOTHING_CLOSEABLE');
  });

  it('close-all: every position, each after its own triggers; --dry-run first sends nothing', async () => {
    const t = await w.trader();
    await open(t, 'ETH', 'sell');
    await open(t, 'BTC', 'buy');
    const eth = w.market('ETH');
    expect((await perps(['--json', 'position', 'tpsl', '--wallet', t.wallet, '--market', 'ETH', '--sl', priceAt(eth, await w.mark('ETH'), 1.1)])).code).toBe(0);
    const before = (await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 200 })).total;
    const dry = await perps(['--json', 'position', 'close-all', '--wallet', t.wallet, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect((dry.json as J).view.closes.map((c: J) => c.market).sort()).toEqual(['BTC', 'ETH']);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 200 })).total).toBe(before);

    const all = await perps(['--json', 'position', 'close-all', '--wallet', t.wallet]);
    expect(all.code, all.stderr).toBe(0);
    const results = (all.json as J).results as J[];
    expect(results.map((r) => [r.market, r.outcome]).sort()).toEqual([
      ['BTC', 'closed'],
      ['ETH', 'closed'],
    ]);
    expect(results.find((r) => r.market === 'ETH')!.result.cancelled_triggers).toHaveLength(1);
    expect((await w.ctx.api.positions(t.accountId)).positions).toEqual([]);
    // Nothing left: exit 0, nothing to do.
    const again = await perps(['--json', 'position', 'close-all', '--wallet', t.wallet]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ results: [], skipped: [] });
  });

  it('order place: a limit far past the mark is exit 2 naming --allow-far-price, nothing sent; with the flag it is sent', async () => {
    const t = await w.trader();
    const sym = 'BTC';
    const m = w.market(sym);
    const mark = await w.mark(sym);
    const far = priceAt(m, mark, 1.2);
    const size = sizeFor(m, mark, 2);
    const refused = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', sym, '--side', 'buy', '--size', size, '--type', 'limit', '--price', far]);
    expect(refused.code).toBe(2);
    expect((refused.json as J).error).toMatchObject({ code: 'FAR_PRICE', exit_code: 2 });
    expect((refused.json as J).error.hint).toContain('--allow-far-price');
    const file = path.join(w.dataDir, `far-${t.wallet}.json`);
    fs.writeFileSync(file, JSON.stringify([{ market: sym, side: 'SELL', size, order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.8), leverage: 2 }]));
    expect((await perps(['--json', 'order', 'batch', '--wallet', t.wallet, file])).code).toBe(2);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);

    const allowed = await perps(['order', 'place', '--wallet', t.wallet, '--market', sym, '--side', 'buy', '--size', size, '--type', 'limit', '--price', far, '--allow-far-price', '--wait']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/confirmed by flag \[FAR_PRICE\]: order: the BUY limit price/);
    // A buy far above the mark is not a better limit: it executes at once, at the book's price.
    const [row] = (await w.ctx.api.orderHistory({ wallet: t.wallet })).orders;
    expect(row).toMatchObject({ limit_price: far });
    expect(new Decimal(row!.avg_fill_price ?? '0').lt(far)).toBe(true);
  });
});

describe('perps config max-notional and --allow-large', () => {
  it('off by default; a cap refuses larger orders (exit 2) unless --allow-large; reduce-only closes are exempt', async () => {
    const t = await w.trader();
    const sym = 'ETH';
    const m = w.market(sym);
    const mark = await w.mark(sym);
    expect((await perps(['--json', 'config', 'max-notional'])).json).toEqual({ max_order_notional: null });
    const set = await perps(['--json', 'config', 'max-notional', '50']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toEqual({ max_order_notional: '50' });
    expect((await perps(['--json', 'config', 'max-notional', '-3'])).code).toBe(2);
    try {
      const size = sizeFor(m, mark, 8);
      const big = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', sym, '--side', 'buy', '--size', size, '--leverage', '5']);
      expect(big.code).toBe(2);
      expect((big.json as J).error).toMatchObject({ code: 'LARGE_ORDER' });
      expect((big.json as J).error.message).toMatch(/above your cap of 50 USDC/);
      expect((big.json as J).error.hint).toContain('--allow-large');
      expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);
      const ok = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', sym, '--side', 'buy', '--size', size, '--leverage', '5', '--allow-large', '--wait']);
      expect(ok.code, ok.stderr).toBe(0);
      for (let i = 0; i < 100 && (await w.ctx.api.positions(t.accountId)).positions.length === 0; i++) await w.advance(100);
      const close = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', sym]);
      expect(close.code, close.stderr).toBe(0);
      expect(close.json).toMatchObject({ closed: true });
    } finally {
      expect((await perps(['--json', 'config', 'max-notional', '--clear'])).json).toEqual({ max_order_notional: null });
    }
  });
});
