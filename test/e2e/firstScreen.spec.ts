/**
 * The first screen (issue 17): a returning trader's terminal is drawn from the last session's first-screen
 * cache before main has answered anything, then refreshed; the panels around the ticket mount right after
 * its first frame. What the cache holds is checked too: no key material, no money, no prices.
 */
import type { Page } from '@playwright/test';
import type { IpcEventLike } from '../../src/main/ipc/registerHandlers.js';
import { FIRST_SCREEN_READS } from '../../src/shared/ipc/channels.js';
import type { E2eApp } from './harness/appHarness.js';
import { expect, openApp, screenshot, test } from './harness/fixtures.js';

const CACHE_KEY = 'perps-desk:first-screen';

/** The cache as the page's localStorage holds it (null: none). */
function cacheText(page: Page): Promise<string | null> {
  return page.evaluate(`localStorage.getItem(${JSON.stringify(CACHE_KEY)})`);
}

let app: E2eApp | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Holds main's answers on `channels` until the returned release is called (requests are taken, not answered). */
function holdAnswers(e2e: E2eApp, channels: readonly string[]): { release: () => void; asked: Set<string> } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const asked = new Set<string>();
  for (const channel of channels) {
    const listener = e2e.ipc.listeners.get(channel);
    if (!listener) throw new Error(`no handler for ${channel}`);
    e2e.ipc.listeners.set(channel, async (event: IpcEventLike, payload: unknown) => {
      asked.add(channel);
      await held;
      return listener(event, payload);
    });
  }
  return { release, asked };
}

test('a returning trader: the terminal opens from the last session before main answers, then goes live', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'first-screen', { onboard: true });
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  await expect(ticket).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Markets' })).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'Account tables' })).toBeVisible();

  // The cache is written a moment after the terminal opens.
  await expect.poll(() => cacheText(page), { timeout: 10_000 }).not.toBeNull();
  const text = (await cacheText(page))!;
  const saved = JSON.parse(text) as { state: { queries: { queryKey: unknown[]; state: { data: unknown } }[] } };
  // What the gate and the first frame need; no balance, health, positions, orders or history.
  const kept = saved.state.queries.map((q) => JSON.stringify(q.queryKey));
  expect(kept).toEqual(expect.arrayContaining(['["app","profile"]', '["keys"]', '["markets"]', '["settings"]', '["wallet"]']));
  const allowed = ['["app","profile"]', '["keys"]', '["markets"]', '["settings"]', '["wallet"]', '["app","info"]', '["notifications"]', '["settings","simFeed"]', '["settings","hotkeys"]'];
  expect(kept.filter((k) => !allowed.includes(k))).toEqual([]);
  const markets = saved.state.queries.find((q) => JSON.stringify(q.queryKey) === '["markets"]')!.state.data as { markets: Record<string, unknown>[] };
  expect(markets.markets.length).toBeGreaterThan(0);
  for (const m of markets.markets) {
    // Rules kept, prices dropped: nothing from an earlier session is ever shown as a price.
    expect(m['tick_size']).toEqual(expect.any(String));
    for (const f of ['mark', 'oracle', 'mid', 'prev_day_px', 'change_24h', 'funding_rate', 'open_interest', 'day_volume']) expect(m[f], `${String(m['symbol'])}.${f}`).toBeNull();
  }
  expect(text.toLowerCase()).toContain(app.mainWallet.address.toLowerCase());
  // No key material: no 32-byte hex anywhere (addresses are 20 bytes), and not the main wallet's key.
  expect(text).not.toMatch(/[0-9a-fA-F]{64}/);
  expect(text).not.toContain(app.mainWallet.privateKey.slice(2));

  // The next start: main holds its first answers (the preload's combined read, and each read alone), yet
  // the terminal and the ticket are there.
  const hold = holdAnswers(app, ['app:firstScreen', 'wallet:current', 'keys:list', 'markets:list']);
  await page.reload();
  await expect(ticket.locator('button[type="submit"]')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(hold.asked.has('app:firstScreen')).toBe(true);
  // The figures that move with the market are not in the cache: blank until main answers.
  const header = page.getByRole('region', { name: /market$/ });
  await expect(header.getByLabel('24h change')).toHaveText('—');
  await expect(header.getByLabel('Open interest')).toHaveText('—');
  await screenshot(page, 'first-screen-restored');
  // The ticket works on the restored rules: a size is typed and checked at once.
  await ticket.getByLabel(/^Size/).fill('0.01');
  await expect(ticket.getByLabel(/^Size/)).toHaveValue('0.01');

  // Main answers: the view goes live (24h change is a live figure, absent from the cache).
  hold.release();
  await expect(header.getByLabel('24h change')).toHaveText(/^[+-]?\d+\.\d{2}%$/, { timeout: 10_000 });
  await expect(page.getByRole('listbox', { name: 'Markets' })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("a start with nothing restored: the first screen's reads come in one answer the preload asked, none alone", async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'first-screen-one-answer', { onboard: true });
  await expect(page.getByRole('form', { name: 'Order ticket' })).toBeVisible();
  // As on a first start, or the first after an update (the cache is refused): nothing to restore.
  await page.evaluate(`localStorage.removeItem(${JSON.stringify(CACHE_KEY)})`);
  // The old page is gone before main's channels are watched: a read it still had under way (a book
  // snapshot, a refetch) is not the new page's first ask.
  await page.goto('about:blank');
  const asked: string[] = [];
  for (const [channel, listener] of [...app.ipc.listeners]) {
    app.ipc.listeners.set(channel, async (event: IpcEventLike, payload: unknown) => {
      asked.push(channel);
      return listener(event, payload);
    });
  }
  await page.goto(server.origin + '/index.html');
  await expect(page.getByRole('form', { name: 'Order ticket' }).locator('button[type="submit"]')).toBeVisible();
  await expect(page.getByRole('region', { name: /market$/ }).getByLabel('24h change')).toHaveText(/^[+-]?\d+\.\d{2}%$/);
  expect(asked[0]).toBe('app:firstScreen');
  expect(asked.filter((c) => c === 'app:firstScreen')).toHaveLength(1);
  const reads = Object.values(FIRST_SCREEN_READS) as string[];
  expect(asked.filter((c) => reads.includes(c))).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('the wallet was forgotten since: the restored terminal gives way to onboarding, and the cache is dropped', async ({ page, server, pageErrors }) => {
  app = await openApp(page, server, 'first-screen-forgot', { onboard: true });
  await expect(page.getByRole('form', { name: 'Order ticket' })).toBeVisible();
  await expect.poll(() => cacheText(page), { timeout: 10_000 }).not.toBeNull();

  // Forgotten elsewhere (the command line, another window) while this one was closed.
  await app.call('wallet:disconnect', { forget: true });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible();
  await expect.poll(() => cacheText(page)).toBeNull();
  expect(pageErrors).toEqual([]);
});
