/**
 * The renderer's storm, as the renderer benches replay it (issue 29 item 2): a deterministic schedule of
 * main-to-renderer events, built once in this process and PLAYED INSIDE THE PAGE on the page's own timer
 * (one tick every 10 ms), through the same preload bridge the app's events cross.
 *
 * Why in the page: the first version sent each 10 ms batch with its own page.evaluate from this process.
 * On a loaded machine this process fell behind and the batches arrived late and bunched, so the app and
 * the floor page were not fed the same thing: the per-event cost (the floor's) and the per-frame cost (the
 * app's) then weighed differently from run to run, and the ratio app / floor swung from 2.07x to 3.09x.
 * Played in the page, both pages get the same events at the same ticks, whatever this process is doing.
 *
 * Busy time is the renderer main thread's CPU time (CDP Performance metrics in the 'threadTicks' time
 * domain): a task preempted by another process on a loaded machine no longer counts its waiting time as
 * work. Before each measured round the page's heap is collected and the page left to go idle, so one
 * round's garbage is not paid in the next.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { BookView, TradesEvent } from '../../src/shared/ipc.js';

/** One 10 ms tick: the events main sends in it, in order. */
export type Tick = [channel: string, payload: unknown][];
export const TICK_MS = 10;

export interface StormRates {
  /** Separate mark events a second, one market each (the hardest shape: nothing coalesced before the page). */
  marksPerSecond: number;
  /** Books of the watched market a second (main's throttle lets ten through at most). */
  booksPerSecond: number;
  /** Trades-tape deliveries a second (main's throttle: ten at most), each the whole tape. */
  tradesPerSecond: number;
  /** New trades on the tape a second. */
  newTradesPerSecond: number;
}

/** The 10x storm the renderer sees: a thousand mark events a second, the book and the tape at main's cap. */
export const STORM: StormRates = { marksPerSecond: 1_000, booksPerSecond: 10, tradesPerSecond: 10, newTradesPerSecond: 200 };
/** Calm: a tenth of the storm's marks and trades; the book and the tape at a tenth of main's cap. */
export const CALM: StormRates = { marksPerSecond: 100, booksPerSecond: 1, tradesPerSecond: 1, newTradesPerSecond: 20 };

/** A 20-level book around `price`, every level moved from the previous book (the hardest shape). */
export function stormBook(market: string, price: number, at: number): BookView {
  const side = (dir: 1 | -1) =>
    Array.from({ length: 20 }, (_, k) => ({ price: (price + dir * (0.01 + k * 0.05)).toFixed(2), size: (((k * 7 + at / 100) % 13) + 1).toFixed(3), orders: 1 + (k % 3) }));
  return { market, n_sig_figs: null, bids: side(-1), asks: side(1), at };
}

/**
 * `seconds` of storm at `rates` over `markets` (symbol and starting price), the book and the tape of
 * `watched`. Deterministic: the same arguments give the same events (times are relative to `t0`).
 */
export function stormTicks(o: { seconds: number; rates: StormRates; markets: readonly { symbol: string; price: number }[]; watched: string; t0: number }): Tick[] {
  const prices = o.markets.map((m) => m.price);
  const watchedIndex = o.markets.findIndex((m) => m.symbol === o.watched);
  const ticks: Tick[] = [];
  const n = Math.round((o.seconds * 1000) / TICK_MS);
  let step = 0;
  let marksDue = 0;
  let tid = 1_000_000;
  let tape: TradesEvent['trades'] = [];
  for (let t = 0; t < n; t++) {
    const at = o.t0 + t * TICK_MS;
    const tick: Tick = [];
    marksDue += (o.rates.marksPerSecond * TICK_MS) / 1000;
    while (marksDue >= 1) {
      marksDue--;
      const i = step++ % o.markets.length;
      prices[i] = Math.max(1, prices[i]! + (((step * 7919) % 21) - 10) / 100);
      tick.push(['event:marks', { marks: [{ market: o.markets[i]!.symbol, mark: prices[i]!.toFixed(2), at }] }]);
    }
    const every = (perSecond: number) => perSecond > 0 && t % Math.round(1000 / perSecond / TICK_MS) === 0;
    if (every(o.rates.booksPerSecond)) tick.push(['event:book', stormBook(o.watched, prices[watchedIndex]!, at)]);
    if (every(o.rates.tradesPerSecond)) {
      const fresh = Math.round(o.rates.newTradesPerSecond / o.rates.tradesPerSecond);
      const incoming = Array.from({ length: fresh }, (_, k) => ({
        price: (prices[watchedIndex]! + ((k % 5) - 2) / 100).toFixed(2),
        size: ((((tid + k) * 31) % 997) / 100 + 0.01).toFixed(3),
        time: at,
        side: (tid + k) % 2 ? ('BUY' as const) : ('SELL' as const),
        tid: tid + k,
      }));
      tid += fresh;
      // Main's delivery is the whole tape, newest first (main/app/tradeTape.ts), at most 50 trades.
      tape = [...incoming.reverse(), ...tape].slice(0, 50);
      tick.push(['event:trades', { market: o.watched, trades: tape, at }]);
    }
    ticks.push(tick);
  }
  return ticks;
}

