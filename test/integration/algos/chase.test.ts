/**
 * Chase orders against the simulator over loopback HTTP and its venue WebSocket, on the simulator's
 * manual clock (the runner's waits advance it; scripted marks are applied when their time comes, and each
 * waits for the book message it causes to reach the chase). Every check reads the simulator's own open
 * orders and history, not what the runner believes:
 *  - the book moves away three times and the order follows each time, by whole ticks, at most once a second;
 *  - a partial fill keeps chasing the remainder; one fill total of the size;
 *  - the max distance stops it (and --on-limit cancel cancels the order);
 *  - a post-only rejection (the book came back through the new price before the Modify applied) re-prices at once;
 *  - a Modify in flight at a crash is settled from order history on resume, never sent twice; one whose
 *    intent a power loss took is found there by its client order id;
 *  - a re-price's intent is in the intent log before its Modify is sent, and in the record, fsynced,
 *    before its answer is acted on (written while the Modify is in flight, off the reaction's path); a
 *    Modify logged but not recorded (killed in between) is settled on resume; a damaged log refuses it;
 *  - a book message that fails its check freezes the chase: nothing is sent until a good book comes.
 * While a chase runs, open orders are read over and over: never more than one live order.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, isMultipleOf } from '../../../src/shared/decimal/index.js';
import { chaseClientOrderId, chaseTarget, parseChaseFlags, type ChaseRecord } from '../../../src/shared/algos/chase/index.js';
import type { AlgoClock } from '../../../src/main/services/algos/algoClock.js';
import { ChaseIntentLog, ChaseStore, chaseIntentLogFile, chaseStoreOf, openChaseRunner, prepareChase, startChase, venueChaseBooks, type ChaseBookEvent, type ChaseRunner } from '../../../src/main/services/algos/chase/index.js';
import type { HeldRecord } from '../../../src/main/services/algos/algoStore.js';
import type { TradingContext } from '../../../src/main/services/orders/orderContext.js';
import { VenueSocketPool, type VenueSocketLease } from '../../../src/main/venue/venueSocketPool.js';
import { VenueSocket } from '../../../src/main/venue/venueSocket.js';
import type { L2Book } from '../../../src/main/venue/schemas.js';
import { modifyTypedData } from '../../../src/shared/eip712/index.js';
import { TradingWorld, sizeFor, type Trader } from '../orders/tradingWorld.js';

let w: TradingWorld;
let pool: VenueSocketPool;
/** Actions on the simulator's clock: applied by the runner's next wait once their time comes. */
let script: { at: number; act: () => Promise<void> }[] = [];
/** Actions run at the runner's next wait, before time moves. */
const beforeNextWait: (() => Promise<void>)[] = [];
let stopAt: { at: number; runner: ChaseRunner; kind?: 'interrupt' | 'cancel' } | null = null;
const bookWaiters: ((e: ChaseBookEvent) => void)[] = [];
let clock: AlgoClock;

