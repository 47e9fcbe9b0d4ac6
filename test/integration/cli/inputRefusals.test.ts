/**
 * Issue 26, items 15-19, as a user's shell sees them, against a simulator on loopback. Input that must be
 * refused is refused (exit 2, one JSON error naming the field) and nothing is sent; nothing is rounded
 * toward a price the user did not type; and the paper wallet signs only for a simulator on this machine,
 * refused before any connection is opened.
 *
 * Where each run happens (issue 37: a child costs half a second of CPU): 26.15-26.18's refusals and dry
 * runs run `perps` in this process (perpsInProcess.ts: the same main, stdout, stderr and exit code), as
 * their point is the grammar and the "nothing sent", not the process. 26.19's runs stay children of the
 * real bin/perps.js under test/support/loopbackOnlyGuard.mjs, which ends a child with exit 97 on any
 * attempt to reach, or even resolve, a host that is not loopback: "refused before any connection" is only
 * proven by a process whose every socket the guard sees (a hook this process does not have). They are
 * also the file's child per exit code: exit 2 (the refusals) and exit 0 (`--help` as a shell prints it).
 *
 * One simulator, on its manual clock (issue 37): the runs in this process keep its time, and the children
 * never reach it (refused before any connection, or `--help`), so none of them needs a wall-clock one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProfileUrls } from '../../../src/main/profiles/profiles.js';
import { prepareOrder } from '../../../src/main/services/orders/index.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { REPO_ROOT } from '../../support/paths.js';
import { jsonOf, runPerps, type PerpsRun } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { simClockTime } from '../../support/perpsWorld.js';
import { TradingWorld } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
const GUARD = path.join(REPO_ROOT, 'test/support/loopbackOnlyGuard.mjs');
const dirs: string[] = [];

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function env(): NodeJS.ProcessEnv {
  return { ...process.env, PERPS_KEYCHAIN_SERVICE: w.keychainService, NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${GUARD}`.trim() };
}

/**
 * `perps --json ARGS` on the sim profile: by default against the loopback simulator and the world's data
 * folder, in this process; `child: true` runs the real bin/perps.js under the loopback guard.
 */
function perps(args: string[], o: { baseUrl?: string | null; dataDir?: string; child?: boolean } = {}): Promise<PerpsRun & { json: J }> {
  const base = o.baseUrl === undefined ? w.sim.urls.base_url : o.baseUrl;
  const globals = ['--json', '--profile', 'sim', ...(base !== null ? ['--base-url', base] : []), '--venue-url', w.sim.urls.venue_info_url, '--data-dir', o.dataDir ?? w.dataDir];
  const run = o.child ? runPerps([...globals, ...args], env()) : perpsInProcess([...globals, ...args], { PERPS_KEYCHAIN_SERVICE: w.keychainService }, { time: simClockTime(w.sim.clock) });
  return run.then((r) => {
    expect(r.stderr, 'a connection beyond loopback was attempted').not.toContain('LOOPBACK GUARD');
    return { ...r, json: jsonOf(r) as J };
  });
}

/** The field a --json error names: its message starts with "FIELD: ". */
function fieldOf(r: { json: J }): string {
  return String(r.json.error?.message ?? '').split(':')[0]!;
}

function tempDataDir(label: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `perps-${label}-`));
  dirs.push(d);
  return d;
}

