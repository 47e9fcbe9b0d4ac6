/**
 * Nothing leaves the machine unasked (issue 28, item 2). Every outbound connection and name lookup of the
 * app's main side (this process: the real AppCore, handlers and simulator) is trapped
 * (test/support/connectionTrap.mjs: net, tls, http(s), fetch, WebSocket, dgram, dns; anything off
 * loopback is refused before a socket opens), and every request of the renderer is recorded through
 * Chromium (Playwright's request and websocket events).
 *
 *  - The simulator profile, a whole session through the UI (a paper wallet from onboarding, an order, a
 *    withdrawal, the companion screens): only loopback, and the renderer only its own origin.
 *  - The mainnet profile with its service, venue and companion URLs pointed at loopback stand-ins, each
 *    on its own loopback address (harness/mainnetStandIn.ts, a child process): the hosts contacted are
 *    exactly the configured ones.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { saveCompanionUrl, saveRpcUrl } from '../../src/main/services/companion/companionSettings.js';
import { AppSettings } from '../../src/main/app/appSettings.js';
import { saveProfileUrls, type Profile } from '../../src/main/profiles/profiles.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { installConnectionTrap, type ConnectionTrap } from '../support/connectionTrap.mjs';
import { tempDir, wipeService } from '../support/keychain.js';
import { REPO_ROOT } from '../support/paths.js';
import type { StandInOrigins } from './harness/mainnetStandIn.js';
import { expect, openApp, placeFromTicket, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { advanceUntilVisible } from './harness/riskSteps.js';

let trap: ConnectionTrap;
let app: E2eApp | undefined;

test.beforeAll(() => {
  trap = installConnectionTrap();
});
test.afterAll(() => trap.uninstall());
test.afterEach(async () => {
  if (app) await wipeService(`${app.keychainService}.inference`);
  await app?.stop();
  app = undefined;
});

/** Origins of everything the page asked Chromium for (documents, scripts, fetches, WebSockets). */
function recordRenderer(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  page.on('websocket', (ws) => origins.add(new URL(ws.url()).origin));
  return origins;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

test('simulator profile: a whole session talks to loopback only', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  const renderer = recordRenderer(page);
  trap.clear();
  // The simulator's clock moves when the session waits on it (the faucet's deposit, a fill, a withdrawal's step).
  app = await openApp(page, server, 'conn-sim');

  // Onboarding with a paper wallet (its key in the keychain, a trading key authorized, funded).
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Create a paper wallet' }).click();
  await advanceUntilVisible(app, page.getByRole('navigation', { name: 'Main' }));
  await expect(page.getByLabel('Free balance')).toHaveText('$10,000.00', { timeout: 20_000 });

  // An order.
  await placeFromTicket(page, 'ETH', { side: 'Buy', type: 'Market', size: '0.5' });
  await page.getByRole('tab', { name: 'Positions' }).click();
  await advanceUntilVisible(app, page.getByRole('row', { name: 'ETH position' }));
  await expect(page.getByRole('row', { name: 'ETH position' })).toContainText('LONG');

  // A withdrawal, to its first confirmed step.
  await nav(page, 'Withdraw');
  await page.getByLabel('Amount').fill('100');
  await page.getByRole('button', { name: 'Review withdrawal' }).click();
  await page.getByRole('dialog', { name: 'Review withdrawal' }).getByRole('button', { name: 'Sign and withdraw' }).click();
  await advanceUntilVisible(app, page.getByRole('list', { name: 'Withdrawal timeline' }).getByRole('listitem', { name: 'REQUESTED done' }));

  // The companion screens on the simulator: bridge quotes, a swap quote, points, the assistant.
  await app.call('companion:setPartnerCode', { code: 'perpsdesk' });
  await nav(page, 'Bridge');
  const bridge = page.getByRole('form', { name: 'Bridge transfer' });
  await bridge.getByLabel('From chain').selectOption('arbitrum');
  await bridge.getByLabel('To chain').selectOption('base');
  await bridge.getByLabel('Amount to send').fill('0.25');
  await bridge.getByRole('button', { name: 'Get quotes' }).click();
  await expect(page.getByRole('table', { name: 'Bridge routes' })).toBeVisible({ timeout: 15_000 });
  await nav(page, 'Swap');
  const swap = page.getByRole('form', { name: 'Swap', exact: true });
  await swap.getByLabel('Chain', { exact: true }).selectOption('base');
  await swap.getByLabel('Token out address').fill(BASE_USDC);
  await swap.getByLabel('Amount to swap').fill('0.1');
  await swap.getByRole('button', { name: 'Get quote' }).click();
  await expect(page.getByLabel('Swap quote')).toContainText('USDC', { timeout: 15_000 });
  await nav(page, 'Points');
  await expect(page.getByLabel('Points summary')).toContainText('Base points', { timeout: 15_000 });
  await app.call('assistant:setKey', { api_key: 'sk-sim-default-0001' });
  await app.call('assistant:setModel', { model: 'sim-chat-mini' });
  await nav(page, 'Trade');
  await page.getByRole('button', { name: 'Assistant', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Assistant' });
  await panel.getByLabel('Question').fill('What are my open positions?');
  await panel.getByRole('button', { name: 'Ask' }).click();
  await expect(panel.getByRole('list', { name: 'Answers' }).getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });

  // Main: something was reached (the simulator), all of it on loopback, nothing refused.
  expect(trap.refused()).toEqual([]);
  const sockets = trap.records.filter((r) => r.host !== undefined && r.port !== undefined);
  expect(sockets.length).toBeGreaterThan(0);
  const simOrigin = new URL(app.sim.urls.base_url);
  expect([...new Set(sockets.map((r) => `${r.host}:${r.port}`))]).toEqual([`${simOrigin.hostname}:${simOrigin.port}`]);
  // The renderer: its own origin only.
  expect([...renderer]).toEqual([server.origin]);
  expect(pageErrors).toEqual([]);
});

/** Starts the stand-ins and answers their origins. */
async function startStandIns(): Promise<{ child: ChildProcess; origins: StandInOrigins }> {
  const child = fork(path.join(REPO_ROOT, 'test/e2e/harness/mainnetStandIn.ts'), [], { execArgv: ['--import', 'tsx'], cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const origins = await new Promise<StandInOrigins>((resolve, reject) => {
    child.once('message', (m) => resolve(m as StandInOrigins));
    child.once('exit', (code) => reject(new Error(`the mainnet stand-ins exited (${code})`)));
  });
  return { child, origins };
}

test('mainnet profile: the hosts contacted are exactly the configured ones', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  const { child, origins } = await startStandIns();
  const settingsDir = tempDir('e2e-conn-mainnet-settings');
  try {
    // The user's configuration: the mainnet profile's URLs and each companion service's, in the settings store.
    const settings = openNodeSettings(settingsDir);
    new AppSettings(settings).rememberProfile('mainnet');
    saveProfileUrls(settings, 'mainnet', {
      baseUrl: `${origins.trading}/api/v1`,
      venueInfoUrl: `${origins.venue}/venue/info`,
      venueWsUrl: `${origins.venue.replace(/^http/, 'ws')}/venue/ws`,
    });
    const input = { profile: { name: 'mainnet' } as Profile, settings };
    saveCompanionUrl(input, 'bridge', `${origins.bridge}/bridge/v1`);
    saveCompanionUrl(input, 'platform', `${origins.platform}/platform`);
    saveCompanionUrl(input, 'aggregator', `${origins.aggregator}/aggregator/v1`);
    saveCompanionUrl(input, 'inference', `${origins.inference}/inference`);
    for (const chain of ['arbitrum', 'base']) saveRpcUrl(input, chain, `${origins.rpc}/rpc/${chain}`);
    const configured = ['trading', 'venue', 'bridge', 'platform', 'aggregator', 'inference', 'rpc'].map((s) => new URL(origins[s as keyof StandInOrigins]).host).sort();

    const renderer = recordRenderer(page);
    trap.clear();
    app = await openApp(page, server, 'conn-mainnet', { core: { settings } });
    expect(app.core.profile?.name).toBe('mainnet');

    // The trading API and the venue: markets, a wallet, a trading key created and authorized.
    const markets = await app.call('markets:list', {});
    expect(markets.markets.length).toBeGreaterThan(0);
    await app.call('wallet:connectEnv', { variable: 'PERPS_E2E_MAIN_KEY' });
    const key = await app.call('keys:create', { name: 'conn' });
    const review = await app.call('keys:review', { action: 'authorize', agent: key.agent, expires_in_days: 30 });
    await app.call('keys:authorize', { review_id: review.review_id });

    // The companions: bridge quotes, a token read over JSON-RPC, a swap quote, points, the assistant.
    const companion = await app.call('companion:setPartnerCode', { code: 'perpsdesk' });
    await app.call('bridge:quote', { from_chain: 'arbitrum', to_chain: 'base', from_token: companion.native_token, to_token: companion.native_token, amount: '0.1', decimals: 18, protocols: ['rail_fast'], slippage_bps: 50 });
    await app.call('bridge:tokenInfo', { chain: 'base', token: BASE_USDC });
    await app.call('swap:quote', { chain: 'base', token_in: companion.native_token, token_out: BASE_USDC, amount: '0.1', decimals: 18, slippage: '0.005' });
    await app.call('points:credited', { from: Date.now() - 86_400_000, to: Date.now() });
    await app.call('assistant:setKey', { api_key: 'sk-sim-default-0001' });
    await app.call('assistant:models', {});

    expect(trap.refused()).toEqual([]);
    const contacted = [...new Set(trap.records.filter((r) => r.host !== undefined && r.port !== undefined).map((r) => `${r.host}:${r.port}`))].sort();
    expect(contacted).toEqual(configured);
    expect([...renderer]).toEqual([server.origin]);
    expect(pageErrors).toEqual([]);
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(settingsDir, { recursive: true, force: true });
  }
});
