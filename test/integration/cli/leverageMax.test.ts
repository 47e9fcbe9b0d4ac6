/**
 * `--leverage max` (issue 35): the market's max_leverage as GET /markets gives it, signed and stated
 * before signing, on `order place`, `order scale`, `order oco`, `twap start` and `position reverse`; refused
 * (exit 2, nothing sent) where no leverage is signed (reduce-only, a trigger) and as an every-market default
 * in `perps config leverage`. The CLI's own main in process (test/support/perpsWorld.ts) against the simulator over HTTP,
 * on its manual clock (issue 37): the real order's --wait polls move that clock instead of waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { TradingWorld, type Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';
import { perpsJson } from '../twap/twapWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';

let w: TradingWorld;
let t: Trader;

beforeAll(async () => {
  w = await TradingWorld.boot('cli-leverage-max');
  t = await w.trader();
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

const perps = perpsOn(() => w);

/** Every leg's signed leverage anywhere in a dry-run document. */
function legLeverages(doc: unknown): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'legs' && Array.isArray(x)) for (const leg of x) if (leg && typeof leg === 'object' && 'leverage' in leg) out.push((leg as { leverage: unknown }).leverage);
        walk(x);
      }
    }
  };
  walk(doc);
  return out;
}

/** The market's maximum as the service lists it (read here, as the command reads it). */
async function maxOf(symbol: string): Promise<number> {
  const res = await fetch(`${w.sim.urls.base_url}/markets`);
  const body = (await res.json()) as { data: { symbol: string; max_leverage: number }[] };
  return body.data.find((m) => m.symbol === symbol)!.max_leverage;
}