beforeAll(async () => {
  w = await TradingWorld.boot('chase');
  await w.control('/funding-rate', { market: 'ETH', rate: '0' });
  pool = new VenueSocketPool((url) => new VenueSocket({ url }));
  clock = {
    now: async () => w.sim.clock.now(),
    sleep: async (ms) => {
      for (const a of beforeNextWait.splice(0)) await a();
      // Time moves up to the next scripted action at most: the action happens at its time, and the book
      // message it causes wakes the runner as the venue's would.
      const due = Math.min(w.sim.clock.now() + ms, script[0]?.at ?? Infinity, stopAt?.at ?? Infinity);
      await w.ctx.sleep(Math.max(0, due - w.sim.clock.now()));
      const now = w.sim.clock.now();
      while (script.length > 0 && script[0]!.at <= now) await script.shift()!.act();
      if (stopAt && stopAt.at <= now) stopAt.runner.requestStop(stopAt.kind ?? 'interrupt');
    },
  };
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

function onBook(e: ChaseBookEvent): void {
  for (const f of bookWaiters.splice(0)) f(e);
}

/** Sets the mark and waits (real time, bounded) for the book message it causes to reach the chase. */
function mark(price: string): () => Promise<void> {
  return async () => {
    const seen = new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no book after mark ${price}`)), 5_000);
      bookWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
    await w.setMark('ETH', price);
    await seen;
  };
}

/** The best bid and ask the simulator's venue serves for ETH at this moment. */
async function best(): Promise<{ bid: string; ask: string }> {
  const b = (await w.ctx.venue.l2Book('ETH'))!;
  return { bid: b.levels[0][0]!.px, ask: b.levels[1][0]!.px };
}

/** Reads the trader's ETH open orders again and again while `work` runs; every read is kept. */
async function watchingOpenOrders<T>(t: Trader, work: Promise<T>): Promise<{ result: T; counts: number[] }> {
  const counts: number[] = [];
  let done = false;
  const reader = (async () => {
    while (!done) {
      counts.push((await t.openOrders('ETH')).length);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  })();
  try {
    const result = await work;
    return { result, counts };
  } finally {
    done = true;
    await reader;
  }
}

function lease(): VenueSocketLease {
  return pool.lease(w.ctx.profile.venueWsUrl!);
}

async function chase(t: Trader, flags: Parameters<typeof parseChaseFlags>[0], size: string, extra: { lease?: VenueSocketLease; onUpdate?: (r: ChaseRecord) => void; onReaction?: () => void } = {}): Promise<ChaseRunner> {
  const prepared = await prepareChase(w.ctx, { wallet: t.wallet, market: 'ETH', side: 'buy', size, settings: parseChaseFlags(flags), leverage: 5 });
  return startChase(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet), {
    clock,
    books: venueChaseBooks(extra.lease ?? lease()),
    onBook,
    ...(extra.onUpdate ? { onUpdate: extra.onUpdate } : {}),
    ...(extra.onReaction ? { onReaction: extra.onReaction } : {}),
  });
}

/**
 * The Modify a chase would send next (its client order id `cloid`, to `price`), signed and sent by the test
 * as the runner sends it: what a crash or a power loss left at the service without the record knowing.
 */
async function modifyByHand(t: Trader, order: NonNullable<ChaseRecord['order']>, cloid: string, price: string): Promise<void> {
  const nonce = String(await w.ctx.nonces.next(t.wallet));
  const fields = { account_id: t.accountId, client_order_id: cloid, limit_price: price, size: order.size, trigger_price: '0', nonce };
  const signature = await (await w.ctx.tradingSigner(t.wallet)).signTypedData(modifyTypedData(order.order_id!, fields, w.ctx.profile.network));
  expect((await w.ctx.api.modify(order.order_id!, { ...fields, signature })).status).toBe('SUBMITTED');
}

function modifies(from: number): number {
  return w.since(from).filter((r) => r.method === 'POST' && /\/orders\/[^/]+\/modify$/.test(r.path)).length;
}

describe('chase on the simulator', () => {
  it('follows the book away three times, each time by whole ticks to the new best bid, at most once a second', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const size = sizeFor(w.market('ETH'), new Decimal('3400'), 2);
    const prices: { at: number; price: string }[] = [];
    const runner = await chase(t, {}, size, {
      onUpdate: (r) => {
        if (r.order?.order_id && prices.at(-1)?.price !== r.order.price) prices.push({ at: w.sim.clock.now(), price: r.order.price });
      },
    });
    const t0 = w.sim.clock.now();
    const expected: string[] = [chaseTarget('BUY', await best(), 0, '0.1')!];
    script = [
      { at: t0 + 1_500, act: mark('3410') },
      { at: t0 + 1_600, act: async () => void expected.push(chaseTarget('BUY', await best(), 0, '0.1')!) },
      // 400 ms after that move: the next waits for the second to pass.
      { at: t0 + 2_000, act: mark('3425.3') },
      { at: t0 + 2_050, act: async () => void expected.push(chaseTarget('BUY', await best(), 0, '0.1')!) },
      // Toward the order by a tick, not through it: it stays.
      { at: t0 + 5_000, act: mark('3425.2') },
      { at: t0 + 8_000, act: mark('3431.4') },
      { at: t0 + 8_050, act: async () => void expected.push(chaseTarget('BUY', await best(), 0, '0.1')!) },
    ];
    stopAt = { at: t0 + 12_000, runner };
    const { result: left, counts } = await watchingOpenOrders(t, runner.run());
    stopAt = null;
    expect(left.status).toBe('working');
    expect(prices.map((p) => p.price)).toEqual(expected);
    expect(expected).toEqual(['3399.8', '3409.8', '3425.1', '3431.2']);
    for (const p of prices) expect(isMultipleOf(p.price, w.market('ETH').tick_size)).toBe(true);
    for (let i = 2; i < prices.length; i++) expect(prices[i]!.at - prices[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
    expect(left.moves).toBe(3);
    expect(Math.max(...counts)).toBe(1);
    const open = await t.openOrders('ETH');
    expect(open.map((o) => [o.limit_price, o.time_in_force, o.size])).toEqual([['3431.2', 'ALO', size]]);
  });

  it('a partial fill keeps chasing the remainder; one fill of the whole size in total', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const size = sizeFor(w.market('ETH'), new Decimal('3400'), 4);
    const part = new Decimal(size).div(4).toDecimalPlaces(4, Decimal.ROUND_DOWN).toFixed();
    const runner = await chase(t, {}, size);
    const t0 = w.sim.clock.now();
    script = [
      // A fill just before the book moves away: the Modify is sized from the fill the service lists then.
      {
        at: t0 + 3_000,
        act: async () => {
          await w.control('/fill-resting', { order_id: (await t.openOrders('ETH'))[0]!.order_id, size: part });
          await mark('3410')();
        },
      },
      // Down through the order: it fills.
      { at: t0 + 6_000, act: mark('3405') },
    ];
    stopAt = { at: t0 + 20_000, runner };
    const { result: done, counts } = await watchingOpenOrders(t, runner.run());
    stopAt = null;
    expect(done).toMatchObject({ status: 'done', end_reason: 'filled', moves: 1 });
    expect(done.notes.join('\n')).toMatch(new RegExp(`filled ${part.replace('.', '\\.')} of ${size.replace('.', '\\.')}; chasing the remainder`));
    expect(Math.max(...counts)).toBe(1);
    const history = await t.history();
    const rows = new Map<string, (typeof history)[number]>();
    for (const r of history) if (!rows.has(r.order_id)) rows.set(r.order_id, r);
    const filled = [...rows.values()].reduce((a, r) => a.plus(r.filled_size), new Decimal(0));
    expect(filled.toFixed()).toBe(new Decimal(size).toFixed());
    // The Modify sent the remainder, not the whole size again.
    const moved = [...rows.values()].find((r) => r.limit_price === '3409.8')!;
    expect(new Decimal(moved.size).toFixed()).toBe(new Decimal(size).minus(part).toFixed());
    expect(await t.openOrders('ETH')).toEqual([]);
  });

  it('stops at the max distance from where it started, and --on-limit cancel cancels the order', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, { maxDistance: '0.5%', onLimit: 'cancel' }, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    const t0 = w.sim.clock.now();
    script = [
      { at: t0 + 1_000, act: mark('3410') },
      // 3429.8 is 30 from 3399.8: past 0.5% (17.0) of it.
      { at: t0 + 3_000, act: mark('3430') },
    ];
    stopAt = { at: t0 + 15_000, runner };
    const done = await runner.run();
    stopAt = null;
    expect(done).toMatchObject({ status: 'done', end_reason: 'max_distance', moves: 1 });
    expect(done.notes.at(-1)).toMatch(/the best price is 0\.5% or more from where it started \(3,399\.8\): the chase is over; order \d+ cancelled/);
    expect(await t.openOrders('ETH')).toEqual([]);
    expect((await t.history()).some((r) => r.limit_price === '3429.8')).toBe(false);
  });

  it('--timeout ends it and leaves the order resting (--on-limit leave, the default)', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, { timeout: '5s' }, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    stopAt = { at: w.sim.clock.now() + 30_000, runner };
    const done = await runner.run();
    stopAt = null;
    expect(done).toMatchObject({ status: 'done', end_reason: 'timeout' });
    expect(done.notes.at(-1)).toMatch(/the timeout \(5 s\) passed: the chase is over; order \d+ rests at 3,399\.8 \(left, as --on-limit leave asks\)/);
    expect((await t.openOrders('ETH')).map((o) => [o.order_id, o.limit_price])).toEqual([[done.order!.order_id, '3399.8']]);
  });

  it('--taker-after cancels the resting order, then crosses with an IOC for the remainder within the slippage bound', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const size = sizeFor(w.market('ETH'), new Decimal('3400'), 2);
    const runner = await chase(t, { takerAfter: '3s', timeout: '1m' }, size);
    stopAt = { at: w.sim.clock.now() + 30_000, runner };
    const { result: done, counts } = await watchingOpenOrders(t, runner.run());
    stopAt = null;
    expect(done, done.notes.join('\n')).toMatchObject({ status: 'done', end_reason: 'filled' });
    expect(done.notes.join('\n')).toMatch(/crossing after 3 s: cancelling order \d+ at 3,399\.8 first[\s\S]*crossing: IOC buy [\d.]+ within 3,417 as order \d+/);
    expect(Math.max(...counts)).toBe(1);
    const latest = new Map<string, { status: string; time_in_force?: string | null; filled_size: string; limit_price: string }>();
    for (const r of await t.history()) if (!latest.has(r.order_id)) latest.set(r.order_id, r);
    // The mark 3400 and 50 bps (ETH's slippage_bps) above it: 3417, as a market order's bound.
    expect([...latest.values()].map((r) => [r.time_in_force, r.status, r.limit_price]).sort()).toEqual([
      ['ALO', 'cancelled', '3399.8'],
      ['IOC', 'filled', '3417'],
    ]);
  });

  it('a post-only rejection (the book came back through the new price before the Modify applied) re-prices at once', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    let dropped = false;
    const runner = await chase(t, {}, sizeFor(w.market('ETH'), new Decimal('3400'), 2), {
      // The Modify to 3419.8 is answered; before it applies, the book falls so that its ask is 3410.2.
      onReaction: () => {
        if (!dropped) beforeNextWait.push(mark('3410'));
        dropped = true;
      },
    });
    const t0 = w.sim.clock.now();
    script = [{ at: t0 + 1_000, act: mark('3420') }];
    stopAt = { at: t0 + 6_000, runner };
    const { result: left, counts } = await watchingOpenOrders(t, runner.run());
    stopAt = null;
    expect(left.status).toBe('working');
    const history = await t.history();
    expect(history.some((r) => r.status === 'rejected' && r.reason === 'post_only_would_take' && r.limit_price === '3419.8')).toBe(true);
    expect(left.notes.join('\n')).toMatch(/the re-price to 3,419\.8 was rejected post-only \(the book moved through it\): re-pricing at once/);
    // At once: a new post-only order at the best bid of the book that refused it.
    const open = await t.openOrders('ETH');
    expect(open.map((o) => [o.limit_price, o.time_in_force])).toEqual([['3409.8', 'ALO']]);
    expect(Math.max(...counts)).toBe(1);
  });

  it('a Modify in flight at a crash is settled from order history on resume: never sent twice', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, {}, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    const t0 = w.sim.clock.now();
    stopAt = { at: t0 + 1_000, runner };
    const resting = await runner.run();
    const order = resting.order!;
    // The crash: the intent was written and the Modify sent; the process died before its answer.
    const store = chaseStoreOf(w.ctx);
    const cloid = chaseClientOrderId(resting.id, resting.sends + 1);
    const sentAt = w.sim.clock.now();
    store.update(resting.id, (x) => ({ ...x, sends: x.sends + 1, moving: { client_order_id: cloid, from_order_id: order.order_id!, to_price: '3400', size: order.size, sent_at: sentAt, new_order_id: null } }));
    await modifyByHand(t, order, cloid, '3400');
    const from = w.requests.length;
    const resumed = openChaseRunner(w.ctx, resting.id, { clock, books: venueChaseBooks(lease()), onBook });
    stopAt = { at: w.sim.clock.now() + 2_000, runner: resumed };
    const left = await resumed.run();
    stopAt = null;
    expect(modifies(from)).toBe(0);
    expect(left).toMatchObject({ moving: null, moves: 1, order: { price: '3400', client_order_id: cloid } });
    expect(left.notes.join('\n')).toMatch(/moved 3,399\.8 -> 3,400 as order/);
    const open = await t.openOrders('ETH');
    expect(open.map((o) => o.limit_price)).toEqual(['3400']);
  });

  it("a re-price's intent is in the intent log before its Modify is sent, and in the record, fsynced, before its answer is acted on", async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const steps: string[] = [];
    let id = '';
    // The store as the runner uses it, telling each write of a move as it lands on disk.
    class TellingStore extends ChaseStore {
      override writeHeld(held: HeldRecord<ChaseRecord>, next: ChaseRecord): HeldRecord<ChaseRecord> {
        const out = super.writeHeld(held, next);
        if (next.moving?.new_order_id) steps.push(`answer written ${next.moving.client_order_id}`);
        return out;
      }
      override writeHeldAsync(held: HeldRecord<ChaseRecord>, next: ChaseRecord): { out: HeldRecord<ChaseRecord>; written: Promise<void> } {
        const out = super.writeHeldAsync(held, next);
        const tell = `intent written and fsynced ${next.moving?.client_order_id ?? 'none'}`;
        return { out: out.out, written: out.written.then(() => void steps.push(tell)) };
      }
    }
    const store = new TellingStore(w.ctx.profile.dataDir);
    // The Modify, as it leaves: what the intent log holds at that moment, read from disk.
    const api = new Proxy(w.ctx.api, {
      get(target, key) {
        if (key === 'modify') {
          return (orderId: string, body: Parameters<typeof target.modify>[1]) => {
            const logged = ChaseIntentLog.latest(chaseIntentLogFile(store.dir, id));
            steps.push(`Modify ${body.client_order_id} sent; logged: ${logged && 'line' in logged ? logged.line.moving.client_order_id : 'nothing'}`);
            modifyNonce = body.nonce;
            return target.modify(orderId, body);
          };
        }
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    // Nonces as the runner takes them: the Modify's was taken while it waited, before the book moved.
    let modifyNonce = '';
    let moved = false;
    const takenBeforeTheMove: string[] = [];
    const nonces = new Proxy(w.ctx.nonces, {
      get(target, key) {
        if (key === 'next') {
          return async (wallet: string) => {
            const n = await target.next(wallet);
            if (!moved) takenBeforeTheMove.push(String(n));
            return n;
          };
        }
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const ctx: TradingContext = { ...w.ctx, api, nonces };
    const prepared = await prepareChase(ctx, { wallet: t.wallet, market: 'ETH', side: 'buy', size: sizeFor(w.market('ETH'), new Decimal('3400'), 2), settings: parseChaseFlags({}), leverage: 5 });
    id = prepared.id;
    const runner = await startChase(ctx, prepared, await w.ctx.tradingSigner(t.wallet), { clock, books: venueChaseBooks(lease()), onBook, store });
    const t0 = w.sim.clock.now();
    script = [
      {
        at: t0 + 1_000,
        act: async () => {
          moved = true;
          await mark('3410')();
        },
      },
    ];
    stopAt = { at: t0 + 3_000, runner };
    const left = await runner.run();
    stopAt = null;
    expect(left).toMatchObject({ moves: 1, moving: null, order: { price: '3409.8' } });
    const cloid = chaseClientOrderId(id, 2);
    expect(steps).toEqual([`Modify ${cloid} sent; logged: ${cloid}`, `intent written and fsynced ${cloid}`, `answer written ${cloid}`]);
    // Its nonce was taken while the chase waited, not between the book message and the send.
    expect(takenBeforeTheMove).toContain(modifyNonce);
    // Once the record holds it, the log is emptied.
    expect(ChaseIntentLog.latest(chaseIntentLogFile(store.dir, id))).toBeNull();
  });

  /** A chase whose Modify, as it leaves, comes with a Stop of `kind` (the person presses Stop right then). */
  async function stopDuringModify(t: Trader, kind: 'cancel' | 'pause' | 'interrupt'): Promise<ChaseRecord> {
    await w.setMark('ETH', '3400');
    let runner: ChaseRunner | null = null;
    const api = new Proxy(w.ctx.api, {
      get(target, key) {
        if (key === 'modify') {
          return (orderId: string, body: Parameters<typeof target.modify>[1]) => {
            const sent = target.modify(orderId, body);
            runner!.requestStop(kind);
            return sent;
          };
        }
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const ctx: TradingContext = { ...w.ctx, api };
    const prepared = await prepareChase(ctx, { wallet: t.wallet, market: 'ETH', side: 'buy', size: sizeFor(w.market('ETH'), new Decimal('3400'), 2), settings: parseChaseFlags({}), leverage: 5 });
    runner = await startChase(ctx, prepared, await w.ctx.tradingSigner(t.wallet), { clock, books: venueChaseBooks(lease()), onBook });
    const t0 = w.sim.clock.now();
    script = [{ at: t0 + 1_000, act: mark('3410') }];
    // Only if the Modify never went out (then the test fails on its moves below).
    stopAt = { at: t0 + 20_000, runner };
    try {
      return await runner.run();
    } finally {
      stopAt = null;
    }
  }

  it('Stop and cancel while a re-price is in flight: the re-price is settled first and the order it made is cancelled, nothing left resting', async () => {
    const t = await w.trader();
    const done = await stopDuringModify(t, 'cancel');
    const moved = (await t.history()).find((r) => r.limit_price === '3409.8');
    expect(moved, 'the re-price reached the service').toBeDefined();
    expect(done).toMatchObject({ status: 'done', end_reason: 'stopped', moving: null, moves: 1 });
    expect(await t.openOrders('ETH')).toEqual([]);
    expect((await t.history()).find((r) => r.order_id === moved!.order_id)?.status).toBe('cancelled');
    expect(done.notes.at(-1)).toMatch(new RegExp(`stopped: the chase is over; order ${moved!.order_id} cancelled`));
  });

  it('Stop and leave while a re-price is in flight: the record names the order the re-price made, which rests', async () => {
    const t = await w.trader();
    const done = await stopDuringModify(t, 'pause');
    const open = await t.openOrders('ETH');
    expect(open.map((o) => o.limit_price)).toEqual(['3409.8']);
    expect(done).toMatchObject({ status: 'done', end_reason: 'stopped', moving: null, moves: 1, order: { order_id: open[0]!.order_id, price: '3409.8' } });
    expect(done.notes.at(-1)).toMatch(new RegExp(`order ${open[0]!.order_id} rests at 3,409\\.8 \\(left`));
  });

  it('Ctrl-C while a re-price is in flight: the re-price is settled, and the note names the order that rests', async () => {
    const t = await w.trader();
    const left = await stopDuringModify(t, 'interrupt');
    const open = await t.openOrders('ETH');
    expect(open.map((o) => o.limit_price)).toEqual(['3409.8']);
    expect(left).toMatchObject({ status: 'working', moving: null, moves: 1, order: { order_id: open[0]!.order_id } });
    expect(left.notes.at(-1)).toMatch(new RegExp(`stopped chasing: order ${open[0]!.order_id} rests at 3,409\\.8`));
  });

  it('killed between the intent log and the record: the logged Modify is settled on resume, never sent again; a damaged log refuses the resume', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, {}, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    const t0 = w.sim.clock.now();
    stopAt = { at: t0 + 1_000, runner };
    const resting = await runner.run();
    const order = resting.order!;
    const store = chaseStoreOf(w.ctx);
    const logFile = chaseIntentLogFile(store.dir, resting.id);
    // A damaged log (a torn last line) refuses the resume before anything is sent.
    fs.writeFileSync(logFile, '{"send": 2, "moving": {"client_or', { mode: 0o600 });
    let from = w.requests.length;
    await expect(openChaseRunner(w.ctx, resting.id, { clock, books: venueChaseBooks(lease()), onBook }).run()).rejects.toMatchObject({ code: 'CHASE_RECORD_DAMAGED' });
    expect(modifies(from)).toBe(0);
    // The runner appended the intent and sent the Modify; the process died before the record was written.
    const cloid = chaseClientOrderId(resting.id, resting.sends + 1);
    const sentAt = w.sim.clock.now();
    fs.rmSync(logFile);
    const log = new ChaseIntentLog(logFile);
    log.append({ send: resting.sends + 1, moving: { client_order_id: cloid, from_order_id: order.order_id!, to_price: '3400', size: order.size, sent_at: sentAt, new_order_id: null } });
    log.close();
    await modifyByHand(t, order, cloid, '3400');
    expect(store.get(resting.id)).toMatchObject({ moving: null, sends: resting.sends });
    from = w.requests.length;
    const resumed = openChaseRunner(w.ctx, resting.id, { clock, books: venueChaseBooks(lease()), onBook });
    stopAt = { at: w.sim.clock.now() + 2_000, runner: resumed };
    const { result: left, counts } = await watchingOpenOrders(t, resumed.run());
    stopAt = null;
    expect(modifies(from)).toBe(0);
    expect(left).toMatchObject({ status: 'working', moving: null, moves: 1, sends: resting.sends + 1, order: { price: '3400', client_order_id: cloid } });
    expect(left.notes.join('\n')).toMatch(/the re-price to 3,400 \(order \d+\) was sent before the chase's record was written/);
    expect(Math.max(...counts)).toBe(1);
    expect((await t.openOrders('ETH')).map((o) => o.limit_price)).toEqual(['3400']);
    expect(ChaseIntentLog.latest(logFile)).toBeNull();
  });

  it('a Modify whose intent a power loss took (the record as it was before it) is found on resume by its client order id: settled, never sent again', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, {}, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    const t0 = w.sim.clock.now();
    stopAt = { at: t0 + 1_000, runner };
    const resting = await runner.run();
    const order = resting.order!;
    // The Modify went out with the chase's next client order id; the record on disk is the one before
    // its intent (the rename had not reached the disk when the power went).
    const cloid = chaseClientOrderId(resting.id, resting.sends + 1);
    await modifyByHand(t, order, cloid, '3400');
    expect(chaseStoreOf(w.ctx).get(resting.id)).toMatchObject({ moving: null, sends: resting.sends });
    const from = w.requests.length;
    const resumed = openChaseRunner(w.ctx, resting.id, { clock, books: venueChaseBooks(lease()), onBook });
    stopAt = { at: w.sim.clock.now() + 2_000, runner: resumed };
    const { result: left, counts } = await watchingOpenOrders(t, resumed.run());
    stopAt = null;
    expect(modifies(from)).toBe(0);
    expect(left).toMatchObject({ status: 'working', moving: null, moves: 1, sends: resting.sends + 1, order: { price: '3400', client_order_id: cloid } });
    expect(left.notes.join('\n')).toMatch(/ended \(cancelled\) and order \d+ in order-history carries this chase's client order id chase-[0-9a-f]{12}-\d+: a re-price to 3,400 whose record did not reach the disk/);
    expect(left.notes.join('\n')).toMatch(/moved 3,399\.8 -> 3,400 as order/);
    expect(Math.max(...counts)).toBe(1);
    expect((await t.openOrders('ETH')).map((o) => o.limit_price)).toEqual(['3400']);
  });

  it('the same lost Modify on a service whose history rows carry no client order id (as the spec lists them): never claimed, nothing sent, the person told where to look', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    const runner = await chase(t, {}, sizeFor(w.market('ETH'), new Decimal('3400'), 2));
    stopAt = { at: w.sim.clock.now() + 1_000, runner };
    const resting = await runner.run();
    const order = resting.order!;
    const cloid = chaseClientOrderId(resting.id, resting.sends + 1);
    await modifyByHand(t, order, cloid, '3400');
    // Order history as the spec lists its rows: no client_order_id (the simulator adds one).
    const api = w.ctx.api;
    const specApi = new Proxy(api, {
      get(target, prop) {
        if (prop === 'orderHistory') {
          return async (q: Parameters<typeof api.orderHistory>[0]) => {
            const page = await target.orderHistory(q);
            return { ...page, orders: page.orders.map(({ client_order_id: _cloid, ...row }) => row) };
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const from = w.requests.length;
    const resumed = openChaseRunner({ ...w.ctx, api: specApi }, resting.id, { clock, books: venueChaseBooks(lease()), onBook });
    stopAt = { at: w.sim.clock.now() + 2_000, runner: resumed };
    const left = await resumed.run();
    stopAt = null;
    expect(modifies(from)).toBe(0);
    expect(left).toMatchObject({ status: 'done', end_reason: 'order_gone' });
    expect(left.notes.at(-1)).toMatch(/ended at the service without this chase \(cancelled[^)]*\); 0 of [\d.]+ filled; nothing more is sent; if this machine lost power during a re-price, its new order may rest unfollowed: see ETH's open orders$/);
    // The order the lost Modify placed rests, unclaimed: the note sends the person to it.
    expect((await t.openOrders('ETH')).map((o) => o.limit_price)).toEqual(['3400']);
  });

  it('a book message that fails its check freezes the chase (nothing sent) until a good book comes', async () => {
    const t = await w.trader();
    await w.setMark('ETH', '3400');
    // A lease whose l2Book listeners also hear what the test injects: the chase's own check reads it.
    const real = lease();
    const injected: ((b: L2Book) => void)[] = [];
    const tee: VenueSocketLease = {
      ...real,
      on: (event, listener) => {
        real.on(event, listener);
        if (event === 'l2Book') injected.push(listener as (b: L2Book) => void);
      },
    };
    const events: string[] = [];
    const prepared = await prepareChase(w.ctx, { wallet: t.wallet, market: 'ETH', side: 'buy', size: sizeFor(w.market('ETH'), new Decimal('3400'), 2), settings: parseChaseFlags({}), leverage: 5 });
    const runner = await startChase(w.ctx, prepared, await w.ctx.tradingSigner(t.wallet), { clock, books: venueChaseBooks(tee), onBook, onAlgoEvent: (e) => events.push(`${e.type}: ${e.text}`) });
    const t0 = w.sim.clock.now();
    let from = 0;
    script = [
      {
        at: t0 + 1_000,
        act: async () => {
          from = w.requests.length;
          // A crossed book whose bid is far above: followed, it would move the order to 3500.
          for (const l of injected) l({ coin: 'ETH', time: w.sim.clock.now(), levels: [[{ px: '3500', sz: '1', n: 1 }], [{ px: '3400.2', sz: '1', n: 1 }]] });
        },
      },
      {
        at: t0 + 5_000,
        act: async () => {
          expect(modifies(from)).toBe(0);
          await mark('3410')();
        },
      },
    ];
    stopAt = { at: t0 + 8_000, runner };
    const left = await runner.run();
    stopAt = null;
    expect(events.join('\n')).toMatch(/attention: the venue's book failed its check \(the best bid 3500 is not below the best ask 3400\.2 \(a crossed book\)\): frozen, nothing is sent until a good book comes/);
    expect(events.join('\n')).toMatch(/attention: a good book again \(best bid 3,409\.8, ask 3,410\.2\): chasing/);
    expect((await t.history()).some((r) => r.limit_price === '3500')).toBe(false);
    expect(left.order!.price).toBe('3409.8');
  });
});
