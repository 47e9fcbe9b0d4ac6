/**
 * The renderer in Chromium, with window.perps from the real preload bridged to the real IPC handlers
 * (only the channels the first screen reads answer; the rest are stubs). The page sees window.perps and
 * nothing else of Node or Electron.
 */
import { expect, test } from '@playwright/test';
import { registerHandlers, stubHandlers } from '../../src/main/ipc/registerHandlers.js';
import { OperationError } from '../../src/main/services/errors.js';
import { installPreloadBridge, TestIpcMain } from './harness/preloadBridge.js';
import { serveRenderer, type StaticServer } from './harness/staticServer.js';
import { REPO_ROOT } from '../support/paths.js';
import path from 'node:path';

let server: StaticServer;
test.beforeAll(async () => {
  server = await serveRenderer(path.join(REPO_ROOT, 'out/renderer'));
});
test.afterAll(async () => server.close());

const PROFILE = {
  active: 'sim' as const,
  environment: 'Testnet' as const,
  sim: { running: true, base_url: 'http://127.0.0.1:1/api/v1' },
  mainnet: { base_url: null, venue_info_url: null, venue_ws_url: null, configured: false },
};

test('the app frame loads and reaches main through window.perps', async ({ page }) => {
  const ipc = new TestIpcMain();
  registerHandlers(
    ipc,
    stubHandlers({
      'app:getInfo': async () => ({ name: 'Perps Desk', version: '0.1.0', profile: 'sim', platform: process.platform, vault_closed: null }),
      'app:getProfile': async () => PROFILE,
      'wallet:current': async () => ({ address: null, signer: null, last_signer_kind: null }),
      'settings:get': async () => ({ default_slippage_bps: null, default_leverage: 1, leverage_by_market: {}, confirm_orders: true, key_expiry_warning_days: 14, theme: 'dark' as const, palette: 'default' as const, liquidation_warning_pct: 10, max_order_notional: null, stop_tolerance_bps: 1000, stop_tolerance_by_market: {} }),
    }),
    (url) => url.startsWith(server.origin + '/'),
  );
  await installPreloadBridge(page, ipc);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.origin + '/index.html');
  // No wallet yet: onboarding starts with the profile, the simulator chosen and explained.
  await expect(page.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Simulator/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('No real funds are ever at risk')).toBeVisible();
  // The page sees only window.perps: no ipcRenderer, no require, no process.
  const globals = await page.evaluate(() => ({
    perps: typeof (globalThis as unknown as { perps: unknown }).perps,
    require: typeof (globalThis as unknown as { require: unknown }).require,
    process: typeof (globalThis as unknown as { process: unknown }).process,
  }));
  expect(globals).toEqual({ perps: 'object', require: 'undefined', process: 'undefined' });
  expect(ipc.traffic.map((t) => t.channel)).toContain('wallet:current');
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/app-frame.png', fullPage: true });
});

test('a failing app core shows the error code, message and hint', async ({ page }) => {
  const ipc = new TestIpcMain();
  registerHandlers(
    ipc,
    stubHandlers({
      'wallet:current': async () => {
        throw new OperationError('NOT_READY', 'the app is switching profiles or shutting down', { hint: 'Try again in a moment.' });
      },
    }),
    (url) => url.startsWith(server.origin + '/'),
    { logger: { error: () => undefined } },
  );
  await installPreloadBridge(page, ipc);
  await page.goto(server.origin + '/index.html');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Could not reach the app core', { timeout: 10_000 });
  await expect(alert).toContainText('NOT_READY');
  await expect(alert).toContainText('Try again in a moment.');
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
});
