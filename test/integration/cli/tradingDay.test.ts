/**
 * Issue 35, items 3 and 5 and the command-line parts of item 4, as a trader's shell sees them: the real
 * `perps` program run in this process (test/support/perpsWorld.ts) against a simulator on loopback.
 * Nothing implicit (an OCO signs the default leverage and says so; a typed price is never a market
 * order's bound), and the command line of a trading day (a default wallet, symbols in any case, aliases,
 * USD sizing, phrases, fill prices and PnL of exits, local time in tables).
 *
 * Two clocks (issue 37). The runs in this process go against a simulator on a manual clock: their waits
 * (an order's --wait, a trailing stop or an OCO waiting for its fill) move that clock, and the test moves
 * it where it waits for a fill to reach /positions. `position close-all` at a terminal needs a process of
 * its own (script(1) gives it the pseudo-terminal it asks on), and that child waits for its closes on its
 * machine's clock: it runs against a second simulator on the wall clock.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { REPO_ROOT } from '../../support/paths.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

/** The simulator on a manual clock, which the runs in this process move. */
let w: TradingWorld;
/** The simulator on the wall clock, for the child at a terminal. */
let wall: TradingWorld;

import type { J } from '../../support/perpsWorld.js';

/** `perps ARGS` on the world's simulator and data folder; with --json its one document is parsed. */
const perps = perpsOn(() => w);
/** The same against the wall-clock simulator (the positions the child at a terminal closes). */
const perpsOnWall = perpsOn(() => wall);

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-trading-day'), TradingWorld.boot('cli-trading-day-wall', { manualClock: false })]);
  await w.setMark('ETH', '3400');
  await w.setMark('BTC', '95000');
  await wall.setMark('ETH', '3400');
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});

describe('35.3: nothing implicit', () => {
  it('an OCO without --leverage signs the default leverage (1x, or `perps config leverage`), never 0, and says it', async () => {
    const t = await w.trader();
    const base = ['order', 'oco', '--wallet', t.wallet, '--market', 'ETH', '--size', '0.01', '--buy', '3300', '--sell', '3500', '--dry-run'];
    const dry = await perps(['--json', ...base]);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.json.view).toMatchObject({ leverage: 1, legs: [{ side: 'BUY', leverage: 1 }, { side: 'SELL', leverage: 1 }] });
    // What is signed: both typed-data messages carry leverage 1.
    expect(dry.json.requests.map((r: J) => String(r.typed_data.message.leverage))).toEqual(['1', '1']);

    // The user's default for the market is what an OCO signs, as for `order place`.
    expect((await perps(['config', 'leverage', '7', '--market', 'ETH'])).code).toBe(0);
    try {
      const seven = await perps(['--json', ...base]);
      expect(seven.json.requests.map((r: J) => String(r.typed_data.message.leverage))).toEqual(['7', '7']);
      const human = await perps(base);
      expect(human.stdout).toMatch(/each at 7x \(your default for the market\)/);
      const given = await perps(['--json', ...base, '--leverage', '3']);
      expect(given.json.view.legs.map((l: J) => l.leverage)).toEqual([3, 3]);
    } finally {
      expect((await perps(['config', 'leverage', '--market', 'ETH', '--clear'])).code).toBe(0);
    }
    expect(await t.history()).toHaveLength(0);
  });

  it('a batch or any prepared opening leg without leverage signs the default, never 0', async () => {
    const t = await w.trader();
    const { prepareLegs } = await import('../../../src/main/services/orders/index.js');
    const prepared = await prepareLegs(w.ctx, { wallet: t.wallet, legs: [{ market: 'ETH', side: 'BUY', size: '0.01', order_type: 'LIMIT', limit_price: '3300' }] });
    expect(prepared.legs[0]!.leverage).toBe(1);
    expect(String((prepared.requests[0]!.typedData.message as Record<string, unknown>)['leverage'])).toBe('1');
  });

  it('--price without --type (or with --type market) is exit 2 PRICE_NEEDS_LIMIT; nothing is sent', async () => {
    const t = await w.trader();
    for (const type of [[], ['--type', 'market']]) {
      for (const dry of [[], ['--dry-run']]) {
        const r = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', '0.01', '--price', '90000', ...type, ...dry]);
        expect(r.code, r.stdout).toBe(2);
        expect(r.json.error).toMatchObject({ code: 'PRICE_NEEDS_LIMIT', exit_code: 2 });
        expect(r.json.error.message).toMatch(/^price: a market order takes no --price/);
        expect(r.json.error.hint).toMatch(/--type limit/);
        expect(r.json.error.hint).toMatch(/--slippage-bps/);
      }
    }
    const bracket = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', '0.01', '--price', '90000', '--sl', '85000']);
    expect(bracket.json.error).toMatchObject({ code: 'PRICE_NEEDS_LIMIT' });
    const human = await perps(['order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', '0.01', '--price', '90000']);
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(/error \[PRICE_NEEDS_LIMIT\]/);
    expect(await t.history()).toHaveLength(0);
    // With --type limit the same price rests as a limit order.
    const limit = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', '0.01', '--price', '90000', '--type', 'limit', '--dry-run']);
    expect(limit.code, limit.stdout).toBe(0);
    expect(limit.json.view.legs[0]).toMatchObject({ order_type: 'LIMIT', limit_price: '90000' });
  });
});