describe('--leverage max', () => {
  it('order place: resolves to the market maximum from /markets, says so, and signs it', async () => {
    const max = await maxOf('BTC');
    expect(max).toBeGreaterThan(1);
    const mark = await w.mark('BTC');
    const size = sizeFor(w.market('BTC'), mark, 3);
    const dry = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', size, '--leverage', 'max', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = perpsJson(dry);
    expect(legLeverages(doc)).toEqual([max]);
    expect(doc.view.leverage_max).toMatchObject({ leverage: max });
    // Traders type MAX too; the real order signs it and says where it came from.
    const run = await perps(['order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', size, '--leverage', 'MAX', '--wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`--leverage max: ${max}x, BTC's max_leverage on /markets`);
    expect(run.stderr).toContain(`signed with leverage ${max}x (the market's maximum, --leverage max)`);
    expect(run.stdout).toMatch(new RegExp(`\\b${max}x\\b`));
  }, 60_000);

  it('order scale, order oco and twap start sign the maximum on every leg', async () => {
    const m = w.market('ETH');
    const max = await maxOf('ETH');
    const mark = await w.mark('ETH');
    const scale = await perps(['--json', 'order', 'scale', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--from', priceAt(m, mark, 0.97), '--to', priceAt(m, mark, 0.95), '--count', '3', '--total-size', sizeFor(m, mark, 6), '--leverage', 'max', '--dry-run']);
    expect(scale.code, scale.stderr).toBe(0);
    expect(legLeverages(perpsJson(scale))).toEqual([max, max, max]);
    const oco = await perps(['--json', 'order', 'oco', '--wallet', t.wallet, '--market', 'ETH', '--size', sizeFor(m, mark, 2), '--buy', priceAt(m, mark, 0.95), '--sell', priceAt(m, mark, 1.05), '--leverage', 'max', '--dry-run']);
    expect(oco.code, oco.stderr).toBe(0);
    expect(legLeverages(perpsJson(oco))).toEqual([max, max]);
    const twap = await perps(['--json', 'twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--total-size', sizeFor(m, mark, 4), '--duration', '1m', '--slices', '2', '--leverage', 'max', '--dry-run']);
    expect(twap.code, twap.stderr).toBe(0);
    const lev = legLeverages(perpsJson(twap));
    expect(lev.length).toBeGreaterThan(0);
    expect(new Set(lev)).toEqual(new Set([max]));
  }, 60_000);

  it('position reverse enters the other way at the maximum', async () => {
    const max = await maxOf('BTC');
    // A BTC position to reverse: the first test's, or one bought here when this test runs without it.
    if (!(await w.ctx.api.positions(t.accountId)).positions.some((p) => p.market === 'BTC')) {
      const size = sizeFor(w.market('BTC'), await w.mark('BTC'), 3);
      const bought = await perps(['order', 'place', '--wallet', t.wallet, '--market', 'BTC', '--side', 'buy', '--size', size, '--leverage', '2', '--wait']);
      expect(bought.code, bought.stderr).toBe(0);
      for (let i = 0; i < 40 && !(await w.ctx.api.positions(t.accountId)).positions.some((p) => p.market === 'BTC'); i++) await w.advance(250);
    }
    const dry = await perps(['--json', 'position', 'reverse', '--wallet', t.wallet, '--market', 'BTC', '--leverage', 'max', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(legLeverages(perpsJson(dry))).toContain(max);
  }, 60_000);

  it('is refused with exit 2 where no leverage is signed, and nothing is sent', async () => {
    const m = w.market('ETH');
    const mark = await w.mark('ETH');
    const before = (await t.history()).length;
    const cases: string[][] = [
      ['order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'sell', '--size', '0.01', '--reduce-only', '--leverage', 'max'],
      ['order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'sell', '--size', '0', '--type', 'trigger', '--trigger-price', priceAt(m, mark, 0.9), '--tpsl', 'sl', '--price', priceAt(m, mark, 0.89), '--leverage', 'max'],
      ['order', 'scale', '--wallet', t.wallet, '--market', 'ETH', '--side', 'sell', '--from', priceAt(m, mark, 1.02), '--to', priceAt(m, mark, 1.04), '--count', '2', '--total-size', '0.01', '--reduce-only', '--leverage', 'max'],
      ['twap', 'start', '--wallet', t.wallet, '--market', 'ETH', '--side', 'sell', '--total-size', '0.01', '--duration', '1m', '--slices', '2', '--reduce-only', '--leverage', 'max'],
    ];
    for (const args of cases) {
      const r = await perps(['--json', ...args]);
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(2);
      expect(perpsJson(r).error.code).toBe('LEVERAGE_MAX_NOT_APPLICABLE');
    }
    const typo = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--size', '0.01', '--leverage', 'maxx']);
    expect(typo.code).toBe(2);
    expect(perpsJson(typo).error.message).toMatch(/or max \(the market's maximum\)/);
    expect((await t.history()).length).toBe(before);
  }, 90_000);

  it('--help of every command that takes it says what max means', async () => {
    for (const cmd of [['order', 'place'], ['order', 'scale'], ['order', 'oco'], ['twap', 'start'], ['position', 'reverse']]) {
      const help = await perps([...cmd, '--help']);
      expect(help.stdout.replace(/\s+/g, ' '), cmd.join(' ')).toMatch(/--leverage <n\|max> .*or max \(the market's max_leverage read from \/markets/);
    }
    expect((await perps(['config', 'leverage', '--help'])).stdout.replace(/\s+/g, ' ')).toMatch(/max \(with --market only\): that market's max_leverage read from \/markets now/);
  }, 60_000);

  it('perps config leverage max: a market default with --market, refused without', async () => {
    const max = await maxOf('ETH');
    const all = await perps(['--json', 'config', 'leverage', 'max']);
    expect(all.code).toBe(2);
    expect(perpsJson(all).error.code).toBe('LEVERAGE_MAX_NOT_APPLICABLE');
    const eth = await perps(['--json', 'config', 'leverage', 'max', '--market', 'ETH']);
    expect(eth.code, eth.stderr).toBe(0);
    const doc = perpsJson(eth);
    expect(doc.leverage_by_market.ETH).toBe(max);
    expect(doc.effective.find((e: { market: string }) => e.market === 'ETH').leverage).toBe(max);
    expect(new Decimal(doc.default_leverage).toNumber()).toBe(1);
  }, 60_000);
});
