/**
 * `npm run dev`: the renderer as electron-vite's dev server serves it, with the project's own
 * electron.vite.config.ts (resolved by electron-vite itself, as `electron-vite dev` does), opened in
 * Chromium. The page's Content-Security-Policy must let the dev server work: no violation, and Vite's
 * HMR WebSocket connects. (The page has no window.perps here, so the app itself is not asserted on.)
 */
import { expect, test } from '@playwright/test';
import { resolveConfig } from 'electron-vite';
import { createServer, type ViteDevServer } from 'vite';
import { REPO_ROOT } from '../support/paths.js';

let server: ViteDevServer | undefined;

test.afterAll(async () => {
  await server?.close();
});

test('the dev server page runs under its policy: HMR connects and nothing is blocked', async ({ page }) => {
  const resolved = await resolveConfig({ root: REPO_ROOT, logLevel: 'silent' }, 'serve', 'development');
  const renderer = resolved.config?.renderer;
  expect(renderer, 'electron.vite.config.ts has a renderer config').toBeDefined();
  server = await createServer({ ...renderer, configFile: false, logLevel: 'silent', server: { ...renderer!.server, port: 0, strictPort: false } });
  await server.listen();
  const address = server.httpServer!.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const violations: string[] = [];
  const consoleLines: string[] = [];
  page.on('console', (m) => {
    consoleLines.push(m.text());
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  // The test runs under Node's types (no DOM lib): the page's objects are typed by hand here.
  type Violation = { violatedDirective: string; blockedURI: string };
  await page.addInitScript(() => {
    const doc = (globalThis as unknown as { document: { addEventListener(type: string, fn: (e: Violation) => void): void } }).document;
    doc.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`http://localhost:${port}/`);
  await expect.poll(() => consoleLines.some((l) => l.includes('[vite] connected.')), { timeout: 20_000 }).toBe(true);
  // The React refresh preamble ran (the refresh runtime hooked in before the app's modules).
  expect(await page.evaluate(() => typeof (globalThis as unknown as { $RefreshReg$?: unknown }).$RefreshReg$)).toBe('function');
  expect(violations).toEqual([]);
});