describe('35.5: a command line for a trading day', () => {
  it('a default wallet: `perps config wallet ADDR` makes --wallet optional, every output names it, --wallet still wins', async () => {
    const t = await w.trader();
    const other = await w.trader(null);
    const none = await perps(['order', 'cancel-all', '--dry-run']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/required option '--wallet <address>' not specified/);
    expect(none.stderr).toMatch(/perps config wallet ADDR/);

    const bad = await perps(['--json', 'config', 'wallet', '0x1234']);
    expect(bad.code).toBe(2);
    expect(bad.json.error.message).toMatch(/not a wallet address/);
    expect((await perps(['--json', 'config', 'wallet'])).json).toEqual({ profile: 'sim', default_wallet: null });

    const set = await perps(['--json', 'config', 'wallet', t.wallet.toLowerCase()]);
    expect(set.code, set.stdout).toBe(0);
    expect(set.json).toEqual({ profile: 'sim', default_wallet: t.wallet });
    try {
      const dry = await perps(['order', 'cancel-all', '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stderr).toContain(`wallet: ${t.wallet} (your default on profile sim`);
      const json = await perps(['--json', 'positions']);
      expect(json.code, json.stdout).toBe(0);
      const explicit = await perps(['order', 'cancel-all', '--dry-run', '--wallet', other.wallet]);
      expect(explicit.code).toBe(0);
      expect(explicit.stderr).not.toContain('your default');
      expect(explicit.stdout).toContain(other.wallet);
    } finally {
      expect((await perps(['--json', 'config', 'wallet', '--clear'])).json).toEqual({ profile: 'sim', default_wallet: null });
    }
  });

  it('quickstart --set-default makes its paper wallet the default', async () => {
    const r = await perps(['--json', 'quickstart', '--set-default', '--amount', '1000']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.default_wallet).toBe(true);
    try {
      expect((await perps(['--json', 'config', 'wallet'])).json.default_wallet).toBe(r.json.wallet);
    } finally {
      await perps(['config', 'wallet', '--clear']);
    }
    // Without it (and with no terminal to ask on) nothing changes, and the next step says how.
    const plain = await perps(['quickstart', '--amount', '1000']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/default wallet:\s+no \(`perps config wallet 0x[0-9a-fA-F]{40}` makes it the default\)/);
    expect((await perps(['--json', 'config', 'wallet'])).json.default_wallet).toBeNull();
  });

  it('market symbols in any case: --market btc is BTC for orders and reads', async () => {
    const t = await w.trader();
    const dry = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'btc', '--side', 'buy', '--size', '0.01', '--type', 'limit', '--price', '90000', '--dry-run']);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.json.view.legs[0].market).toBe('BTC');
    // The legs either side of the mark as it is now (other tests move it).
    const eth = w.market('ETH');
    const mark = await w.mark('ETH');
    const oco = await perps(['--json', 'order', 'oco', '--wallet', t.wallet, '--market', 'Eth', '--size', '0.01', '--buy', priceAt(eth, mark, 0.97), '--sell', priceAt(eth, mark, 1.03), '--dry-run']);
    expect(oco.code, oco.stdout).toBe(0);
    expect(oco.json.view.market).toBe('ETH');
    const open = await perps(['--json', 'orders', 'open', '--wallet', t.wallet, '--market', 'eth']);
    expect(open.code, open.stdout).toBe(0);
    const price = await perps(['--json', 'price', 'btc']);
    expect(price.code, price.stdout).toBe(0);
    const unknown = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'btcx', '--side', 'buy', '--size', '0.01', '--type', 'limit', '--price', '90000', '--dry-run']);
    expect(unknown.json.error).toMatchObject({ code: 'UNKNOWN_MARKET' });
  });

  it('`perps orders` is `orders open`; `perps fills` lists fills', async () => {
    const t = await w.trader();
    const placed = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', '0.01', '--type', 'limit', '--price', '3000', '--wait']);
    expect(placed.code, placed.stdout).toBe(0);
    const id = placed.json.legs[0].order_id as string;
    const alias = await perps(['--json', 'orders', '--wallet', t.wallet]);
    const open = await perps(['--json', 'orders', 'open', '--wallet', t.wallet]);
    expect(alias.code, alias.stdout).toBe(0);
    expect(alias.json.orders.map((o: J) => o.order_id)).toEqual([id]);
    expect(alias.json).toEqual(open.json);
    const market = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', '0.01', '--wait']);
    expect(market.code, market.stdout).toBe(0);
    const fills = await perps(['--json', 'fills', '--wallet', t.wallet]);
    expect(fills.code, fills.stdout).toBe(0);
    expect(fills.json.fills.length).toBeGreaterThan(0);
    expect(fills.json).toEqual((await perps(['--json', 'history', 'trades', '--wallet', t.wallet])).json);
  });

  it('an unknown command prints the suggestion, not the whole help', async () => {
    const r = await perps(['ordr', 'place']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'ordr'/);
    expect(r.stderr).toMatch(/Did you mean order\?/);
    expect(r.stderr).not.toMatch(/Usage:|Commands:/);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
    const sub = await perps(['order', 'plac']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/Did you mean place\?/);
    expect(sub.stderr).not.toMatch(/Usage:/);
    // Other usage errors keep the help after them.
    expect((await perps(['order', 'place', '--bogus'])).stderr).toMatch(/Usage:/);
  });
});