/**
 * Defines window.__benchPlay in the page: plays the ticks stored in window.__benchTicks, one every
 * TICK_MS on the page's own clock (a late timer plays every tick that is due, so all are played), and
 * resolves with the elapsed ms (early when window.__benchStop is set). The events cross the preload bridge like main's (__perpsIpcEmit).
 */
export async function installPlayer(page: Page): Promise<void> {
  // A script string, not a function: this process's TypeScript loader would wrap named functions in a
  // helper the page does not have.
  await page.evaluate(`window.__benchPlay = () => new Promise((resolve) => {
    const ticks = window.__benchTicks;
    const start = performance.now();
    let i = 0;
    const step = () => {
      const due = Math.floor((performance.now() - start) / ${TICK_MS}) + 1;
      for (; i < due && i < ticks.length; i++) for (const [c, p] of ticks[i]) window.__perpsIpcEmit(c, p);
      if (i >= ticks.length || window.__benchStop) resolve(performance.now() - start);
      else setTimeout(step, Math.max(0, start + i * ${TICK_MS} - performance.now()));
    };
    step();
  })`);
}

/** Stores the ticks in the page (untimed), ready for play(). */
export async function load(page: Page, ticks: readonly Tick[]): Promise<void> {
  await page.evaluate((t) => {
    (globalThis as unknown as { __benchTicks: unknown }).__benchTicks = t;
  }, ticks as Tick[]);
}

/** Plays the loaded ticks; resolves when the last was emitted, with the elapsed ms in the page. */
export async function play(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __benchPlay: () => Promise<number> }).__benchPlay());
}

/**
 * The renderer main thread's CPU time so far, in ms (Performance.enable in the threadTicks domain), and
 * the work it did, counted: layouts and style recalculations (CDP's LayoutCount and RecalcStyleCount),
 * which no CPU speed or machine load changes.
 */
export async function threadMs(cdp: CDPSession): Promise<{ task: number; script: number; layout: number; style: number; layouts: number; styles: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => {
    const m = metrics.find((x) => x.name === name);
    if (!m) throw new Error(`CDP Performance metrics have no ${name}`);
    return m.value;
  };
  const ms = (name: string) => value(name) * 1000;
  return { task: ms('TaskDuration'), script: ms('ScriptDuration'), layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration'), layouts: value('LayoutCount'), styles: value('RecalcStyleCount') };
}

/**
 * A stand-in for the React DevTools global hook, installed before the page's scripts run: React (the
 * production build too) hands every commit to `__REACT_DEVTOOLS_GLOBAL_HOOK__.onCommitFiberRoot`, so
 * window.__benchCommits counts the app's commits with no bench code shipped in the app. A page without
 * React (the floor) never touches it and counts 0.
 */
const COMMIT_COUNTER = `(() => {
  window.__benchCommits = 0;
  let nextId = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject(internals) { const id = nextId++; this.renderers.set(id, internals); return id; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberRoot() { window.__benchCommits++; },
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
  };
})();`;

export async function installCommitCounter(page: Page): Promise<void> {
  await page.addInitScript({ content: COMMIT_COUNTER });
}

/** React commits the page made so far (0 on a page without React, or without installCommitCounter). */
export async function commits(page: Page): Promise<number> {
  return page.evaluate(`window.__benchCommits ?? 0`) as Promise<number>;
}

export async function enableThreadMetrics(cdp: CDPSession): Promise<void> {
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
}

/** A full collection in the page, then its used heap in bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

/**
 * Starts counting long tasks (PerformanceObserver 'longtask', over 50 ms) in the page; the returned
 * function stops and answers how many and the longest (ms).
 */
export async function watchLongTasks(page: Page): Promise<() => Promise<{ count: number; longest: number }>> {
  await page.evaluate(`(() => {
    window.__longTaskObserver?.disconnect();
    const seen = (window.__longTasks = { count: 0, longest: 0 });
    window.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        seen.count++;
        seen.longest = Math.max(seen.longest, e.duration);
      }
    });
    window.__longTaskObserver.observe({ type: 'longtask', buffered: false });
  })()`);
  return () => page.evaluate(`(() => { window.__longTaskObserver.disconnect(); return window.__longTasks; })()`) as Promise<{ count: number; longest: number }>;
}
