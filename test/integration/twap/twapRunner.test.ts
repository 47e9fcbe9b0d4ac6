/**
 * The TWAP scheduler on the simulator's clock: a simulator with a manual clock on loopback, the app's
 * own ServiceContext with a real trading key in the real keychain, and a TWAP clock that IS the
 * simulator's (its waits advance it), so a minute-long TWAP runs in a moment and every slice time is
 * exact. Each test checks the TWAP against the simulator's own orders (by client order id).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { placeOrder, placeOrders } from '../../../src/main/services/orders/submitOrder.js';
import {
  cancelTwap,
  openTwapRunner,
  pauseTwap,
  prepareTwap,
  sliceLeg,
  startTwap,
  twapStoreOf,
  twapView,
  type TwapClock,
  type TwapInput,
  type TwapRecord,
} from '../../../src/main/services/algos/twap/index.js';
import type { AlgoEvent } from '../../../src/main/services/algos/engine/index.js';
import { runLockFile } from '../../../src/main/services/algos/twap/twapLock.js';
import { SLICE_ORDER_AMBIGUOUS } from '../../../src/main/services/algos/twap/twapRunner.js';
import { createServiceContext, type ServiceContext } from '../../../src/main/services/serviceContext.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { TradingWorld, type Trader } from '../orders/tradingWorld.js';
import { byCloid, simOrders } from './twapWorld.js';

let w: TradingWorld;
let clock: TwapClock;
/** What a test hook started (a mark move, a control call): the TWAP's next wait lets it finish first. */
const pending: Promise<unknown>[] = [];
function later(p: Promise<unknown>): void {
  pending.push(p);
}