/**
 * A long (or short) position opened at market through the command line, once /positions shows it (the
 * fill reaches it a moment later: on `world`'s clock, moved on a manual one, waited for on the wall).
 */
async function openPosition(wallet: string, market: string, side: 'buy' | 'sell', size: string, extra: string[] = [], world: TradingWorld = w): Promise<J> {
  const run = world === wall ? perpsOnWall : perps;
  const r = await run(['--json', 'order', 'place', '--wallet', wallet, '--market', market, '--side', side, '--size', size, '--leverage', '5', '--wait', ...extra]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  for (let i = 0; i < 100; i++) {
    const { positions } = await world.ctx.api.positions(accountIdFromWallet(wallet));
    if (positions.some((p) => p.market === market)) return r.json;
    await world.advance(100);
  }
  throw new Error(`no ${market} position appeared`);
}

describe('35.5 and 35.4 (command line): orders, triggers and exits as a trader reads them', () => {
  it('`order modify ID --price X` keeps the size the order has', async () => {
    const t = await w.trader();
    const placed = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', '0.02', '--type', 'limit', '--price', '3000', '--wait']);
    expect(placed.code, placed.stdout).toBe(0);
    const id = placed.json.legs[0].order_id as string;
    const dry = await perps(['--json', 'order', 'modify', id, '--wallet', t.wallet, '--price', '3010', '--dry-run']);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.json.view.after).toMatchObject({ limit_price: '3010', size: '0.02' });
    const r = await perps(['order', 'modify', id, '--wallet', t.wallet, '--price', '3010', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('size kept: 0.02');
    const open = await t.openOrders('ETH');
    expect(open.map((o) => [o.limit_price, o.size])).toEqual([['3010', '0.02']]);
  });

  it('whole-position triggers read "whole position" and armed ones "armed" in order output, `orders open` and history; `positions` has a liquidation distance column', async () => {
    const t = await w.trader();
    const human = await perps(['order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', '0.05', '--leverage', '5', '--sl', '3000', '--wait']);
    expect(human.code, human.stderr).toBe(0);
    const slRow = human.stdout.split('\n').find((l) => /TRIGGER|SL 3000/.test(l) && l.includes('SL 3000'))!;
    expect(slRow).toContain('whole position');
    expect(slRow).not.toMatch(/\s0\s/);
    expect(slRow).toMatch(/armed|awaiting entry/);
    let open = '';
    // The SL arms once the entry's fill reached the position, a moment later on the simulator's clock.
    for (let i = 0; i < 50 && !/armed/.test(open); i++) {
      open = (await perps(['orders', '--wallet', t.wallet])).stdout;
      if (!/armed/.test(open)) await w.advance(100);
    }
    const row = open.split('\n').find((l) => l.includes('SL 3000'))!;
    expect(row).toContain('whole position');
    expect(row).toContain('armed');
    expect(row).not.toMatch(/\b(SUBMITTED|open)\b/);
    const history = await perps(['history', 'orders', '--wallet', t.wallet]);
    const hrow = history.stdout.split('\n').find((l) => l.includes('SL 3000'))!;
    expect(hrow).toContain('whole position');
    expect(hrow).toMatch(/\barmed\b/);
    // --json keeps the service's values.
    const json = await perps(['--json', 'orders', 'open', '--wallet', t.wallet]);
    expect(json.json.orders.find((o: J) => o.order_type === 'TRIGGER')).toMatchObject({ size: '0', status: 'open' });

    await openPosition(t.wallet, 'ETH', 'buy', '0.01');
    const pos = await perps(['positions', '--wallet', t.wallet]);
    expect(pos.code, pos.stderr).toBe(0);
    const [header, , line] = pos.stdout.split('\n');
    expect(header).toContain('LIQ DIST');
    const cells = line!.trim().split(/\s{2,}/);
    const dist = cells[header!.trim().split(/\s{2,}/).indexOf('LIQ DIST')]!;
    expect(dist).toMatch(/^\d+\.\d%$/);
    const doc = await perps(['--json', 'positions', '--wallet', t.wallet]);
    const d = Number(doc.json.positions[0].liquidation_distance);
    expect(Number(dist.slice(0, -1))).toBeCloseTo(Math.floor(d * 1000) / 10, 5);
  });

  it('close and close-all print the fill price and the realized PnL (from trade-history)', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openPosition(t.wallet, 'ETH', 'buy', '0.04');
    await w.setMark('ETH', '3450');
    const half = await perps(['position', 'close', '--wallet', t.wallet, '--market', 'eth', '--percent', '50']);
    expect(half.code, half.stderr).toBe(0);
    expect(half.stdout).toMatch(/fill price:\s+\d/);
    expect(half.stdout).toMatch(/realized PnL:\s+-?\d+(\.\d+)? USDC \(fees \d/);
    await openPosition(t.wallet, 'BTC', 'sell', '0.001');
    const all = await perps(['--json', 'position', 'close-all', '--wallet', t.wallet]);
    expect(all.code, all.stdout).toBe(0);
    for (const r of all.json.results) {
      expect(r.exit.avg_fill_price).toMatch(/^\d/);
      expect(r.exit.realized_pnl).not.toBeNull();
      expect(r.exit.complete).toBe(true);
    }
    const fills = (await w.ctx.api.tradeHistory({ wallet: t.wallet, limit: 200 })).fills;
    const closing = all.json.results.map((r: J) => r.result.order.order_id as string);
    const expected = fills.filter((f) => closing.includes(f.order_id)).reduce((a, f) => a + Number(f.closed_pnl ?? 0), 0);
    expect(Number(all.json.realized_pnl)).toBeCloseTo(expected, 6);
  });
});

describe('35.5 and 35.4: perps do and sizing in USD', () => {
  it('`perps do` without --yes (or with --dry-run) prints a one-screen review; the typed data comes with --verbose or --json', async () => {
    const t = await w.trader();
    const phrase = 'buy 0.01 btc at 90000 limit';
    const review = await perps(['do', phrase, '--wallet', t.wallet]);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toMatch(/^REVIEW: nothing was signed or sent/);
    expect(review.stdout).not.toMatch(/EIP-712|typed_data|digest:|primaryType/);
    expect(review.stdout.split('\n').length).toBeLessThan(60);
    expect(review.stdout).toMatch(/--verbose prints the typed data/);
    expect(review.stderr).toContain('review: Buy 0.01 BTC, limit 90000');
    const dry = await perps(['do', phrase, '--wallet', t.wallet, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^REVIEW: nothing was signed or sent/);
    expect(dry.stdout).not.toMatch(/EIP-712/);
    expect(dry.stderr).toContain('DRY RUN: not signed or sent.');
    const verbose = await perps(['do', phrase, '--wallet', t.wallet, '--verbose']);
    expect(verbose.stdout).toMatch(/EIP-712 typed data/);
    expect(verbose.stdout).toMatch(/digest: 0x[0-9a-f]{64}/);
    const json = await perps(['--json', 'do', phrase, '--wallet', t.wallet]);
    expect(json.json.requests[0].typed_data.primaryType).toBe('Order');
    expect((await perps(['--json', 'do', phrase, '--wallet', t.wallet, '--dry-run', '--yes'])).json.error).toMatchObject({ code: 'USAGE' });
    expect(await t.history()).toHaveLength(0);
  });

  it('`perps do` reads limit, post only, 10x, reduce only and "with tp … sl …"; the review is what is signed', async () => {
    const t = await w.trader();
    const r = await perps(['--json', 'do', 'buy 0.01 btc at 90000 limit post only 10x with tp 99000 sl 85000', '--wallet', t.wallet]);
    expect(r.code, r.stdout).toBe(0);
    const legs = r.json.view.legs as J[];
    expect(legs[0]).toMatchObject({ order_type: 'LIMIT', limit_price: '90000', time_in_force: 'ALO', leverage: 10 });
    expect(legs.slice(1).map((l) => [l.trigger.tpsl, l.trigger.trigger_price, l.size])).toEqual([
      ['TP', '99000', '0'],
      ['SL', '85000', '0'],
    ]);
    const refused = await perps(['--json', 'do', 'buy 0.01 btc at 90000 market', '--wallet', t.wallet]);
    expect(refused.code).toBe(2);
    expect(refused.json.error.message).toMatch(/a market order takes no limit price/);
  });

  it('--usd sizes order place, scale, twap and "buy 250 usd of btc": rounded down to sz_decimals, shown before signing', async () => {
    const t = await w.trader();
    await w.setMark('BTC', '95000');
    const m = w.market('BTC');
    const expected = (usd: string, price: string): string => new Decimal(usd).div(price).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN).toFixed();
    const place = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '250', '--dry-run']);
    expect(place.code, place.stdout).toBe(0);
    const size = expected('250', '95000');
    expect(place.json.view.legs[0].size).toBe(size);
    expect(place.json.view.usd_sizing).toMatchObject({ usd: '250', price: '95000', size });
    const human = await perps(['order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '250', '--dry-run']);
    expect(human.stderr).toContain(`size: 250 USD at the mark 95000 = ${size} BTC`);
    const limit = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '250', '--type', 'limit', '--price', '90000', '--dry-run']);
    expect(limit.json.view.legs[0].size).toBe(expected('250', '90000'));
    const both = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '250', '--size', '0.01', '--dry-run']);
    expect(both.json.error).toMatchObject({ code: 'USAGE' });
    const tiny = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '0.0001', '--dry-run']);
    expect(tiny.json.error).toMatchObject({ code: 'USD_TOO_SMALL', exit_code: 2 });

    const scale = await perps(['--json', 'order', 'scale', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--from', '94000', '--to', '90000', '--count', '5', '--usd', '2000', '--dry-run']);
    expect(scale.code, scale.stdout).toBe(0);
    const total = (scale.json.view.legs as J[]).reduce((a, l) => a + Number(l.size), 0);
    expect(total.toFixed(m.sz_decimals)).toBe(Number(scale.json.view.usd_sizing.size).toFixed(m.sz_decimals));
    expect(Number(scale.json.view.total_notional)).toBeLessThanOrEqual(2000);
    expect(Number(scale.json.view.total_notional)).toBeGreaterThan(1990);

    const twap = await perps(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--usd', '1000', '--duration', '10m', '--slices', '2', '--dry-run']);
    expect(twap.code, twap.stdout).toBe(0);
    expect(twap.json.view.usd_sizing.size).toBe(expected('1000', '95000'));

    const phrase = await perps(['--json', 'do', 'buy 250 usd of btc', '--wallet', t.wallet]);
    expect(phrase.code, phrase.stdout).toBe(0);
    expect(phrase.json.view.legs[0].size).toBe(size);
    expect(phrase.json.view.usd_sizing.size).toBe(size);
    expect(await t.history()).toHaveLength(0);
  });
});

