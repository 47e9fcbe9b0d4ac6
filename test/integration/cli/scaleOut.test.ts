/**
 * A scale-out on a protected position (issue 35): `perps order scale --reduce-only` on a long whose TP and
 * SL are armed, against the simulator over HTTP. The service refuses a reduce-only order beside an armed
 * trigger (close_trigger_coexistence), so the ladder lifts the TP/SL, rests, and re-arms them at the same
 * levels on the whole position, exactly once; a level the mark passed meanwhile is an error and exit 1,
 * never silent; a kill -9 between the cancels and the re-arm leaves the write-ahead record the next start
 * re-arms from.
 *
 * Where each run happens (issue 37): `perps` runs in this process (perpsWorld.ts: the same main, output and
 * exit code; every command's start re-arms what a killed close left, restoreProtection.ts, so a "next
 * start" is a run of main, here as in a shell) against a simulator with a manual clock, whose waits move
 * that clock. The ladder killed with SIGKILL is a child, on a second simulator on the wall clock: a child
 * cannot wait on a clock living in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { preparePositionTpsl, submitPositionTpsl, waitForPosition } from '../../../src/main/services/positions/index.js';
import { PROTECTION_FOLDER } from '../../../src/main/services/positions/rearm.js';
import { TradingWorld, type Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

/** The simulator on a manual clock, which the runs in this process move. */
let w: TradingWorld;
/** The simulator on the wall clock, for the ladder killed with SIGKILL. */
let wall: TradingWorld;
const SYM = 'ETH';
const MARK = new Decimal('3400');

