/**
 * The Portfolio view's long read through the real IPC handlers (issue 36): AppCore on the sim profile,
 * the service slowed by the simulator's chaos latency (every trading API request waits). While
 * portfolio:get pages, the `portfolioProgress` stream says how far it is (markets, pages and records read,
 * the time spent against the deadline) and how it ended; portfolio:cancel ends the read in flight
 * (PORTFOLIO_CANCELLED, nothing more asked of the service); a read past the deadline fails with
 * PORTFOLIO_DEADLINE, its message saying how far it got.
 *
 * The simulator runs a manual clock (issue 37), which nothing here moves: the chaos latency and the read's
 * deadline are wall-clock time by design (a slow service is slow in real time), so the waits stay on it.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcEventPayload } from '../../../src/shared/ipc.js';
import { AppHarness } from './appHarness.js';

const MAIN = 'PERPS_PORTFOLIO_PROGRESS_MAIN_KEY';
const DEADLINE_MS = 4_000;

describe('the Portfolio read: progress, cancel and deadline (sim profile, through IPC)', () => {
  let h: AppHarness;

  const chaos = async (latency_ms: number): Promise<void> => {
    const res = await fetch(h.sim!.urls.control_url + '/chaos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latency_ms }) });
    expect(res.status).toBe(200);
  };
  const progress = () => h.eventsOf<IpcEventPayload<'portfolioProgress'>>('portfolioProgress').map((e) => e.payload);
  const ofRead = (read: number) => progress().filter((p) => p.read === read);

  beforeAll(async () => {
    h = await AppHarness.start('portfolio-progress', { env: { [MAIN]: Wallet.createRandom().privateKey }, core: { portfolioDeadlineMs: DEADLINE_MS } });
    await h.call('wallet:connectEnv', { variable: MAIN });
  }, 60_000);

  afterAll(async () => {
    await chaos(0).catch(() => undefined);
    await h?.stop();
    h?.cleanup();
  });

  it('reports pages and records read as it goes, then done', async () => {
    await chaos(120);
    const report = await h.call('portfolio:get', { range: '1d' });
    expect(report.range).toBe('1d');
    const read = progress().at(-1)!.read;
    const events = ofRead(read);
    expect(events.at(-1)).toMatchObject({ state: 'done', range: '1d', deadline_ms: DEADLINE_MS });
    const done = events.at(-1)!;
    expect(done.markets).toBeGreaterThan(0);
    expect(done.markets_read).toBe(done.markets);
    // A trade-history and a funding-history page at least per market.
    expect(done.pages).toBeGreaterThanOrEqual(2 * done.markets);
    const during = events.filter((e) => e.state === 'reading');
    // Sent while it paged (at most five a second), counts only ever growing.
    expect(during.some((e) => e.pages > 0 && e.pages < done.pages)).toBe(true);
    for (let i = 1; i < events.length; i++) expect(events[i]!.pages).toBeGreaterThanOrEqual(events[i - 1]!.pages);
  }, 30_000);

  it('Cancel ends the read in flight with PORTFOLIO_CANCELLED, and says so on the stream', async () => {
    await chaos(1_000);
    const before = progress().length;
    const pending = h.fail('portfolio:get', { range: '1w' });
    const started = await h.waitFor('the read to report its first pages', () => progress().slice(before).find((e) => e.range === '1w' && e.pages > 0));
    const at = Date.now();
    expect(await h.call('portfolio:cancel', {})).toEqual({ cancelled: 1 });
    const failed = await pending;
    // The request in flight is not waited for: the answer comes well inside one request's latency.
    expect(Date.now() - at).toBeLessThan(800);
    expect(failed).toMatchObject({ code: 'PORTFOLIO_CANCELLED', message: expect.stringMatching(/^the portfolio read was cancelled after \d+ page\(s\)/) });
    expect(ofRead(started.read).at(-1)).toMatchObject({ state: 'cancelled', range: '1w' });
    // Nothing to cancel now.
    expect(await h.call('portfolio:cancel', {})).toEqual({ cancelled: 0 });
  }, 30_000);

  it('a read past the deadline fails with PORTFOLIO_DEADLINE, saying how far it got', async () => {
    await chaos(1_500);
    const before = progress().length;
    const failed = await h.fail('portfolio:get', { range: '1m' });
    expect(failed).toMatchObject({ code: 'PORTFOLIO_DEADLINE', message: expect.stringMatching(/^the portfolio read stopped after 4 s: \d+ page\(s\), \d+ row\(s\), \d+ of \d+ market\(s\) read/) });
    expect(failed.hint).toMatch(/nothing was changed/);
    expect(progress().slice(before).at(-1)).toMatchObject({ state: 'failed', range: '1m', deadline_ms: DEADLINE_MS });
    await chaos(0);
  }, 30_000);
});