/**
 * `perps ARGS` at a terminal, against the wall-clock simulator: run under script(1), which gives it a
 * pseudo-terminal; `answer` is typed once the question shows. Returns what the terminal showed and the exit code.
 */
function atTerminal(args: string[], answer: string): Promise<{ code: number | null; screen: string }> {
  const globals = ['--profile', 'sim', '--base-url', wall.sim.urls.base_url, '--venue-url', wall.sim.urls.venue_info_url, '--data-dir', wall.dataDir];
  const command = [process.execPath, path.join(REPO_ROOT, 'bin/perps.js'), ...globals, ...args].join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, env: { ...process.env, PERPS_KEYCHAIN_SERVICE: wall.keychainService }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString('utf8');
    if (!answered && /\[y\/N\]/.test(screen)) {
      answered = true;
      child.stdin.write(answer);
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, screen });
    });
  });
}

describe('35.5: position close-all asks on a terminal', () => {
  it('lists what it closes and asks; "n" closes nothing (exit 2), "y" closes; --yes and a script never ask', async () => {
    const t = await wall.trader();
    await openPosition(t.wallet, 'ETH', 'buy', '0.01', [], wall);
    const declined = await atTerminal(['position', 'close-all', '--wallet', t.wallet], 'n\n');
    expect(declined.screen).toMatch(/Close this position at market\? \[y\/N\]/);
    expect(declined.screen).toMatch(/error \[CANCELLED\]: yes: not confirmed: nothing was cancelled or closed/);
    expect(declined.code).toBe(2);
    expect((await wall.ctx.api.positions(accountIdFromWallet(t.wallet))).positions.map((p) => p.market)).toEqual(['ETH']);
    const confirmed = await atTerminal(['position', 'close-all', '--wallet', t.wallet], 'y\n');
    expect(confirmed.code, confirmed.screen).toBe(0);
    expect(confirmed.screen).toMatch(/REALIZED PNL/);
    await openPosition(t.wallet, 'ETH', 'buy', '0.01', [], wall);
    const yes = await atTerminal(['position', 'close-all', '--wallet', t.wallet, '--yes'], 'n\n');
    expect(yes.code, yes.screen).toBe(0);
    expect(yes.screen).not.toMatch(/\[y\/N\]/);
  });
});

