/**
 * Renderer cost, measured in Chromium on the BUILT renderer with the real preload bridged to the real
 * IPC dispatch (validation, response checks). Main is a synthetic stand-in answering from memory, so
 * the numbers are the renderer's own, not the simulator's.
 *
 *  1. History scaling: opening the history view and jumping to its middle and its end, with 100,000 rows
 *     versus 1,000 rows. The cost is the renderer main thread's busy time (CDP TaskDuration) over the
 *     whole interaction, on a fresh page load each. Target: at most 1.5x.
 *  2. The storm (rendererStorm.ts): 1,000 mark events a second (separate events, across the venue's 200
 *     markets), the watched book and the trades tape at the ten a second main sends at most, played in the
 *     page on the trade view with positions open: the renderer main thread's CPU time against a FLOOR page
 *     that receives the same events in the same run through the same preload bridge and only shows the
 *     latest of each once a frame. Gated: the WORK done for it, counted, which no CPU changes (issue 37):
 *     layouts and style recalculations per second of storm (CDP LayoutCount, RecalcStyleCount; the ratio
 *     to the floor's printed beside) and React commits per second of storm (counted through the DevTools
 *     global hook, nothing shipped in the app). The CPU time ratio app / floor, the absolute busy share and the long tasks are
 *     REPORT lines: they depend on the machine (issue 29: "busy < 50%" read 48% quiet and 58% loaded).
 *  3. Input to review in the storm against calm (reviewLatencyBench.ts). The heap after a long storm
 *     against a short one (rendererHeapBench.ts) is a soak: `npm run soak`, not `npm run bench`.
 *
 * All go through measure.ts: interleaved rounds (1,000 and 100,000 rows alternate; the app's storm
 * alternates with the floor's), the median of the per-round numbers, a re-measure before failing.
 *
 * Needs `npx electron-vite build` first (out/renderer and out/preload). BENCH_RENDERER_DIR measures another
 * build's out/ folder instead; BENCH_RENDERER_BEFORE plays another build's as a third side of the storm's
 * rounds and prints its work against the same targets (how they were set). `npx tsx
 * test/bench/rendererBench.ts storm` runs the storm's lines alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { firstScreenHandler } from '../../src/main/ipc/handlers/firstScreen.js';
import { registerHandlers, stubHandlers, type Handlers } from '../../src/main/ipc/registerHandlers.js';
import { accountHealthView } from '../../src/main/services/reads/accountHealth.js';
import type { IpcResponse, MarketView, PositionView } from '../../src/shared/ipc.js';
import { installPreloadBridge, TestIpcMain } from '../e2e/harness/preloadBridge.js';
import { serveRenderer, type StaticServer } from '../e2e/harness/staticServer.js';
import { REPO_ROOT } from '../support/paths.js';
import { formatResult, measureGates, median, spreadOf, type Gate, type GateResult } from './measure.js';
import { commits, enableThreadMetrics, heapAfterGc, installCommitCounter, installPlayer, load, play, STORM, stormBook, stormTicks, threadMs, watchLongTasks, type Tick } from './rendererStorm.js';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const WALLET = '0x5ec6b8eef87319d7f9035260faee6f8ee2405ae1';
const AGENT = '0x1111111111111111111111111111111111111111';
const NAMED = ['BTC', 'ETH', 'SOL', 'PEPE', 'WIF', 'ARB', 'OP', 'AVAX', 'LINK', 'DOGE', 'SUI', 'APT', 'TIA', 'SEI', 'INJ', 'NEAR', 'ATOM', 'DOT', 'LTC', 'BCH'];
/** The real venue's scale (issue 29): 200 markets, the twenty named ones first. */
export const VENUE_SCALE = 200;
const SYMBOLS = [...NAMED, ...Array.from({ length: VENUE_SCALE - NAMED.length }, (_, i) => `K${String(i + 1).padStart(3, '0')}`)];
/**
 * Rounds in CI. The gates below were set on medians of 7 rounds, and the renderer section was 256 s of
 * CI's 525 s bench at 7. History: 5 (1.11x to 1.26x against 1.5x, its rounds 1.0x to 1.35x: main-thread
 * time, which the machine's load moves). The storm: 3, because its gates are counts, which no load moves:
 * in two runs of 2026-12-06 at 5 rounds, every round read 10.0 to 10.6 layouts a second (against 12.5),
 * 24.5 to 25.6 style recalculations (against 29) and 10.3 to 11.6 commits (against 13): a median of
 * three rounds reads what one of five did, and the two rounds fewer are about 20 s of CI. The storm's CPU line is printed,
 * not gated. BENCH_HISTORY_ROUNDS / BENCH_BURST_ROUNDS=7 (or more) when a gate is reset.
 */
