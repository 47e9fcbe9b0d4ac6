/**
 * kill -9 between the cancel and the re-arm of a partial close (issue 35, item 2): `perps position close
 * --percent 50` is killed with SIGKILL the moment the simulator shows its TP/SL cancelled, so the position
 * is left with no protection at all. The next start of the command line (any command; here `perps
 * positions`) finds the record written before the cancel and re-arms both levels at the same prices on
 * what remains; a further start re-arms nothing more (exactly once). A second run kills the process after
 * its closing order filled, the other window.
 *
 * The simulator answers every trading request 250 ms late (chaos latency), so the window between the
 * cancels landing and the re-arm is wide enough to land a kill in it every time.
 *
 * Where each run happens (issue 37): the close killed with SIGKILL is a child, so this file stays on the
 * wall clock (a child cannot wait on a simulator's manual clock living in this process). The starts that
 * re-arm (`perps positions`) run main in this process (perpsWorld.ts): every run of main re-arms first
 * (restoreProtection.ts), as a new process does, without a child's start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { preparePositionTpsl, submitPositionTpsl, waitForPosition } from '../../../src/main/services/positions/index.js';
import { PROTECTION_FOLDER } from '../../../src/main/services/positions/rearm.js';
import { TradingWorld, type Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
/** `perps` in this process: the next starts, after the kill. */
const perps = perpsOn(() => w);

beforeAll(async () => {
  w = await TradingWorld.boot('cli-rearm-crash', { manualClock: false });
  await w.setMark(SYM, '3400');
  await w.control('/funding-rate', { market: SYM, rate: '0' });
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

async function protectedLong(t: Trader): Promise<{ tp: string; sl: string; ids: string[] }> {
  const m = w.market(SYM);
  const mark = new Decimal('3400');
  const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 8), leverage: 3 }] }, { wait: true });
  expect(r.legs[0]!.final?.status).toBe('FILLED');
  await waitForPosition(w.ctx, t.accountId, SYM, (p) => p !== undefined, 'position');
  const tp = priceAt(m, mark, 1.1);
  const sl = priceAt(m, mark, 0.95);
  const applied = await submitPositionTpsl(w.ctx, await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, tp, sl }), await w.ctx.tradingSigner(t.wallet));
  expect(applied.ok).toBe(true);
  return { tp, sl, ids: (await armed(t)).map((a) => a.order_id) };
}

async function armed(t: Trader): Promise<{ tpsl: string; trigger_price: string; order_id: string }[]> {
  return (await w.ctx.api.positionTriggers(t.wallet)).orders
    .filter((o) => o.market === SYM)
    .map((o) => ({ tpsl: o.tpsl!, trigger_price: canonical(new Decimal(o.trigger_price!)), order_id: o.order_id }))
    .sort((a, b) => (a.tpsl < b.tpsl ? -1 : 1));
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function pendingRecords(): string[] {
  const dir = path.join(w.dataDir, PROTECTION_FOLDER);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

async function killedThenRestored(t: Trader, killWhen: (ids: string[]) => Promise<boolean>): Promise<void> {
  const { tp, sl, ids } = await protectedLong(t);
  await w.chaos({ latency_ms: 250 });
  const close = new PerpsChild(w, ['position', 'close', '--wallet', t.wallet, '--market', SYM, '--percent', '50']);
  try {
    await until('the kill point', () => killWhen(ids)).catch((err: Error) => {
      throw new Error(`${err.message}; the close said:\n${close.stdout}\n${close.stderr}`);
    });
    close.child.kill('SIGKILL');
    expect((await close.done).signal).toBe('SIGKILL');
  } finally {
    await w.resetChaos();
  }
  // Killed between the cancel and the re-arm: nothing protects the position, and the record is there.
  expect(await armed(t)).toEqual([]);
  expect(pendingRecords()).toHaveLength(1);

  const first = await perps(['--json', 'positions', '--wallet', t.wallet]);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toMatch(/restored after an interrupted close: TP [\d,.]+ and SL [\d,.]+ re-armed on the remaining/);
  const rearmed = await armed(t);
  expect(rearmed.map((a) => [a.tpsl, a.trigger_price])).toEqual([
    ['sl', sl],
    ['tp', tp],
  ]);
  const row = perpsJson(first).positions.find((p: { market: string }) => p.market === SYM);
  expect(row).toMatchObject({ sl_state: 'armed', tp_state: 'armed', sl_reason: null });
  expect(pendingRecords()).toEqual([]);

  // Exactly once: the next start has nothing to restore, and the triggers are the same ones.
  const second = await perps(['positions', '--wallet', t.wallet]);
  expect(second.code, second.stderr).toBe(0);
  expect(second.stderr).not.toMatch(/restored/);
  expect((await armed(t)).map((a) => a.order_id)).toEqual(rearmed.map((a) => a.order_id));
}

describe('perps position close killed between cancel and re-arm', () => {
  it('killed once its TP/SL are cancelled: the next start re-arms both on what remains, once', async () => {
    const t = await w.trader();
    await killedThenRestored(t, async () => pendingRecords().length > 0 && (await armed(t)).length === 0);
  }, 90_000);

  it('killed once its closing order filled: the next start re-arms both on the remaining half, once', async () => {
    const t = await w.trader();
    let full: Decimal | null = null;
    await killedThenRestored(t, async () => {
      const p = (await w.ctx.api.positions(t.accountId)).positions.find((x) => x.market === SYM);
      if (!p) return false;
      full ??= new Decimal(p.size);
      return new Decimal(p.size).lt(full);
    });
    const p = (await w.ctx.api.positions(t.accountId)).positions.find((x) => x.market === SYM)!;
    expect(new Decimal(p.size).isPos()).toBe(true);
  }, 90_000);
});
