/**
 * The portfolio against the simulator over loopback HTTP (issue 27, item 1): after a random session
 * (seeded, so a failure replays) with fills on several markets, partial closes, a liquidation, funding
 * hours, a deposit and a withdrawal, the ledger rebuilt from the service's records balances to the cent:
 * reconstructed cash = free balance + posted isolated margin, reconstructed equity = the live equity of
 * account:health. `perps portfolio --json` prints the same figures, and refuses bad input with exit 2.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { closePosition, waitForPosition } from '../../../src/main/services/positions/index.js';
import { withdraw } from '../../../src/main/services/money/withdrawals/index.js';
import { readAccountHealth } from '../../../src/main/services/reads/accountHealth.js';
import { readPortfolio } from '../../../src/main/services/portfolio/index.js';
import { REPO_ROOT } from '../../support/paths.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';

const HOUR = 3_600_000;
const SEED = Number(process.env.PORTFOLIO_SEED ?? 27);
const MARKETS = ['ETH', 'BTC', 'SOL'];

/** mulberry32: a small seeded generator, so the session replays from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let w: TradingWorld;
let t: Trader;

async function move(symbol: string, factor: number): Promise<void> {
  const m = w.market(symbol);
  const mark = await w.mark(symbol);
  const next = mark.mul(factor).div(m.tick_size).round().mul(m.tick_size);
  await w.setMark(symbol, next.toFixed());
}

async function open(symbol: string, side: 'BUY' | 'SELL', multiple: number, leverage: number): Promise<void> {
  const m = w.market(symbol);
  const mark = await w.mark(symbol);
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: symbol, side, size: sizeFor(m, mark, multiple), leverage }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, symbol, (p) => p !== undefined, 'position');
}

beforeAll(async () => {
  w = await TradingWorld.boot('portfolio', { seed: SEED });
  for (const m of MARKETS) await w.control('/funding-rate', { market: m, rate: '0.0000125' });
  t = await w.trader('50000');
}, 120_000);
afterAll(async () => {
  await w?.stop();
});

describe(`portfolio against the simulator (seed ${SEED})`, () => {
  it('balances to the cent after fills, partial closes, a liquidation, funding hours, a deposit and a withdrawal', async () => {
    const random = rng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    for (let step = 0; step < 10; step++) {
      const symbol = pick(MARKETS);
      const held = (await w.ctx.api.positions(t.accountId)).positions.find((p) => p.market === symbol);
      const action = held ? pick(['add', 'partial', 'move', 'hour'] as const) : pick(['open', 'move', 'hour'] as const);
      if (action === 'open' || action === 'add') {
        const side = held ? (new Decimal(held.size).isPositive() ? 'BUY' : 'SELL') : pick(['BUY', 'SELL'] as const);
        await open(symbol, side, 2 + Math.floor(random() * 4), 2 + Math.floor(random() * 5));
      } else if (action === 'partial') {
        await closePosition(w.ctx, { wallet: t.wallet, market: symbol, percent: String(20 + Math.floor(random() * 50)) });
      } else if (action === 'move') {
        await move(symbol, 0.97 + random() * 0.06);
      } else {
        await w.advance(HOUR);
      }
    }
    // A liquidation: a long at the market's maximum leverage, then the mark falls past its maintenance.
    const liqMarket = 'SOL';
    const before = (await w.ctx.api.positions(t.accountId)).positions.find((p) => p.market === liqMarket);
    if (before) await closePosition(w.ctx, { wallet: t.wallet, market: liqMarket });
    await open(liqMarket, 'BUY', 3, w.market(liqMarket).max_leverage);
    await move(liqMarket, 0.8);
    await waitForPosition(w.ctx, t.accountId, liqMarket, (p) => p === undefined, 'liquidation');
    // Funding hours with positions open, a deposit, and a withdrawal that completes.
    await open('ETH', 'SELL', 3, 3);
    await w.advance(2 * HOUR + 1_000);
    await t.fund('1234.56');
    const out = await withdraw(w.ctx, { wallet: t.wallet, amount: '321', signer: t.mainSigner! });
    expect(out.withdrawal.withdrawal_id).toBeTruthy();
    await w.advance(10 * 60_000);
    // A withdrawal the venue refunds: out from its creation, back when refunded.
    await w.control('/withdrawal-outcome', { next: true, outcome: 'REFUNDED' });
    await withdraw(w.ctx, { wallet: t.wallet, amount: '150', signer: t.mainSigner! });
    await w.advance(10 * 60_000);
    await move('BTC', 1.01);

    const fills = await w.ctx.api.allTradeHistory({ wallet: t.wallet });
    expect(fills.some((f) => f.is_liquidation)).toBe(true);
    expect(fills.filter((f) => f.closed_pnl != null).length).toBeGreaterThan(1);
    expect((await w.ctx.api.allFundingHistory({ wallet: t.wallet })).length).toBeGreaterThan(0);
    expect((await w.ctx.api.allWithdrawalHistory(t.accountId)).map((x) => x.status)).toEqual(['REFUNDED', 'COMPLETED']);

    const health = await readAccountHealth(w.ctx, t.wallet);
    for (const range of ['1d', 'all'] as const) {
      const r = await readPortfolio(w.ctx, t.wallet, range);
      expect(r.ledger.issues, `${range}: ${JSON.stringify(r.ledger)}`).toEqual([]);
      expect(r.ledger).toMatchObject({ balanced: true, difference: '0' });
      const serviceCash = new Decimal(health.free_balance).plus(health.posted_margin);
      expect(new Decimal(r.ledger.reconstructed_cash).minus(serviceCash).abs().lt('0.005')).toBe(true);
      expect(new Decimal(r.equity).minus(health.equity!).abs().lt('0.005'), `${r.equity} vs ${health.equity}`).toBe(true);
      expect(r.points.at(-1)!.equity).toBe(r.equity);
      expect(r.net_deposits).toBe(new Decimal('50000').plus('1234.56').minus('321').toFixed());
      expect(new Decimal(r.fees_paid).gt(0)).toBe(true);
      expect(new Decimal(r.volume).gt(0)).toBe(true);
    }
  }, 300_000);

  it('`perps portfolio --json` prints the same figures, and bad input is refused with exit 2', async () => {
    const perps = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const globals = ['--profile', 'sim', '--base-url', w.sim.urls.base_url, '--venue-url', w.sim.urls.venue_info_url, '--data-dir', w.dataDir];
        execFile(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), ...globals, ...args], { cwd: REPO_ROOT, env: { ...process.env, PERPS_KEYCHAIN_SERVICE: w.keychainService }, timeout: 60_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
        );
      });
    const run = await perps(['--json', 'portfolio', '--wallet', t.wallet, '--range', 'all']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const doc = JSON.parse(run.stdout) as Record<string, unknown> & { ledger: Record<string, unknown>; points: { time: number; equity: string; pnl: string }[] };
    for (const key of ['range', 'equity', 'cash', 'unrealized_pnl', 'realized_pnl', 'fees_paid', 'funding', 'volume', 'max_drawdown']) expect(typeof doc[key], key).toBe('string');
    expect(doc.range).toBe('all');
    expect(doc.ledger).toMatchObject({ difference: '0', balanced: true });
    expect(typeof doc.ledger.reconstructed_cash).toBe('string');
    expect(typeof doc.ledger.service_cash).toBe('string');
    expect(doc.points.length).toBeGreaterThan(1);
    const mine = await readPortfolio(w.ctx, t.wallet, 'all');
    expect([doc.cash, doc.realized_pnl, doc.fees_paid, doc.funding, doc.volume]).toEqual([mine.cash, mine.realized_pnl, mine.fees_paid, mine.funding, mine.volume]);

    const table = await perps(['portfolio', '--wallet', t.wallet, '--range', '1d']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Ledger balanced/);
    const csv = await perps(['portfolio', '--wallet', t.wallet, '--csv', 'days']);
    expect(csv.stdout.split('\r\n')[0]).toBe('day,realized_pnl,fees,funding,net');

    for (const [bad, says] of [
      [['portfolio', '--wallet', t.wallet, '--range', '2y'], /--range: must be one of 1d, 1w, 1m, all/],
      [['portfolio', '--wallet', '0xnot-a-wallet'], /wallet/],
      [['portfolio', '--wallet', t.wallet, '--csv', 'everything'], /--csv: must be one of points, days, markets/],
      [['--json', 'portfolio', '--wallet', t.wallet, '--csv', 'points'], /choose one of --json and --csv/],
    ] as const) {
      const r = await perps([...bad]);
      expect(r.code, bad.join(' ') + r.stderr).toBe(2);
      expect(r.stderr + r.stdout).toMatch(says);
    }
  }, 120_000);
});