beforeAll(async () => {
  w = await TradingWorld.boot('cli-input-refusals');
  await w.setMark(SYM, '3300');
}, 60_000);
afterAll(async () => {
  await w?.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe.concurrent('26.15: off-tick ends of a scale ladder are refused, never rounded', () => {
  /** An on-tick buy ladder below the mark and a sell ladder above it, with each end pushed half a tick off. */
  function ladders() {
    const m = w.market(SYM);
    const tick = new Decimal(m.tick_size);
    const half = tick.div(2);
    const buyHigh = new Decimal(3300).minus(tick.mul(10));
    const buyLow = buyHigh.minus(tick.mul(40));
    const sellLow = new Decimal(3300).plus(tick.mul(10));
    const sellHigh = sellLow.plus(tick.mul(40));
    return { m, tick, half, buyHigh, buyLow, sellLow, sellHigh };
  }

  it('on both ends of a buy and a sell ladder, exit 2 names the tick and the valid prices either side; nothing is sent', async () => {
    const t = await w.trader();
    const { m, tick, half, buyHigh, buyLow, sellLow, sellHigh } = ladders();
    const cases = [
      { side: 'buy', from: buyHigh.plus(half), to: buyLow, field: 'from_price', off: buyHigh.plus(half) },
      { side: 'buy', from: buyHigh, to: buyLow.plus(half), field: 'to_price', off: buyLow.plus(half) },
      { side: 'sell', from: sellLow.minus(half), to: sellHigh, field: 'from_price', off: sellLow.minus(half) },
      { side: 'sell', from: sellLow, to: sellHigh.minus(half), field: 'to_price', off: sellHigh.minus(half) },
    ];
    for (const c of cases) {
      for (const dry of [true, false]) {
        const r = await perps(['order', 'scale', '--wallet', t.wallet, '--market', SYM, '--side', c.side, '--from', canonical(c.from), '--to', canonical(c.to), '--count', '5', '--total-size', '1', ...(dry ? ['--dry-run'] : [])]);
        expect(r.code, `${c.side} ${c.field} ${r.stdout}`).toBe(2);
        const below = c.off.div(tick).floor().mul(tick);
        expect(r.json.error).toMatchObject({ code: 'PRICE_OFF_TICK', exit_code: 2 });
        expect(fieldOf(r)).toBe(c.field);
        expect(r.json.error.message).toContain(`${canonical(c.off)} is not a multiple of ${SYM}'s tick_size ${m.tick_size}: the nearest valid prices are ${canonical(below)} and ${canonical(below.plus(tick))}`);
      }
    }
    expect(await t.history()).toHaveLength(0);

    // On the tick, the ladder's ends are exactly the prices typed.
    const ok = await perps(['order', 'scale', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--from', canonical(buyHigh), '--to', canonical(buyLow), '--count', '5', '--total-size', '1', '--dry-run']);
    expect(ok.code, ok.stdout).toBe(0);
    const prices = (ok.json.view.legs as { limit_price: string }[]).map((l) => l.limit_price);
    expect([prices[0], prices.at(-1)]).toEqual([canonical(buyHigh), canonical(buyLow)]);
  });

  it("the service's prepare (which the app's ticket uses) refuses them too", async () => {
    const t = await w.trader(null);
    const { half, buyHigh, buyLow, sellLow, sellHigh } = ladders();
    const intent = (side: 'BUY' | 'SELL', from: Decimal, to: Decimal) => ({ kind: 'scale', market: SYM, side, from_price: canonical(from), to_price: canonical(to), count: 5, total_size: '1' });
    for (const [i, field] of [
      [intent('BUY', buyHigh.plus(half), buyLow), 'from_price'],
      [intent('BUY', buyHigh, buyLow.plus(half)), 'to_price'],
      [intent('SELL', sellLow.minus(half), sellHigh), 'from_price'],
      [intent('SELL', sellLow, sellHigh.minus(half)), 'to_price'],
    ] as const) {
      await expect(prepareOrder(w.ctx, { wallet: t.wallet, intent: i })).rejects.toMatchObject({ kind: 'validation', code: 'PRICE_OFF_TICK', field, exitCode: 2 });
    }
  });
});

describe.concurrent('26.16 and 26.18: one decimal grammar and one duration grammar on the command line', () => {
  it('twap start --total-size " 1" is exit 2 naming the flag (not INTERNAL), with and without --dry-run; nothing is sent', async () => {
    const t = await w.trader();
    for (const dry of [['--dry-run'], []]) {
      for (const size of [' 1', '1 ', '1.', '.5', '1e1', '+1', '01']) {
        const r = await perps(['twap', 'start', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--total-size', size, '--duration', '1m', '--slices', '2', ...dry]);
        expect(r.code, `${JSON.stringify(size)} ${r.stdout}`).toBe(2);
        expect(r.json.error).toMatchObject({ code: 'VALIDATION_ERROR', exit_code: 2 });
        expect(fieldOf(r)).toBe('total-size');
      }
    }
    expect(await t.history()).toHaveLength(0);
  });

  it('--duration follows the duration grammar: 1h99m, a bare number, spaces and fractions are refused; 1h30m is 90 minutes', async () => {
    const t = await w.trader();
    for (const span of ['1h99m', '90', '1.5h', '30m1h', '5 m', ' 5m', '1m60s', '05m']) {
      const r = await perps(['twap', 'start', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--total-size', '0.1', '--duration', span, '--slices', '2', '--dry-run']);
      expect(r.code, `${span} ${r.stdout}`).toBe(2);
      expect(fieldOf(r)).toBe('duration');
    }
    const ok = await perps(['twap', 'start', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--total-size', '0.1', '--duration', '1h30m', '--slices', '2', '--dry-run']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.json.view).toMatchObject({ duration_ms: 90 * 60_000, interval_ms: 45 * 60_000 });
    expect(await t.history()).toHaveLength(0);
  });

  it('order scale and order place refuse "1.", ".5" and "5 " naming the flag or field; --timeout takes the same grammar', async () => {
    const t = await w.trader();
    const scale = (over: Record<string, string>) => {
      const f = { '--from': '3290', '--to': '3250', '--total-size': '1', ...over };
      return perps(['order', 'scale', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--count', '5', ...Object.entries(f).flat(), '--dry-run']);
    };
    for (const bad of ['1.', '.5', '5 ']) {
      for (const [flag, field] of [['--from', 'from'], ['--to', 'to'], ['--total-size', 'total-size'], ['--skew', 'skew']] as const) {
        const r = await scale({ [flag]: bad });
        expect(r.code, `${flag} ${JSON.stringify(bad)} ${r.stdout}`).toBe(2);
        expect(fieldOf(r)).toBe(field);
      }
      const place = await perps(['order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--type', 'limit', '--price', '3200', '--size', bad, '--dry-run']);
      expect(place.code, place.stdout).toBe(2);
      expect(fieldOf(place)).toMatch(/size/);
    }
    for (const timeout of ['1e3', ' 5', '5.', '-1', '30', '1e3s', '-5s', '0s']) {
      const r = await perps(['order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--type', 'limit', '--price', '3200', '--size', '0.01', '--wait', '--timeout', timeout]);
      expect(r.code, `${timeout} ${r.stdout}`).toBe(2);
      expect(fieldOf(r)).toBe('timeout');
    }
    expect(await t.history()).toHaveLength(0);
  });
});

describe.concurrent('26.17: a default leverage above what the markets allow is refused and not stored', () => {
  it('above the market maximum with --market, above every market maximum without; at the maximum it is stored', async () => {
    const dataDir = tempDataDir('leverage');
    // The maxima come from the service's /markets, as the command reads them.
    const markets = await w.ctx.config.markets();
    const eth = markets.find((m) => m.symbol === SYM)!;
    const highest = Math.max(...markets.map((m) => m.max_leverage));
    const before = await perps(['config', 'leverage'], { dataDir });
    expect(before.code).toBe(0);

    const perMarket = await perps(['config', 'leverage', '--market', SYM, String(eth.max_leverage + 1)], { dataDir });
    expect(perMarket.code, perMarket.stdout).toBe(2);
    expect(perMarket.json.error).toMatchObject({ code: 'VALIDATION_ERROR', exit_code: 2 });
    expect(fieldOf(perMarket)).toBe('leverage');
    expect(perMarket.json.error.message).toContain(`above ${SYM}'s max_leverage ${eth.max_leverage}x`);
    const global = await perps(['config', 'leverage', String(highest + 1)], { dataDir });
    expect(global.code, global.stdout).toBe(2);
    expect(global.json.error.message).toContain(`above every market's max_leverage (the highest is ${highest}x`);
    const after = await perps(['config', 'leverage'], { dataDir });
    expect({ d: after.json.default_leverage, m: after.json.leverage_by_market }).toEqual({ d: before.json.default_leverage, m: before.json.leverage_by_market });

    const atMax = await perps(['config', 'leverage', '--market', SYM, String(eth.max_leverage)], { dataDir });
    expect(atMax.code, atMax.stdout).toBe(0);
    expect(atMax.json.leverage_by_market).toEqual({ [SYM]: eth.max_leverage });
    const globalMax = await perps(['config', 'leverage', String(highest)], { dataDir });
    expect(globalMax.code, globalMax.stdout).toBe(0);
    expect(globalMax.json.default_leverage).toBe(highest);
  });
});

describe.concurrent('26.19: the paper wallet signs only for a simulator on loopback', () => {
  it('the guard these tests rely on does stop a connection beyond loopback before it is opened', () => {
    // A plain node process under the guard: the socket is refused in connect(), before any packet.
    let code = 0;
    try {
      execFileSync(process.execPath, ['--import', GUARD, '-e', "require('node:net').connect(8645, '10.1.2.3')"], { stdio: 'pipe' });
    } catch (err) {
      code = (err as { status: number }).status;
    }
    expect(code).toBe(97);
  });

  for (const remote of ['http://10.1.2.3:8645/api/v1', 'http://sim.example:8645/api/v1']) {
    it(`with --base-url ${remote}: withdraw, keys authorize and quickstart are refused (exit 2) before any connection`, async () => {
      const dataDir = tempDataDir('paper-remote');
      const wallet = Wallet.createRandom().address;
      const runs = {
        withdraw: await perps(['withdraw', '--wallet', wallet, '--amount', '5', '--signer', 'paper'], { baseUrl: remote, dataDir, child: true }),
        authorize: await perps(['keys', 'authorize', '--wallet', wallet, '--agent', Wallet.createRandom().address, '--signer', 'paper'], { baseUrl: remote, dataDir, child: true }),
        quickstart: await perps(['quickstart'], { baseUrl: remote, dataDir, child: true }),
      };
      for (const [name, r] of Object.entries(runs)) {
        expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(2);
        expect(r.json.error, name).toMatchObject({ code: 'PAPER_WALLET_SIM_ONLY', exit_code: 2 });
        expect(fieldOf(r), name).toBe('base-url');
        expect(r.json.error.message, name).toContain(remote);
      }
      // Nothing was made for nothing either.
      expect(fs.existsSync(path.join(dataDir, 'settings.json')) ? JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).vault?.paperWallets ?? [] : []).toEqual([]);
    });
  }

  it('a non-loopback URL saved for the sim profile (config --save) is refused the same way', async () => {
    const dataDir = tempDataDir('paper-saved');
    // What `config --save` writes once a service answered there (the test writes it directly: nothing
    // may answer at a non-loopback address from here).
    saveProfileUrls(openNodeSettings(dataDir), 'sim', { baseUrl: 'http://10.1.2.3:8645/api/v1', venueInfoUrl: w.sim.urls.venue_info_url });
    const wallet = Wallet.createRandom().address;
    for (const args of [['withdraw', '--wallet', wallet, '--amount', '5', '--signer', 'paper'], ['keys', 'authorize', '--wallet', wallet, '--agent', Wallet.createRandom().address, '--signer', 'paper'], ['quickstart']]) {
      const r = await perps(args, { baseUrl: null, dataDir, child: true });
      expect(r.code, `${args[0]}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.json.error).toMatchObject({ code: 'PAPER_WALLET_SIM_ONLY', exit_code: 2 });
      expect(fieldOf(r)).toBe('base-url');
    }
  });

  it("`perps --help` lists paper among the global --signer's values", async () => {
    const r = await runPerps(['--help'], env());
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('--signer <spec> main-wallet signer: keystore:FILE | env:VAR | offline | ledger[:PATH] | trezor[:PATH] | paper');
  });
});
