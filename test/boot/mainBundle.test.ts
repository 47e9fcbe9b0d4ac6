/**
 * The BUILT main process (out/main/index.js) booted under Node, since no Electron binary can run here.
 * A temporary copy of the app gets a fake `electron` (fakeElectron.cjs, which throws on any broken
 * Electron rule); a child process (a clean module graph) imports the bundle, is made ready, loads the
 * page through the app's app:// handler, runs the built preload as a sandboxed preload, calls channels
 * through it against the in-process simulator and the real keychain (the D-Bus session of npm test),
 * checks that untrusted frames are refused, and quits (bootScenario.mjs). This file asserts on its
 * report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/main/shell/appOrigin.js';
import { bootApp, context, DEV_SERVER_URL, ensureBuilt, removeBootCopies, type BootRun } from './bootRun.js';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => removeBootCopies());

describe('the built main process, booted under a fake Electron', () => {
  let run: BootRun;
  beforeAll(async () => {
    run = await bootApp('app');
  }, 180_000);

  it('runs to the end and exits 0: no Electron rule broken, no uncaught error', () => {
    expect(run.report, context(run)).not.toBeNull();
    expect(run.report.fatal, context(run)).toBeUndefined();
    expect(run.report.errors, context(run)).toEqual([]);
    expect(run.report.violations, context(run)).toEqual([]);
    expect(run.code, context(run)).toBe(0);
    expect(run.report.electronResolvedTo).toMatch(/node_modules[\\/]electron[\\/]index\.cjs$/);
    expect(run.report.steps).toEqual(['imported', 'ready', 'window', 'page', 'channels', 'untrusted', 'permissions', 'quit']);
  });

  it('registers app:// as a standard, secure scheme before ready', () => {
    expect(run.report.beforeReady.privilegedSchemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, codeCache: true }) }]);
  });

  it('opens one window, shown, isolated and sandboxed, with the built preload', () => {
    expect(run.report.window).toMatchObject({
      count: 1,
      shown: true,
      preloadExists: true,
      // bypassHeatCheck: compiled code is cached from the first start (the scheme registers codeCache).
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, v8CacheOptions: 'bypassHeatCheck' },
    });
  });

  it('serves the page through its app:// handler: 200 with the CSP header for the HTML, its script and its style', () => {
    const { html, scripts, styles, escape, otherHost } = run.report.page;
    expect(html).toMatchObject({ url: 'app://perps/index.html', status: 200 });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const r of [html, ...scripts, ...styles]) {
      expect(r.status, r.url).toBe(200);
      expect(r.headers['content-security-policy'], r.url).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options'], r.url).toBe('nosniff');
    }
    for (const r of scripts) expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    for (const r of styles) expect(r.headers['content-type']).toMatch(/^text\/css/);
    expect(escape.status).toBe(404);
    expect(otherHost.status).toBe(404);
  });

  it('runs the built preload sandboxed: it requires only electron and exposes only window.perps', () => {
    expect(run.report.preload).toEqual({ required: ['electron'], exposed: ['perps'] });
  });

  it('answers channels through the preload, against the in-process simulator', () => {
    const { info, profile, settings, markets, wallet, faucet, balance, badPayload } = run.report.calls;
    expect(info).toMatchObject({ ok: true, value: { name: 'Perps Desk', profile: 'sim' } });
    expect(profile).toMatchObject({ ok: true, value: { active: 'sim', environment: 'Testnet', sim: { running: true } } });
    expect(settings.ok, JSON.stringify(settings)).toBe(true);
    expect(markets.ok, JSON.stringify(markets).slice(0, 400)).toBe(true);
    expect(markets.value.markets.length).toBeGreaterThan(0);
    expect(wallet.ok, JSON.stringify(wallet)).toBe(true);
    // The faucet goes through the simulator's control API (a JSON POST from the main process).
    expect(faucet).toMatchObject({ ok: true, value: { amount: '250' } });
    expect(balance).toMatchObject({ ok: true, value: { free_balance: '250' } });
    expect(badPayload).toMatchObject({ ok: false, error: { code: expect.any(String) } });
  });

  it('refuses untrusted frames: their IPC, navigation away, redirects, webviews and new windows', () => {
    for (const [url, result] of Object.entries(run.report.untrusted)) {
      expect(result, url).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    }
    expect(run.report.navigation).toMatchObject({
      toEvil: true,
      toFile: true,
      redirectToEvil: true,
      toApp: false,
      webview: true,
      openEvil: { action: 'deny' },
      openAllowed: { action: 'deny' },
      openedExternally: ['https://github.com/perps-desk'],
    });
  });

  it('grants clipboard-sanitized-write to the app page only, and no other permission, in both handlers', () => {
    expect(run.report.permissions).toEqual({
      clipboardApp: { request: true, check: true },
      clipboardEvil: { request: false, check: false },
      mediaApp: { request: false, check: false },
      clipboardReadApp: { request: false, check: false },
    });
  });

  it('connects to loopback only: the in-process simulator, nothing else (every socket and lookup trapped)', () => {
    const connections = run.report.connections as { api: string; host?: string; port?: number; path?: string; refused?: boolean }[];
    expect(connections.filter((c) => c.refused)).toEqual([]);
    const sockets = connections.filter((c) => c.host !== undefined && c.port !== undefined);
    // It did talk to the simulator (the faucet, the balance): the trap saw it.
    expect(sockets.length).toBeGreaterThan(0);
    expect([...new Set(sockets.map((c) => c.host))]).toEqual(['127.0.0.1']);
    const simPort = new URL(run.report.calls.profile.value.sim.base_url).port;
    expect([...new Set(sockets.map((c) => String(c.port)))]).toEqual([simPort]);
  });

  it('quits with every window closed and the simulator state saved', () => {
    expect(run.report.afterQuit.windows).toBe(0);
    expect(run.report.afterQuit.stateFile).toMatchObject({ exists: true, version: expect.any(Number) });
  });

  it('leaves the data folder 0700 and every file in it 0600', () => {
    const modes = run.report.afterQuit.modes as { path: string; type: string; mode: string }[];
    expect(modes.length).toBeGreaterThan(1);
    const wrong = modes.filter((m) => m.mode !== (m.type === 'dir' ? '700' : '600'));
    expect(wrong).toEqual([]);
  });
});

describe('npm run dev on macOS', () => {
  it('reopens the window on the dev server URL when the dock icon is clicked (activate)', async () => {
    const dev = await bootApp('dev-activate');
    expect(dev.report?.fatal, context(dev)).toBeUndefined();
    expect(dev.report.violations, context(dev)).toEqual([]);
    expect(dev.report.firstUrl).toBe(DEV_SERVER_URL);
    // The last window closed; on macOS the app stays open.
    expect(dev.report.windowsAfterClose).toBe(0);
    expect(dev.report.quitPhaseAfterClose).toBe('running');
    expect(dev.report.activatedUrl).toBe(DEV_SERVER_URL);
    expect(dev.report.activatedPreload).toEqual(['electron']);
    expect(dev.report.errors, context(dev)).toEqual([]);
    expect(dev.code, context(dev)).toBe(0);
  }, 180_000);
});