const HISTORY_ROUNDS = Number(process.env['BENCH_HISTORY_ROUNDS'] ?? 5);
const BURST_ROUNDS = Number(process.env['BENCH_BURST_ROUNDS'] ?? 3);
const BURST_SECONDS = 4;
/**
 * The app's main-thread CPU time over the floor page's for the same storm. The floor pays the event
 * delivery and a frame's paint; the app adds its marks, tables, book, tape and chart on top. Medians of
 * 7 rounds measured on a 2-core machine shared with other work: 3.17x, 3.25x, 3.28x, 3.37x (load 4 to
 * 9), 3.63x with a CPU hog beside it (its rounds 3.02x..3.97x); the renderer before the live frame read
 * 3.76x and 4.16x. 4.0x is 10% over the worst median measured.
 *
 * Printed, not gated (issue 37): the ratio of CPU time depends on the machine more than on the change. On
 * the 2-core machine of 2026-12-06 the renderer that landed with 3.742x (2dbdf3c) read 4.288x (rounds
 * 3.31x..6.37x), and the merged renderer 4.358x and 4.221x in the same hour, with the app's own busy
 * share unchanged (16.1% against 17.0% and 14.8%). A gate that fails the code it was set on fails CI by
 * machine. In the four runs that set the counts below, c18a191 read 4.154x, 4.039x, 3.624x and 3.880x
 * against today's 3.777x, 3.651x, 3.542x and 3.698x in the same rounds (and 3.866x measured alone): the
 * old renderer passed 4.0x three times in five, and the rounds of either spread 2.2x to 8.1x. The gates are the counts below (commits, layouts and style
 * recalculations per second of storm), which no CPU changes, set where the renderer before the live
 * frame fails.
 *
 * Issue 37's goal is 2.5x. Three runs before its renderer work (the same machine, 2026-12-06, load 3 to
 * 10): 4.209x, 3.696x, 3.678x. After (styles/app.css: the chart painted last, the tape's scrollbar room
 * kept, its list in a box of its own, its cells unclipped): 2.770x (two e2e specs beside it), 2.918x,
 * 3.317x, with c18a191 in the same rounds at 3.765x, 3.862x, 4.560x (today's renderer at 0.73x to 0.76x
 * of the old one's ratio). Not yet 2.5x with a margin, so printed still. What is left, measured by hiding
 * parts of the page in the same rounds: the tape's new rows (twenty a tenth of a second, about 40% of
 * the app's remaining main-thread time: their cells' layout, text and paint), the React flush of the
 * marks (market rows, positions, the ticket's 20 re-renders in 4 s) and the chart's own redraws
 * (lightweight-charts invalidates fully on each update and draws on the frame after the live frame's).
 */
const BURST_RATIO_TARGET = Number(process.env['BENCH_BURST_RATIO'] ?? 4.0);
/**
 * The storm's WORK, counted (issue 37): what the page does for the same events, which neither the CPU's
 * speed nor the machine's load changes. Each target sits between today's renderer and the renderer from
 * before the live frame (c18a191, built and played as a third side of the same interleaved rounds with
 * BENCH_RENDERER_BEFORE), so the old renderer fails each of them and today's passes. Readings: medians of
 * 7 rounds in seven runs on the 2-core machine of 2026-12-06 at load 7 to 15, today's renderer against
 * c18a191 in the same rounds; measured alone (BENCH_RENDERER_DIR), c18a191 failed all three on both
 * measurements.
 *
 * Gated per second of storm, with the ratio to the floor page printed beside, not gated: the floor
 * repaints once a frame it has news for, so its counts are its frame rate, which the machine's load moves
 * (52.8 to 60.3 layouts a second across the runs), while the app's follow the live frame's 100 ms clock.
 * Divided by the floor's, the app's counts would read the machine again (today's style ratio moved 0.49x
 * to 0.52x with its counts steady, c18a191's 0.55x to 0.63x with its count at 33.3 a second in every run).
 *
 * Layouts per second of storm: today 8.8, 9.5, 9.3, 9.5, 9.5, 10.3, 10.3; c18a191 16.0, 16.3, 14.8, 15.8,
 * 15.8, 15.8, 16.3 (16.3 alone). The old renderer laid out for each stream on its own frame (marks, book and tape);
 * the live frame lays out what changed in 100 ms once. 12.5: 21% over today's worst median, 16% under the
 * old one's best.
 */