beforeAll(async () => {
  w = await TradingWorld.boot('twap-runner');
  clock = {
    now: async () => w.sim.clock.now(),
    sleep: async (ms) => {
      await Promise.all(pending.splice(0));
      await w.ctx.sleep(ms);
    },
  };
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

function input(t: Trader, over: Partial<TwapInput> = {}): TwapInput {
  return { wallet: t.wallet, market: 'ETH', side: 'BUY', totalSize: '0.05', durationMs: 25_000, slices: 5, leverage: 5, seed: 1, ...over };
}

async function runTwap(t: Trader, over: Partial<TwapInput> = {}, onUpdate?: (r: TwapRecord) => void): Promise<TwapRecord> {
  const plan = await prepareTwap(w.ctx, input(t, over));
  const runner = await startTwap(w.ctx, plan, { clock, ...(onUpdate ? { onUpdate } : {}) });
  return runner.run();
}

describe('TWAP scheduler on the simulator clock', () => {
  it('sends each slice at its time, at its size, as a MARKET IOC bounded by the mark then; the simulator holds exactly one order per slice', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const marksAt: number[] = [];
    const record = await runTwap(t, {}, (r) => {
      // Move the mark between slices: each slice's bound must follow the mark at its own time.
      const sent = r.slices.filter((s) => s.status === 'filled').length;
      if (sent > marksAt.length) {
        marksAt.push(sent);
        later(w.setMark('ETH', String(3400 + 10 * sent)));
      }
    });
    expect(record.status).toBe('completed');
    expect(record.stop_reason).toBe('target_reached');
    const start = record.created_at;
    record.slices.forEach((s, i) => {
      expect(s.due_at).toBe(start + i * 5_000);
      // Sent at its time on the simulator's clock (the waits land on it exactly).
      expect(s.sent_at).toBe(s.due_at);
      expect(s).toMatchObject({ status: 'filled', size: '0.01', sent_size: '0.01', filled_size: '0.01' });
      expect(s.fills.length).toBeGreaterThan(0);
    });
    // The bound of each slice is 50 bps (ETH's slippage_bps) above the mark at that moment.
    const bounds = record.slices.map((s) => new Decimal(s.limit_price!));
    expect(bounds[0]!.toFixed()).toBe('3417');
    expect(bounds[4]!.gt(bounds[0]!)).toBe(true);
    const view = twapView(record, null);
    expect(view).toMatchObject({ filled_size: '0.05', remaining_size: '0', status: 'completed', slices_sent: 5, slices_missed: 0, needs_decision: false, arrival_mark: '3400' });
    expect(new Decimal(view.avg_fill_price!).gt(3400)).toBe(true);
    expect(new Decimal(view.slippage_vs_arrival_bps!).gt(0)).toBe(true);

    const orders = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect(orders.size).toBe(5);
    for (const s of record.slices) {
      const rows = orders.get(s.client_order_id)!;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ order_id: s.order_id, status: 'filled', size: '0.01' });
    }
  });

  it('says what it does as typed events, after writing it: started, each slice sent and filled (acted), paused when asked, then, resumed, stopped with the stop reason', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const events: AlgoEvent[] = [];
    const texts: string[] = [];
    const unwritten: string[] = [];
    const plan = await prepareTwap(w.ctx, input(t, { totalSize: '0.03', slices: 3, durationMs: 15_000 }));
    const first = await startTwap(w.ctx, plan, {
      clock,
      onEvent: (text) => texts.push(text),
      onAlgoEvent: (e) => {
        events.push(e);
        // What an event says is already in the record (or the slice's own row) when it is said.
        const r = twapStoreOf(w.ctx).require(e.id, w.ctx.profile.name);
        if (e.reason === 'slice_sent' && !r.slices.some((s) => s.order_id !== null && e.text.includes(s.order_id))) unwritten.push(e.text);
        if (e.reason === 'slice_filled' && r.slices.filter((s) => s.status === 'filled').length !== events.filter((x) => x.reason === 'slice_filled').length) unwritten.push(e.text);
        if ((e.type === 'paused' || e.type === 'stopped') && r.notes.at(-1) !== `${new Date(e.at).toISOString()} ${e.text}`) unwritten.push(e.text);
        // Pause once the first slice has filled.
        if (e.reason === 'slice_filled' && !events.some((x) => x.type === 'paused')) first.requestStop('pause');
      },
    });
    const paused = await first.run();
    expect(paused.status).toBe('paused');
    const resumed = await openTwapRunner(w.ctx, paused.id, { clock, onAlgoEvent: (e) => events.push(e) }).run();
    expect(resumed.status).toBe('completed');
    expect(unwritten).toEqual([]);
    const seq = events.map((e) => `${e.type}:${e.reason ?? ''}`);
    expect(seq).toEqual([
      'started:',
      'acted:slice_sent',
      'acted:slice_filled',
      'paused:requested',
      'started:',
      'acted:slice_sent',
      'acted:slice_filled',
      'acted:slice_sent',
      'acted:slice_filled',
      'stopped:target_reached',
    ]);
    for (const e of events) expect(e).toMatchObject({ kind: 'twap', id: paused.id, market: 'ETH', at: expect.any(Number) });
    // The service clock stamps them, and the command line's text listener hears each one the typed listener does (bar the engine's own started/failed).
    expect(texts).toEqual(events.slice(0, 4).filter((e) => e.type !== 'started').map((e) => e.text));
  });

  it('randomizes slice times and sizes within the bounds set, the total exact', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const record = await runTwap(t, { totalSize: '0.2', slices: 8, durationMs: 80_000, randomizeTimePct: 30, randomizeSizePct: 40, seed: 99 });
    expect(record.status).toBe('completed');
    const start = record.created_at;
    const sizes = record.slices.map((s) => new Decimal(s.size));
    expect(sizes.reduce((a, s) => a.plus(s), new Decimal(0)).toFixed()).toBe('0.2');
    for (const s of record.slices) {
      const nominal = start + s.index * 10_000;
      expect(Math.abs(s.due_at - nominal)).toBeLessThanOrEqual(3_000);
      expect(s.sent_at).toBe(s.due_at);
      expect(new Decimal(s.size).minus('0.025').abs().lte(new Decimal('0.025').mul('0.4').plus('0.0001'))).toBe(true);
      expect(s.filled_size).toBe(s.size);
    }
    // Randomized for real: not all equal, not on the nominal grid.
    expect(new Set(record.slices.map((s) => s.size)).size).toBeGreaterThan(1);
    expect(record.slices.some((s) => s.due_at !== start + s.index * 10_000)).toBe(true);
  });

  it('a reduce-only TWAP stops early at the target once the position is closed', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const opened = await placeOrder(w.ctx, { wallet: t.wallet, intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.025', leverage: 5 } }, { wait: true });
    expect(opened.success).toBe(true);
    await w.advance(1_000);
    const record = await runTwap(t, { side: 'SELL', totalSize: '0.05', reduceOnly: true, leverage: undefined });
    expect(record.status).toBe('completed');
    expect(record.stop_reason).toBe('target_reached');
    expect(record.stop_detail).toMatch(/position is closed/);
    const statuses = record.slices.map((s) => s.status);
    // 0.01 + 0.01 + 0.005 (capped by what was left of the position), then nothing more was sent.
    expect(statuses.slice(0, 3)).toEqual(['filled', 'filled', 'filled']);
    expect(record.slices[2]!.sent_size).toBe('0.005');
    expect(statuses.slice(3)).toEqual(['skipped', 'skipped']);
    expect((await simOrders(w.sim.urls.base_url, t.wallet)).filter((o) => o.client_order_id.startsWith('twap-'))).toHaveLength(3);
    expect((await w.ctx.api.positions(t.accountId)).positions.filter((p) => p.market === 'ETH')).toEqual([]);
  });

  it('a rejection that will not change stops it and says which; a momentary one does not', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    await placeOrder(w.ctx, { wallet: t.wallet, intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 5 } }, { wait: true });
    await w.advance(1_000);
    let step = 0;
    const record = await runTwap(t, { side: 'SELL', totalSize: '0.05', reduceOnly: true, leverage: undefined }, (r) => {
      if (step === 0 && r.slices[0]!.status === 'filled') {
        step = 1;
        // The venue cannot route slice 2 (FAILED, venue_unreachable): that may be over by the next slice.
        later(w.control('/order-outcome', { next: true, outcome: 'FAILED' }));
      } else if (step === 1 && r.slices[1]!.status === 'failed') {
        step = 2;
        // A stop-loss armed on the position blocks every reduce-only order until it is cancelled.
        later(placeOrder(w.ctx, { wallet: t.wallet, intent: { kind: 'single', market: 'ETH', side: 'SELL', order_type: 'TRIGGER', size: '0', reduce_only: true, trigger: { trigger_price: '3000', tpsl: 'SL' } } }));
      }
    });
    expect(record.slices[1]).toMatchObject({ status: 'failed', reason: 'venue_unreachable', filled_size: '0' });
    expect(record.status).toBe('failed');
    expect(record.stop_reason).toBe('rejected');
    expect(record.stop_detail).toMatch(/^slice 3\/5 was rejected: .*armed reduce-only trigger.*; the TWAP stopped$/);
    expect(record.slices.map((s) => s.status)).toEqual(['filled', 'failed', 'rejected', 'skipped', 'skipped']);
    // Nothing of slice 3 reached the service: it was refused before signing.
    const rows = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect(rows.has(record.slices[2]!.client_order_id)).toBe(false);
    expect(rows.get(record.slices[0]!.client_order_id)).toHaveLength(1);
  });

  it('pause (asked from elsewhere while it runs), resume with missed slices reported and not sent, then cancel', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const plan = await prepareTwap(w.ctx, input(t, { slices: 6, durationMs: 30_000, totalSize: '0.06' }));
    let asked = false;
    const runner = await startTwap(w.ctx, plan, {
      clock,
      onUpdate: (r) => {
        if (!asked && r.slices[1]!.status === 'filled') {
          asked = true;
          // Another process asks: the request goes into the file, the runner acts before its next slice.
          expect(pauseTwap(w.ctx, r.id).requested).toBe('pause');
        }
      },
    });
    const paused = await runner.run();
    expect(paused.status).toBe('paused');
    expect(paused.slices.map((s) => s.status)).toEqual(['filled', 'filled', 'pending', 'pending', 'pending', 'pending']);
    expect(twapView(paused, null)).toMatchObject({ status: 'paused', needs_decision: true, runner: null });

    // 14 s later, slices 3 and 4 (due at 10 s and 15 s) are more than half an interval late: they are
    // missed, not fired in a burst; slice 5 (due at 20 s) is still ahead.
    await w.advance(14_000);
    let cancelled = false;
    const resumed = await openTwapRunner(w.ctx, paused.id, {
      clock,
      onUpdate: (r) => {
        if (!cancelled && r.slices[4]!.status === 'filled') {
          cancelled = true;
          later(cancelTwap(w.ctx, r.id));
        }
      },
    }).run();
    expect(resumed.slices.map((s) => s.status)).toEqual(['filled', 'filled', 'missed', 'missed', 'filled', 'skipped']);
    expect(resumed.notes.join('\n')).toMatch(/missed slice 3, slice 4 .*the TWAP was not running when they were due; not sent late, not made up/);
    expect(resumed).toMatchObject({ status: 'cancelled', stop_reason: 'cancelled' });
    const rows = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect([...rows.keys()].sort()).toEqual([0, 1, 4].map((i) => resumed.slices[i]!.client_order_id).sort());
    expect(() => openTwapRunner(w.ctx, resumed.id, { clock })).toThrow(/is cancelled: cancelled before its next slice; it cannot be resumed/);
  });

  it('one process at a time: a second runner is refused; a lock left by a dead process is taken over', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await startTwap(w.ctx, await prepareTwap(w.ctx, input(t)), { clock });
    await expect(openTwapRunner(w.ctx, runner.id, { clock }).run()).rejects.toMatchObject({ code: 'TWAP_LOCKED', message: expect.stringMatching(/already running in this process/) });
    runner.requestStop('interrupt');
    const left = await runner.run();
    expect(twapView(left, null)).toMatchObject({ status: 'interrupted', needs_decision: true });
    expect(left.slices.every((s) => s.status === 'pending')).toBe(true);

    // A dead process's lock: a child that has exited, so its pid no longer runs.
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid!)));
    const store = twapStoreOf(w.ctx);
    fs.writeFileSync(runLockFile(store.dir, left.id), JSON.stringify({ pid: deadPid, hostname: os.hostname(), since: 1, token: 'dead' }));
    const done = await openTwapRunner(w.ctx, left.id, { clock }).run();
    expect(done.status).toBe('completed');
    expect(fs.existsSync(runLockFile(store.dir, left.id))).toBe(false);
    expect(fs.statSync(path.join(store.dir, `${left.id}.json`)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(store.dir).mode & 0o777).toBe(0o700);
  });

  it('after a crash, a slice written as sending is found by its client order id and never sent again; one that never left is reported unsent', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await startTwap(w.ctx, await prepareTwap(w.ctx, input(t, { slices: 3, durationMs: 15_000, totalSize: '0.03' })), { clock });
    runner.requestStop('interrupt');
    const r0 = await runner.run();
    // As two crashes leave it: killed right after sending slice 1 (its order is at the service, sent here
    // with its client order id), and killed right after writing slice 2 as sending (nothing left).
    const [s0, s1] = r0.slices;
    const sent = await placeOrders(w.ctx, { wallet: t.wallet, legs: [sliceLeg({ market: 'ETH', side: 'BUY', reduceOnly: false, leverage: 5, slippageBps: 50 }, '0.01', s0!.client_order_id)] });
    const leg = sent.legs[0]!;
    const now = w.sim.clock.now();
    twapStoreOf(w.ctx).update(r0.id, (x) => ({
      ...x,
      slices: x.slices.map((s) =>
        s.index === s0!.index
          ? { ...s, status: 'sending', sent_size: leg.leg.size, limit_price: leg.leg.limit_price, nonce: '1', sent_at: now }
          : s.index === s1!.index
            ? { ...s, status: 'sending', sent_size: '0.01', limit_price: leg.leg.limit_price, nonce: '2', sent_at: now }
            : s,
      ),
    }));
    const resumed = await openTwapRunner(w.ctx, r0.id, { clock, reconcileGraceMs: 3_000 }).run();
    expect(resumed.slices[0]).toMatchObject({ status: 'filled', order_id: leg.order_id, filled_size: '0.01' });
    expect(resumed.slices[1]).toMatchObject({ status: 'unsent', reason: 'not_found', order_id: null });
    expect(resumed.slices[2]).toMatchObject({ status: 'filled' });
    expect(resumed.notes.join('\n')).toMatch(/slice 1\/3: its order .* was found in order-history by its client order id/);
    const rows = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect(rows.get(s0!.client_order_id)).toHaveLength(1);
    expect(rows.has(s1!.client_order_id)).toBe(false);
    expect(rows.get(resumed.slices[2]!.client_order_id)).toHaveLength(1);
    expect(twapView(resumed, null).filled_size).toBe('0.02');
  });
  // The spec's history row lists no client_order_id (the simulator adds it): a service that leaves it out
  // is met by stripping it from every history answer.
  function withoutClientOrderIds(): ServiceContext {
    const stripping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!new URL(url).pathname.endsWith('/account/order-history')) return res;
      const body = (await res.json()) as { data: { orders: Record<string, unknown>[] } };
      for (const row of body.data.orders) delete row['client_order_id'];
      return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
    };
    return createServiceContext(simProfile(w.sim.urls, w.dataDir), { keychainService: w.keychainService, fetch: stripping, configTtlMs: 0, sleep: w.ctx.sleep });
  }

  /** A TWAP whose process died right after sending slice 1 (its order is at the service): the record says `sending`. */
  async function crashedAfterFirstSend(t: Trader): Promise<{ id: string; orderId: string; client_order_id: string }> {
    await w.setMark('ETH', '3400');
    const runner = await startTwap(w.ctx, await prepareTwap(w.ctx, input(t, { slices: 3, durationMs: 15_000, totalSize: '0.03' })), { clock });
    runner.requestStop('interrupt');
    const r0 = await runner.run();
    const s0 = r0.slices[0]!;
    const sent = await placeOrders(w.ctx, { wallet: t.wallet, legs: [sliceLeg({ market: 'ETH', side: 'BUY', reduceOnly: false, leverage: 5, slippageBps: 50 }, '0.01', s0.client_order_id)] });
    const leg = sent.legs[0]!;
    const now = w.sim.clock.now();
    twapStoreOf(w.ctx).update(r0.id, (x) => ({
      ...x,
      slices: x.slices.map((s) => (s.index === s0.index ? { ...s, status: 'sending', sent_size: leg.leg.size, limit_price: leg.leg.limit_price, nonce: '1', sent_at: now } : s)),
    }));
    return { id: r0.id, orderId: leg.order_id!, client_order_id: s0.client_order_id };
  }

  it('rows without client order ids: a slice written as sending is found by the fields it sent, and the TWAP goes on', async () => {
    const t = await w.trader();
    const crashed = await crashedAfterFirstSend(t);
    const resumed = await openTwapRunner(withoutClientOrderIds(), crashed.id, { clock, reconcileGraceMs: 3_000 }).run();
    expect(resumed.status).toBe('completed');
    expect(resumed.slices[0]).toMatchObject({ status: 'filled', order_id: crashed.orderId, filled_size: '0.01' });
    expect(resumed.notes.join('\n')).toMatch(/slice 1\/3: its order .* was found in order-history by the fields it sent/);
    const rows = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect(rows.get(crashed.client_order_id)).toHaveLength(1);
    expect(twapView(resumed, null).filled_size).toBe('0.03');
  });

  it('rows without client order ids: an identical order placed by hand makes the slice ambiguous; the TWAP stops, nothing sent again', async () => {
    const t = await w.trader();
    const crashed = await crashedAfterFirstSend(t);
    // The same order by hand (same size, same bound at the same mark), with an id of its own.
    const byHand = await placeOrders(w.ctx, { wallet: t.wallet, legs: [sliceLeg({ market: 'ETH', side: 'BUY', reduceOnly: false, leverage: 5, slippageBps: 50 }, '0.01', 'by-hand-1')] });
    const resumed = await openTwapRunner(withoutClientOrderIds(), crashed.id, { clock, reconcileGraceMs: 3_000 }).run();
    expect(resumed.status).toBe('failed');
    expect(resumed.slices[0]).toMatchObject({ status: 'failed', reason: SLICE_ORDER_AMBIGUOUS, order_id: null });
    expect(resumed.slices.slice(1).map((s) => [s.status, s.order_id])).toEqual([
      ['skipped', null],
      ['skipped', null],
    ]);
    expect(resumed.stop_detail).toMatch(/slice 1\/3: its order cannot be told from another identical order/);
    expect(resumed.notes.join('\n')).toMatch(/2 orders \(.*\) match what it sent/);
    expect(resumed.notes.join('\n')).toMatch(/cannot be told from another identical order/);
    // Nothing sent after the crash: the two orders are the slice's and the hand-placed one.
    const rows = byCloid(await simOrders(w.sim.urls.base_url, t.wallet));
    expect([...rows.keys()].sort()).toEqual([crashed.client_order_id, 'by-hand-1'].sort());
    expect(byHand.legs[0]!.order_id).not.toBe(crashed.orderId);
  });

  // ---- damaged records (issue #26 items 10-12): checked as a whole before anything is sent ------------

  /** A TWAP stopped before its first slice (interrupted: resumable), as stored. */
  async function stoppedTwap(t: Trader, over: Partial<TwapInput> = {}): Promise<TwapRecord> {
    await w.setMark('ETH', '3400');
    const runner = await startTwap(w.ctx, await prepareTwap(w.ctx, input(t, over)), { clock });
    runner.requestStop('interrupt');
    return runner.run();
  }

  const fileOf = (id: string) => path.join(twapStoreOf(w.ctx).dir, `${id}.json`);

  /** Edits the stored file by hand, as a person with an editor (or a disk fault) would: no check on the way. */
  function handEdit(id: string, change: (r: TwapRecord) => unknown): string {
    const text = JSON.stringify(change(JSON.parse(fs.readFileSync(fileOf(id), 'utf8')) as TwapRecord), null, 2);
    fs.writeFileSync(fileOf(id), text);
    return text;
  }

  /** Resume and cancel are both refused as damaged; the file is left as it was and nothing is sent. */
  async function refusedAsDamaged(t: Trader, id: string, text: string, reason: RegExp): Promise<void> {
    const before = (await simOrders(w.sim.urls.base_url, t.wallet)).length;
    await expect((async () => openTwapRunner(w.ctx, id, { clock, reconcileGraceMs: 1_000 }).run())()).rejects.toMatchObject({ code: 'TWAP_RECORD_DAMAGED', kind: 'validation', message: expect.stringMatching(reason) });
    await expect(cancelTwap(w.ctx, id, { clock, reconcileGraceMs: 1_000 })).rejects.toMatchObject({ code: 'TWAP_RECORD_DAMAGED', kind: 'validation' });
    expect(() => pauseTwap(w.ctx, id)).toThrow(/is damaged/);
    expect(fs.readFileSync(fileOf(id), 'utf8')).toBe(text);
    expect(await simOrders(w.sim.urls.base_url, t.wallet)).toHaveLength(before);
  }

  it('item 10: a negative filled_size on a finished slice is damage: nothing is sent (it sent 0.5 ETH against a target of 0.02)', async () => {
    const t = await w.trader();
    const r = await stoppedTwap(t, { totalSize: '0.02', slices: 2, durationMs: 10_000 });
    const text = handEdit(r.id, (x) => ({
      ...x,
      slices: [
        { ...x.slices[0]!, status: 'filled', sent_size: '0.01', limit_price: '3417', nonce: '1', sent_at: x.created_at, order_id: 'o-gone', filled_size: '-0.48', avg_fill_price: '3400' },
        { ...x.slices[1]!, size: '0.5', due_at: w.sim.clock.now() },
      ],
    }));
    await refusedAsDamaged(t, r.id, text, /slice 1 has filled_size -0\.48 \(must not be negative\)/);
  });

  it('item 11: slice indices that do not match their positions are damage: resume and cancel refuse it clearly (they crashed on it, every time)', async () => {
    const t = await w.trader();
    const r = await stoppedTwap(t, { totalSize: '0.03', slices: 3, durationMs: 15_000 });
    const text = handEdit(r.id, (x) => ({ ...x, slices: x.slices.map((s, i) => (i === 1 ? { ...s, index: 7, status: 'sent', sent_size: s.size, limit_price: '3417', nonce: '1', sent_at: x.created_at, order_id: 'o-elsewhere' } : s)) }));
    await refusedAsDamaged(t, r.id, text, /slice 2 says it is index 7, but it is at position 1/);
    // The other TWAPs of the data folder are still listed and run.
    const listed = twapStoreOf(w.ctx).list(w.ctx.profile.name);
    expect(listed.damaged.map((d) => d.id)).toContain(r.id);
    expect(listed.twaps.map((x) => x.id)).not.toContain(r.id);
  });

  it('item 12: a forged client order id on a sending slice is damage: the unrelated order is never adopted', async () => {
    const t = await w.trader();
    const r = await stoppedTwap(t, { totalSize: '0.02', slices: 2, durationMs: 10_000 });
    const byHand = await placeOrders(w.ctx, { wallet: t.wallet, legs: [sliceLeg({ market: 'ETH', side: 'BUY', reduceOnly: false, leverage: 5, slippageBps: 50 }, '0.01', 'by-hand-forged')] });
    expect(byHand.legs[0]!.order_id).not.toBeNull();
    const text = handEdit(r.id, (x) => ({
      ...x,
      slices: x.slices.map((s, i) => (i === 0 ? { ...s, status: 'sending', client_order_id: 'by-hand-forged', sent_size: '0.01', limit_price: '3417', nonce: '1', sent_at: w.sim.clock.now() } : s)),
    }));
    await refusedAsDamaged(t, r.id, text, /slice 1 carries client order id 'by-hand-forged', not 'twap-[0-9a-f]{12}-0'/);
  });

  it('item 12: a duplicated index is damage (it reported 0.02 filled after sending 0.01)', async () => {
    const t = await w.trader();
    const dup = await stoppedTwap(t, { totalSize: '0.02', slices: 2, durationMs: 10_000 });
    const sent = await placeOrders(w.ctx, { wallet: t.wallet, legs: [sliceLeg({ market: 'ETH', side: 'BUY', reduceOnly: false, leverage: 5, slippageBps: 50 }, '0.01', dup.slices[0]!.client_order_id)] });
    const s0 = { ...dup.slices[0]!, status: 'filled' as const, sent_size: '0.01', limit_price: '3417', nonce: '1', sent_at: dup.created_at, order_id: sent.legs[0]!.order_id, filled_size: '0.01', avg_fill_price: '3400' };
    const dupText = handEdit(dup.id, (x) => ({ ...x, slices: [s0, s0] }));
    await refusedAsDamaged(t, dup.id, dupText, /slice 2 says it is index 0, but it is at position 1/);
  });

  it('item 12: a negative slice size is damage (it ended as target_reached with 0 filled)', async () => {
    const t = await w.trader();
    const neg = await stoppedTwap(t, { totalSize: '0.02', slices: 2, durationMs: 10_000 });
    const negText = handEdit(neg.id, (x) => ({ ...x, slices: [{ ...x.slices[0]!, size: '-0.01', due_at: w.sim.clock.now() }, { ...x.slices[1]!, size: '0.03' }] }));
    await refusedAsDamaged(t, neg.id, negText, /slice 1 has size -0\.01 \(must be above 0\)/);
  });

  /** A 3-slice TWAP run to its end, then edited back to say slices 1 and 2 were never sent (the service has both filled). */
  async function underReported(t: Trader): Promise<{ id: string; text: string }> {
    await w.setMark('ETH', '3400');
    const done = await runTwap(t, { totalSize: '0.03', slices: 3, durationMs: 15_000 });
    expect(done.status).toBe('completed');
    const now = w.sim.clock.now();
    const text = handEdit(done.id, (x) => ({
      ...x,
      status: 'running',
      stop_reason: null,
      stop_detail: null,
      slices: x.slices.map((s, i) =>
        i < 2 ? { ...s, status: 'pending', due_at: now + i * 5_000, sent_size: null, limit_price: null, nonce: null, sent_at: null, order_id: null, filled_size: '0', avg_fill_price: null, fills: [], reason: null } : s,
      ),
    }));
    return { id: done.id, text };
  }

  it("the sent total is checked against the service's order history before each slice: a record that under-reports sends nothing again", async () => {
    const t = await w.trader();
    const { id } = await underReported(t);
    const resumed = await openTwapRunner(w.ctx, id, { clock }).run();
    expect(resumed).toMatchObject({ status: 'failed', stop_reason: 'over_target' });
    expect(resumed.stop_detail).toMatch(/^slice 1\/3 is already at the service as order \S+ \(filled\), though its record says it was never sent/);
    const orders = await simOrders(w.sim.urls.base_url, t.wallet);
    expect(orders).toHaveLength(3);
    expect(orders.reduce((a, o) => a.plus(o.filled_size), new Decimal(0)).toFixed()).toBe('0.03');
  });

  it('rows without client order ids: the sum from order history stops the TWAP at its target, never past it', async () => {
    const t = await w.trader();
    const { id } = await underReported(t);
    const resumed = await openTwapRunner(withoutClientOrderIds(), id, { clock }).run();
    expect(resumed).toMatchObject({ status: 'failed', stop_reason: 'over_target' });
    // Without client order ids the look-alike rows count: all three slices' orders, the whole target.
    expect(resumed.stop_detail).toMatch(/^slice 1\/3 \(0\.01\) would take what the service lists for this TWAP, 0\.03 in 3 order\(s\), past its target 0\.03/);
    const orders = await simOrders(w.sim.urls.base_url, t.wallet);
    expect(orders).toHaveLength(3);
    expect(orders.reduce((a, o) => a.plus(o.filled_size), new Decimal(0)).toFixed()).toBe('0.03');
  });
});