beforeAll(async () => {
  [w, wall] = await Promise.all([TradingWorld.boot('cli-scale-out'), TradingWorld.boot('cli-scale-out-wall', { manualClock: false })]);
  for (const x of [w, wall]) {
    await x.setMark(SYM, MARK.toFixed());
    await x.control('/funding-rate', { market: SYM, rate: '0' });
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([w?.stop(), wall?.stop()]);
});
beforeEach(async () => {
  await Promise.all([w.setMark(SYM, MARK.toFixed()), wall.setMark(SYM, MARK.toFixed())]);
});

/** `perps` in this process: on the manual clock, and beside the child on the wall clock. */
const perps = perpsOn(() => w);
const perpsBesideChild = perpsOn(() => wall);

async function protectedLong(t: Trader): Promise<{ size: Decimal; tp: string; sl: string; ids: string[] }> {
  const ctx = t.world.ctx;
  const m = t.world.market(SYM);
  const r = await placeOrders(ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, MARK, 8), leverage: 3 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  const p = await waitForPosition(ctx, t.accountId, SYM, (x) => x !== undefined, 'position');
  const tp = priceAt(m, MARK, 1.1);
  const sl = priceAt(m, MARK, 0.95);
  expect((await submitPositionTpsl(ctx, await preparePositionTpsl(ctx, { wallet: t.wallet, market: SYM, tp, sl }), await ctx.tradingSigner(t.wallet))).ok).toBe(true);
  return { size: new Decimal(p!.size), tp, sl, ids: (await armed(t)).map((a) => a.order_id) };
}

async function armed(t: Trader): Promise<{ tpsl: string; trigger_price: string; order_id: string; size: string }[]> {
  return (await t.world.ctx.api.positionTriggers(t.wallet)).orders
    .filter((o) => o.market === SYM)
    .map((o) => ({ tpsl: o.tpsl!, trigger_price: canonical(new Decimal(o.trigger_price!)), order_id: o.order_id, size: o.size }))
    .sort((a, b) => (a.tpsl < b.tpsl ? -1 : 1));
}

function pendingRecords(world: TradingWorld): string[] {
  const dir = path.join(world.dataDir, PROTECTION_FOLDER);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A sell ladder of half the long, 2% to 4% above the mark: it rests. */
function ladderArgs(t: Trader, size: Decimal): string[] {
  const m = t.world.market(SYM);
  const half = canonical(size.div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN));
  return ['order', 'scale', '--wallet', t.wallet, '--market', SYM, '--side', 'sell', '--from', priceAt(m, MARK, 1.02), '--to', priceAt(m, MARK, 1.04), '--count', '3', '--total-size', half, '--reduce-only'];
}

describe('perps order scale --reduce-only on a position with TP/SL armed', () => {
  it('lifts the TP/SL, rests the ladder, re-arms both at the same levels on the whole position, exactly once', async () => {
    const t = await w.trader();
    const { size, tp, sl, ids } = await protectedLong(t);
    const dry = await perps(['--json', ...ladderArgs(t, size), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const review = perpsJson(dry).review ?? perpsJson(dry);
    expect(JSON.stringify(review)).toMatch(/are lifted for the ladder and re-armed once it rests/);

    const run = await perps(['--json', ...ladderArgs(t, size)]);
    expect(run.code, run.stderr).toBe(0);
    const out = perpsJson(run);
    expect(out.legs).toHaveLength(3);
    for (const leg of out.legs) expect(leg.status).toBe('SUBMITTED');
    expect(out.cancelled_triggers.map((c: { order_id: string }) => c.order_id).sort()).toEqual([...ids].sort());
    expect(out.rearm).toMatchObject({ past_mark: [], failed: [], kept: [] });
    expect(out.rearm.rearmed).toHaveLength(2);
    expect(out.rearm.summary.join('\n')).toMatch(/TP [\d,.]+ and SL [\d,.]+ re-armed on the remaining/);
    const after = await armed(t);
    expect(after.map((a) => [a.tpsl, a.trigger_price, a.size])).toEqual([
      ['sl', sl, '0'],
      ['tp', tp, '0'],
    ]);
    expect(after.some((a) => ids.includes(a.order_id))).toBe(false);
    // The ladder rests beside them, reduce-only.
    const open = (await t.openOrders(SYM)).filter((o) => o.order_type === 'LIMIT');
    expect(open).toHaveLength(3);
    expect(open.every((o) => o.reduce_only && o.side === 'sell')).toBe(true);
    expect(pendingRecords(w)).toEqual([]);
    // Exactly once: the next start has nothing to restore.
    const next = await perps(['positions', '--wallet', t.wallet]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toMatch(/restored/);
    expect((await armed(t)).map((a) => a.order_id)).toEqual(after.map((a) => a.order_id));
    // A rung fills: the whole-position levels still cover what is left.
    await w.setMark(SYM, priceAt(w.market(SYM), MARK, 1.025));
    await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined && new Decimal(p.size).lt(size), 'the first rung to fill');
    expect((await armed(t)).map((a) => a.tpsl)).toEqual(['sl', 'tp']);
  }, 90_000);

  it('a level the mark passed between the lift and the re-arm: an error line and exit 1, never silent', async () => {
    const t = await w.trader();
    const { size, sl } = await protectedLong(t);
    await w.chaos({ latency_ms: 250 });
    // Not awaited: the mark moves while it runs.
    const run = perps(ladderArgs(t, size));
    try {
      await until('the lift', async () => pendingRecords(w).length > 0 && (await armed(t)).length === 0);
      await w.setMark(SYM, priceAt(w.market(SYM), new Decimal(sl), 0.99));
    } finally {
      await w.resetChaos();
    }
    const done = await run;
    expect(done.code, done.stderr).toBe(1);
    expect(done.stderr).toMatch(/error \[PROTECTION_NOT_RESTORED\]: the ETH position is less protected than before the scale-out: SL [\d.]+ \(the mark [\d.]+ is past it\) not re-armed/);
    expect(done.stderr).toMatch(/close the rest: perps position close/);
    expect(done.stderr).toMatch(/warning: SL [\d,.]+ was not re-armed: the mark [\d,.]+ is already past it/);
    expect((await armed(t)).map((a) => a.tpsl)).toEqual(['tp']);
  }, 90_000);

  it('killed with SIGKILL between the cancels and the re-arm: the next start re-arms from the record, once', async () => {
    const t = await wall.trader();
    const { size, tp, sl } = await protectedLong(t);
    await wall.chaos({ latency_ms: 250 });
    const run = new PerpsChild(wall, ladderArgs(t, size));
    try {
      await until('the lift', async () => pendingRecords(wall).length > 0 && (await armed(t)).length === 0);
      run.child.kill('SIGKILL');
      expect((await run.done).signal).toBe('SIGKILL');
    } finally {
      await wall.resetChaos();
    }
    expect(await armed(t)).toEqual([]);
    expect(pendingRecords(wall)).toHaveLength(1);
    const first = await perpsBesideChild(['positions', '--wallet', t.wallet]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/TP [\d,.]+ and SL [\d,.]+ re-armed on the remaining/);
    const rearmed = await armed(t);
    expect(rearmed.map((a) => [a.tpsl, a.trigger_price])).toEqual([
      ['sl', sl],
      ['tp', tp],
    ]);
    expect(pendingRecords(wall)).toEqual([]);
    const second = await perpsBesideChild(['positions', '--wallet', t.wallet]);
    expect(second.stderr).not.toMatch(/restored/);
    expect((await armed(t)).map((a) => a.order_id)).toEqual(rearmed.map((a) => a.order_id));
  }, 90_000);
});