const LAYOUTS_PER_SECOND_TARGET = Number(process.env['BENCH_LAYOUTS_PER_SECOND'] ?? 12.5);
/**
 * Style recalculations per second of storm: today 28.0, 29.1, 28.8, 28.8, 29.5, 31.0, 31.7 (the last two
 * without the page's frame counter of the first five, which kept both pages drawing every frame); c18a191
 * 33.3 in all seven (32.9 and 33.3 alone). The closest of the three, because most of these are passes,
 * not work: the trade view's container queries (`.view`, `.trade-center`) restyle their subtrees in a
 * pass of their own when they are laid out, so a frame whose changes restyle anything inside them counts
 * about three (a trace: 38 of 56 style updates under Layout), in both renderers. 32.5 sits halfway between
 * today's worst median and the old renderer's steady count, 2.4% from each: the weakest of the three
 * gates (the layouts and commits separate the two renderers by 40% and more). Fewer frames that restyle
 * inside the containers would give it room.
 *
 * It has that room now (issue 37): the tape's new rows no longer lay out the flex boxes above the list, so a
 * frame with a delivery no longer restyles inside the containers (styles/app.css, .tape-body). Three runs
 * on the 2-core machine of 2026-12-06 at load 3 to 10: today 23.8, 24.7, 24.8, and 25.0 in three more
 * with the tape's cells unclipped; c18a191 in the same rounds 32.6, 33.3, 33.3, 33.3, 33.3, 33.3 (and
 * today's renderer before the change 31.1 to 31.8). Gated at 29.0: 16% over today's worst median, 11%
 * under the old renderer's best.
 */
const STYLES_PER_SECOND_TARGET = Number(process.env['BENCH_STYLES_PER_SECOND'] ?? 29.0);
/**
 * React commits per second of storm (a count: the floor page, without React, commits none, so there is no
 * ratio to take): today 9.3, 10.3, 10.0, 9.5, 9.8, 11.0, 10.5; c18a191 18.8, 19.8, 18.0, 19.0, 19.8, 19.5,
 * 18.8 (19.0 and 20.1 alone). The old renderer committed once per stream update; the live frame, a 100 ms clock,
 * commits ten times a second at most for the marks, book and tape. 13: 18% over today's worst median, 28%
 * under the old one's best. Per second of the storm, not per animation frame: the frame
 * rate falls with the machine's load (45 to 59 frames a second across the runs, counted by a
 * requestAnimationFrame loop in the page) while the live frame's clock does not, so commits per frame read
 * 0.17 to 0.33 for the same code and would gate the machine again. The frames are no longer counted: a
 * loop on every frame kept both pages drawing 60 frames a second, work neither does on its own.
 */
const COMMITS_PER_SECOND_TARGET = Number(process.env['BENCH_COMMITS_PER_SECOND'] ?? 13);
/**
 * The build measured: this checkout's out/ (renderer and preload), or another build's out/ folder named by
 * BENCH_RENDERER_DIR (to read an older renderer on today's harness).
 */
export const RENDERER_OUT = process.env['BENCH_RENDERER_DIR'] ? path.resolve(process.env['BENCH_RENDERER_DIR']) : path.join(REPO_ROOT, 'out');
/**
 * Another build's out/ folder played in the SAME interleaved storm rounds as a third side, its work
 * printed against the same gates (REPORT lines): how the targets were set where the renderer before the
 * live frame (c18a191) fails while today's passes.
 */
const RENDERER_BEFORE = process.env['BENCH_RENDERER_BEFORE'] ? path.resolve(process.env['BENCH_RENDERER_BEFORE']) : null;
/** The trade view opens on the first active market, whose book it watches. */
export const WATCHED = SYMBOLS[0]!;

function market(symbol: string, i: number): MarketView {
  const price = (100 + i * 37).toString();
  return {
    symbol,
    venue_symbol: symbol,
    joined: true,
    is_active: true,
    only_isolated: false,
    mark: price,
    oracle: price,
    mid: price,
    prev_day_px: (99 + i * 37).toString(),
    change_24h: '0.01',
    funding_rate: '0.0000125',
    open_interest: '123456.7',
    day_volume: '98765432.1',
    max_leverage: 20,
    display_max_leverage: 20,
    tick_size: '0.01',
    sz_decimals: 3,
    px_decimals: 2,
    min_order_value: '10',
    max_notional: '0',
    max_open_orders: 100,
    maker_fee_rate: '0.00015',
    taker_fee_rate: '0.00045',
    initial_margin_ratio: '0.02',
    maintenance_margin_ratio: '0.01',
    slippage_bps: 80,
  };
}

const MARKETS = SYMBOLS.map(market);
const POSITIONS = MARKETS.slice(0, 8).map(position);
const MARKETS_BY_SYMBOL = new Map(MARKETS.map((m) => [m.symbol, m]));
const MARKS = new Map(MARKETS.map((m) => [m.symbol, m.mark ?? '1']));

function position(m: MarketView, i: number): PositionView {
  return {
    id: `p${i}`,
    market: m.symbol,
    side: i % 2 ? 'SHORT' : 'LONG',
    size: i % 2 ? '-1.5' : '2.25',
    entry_price: m.mark ?? '1',
    mark: m.mark,
    notional: '100',
    unrealized_pnl: '0',
    return_on_margin: '0',
    isolated_margin: '50',
    closeable: '1.5',
    status: 'OPEN',
    version: 1,
    liquidation_price: null,
    liquidation_distance: null,
    tp: null,
    sl: null,
    closeable_note: null,
  };
}

