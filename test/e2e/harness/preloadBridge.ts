/**
 * Runs the REAL built preload (out/preload/index.cjs) inside the page, with a stand-in for the two
 * Electron objects it uses: contextBridge.exposeInMainWorld defines window.perps, and ipcRenderer.invoke
 * crosses to the test process through Playwright's exposeBinding, where the REAL main-process handlers
 * (registerHandlers) answer. Main-to-renderer events go the other way through emit().
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { IpcEventLike, IpcMainLike } from '../../../src/main/ipc/registerHandlers.js';
import { REPO_ROOT } from '../../support/paths.js';

type Listener = (event: IpcEventLike, payload: unknown) => Promise<unknown>;

/** Collects the handlers main registers, like Electron's ipcMain, and records every exchange. */
export class TestIpcMain implements IpcMainLike {
  readonly listeners = new Map<string, Listener>();
  /** Every request and response that crossed, for the security tests (no key material may appear). */
  readonly traffic: { channel: string; payload: unknown; response: unknown }[] = [];

  handle(channel: string, listener: Listener): void {
    if (this.listeners.has(channel)) throw new Error(`second handler for ${channel}`);
    this.listeners.set(channel, listener);
  }

  /** Answers one invoke from a page (whatever carried it there), recording the exchange. */
  async invoke(channel: string, payload: unknown, frameUrl: string): Promise<unknown> {
    const listener = this.listeners.get(channel);
    if (!listener) throw new Error(`no handler for ${channel}`);
    const response = await listener({ senderFrame: { url: frameUrl } }, payload);
    this.traffic.push({ channel, payload, response });
    return response;
  }
}

const SHIM = `
(() => {
  const listeners = new Map();
  // Returns how many of the page's listeners took the event (none yet while the page is loading).
  window.__perpsIpcEmit = (channel, payload) => {
    const fns = [...(listeners.get(channel) ?? [])];
    for (const fn of fns) fn({ sender: null }, payload);
    return fns.length;
  };
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: Object.freeze(api), writable: false, configurable: false });
      },
    },
    ipcRenderer: {
      invoke: (channel, payload) => window.__perpsIpcInvoke(channel, payload),
      on(channel, fn) { if (!listeners.has(channel)) listeners.set(channel, new Set()); listeners.get(channel).add(fn); },
      removeListener(channel, fn) { listeners.get(channel)?.delete(fn); },
      off(channel, fn) { listeners.get(channel)?.delete(fn); },
    },
  };
  const require = (name) => { if (name === 'electron') return electron; throw new Error('preload required ' + name); };
  const module = { exports: {} };
  (function (require, module, exports) {
    __PRELOAD__
  })(require, module, module.exports);
})();
`;

/**
 * Runs the built preload in every document of `page`; its invoke calls window.__perpsIpcInvoke. `outDir`
 * is the build's out/ folder (the renderer bench measures another build's with BENCH_RENDERER_DIR).
 */
export async function installPreload(page: Page, outDir: string = path.join(REPO_ROOT, 'out')): Promise<void> {
  const preload = fs.readFileSync(path.join(outDir, 'preload/index.cjs'), 'utf8');
  await page.addInitScript({ content: SHIM.replace('__PRELOAD__', () => preload) });
}

export async function installPreloadBridge(page: Page, ipc: TestIpcMain, outDir?: string): Promise<void> {
  await page.exposeBinding('__perpsIpcInvoke', (source, channel: string, payload: unknown) => ipc.invoke(channel, payload, source.frame.url()));
  await installPreload(page, outDir);
}

/** Sends a main-to-renderer event, as webContents.send does; resolves to the number of page listeners that took it. */
export async function emit(page: Page, channel: string, payload: unknown): Promise<number> {
  return page.evaluate(([c, p]) => (globalThis as unknown as { __perpsIpcEmit: (c: string, p: unknown) => number }).__perpsIpcEmit(c, p), [channel, payload] as const);
}