/** Waits (bounded, on the clock of the simulator's fills: it moves it) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await w.advance(100);
  }
  throw new Error(`never: ${what}`);
}

describe('35.5: the exits of trailing stops and OCOs print the fill price and realized PnL', () => {
  it('a trailing stop that fires ends with its fill price and realized PnL', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openPosition(t.wallet, 'ETH', 'buy', '0.01');
    const run = perps(['position', 'trail', '--wallet', t.wallet, '--market', 'ETH', '--distance', '20']);
    await until(async () => (await t.openOrders('ETH')).some((o) => o.order_type === 'TRIGGER'), 'the trailing stop is armed');
    // Just through the stop (3,380): within the fire price's tolerance, so it fills (a gap past it is issue 35.1's).
    await w.setMark('ETH', '3378');
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status:\s+ended \((position_closed|stop_removed)\)/);
    expect(r.stdout).toMatch(/fill price:\s+\d/);
    expect(r.stdout).toMatch(/realized PnL:\s+-\d+(\.\d+)? USDC/);
  });

  it("an OCO's filled leg prints its fill price and realized PnL (here it closes a short)", async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await openPosition(t.wallet, 'ETH', 'sell', '0.01');
    const run = perps(['--json', 'order', 'oco', '--wallet', t.wallet, '--market', 'ETH', '--size', '0.01', '--buy', '3300', '--sell', '3500']);
    await until(async () => (await t.openOrders('ETH')).length === 2, 'both legs rest');
    await w.setMark('ETH', '3290');
    const r = await run;
    expect(r.code, r.stdout).toBe(0);
    expect(r.json).toMatchObject({ status: 'done', winner: 0, leverage: 1 });
    expect(r.json.exit.avg_fill_price).toMatch(/^\d/);
    expect(Number(r.json.exit.realized_pnl)).toBeGreaterThan(0);
  });
});

void priceAt;
void sizeFor;