/** One row of order history, generated for its absolute index so any window can be served at once. */
function orderRow(i: number) {
  const m = NAMED[i % NAMED.length]!;
  const t = 1_700_000_000_000 - i * 1_000;
  return {
    order_id: String(100_000_000 + i),
    market: m,
    side: i % 2 ? ('sell' as const) : ('buy' as const),
    size: `${(i % 97) + 1}.5`,
    filled_size: i % 3 ? '0' : `${(i % 97) + 1}.5`,
    limit_price: `${1000 + (i % 5000)}.25`,
    order_type: i % 4 ? 'LIMIT' : 'MARKET',
    time_in_force: 'GTC' as const,
    reduce_only: false,
    trigger_price: null,
    tpsl: null,
    status: i % 3 ? ('cancelled' as const) : ('filled' as const),
    submitted_at: t,
    status_at: t,
    is_modifying: false,
    pending_parent: false,
    parent_order_id: null,
    armed: false,
    reason: i % 7 ? null : 'post_only_would_take',
    avg_fill_price: i % 3 ? null : `${1000 + (i % 5000)}.25`,
  };
}

/** Order `i` as History › Orders receives it: its row and its status changes (open, then where it ended). */
function orderGroup(i: number) {
  const order = orderRow(i);
  const change = (status: string, filled: boolean) => ({ status, label: status, at: order.status_at, reason: status === 'cancelled' ? order.reason : null, filled_size: filled ? order.filled_size : '0', avg_fill_price: filled ? order.avg_fill_price : null });
  return {
    order,
    changes: [change('open', false), change(order.status, order.status === 'filled')],
    avg_fill_price: order.avg_fill_price,
    price: order.order_type === 'MARKET' ? order.avg_fill_price : order.limit_price,
  };
}

function candles(symbol: string): IpcResponse<'markets:candles'> {
  const now = Date.now();
  const base = 100 + SYMBOLS.indexOf(symbol) * 37;
  return {
    market: symbol,
    interval: '15m',
    candles: Array.from({ length: 200 }, (_, k) => {
      const o = base + ((k * 7) % 11) - 5;
      const c = base + ((k * 5) % 13) - 6;
      const t = now - (200 - k) * 900_000;
      return { t, T: t + 899_999, o: String(o), h: String(Math.max(o, c) + 2), l: String(Math.min(o, c) - 2), c: String(c), v: String(1000 + k), n: 10 };
    }),
  };
}

/** A 20-level book around `price` (the venue's most), as the storm sends it, at the grouping asked for. */
function book(symbol: string, price: number, nSigFigs: IpcResponse<'markets:book'>['n_sig_figs'], at: number): IpcResponse<'markets:book'> {
  return { ...stormBook(symbol, price, at), n_sig_figs: nSigFigs };
}

