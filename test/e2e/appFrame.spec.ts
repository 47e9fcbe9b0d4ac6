/**
 * The renderer in Chromium, with window.perps from the real preload bridged to the real IPC handlers.
 */
import { expect, test } from '@playwright/test';
import { registerHandlers } from '../../src/main/ipc/registerHandlers.js';
import { installPreloadBridge, TestIpcMain } from './harness/preloadBridge.js';
import { serveRenderer, type StaticServer } from './harness/staticServer.js';
import { REPO_ROOT } from '../support/paths.js';
import path from 'node:path';

let server: StaticServer;
test.beforeAll(async () => {
  server = await serveRenderer(path.join(REPO_ROOT, 'out/renderer'));
});
test.afterAll(async () => server.close());

test('the app frame loads and reaches main through window.perps', async ({ page }) => {
  const ipc = new TestIpcMain();
  registerHandlers(
    ipc,
    { 'app:getInfo': async () => ({ name: 'Perps Desk', version: '0.1.0', profile: 'sim', platform: process.platform }) },
    (url) => url.startsWith(server.origin + '/'),
  );
  await installPreloadBridge(page, ipc);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.origin + '/index.html');
  await expect(page.getByRole('heading', { name: 'Perps Desk' })).toBeVisible();
  await expect(page.getByText('paper trading on the local simulator')).toBeVisible();
  // The page sees only window.perps: no ipcRenderer, no require, no process.
  const globals = await page.evaluate(() => ({
    perps: typeof (globalThis as unknown as { perps: unknown }).perps,
    require: typeof (globalThis as unknown as { require: unknown }).require,
    process: typeof (globalThis as unknown as { process: unknown }).process,
  }));
  expect(globals).toEqual({ perps: 'object', require: 'undefined', process: 'undefined' });
  expect(ipc.traffic.map((t) => t.channel)).toContain('app:getInfo');
  expect(errors).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/app-frame.png', fullPage: true });
});
