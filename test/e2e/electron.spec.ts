/**
 * The real desktop app through Playwright's Electron driver: the built main process, its app://
 * protocol and CSP, the sandboxed preload and the renderer, on the simulator profile. Runs only where
 * Electron's binary is installed; `npm install` fetches it lazily, and a machine that cannot download it
 * (this project's CI box) skips this test with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The binary's path as the electron package records it, without require('electron'): that call tries
 * to download the binary when it is missing, which must never happen inside a test run.
 */
function electronBinary(): { path: string } | { missing: string } {
  const pkg = path.join(REPO_ROOT, 'node_modules/electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) return { missing: 'node_modules/electron/path.txt is absent: the Electron binary was never downloaded' };
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    return { missing: `${binary} is missing or not executable` };
  }
  return { path: binary };
}

const found = electronBinary();

test('the desktop app opens on the simulator profile', async () => {
  test.skip('missing' in found, `Electron binary not available: ${'missing' in found ? found.missing : ''}`);
  if ('missing' in found) return;
  // A throwaway profile folder: the app's settings, nonces and simulator state never touch the user's own.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-electron-'));
  const app = await electron.launch({
    executablePath: found.path,
    args: [path.join(REPO_ROOT, 'out/main/index.js'), '--no-sandbox'],
    env: { ...process.env, XDG_CONFIG_HOME: home, HOME: home },
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('heading', { name: 'Where do you want to trade?' })).toBeVisible({ timeout: 30_000 });
    await expect(window.getByRole('radio', { name: /Simulator/ })).toHaveAttribute('aria-checked', 'true');
    expect(await window.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined');
    await window.screenshot({ path: path.join(REPO_ROOT, 'test-results/screenshots/electron-app.png') });
  } finally {
    await app.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
});