/** A main process answering from memory, with `historyRows` rows of order history. */
export function syntheticMain(historyRows: number, marketCount: number = NAMED.length): Handlers {
  const markets = MARKETS.slice(0, marketCount);
  const page = <T>(offset: number, limit: number, total: number, make: (i: number) => T) => {
    const end = Math.min(total, offset + limit);
    const rows: T[] = [];
    for (let i = offset; i < end; i++) rows.push(make(i));
    return { rows, total, offset, limit };
  };
  const now = Date.now();
  const handlers = stubHandlers({
    'app:getInfo': async () => ({ name: 'Perps Desk', version: 'bench', profile: 'sim', platform: process.platform, vault_closed: null }),
    'app:getProfile': async () => ({
      active: 'sim',
      environment: 'Testnet',
      sim: { running: true, base_url: 'http://127.0.0.1:1/api/v1' },
      mainnet: { base_url: null, venue_info_url: null, venue_ws_url: null, configured: false },
    }),
    'wallet:current': async () => ({ address: WALLET, signer: { kind: 'env', label: 'Environment variable BENCH', path: null }, last_signer_kind: 'env' }),
    'keys:list': async () => ({
      wallet: WALLET,
      environment: 'Testnet',
      keys: [{ agent: AGENT, name: 'bench', status: 'ACTIVE', listed: true, stored_locally: true, expires_at: now + 30 * 86_400_000, expires_in_ms: 30 * 86_400_000, expiring_soon: false, created_at: now }],
    }),
    'settings:get': async () => ({ default_slippage_bps: null, default_leverage: 1, leverage_by_market: {}, confirm_orders: true, key_expiry_warning_days: 14, theme: 'dark', palette: 'default', liquidation_warning_pct: 10, max_order_notional: null, stop_tolerance_bps: 1000, stop_tolerance_by_market: {} }),
    'settings:getHotkeys': async () => ({
      enabled: false,
      bindings: { market_buy: null, market_sell: null, close_selected: null, close_all: null, cancel_all_market: null, cancel_all: null, flip_selected: null },
    }),
    // The simulator on its own prices (no live venue feed).
    'settings:getSimFeed': async () => null,
    'notifications:get': async () => ({ fills: true, trigger_fires: true, withdrawals: true, key_expiry: true, liquidation_warning: true, alerts: true, sound_fills: false, sound_trigger_fires: false, sound_risk_warnings: false, sound_alerts: false }),
    'account:balance': async () => ({ wallet: WALLET, account_id: `${WALLET}${'0'.repeat(24)}`, free_balance: '100000' }),
    // The account panel's figures, computed as main computes them (services/reads/accountHealth.ts) from
    // the positions and marks below.
    'account:health': async () => accountHealthView(WALLET, '100000', POSITIONS, MARKETS_BY_SYMBOL, MARKS, now),
    'markets:list': async () => ({ markets, at: now }),
    'markets:candles': async (r) => candles(r.market),
    'markets:book': async (r) => book(r.market, Number(MARKETS.find((m) => m.symbol === r.market)?.mark ?? '100'), r.n_sig_figs ?? null, Date.now()),
    'markets:watchBook': async (r) => ({ watching: r.market, live: r.market !== null }),
    'markets:watchTrades': async (r) => ({ watching: r.market, live: r.market !== null }),
    'twap:list': async () => ({ twaps: [], damaged: [] }),
    'positions:list': async () => ({ positions: POSITIONS, at: now }),
    'orders:listOpen': async () => ({ orders: [] }),
    'orders:listTriggers': async () => ({ triggers: [] }),
    'withdraw:list': async () => ({ withdrawals: [], damaged: [] }),
    'history:orders': async (r) => page(r.offset, r.limit, historyRows, orderRow),
    // History › Orders shows one row per order (main groups the log): each synthetic order is one group.
    'history:orderGroups': async (r) => page(r.offset, r.limit, historyRows, orderGroup),
    'history:fills': async (r) => page(r.offset, r.limit, 0, () => null as never),
  });
  // As in the app (handlers/index.ts): the first screen's reads in one answer, made of the channels above.
  return { ...handlers, 'app:firstScreen': firstScreenHandler(handlers) };
}

export interface Session {
  page: Page;
  cdp: CDPSession;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Markets main lists (default the twenty named ones; the storm benches list the venue's 200). */
  markets?: number;
  /** Busy time as the main thread's CPU time (the storm benches), not wall time. */
  threadTicks?: boolean;
  /** Extra handlers over the synthetic main's (the review bench answers orders:preview). */
  handlers?: Partial<Handlers>;
  /** Count the page's React commits (the storm benches): the DevTools hook stand-in, before the page loads. */
  countCommits?: boolean;
  /** The build whose preload runs in the page (default RENDERER_OUT); `server` serves its renderer. */
  outDir?: string;
}

export async function open(browser: Browser, server: StaticServer, historyRows: number, o: OpenOptions = {}): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const ipc = new TestIpcMain();
  registerHandlers(ipc, { ...syntheticMain(historyRows, o.markets), ...o.handlers } as Handlers, (url) => url.startsWith(server.origin + '/'), { logger: { error: (m) => console.error(m) } });
  await installPreloadBridge(page as unknown as Parameters<typeof installPreloadBridge>[0], ipc, o.outDir ?? RENDERER_OUT);
  if (o.countCommits) await installCommitCounter(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.origin + '/index.html');
  await page.getByRole('row', { name: `${SYMBOLS[7]} position` }).waitFor({ timeout: 20_000 });
  // The order book beside the chart has its snapshot (the burst then moves it live).
  await page.getByRole('region', { name: `${WATCHED} order book` }).getByRole('list', { name: 'Bids' }).getByRole('button').first().waitFor({ timeout: 20_000 });
  // The trades tape under it is there (the storm moves it live).
  await page.getByRole('region', { name: `${WATCHED} trades` }).waitFor({ timeout: 20_000 });
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  const cdp = await context.newCDPSession(page);
  if (o.threadTicks) await enableThreadMetrics(cdp);
  else await cdp.send('Performance.enable');
  await settle(page);
  return { page, cdp, close: () => context.close() };
}

/**
 * The floor: a page on the same origin with the same preload bridge and IPC dispatch, which listens to
 * the same mark and book events and shows only the latest of each, once an animation frame. Whatever
 * the app costs beyond it is the app's own work; the machine's load weighs on both alike.
 */
const FLOOR_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><pre id="out"></pre><script>
const marks = new Map(); let book = null; let dirty = false; const out = document.getElementById('out');
const paint = () => { dirty = false; out.textContent = marks.size + ' marks; ' + (book ? book.market + ' ' + (book.bids[0]?.price ?? '') : '') + (tape ? ' ' + tape.trades.length + ' trades' : ''); };
const later = () => { if (!dirty) { dirty = true; requestAnimationFrame(paint); } };
window.perps.on('marks', (e) => { for (const m of e.marks) marks.set(m.market, m.mark); later(); });
window.perps.on('book', (b) => { book = b; later(); });
let tape = null; window.perps.on('trades', (t) => { tape = t; later(); });
</script></body></html>`;

async function openFloor(browser: Browser, server: StaticServer): Promise<Session> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const ipc = new TestIpcMain();
  registerHandlers(ipc, syntheticMain(1_000, VENUE_SCALE), (url) => url.startsWith(server.origin + '/'), { logger: { error: (m) => console.error(m) } });
  await installPreloadBridge(page as unknown as Parameters<typeof installPreloadBridge>[0], ipc, RENDERER_OUT);
  // The same hook as the app's (no React here: it counts 0), so both pages load the same init scripts.
  await installCommitCounter(page);
  await page.route(server.origin + '/bench-floor.html', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: FLOOR_HTML }));
  await page.goto(server.origin + '/bench-floor.html');
  const cdp = await context.newCDPSession(page);
  await enableThreadMetrics(cdp);
  await settle(page);
  return { page, cdp, close: () => context.close() };
}

/** Waits until start-up work (first queries, first chart paint) is over, so it is not counted. */
export async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(600);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as { requestIdleCallback: (cb: () => void, o: { timeout: number }) => void };
        g.requestIdleCallback(() => resolve(), { timeout: 2_000 });
      }),
  );
}

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const task = metrics.find((m) => m.name === 'TaskDuration');
  if (!task) throw new Error('CDP Performance metrics have no TaskDuration');
  return task.value * 1000;
}

/** Opens the history view and jumps to its middle and its end; returns main-thread busy ms. */
async function historyInteraction(s: Session, rows: number): Promise<number> {
  const { page, cdp } = s;
  const before = await taskMs(cdp);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'History' }).click();
  const grid = page.getByRole('table', { name: 'Order history' });
  await grid.locator('[aria-rowindex="2"]').waitFor();
  for (const target of [Math.floor(rows / 2), rows - 1]) {
    // Scroll the virtual grid so row `target` is at the top, then wait until its window is fetched and drawn.
    await grid.evaluate((el, t) => {
      el.scrollTop = t * 28;
    }, target);
    await grid.locator(`[aria-rowindex="${Math.min(target + 2, rows + 1)}"] >> text=${100_000_000 + Math.min(target, rows - 1)}`).waitFor({ timeout: 20_000 });
  }
  return (await taskMs(cdp)) - before;
}

/** Serves a build's renderer (out/renderer), after checking it has its preload too. */
export async function serveBuild(outDir: string): Promise<StaticServer> {
  if (!fs.existsSync(path.join(outDir, 'renderer/index.html')) || !fs.existsSync(path.join(outDir, 'preload/index.cjs'))) {
    throw new Error(`${outDir}/renderer or ${outDir}/preload is missing: run \`npm run build\` first`);
  }
  return serveRenderer(path.join(outDir, 'renderer'));
}

export function runRendererBench(): Promise<GateResult[]> {
  return onBuiltRenderer(async (browser, server) => {
    const history = async (rows: number): Promise<number> => {
      const s = await open(browser, server, rows);
      try {
        return await historyInteraction(s, rows);
      } finally {
        await s.close();
      }
    };
    const historyGates = await measureGates({
      rounds: HISTORY_ROUNDS,
      sides: { small: () => history(1_000), large: () => history(100_000) },
      gates: [
        {
          name: 'history view, 100,000 rows / 1,000 rows (main-thread time)',
          of: (r) => r.large / r.small,
          target: { op: '<=', value: 1.5 },
          detail: (m) => `${m.large.toFixed(0)}ms vs ${m.small.toFixed(0)}ms`,
        },
      ],
    });
    const burst = await runBurstGates(browser, server);
    // Input to review in the storm against calm (issue 29 item 2) is its own entry (runReviewLatencyBench
    // below): `npm run bench` measures it with nothing beside it. The heap over a long storm is a soak (a
    // minute of storm at the least): `npm run soak` runs rendererHeapBench.ts, CI does not (issue 37).
    return [...historyGates, ...burst];
  });
}

/** Runs `entry` on the built renderer (RENDERER_OUT) served on loopback, in a Chromium of its own. */
async function onBuiltRenderer(entry: (browser: Browser, server: StaticServer) => Promise<GateResult[]>): Promise<GateResult[]> {
  const server = await serveBuild(RENDERER_OUT);
  const browser = await chromium.launch({ executablePath: process.env['PERPS_CHROMIUM'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  try {
    return await entry(browser, server);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Input to review in the storm against calm, on the built renderer in its own Chromium. */
export async function runReviewLatencyBench(): Promise<GateResult[]> {
  const { runReviewLatencyGates } = await import('./reviewLatencyBench.js');
  return onBuiltRenderer(runReviewLatencyGates);
}

/**
 * The storm on one page for one round (heap collected and page idle first): its CPU time and, counted,
 * the work done for it. A type, not an interface, so it is a Measurement record for measure.ts.
 */
export type BurstRound = {
  /** Main-thread CPU time over the round's wall time. */
  busy: number;
  /** CPU ms in scripts, layout and style over the round. */
  script: number;
  layout: number;
  style: number;
  /** Layouts and style recalculations (CDP counts) and React commits (0 on the floor). */
  layouts: number;
  styles: number;
  commits: number;
  /** The play's wall time in seconds (the page's clock), to read counts per second of storm. */
  seconds: number;
  /** Long tasks (> 50 ms) and the longest, in ms. */
  longTasks: number;
  longest: number;
};

export async function burstRound(s: Session, ticks: readonly Tick[]): Promise<BurstRound> {
  await heapAfterGc(s.cdp);
  await settle(s.page);
  await load(s.page, ticks);
  const longTasks = await watchLongTasks(s.page);
  const commitsBefore = await commits(s.page);
  const before = await threadMs(s.cdp);
  const elapsed = await play(s.page);
  const after = await threadMs(s.cdp);
  const commitsAfter = await commits(s.page);
  const long = await longTasks();
  return {
    busy: (after.task - before.task) / elapsed,
    script: after.script - before.script,
    layout: after.layout - before.layout,
    style: after.style - before.style,
    layouts: after.layouts - before.layouts,
    styles: after.styles - before.styles,
    commits: commitsAfter - commitsBefore,
    seconds: elapsed / 1000,
    longTasks: long.count,
    longest: long.longest,
  };
}

/** The storm's ticks over the venue's 200 markets, timed from now (the app keeps a mark only if it is newer). */
export function burstTicks(seconds: number, rates = STORM): Tick[] {
  return stormTicks({ seconds, rates, markets: stormMarkets(), watched: WATCHED, t0: Date.now() });
}

/** The venue-scale markets with their starting prices, as the storm moves them. */
export function stormMarkets(): { symbol: string; price: number }[] {
  return MARKETS.map((m) => ({ symbol: m.symbol, price: Number(m.mark) }));
}

type StormSide = 'floor' | 'app' | 'before';
type StormGate = Gate<StormSide, BurstRound>;
const perSecond = (r: BurstRound, count: 'layouts' | 'styles' | 'commits') => r[count] / r.seconds;

/**
 * The gates of the storm's WORK, which no CPU speed or load changes (issue 37): what the page did for
 * the same events, counted, app against the floor page in the same interleaved rounds. `side` is the
 * page judged ('app', or 'before' for the renderer named by BENCH_RENDERER_BEFORE).
 */
function workGates(side: 'app' | 'before'): StormGate[] {
  return [
    {
      name: 'renderer layouts per second of storm (CDP LayoutCount)',
      of: (r) => perSecond(r[side], 'layouts'),
      target: { op: '<=', value: LAYOUTS_PER_SECOND_TARGET },
      unit: '',
      detail: (m) => `app / floor page with the same events ${(perSecond(m[side], 'layouts') / perSecond(m.floor, 'layouts')).toFixed(3)}x, the floor ${perSecond(m.floor, 'layouts').toFixed(1)}/s`,
    },
    {
      name: 'renderer style recalculations per second of storm (CDP RecalcStyleCount)',
      of: (r) => perSecond(r[side], 'styles'),
      target: { op: '<=', value: STYLES_PER_SECOND_TARGET },
      unit: '',
      detail: (m) => `app / floor page with the same events ${(perSecond(m[side], 'styles') / perSecond(m.floor, 'styles')).toFixed(3)}x, the floor ${perSecond(m.floor, 'styles').toFixed(1)}/s`,
    },
    {
      name: 'React commits per second of storm of the app (the floor page commits none)',
      of: (r) => perSecond(r[side], 'commits'),
      target: { op: '<=', value: COMMITS_PER_SECOND_TARGET },
      unit: '',
      detail: (m) => `${m[side].commits.toFixed(0)} commits in ${m[side].seconds.toFixed(1)} s`,
    },
  ];
}

/** The CPU time app / floor: machine-dependent (see BURST_RATIO_TARGET), printed beside the counts. */
function cpuGate(side: 'app' | 'before', rounds: () => readonly Partial<Record<StormSide, BurstRound>>[]): StormGate {
  return {
    name: `renderer main thread CPU in a storm (${STORM.marksPerSecond} mark events/s over ${VENUE_SCALE} markets, book and tape ${STORM.booksPerSecond}/s), app / floor page with the same events`,
    of: (r) => r[side].busy / r.floor.busy,
    target: { op: '<=', value: BURST_RATIO_TARGET },
    reportOnly: true,
    detail: (m) => {
      const parts = (x: BurstRound) => `script ${x.script.toFixed(0)} / layout ${x.layout.toFixed(0)} / style ${x.style.toFixed(0)} ms`;
      const n = rounds().length;
      return `app ${(m[side].busy * 100).toFixed(1)}% vs floor ${(m.floor.busy * 100).toFixed(1)}% busy over ${BURST_SECONDS} s rounds (${n} played); app ${parts(m[side])}, floor ${parts(m.floor)}`;
    },
  };
}

/**
 * The storm on the app against the same storm on the floor page, interleaved (each round plays the same
 * ticks to both, in an order rotated from round to round), after an unmeasured warm-up on each. Gated:
 * the medians of the per-round counts of work (workGates). Printed, never gated: the CPU time ratio,
 * the absolute shares and the long tasks. With BENCH_RENDERER_BEFORE, another build is a third side of
 * the same rounds and its work is printed against the same targets.
 */
export async function runBurstGates(browser: Browser, server: StaticServer): Promise<GateResult[]> {
  const s = await open(browser, server, 1_000, { markets: VENUE_SCALE, threadTicks: true, countCommits: true });
  const floor = await openFloor(browser, server);
  const beforeServer = RENDERER_BEFORE ? await serveBuild(RENDERER_BEFORE) : null;
  const before = beforeServer ? await open(browser, beforeServer, 1_000, { markets: VENUE_SCALE, threadTicks: true, countCommits: true, outDir: RENDERER_BEFORE! }) : null;
  try {
    const pages = { floor, app: s, ...(before ? { before } : {}) } as Record<StormSide, Session>;
    for (const page of Object.values(pages)) await installPlayer(page.page);
    // Warm-up: the first storm compiles and sizes what later rounds reuse; it is not measured.
    for (const page of Object.values(pages)) await burstRound(page, burstTicks(1));
    let ticks: Tick[] = [];
    const rounds: Partial<Record<StormSide, BurstRound>>[] = [];
    const side = (name: StormSide) => async () => {
      const r = await burstRound(pages[name], ticks);
      rounds[rounds.length - 1]![name] = r;
      return r;
    };
    const sides = { floor: side('floor'), app: side('app'), ...(before ? { before: side('before') } : {}) } as Record<StormSide, () => Promise<BurstRound>>;
    const beforeLines = (g: StormGate): StormGate => ({ ...g, name: `${g.name} [BENCH_RENDERER_BEFORE ${RENDERER_BEFORE}]`, reportOnly: true });
    const results = await measureGates<StormSide, BurstRound>({
      rounds: BURST_ROUNDS,
      beforeRound: () => {
        ticks = burstTicks(BURST_SECONDS);
        rounds.push({});
      },
      sides,
      gates: [
        ...workGates('app'),
        cpuGate('app', () => rounds),
        {
          name: 'renderer main thread busy share in the storm (absolute)',
          of: (r) => r.app.busy,
          target: { op: '<', value: 0.5 },
          unit: '%',
          // The absolute share depends on the machine: printed, never gated.
          reportOnly: true,
        },
        ...(before ? [...workGates('before'), cpuGate('before', () => rounds)].map(beforeLines) : []),
      ],
    });
    const done = rounds.filter((r): r is Record<'app' | 'floor', BurstRound> => !!r.app && !!r.floor);
    const longest = (x: 'app' | 'floor') => Math.max(...done.map((r) => r[x].longest));
    const counts = done.map((r) => r.app.longTasks);
    const longTasks: GateResult = {
      name: `renderer long tasks (> 50 ms) in a ${BURST_SECONDS} s storm round (count, absolute)`,
      target: { op: '<=', value: 0 },
      unit: '',
      attempts: [{ spread: spreadOf(counts), passed: median(counts) <= 0, detail: `longest ${longest('app').toFixed(0)} ms; the floor page: ${median(done.map((r) => r.floor.longTasks))} per round, longest ${longest('floor').toFixed(0)} ms` }],
      passed: median(counts) <= 0,
      // A long task's length is wall time, which a loaded machine stretches: printed, never gated.
      reportOnly: true,
    };
    return [...results, longTasks];
  } finally {
    await s.close();
    await floor.close();
    await before?.close();
    await beforeServer?.close();
  }
}

// Run directly: `npx tsx test/bench/rendererBench.ts` (history and storm; `... rendererBench.ts storm`:
// the storm's gates only; `... rendererBench.ts review`: input to review only). Not awaited at the top
// level: the review and heap benches import this module, and a top-level await here would hold their
// import until the run ended.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  (process.argv[2] === 'storm' ? runStormOnly() : process.argv[2] === 'review' ? runReviewLatencyBench() : runRendererBench()).then(
    (results) => {
      results.forEach((r) => console.log(formatResult(r)));
      // As `npm run bench` judges: a gated line that failed fails the run.
      if (results.some((r) => !r.passed && !r.reportOnly)) process.exitCode = 1;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}

function runStormOnly(): Promise<GateResult[]> {
  return onBuiltRenderer(runBurstGates);
}
