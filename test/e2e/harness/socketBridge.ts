/**
 * The preload bridge of preloadBridge.ts over a WebSocket on loopback instead of Playwright's
 * exposeBinding. A binding call crosses the DevTools protocol twice and costs tens of milliseconds on a
 * busy machine, far more than Electron's IPC (a message between two processes, well under a
 * millisecond); a loopback socket message costs about what Electron's does. The first-screen bench uses
 * it so its timing is the app's and not the harness's; the e2e tests keep the binding (they time nothing).
 *
 * Two halves, so the serving half can run in another thread than Playwright's (as main is another
 * process than the renderer): startIpcSocketServer answers, installSocketClient wires a page to it.
 */
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { WebSocketServer, type RawData } from 'ws';
import { installPreload, type TestIpcMain } from './preloadBridge.js';

/** In the page: window.__perpsIpcInvoke sends { id, channel, payload, frame } and awaits the answer. */
const CLIENT = `
(() => {
  const socket = new WebSocket(__URL__);
  const opened = new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error('IPC socket failed to open')), { once: true });
  });
  const pending = new Map();
  let next = 0;
  socket.addEventListener('message', (event) => {
    const m = JSON.parse(event.data);
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if ('error' in m) p.reject(new Error(m.error)); else p.resolve(m.result);
  });
  window.__perpsIpcInvoke = (channel, payload) => new Promise((resolve, reject) => {
    const id = ++next;
    pending.set(id, { resolve, reject });
    opened.then(() => socket.send(JSON.stringify({ id, channel, payload, frame: location.href })), reject);
  });
})();
`;

export interface IpcSocketServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves IPC over a loopback WebSocket: each connection (one page load) gets its own handlers from
 * `mainFor()`, as each app start gets a fresh main.
 */
export async function startIpcSocketServer(mainFor: () => TestIpcMain): Promise<IpcSocketServer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('connection', (socket) => {
    const ipc = mainFor();
    socket.on('message', (data: RawData) => {
      void (async () => {
        const { id, channel, payload, frame } = JSON.parse(String(data)) as { id: number; channel: string; payload: unknown; frame: string };
        try {
          socket.send(JSON.stringify({ id, result: await ipc.invoke(channel, payload, frame) }));
        } catch (err) {
          socket.send(JSON.stringify({ id, error: (err as Error).message }));
        }
      })();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const c of server.clients) c.terminate();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * Only the transport: the socket to `url`, opened as the page is created, with nothing using it. The
 * first-screen bench gives it to its floor page too, so the harness's own cost (a connection Electron's
 * IPC does not make) lands on both sides of the comparison.
 */
export async function installSocketTransport(page: Page, url: string): Promise<void> {
  await page.addInitScript({ content: CLIENT.replace('__URL__', JSON.stringify(url)) });
}

/**
 * Runs the built preload in `page` with its IPC going to the socket server at `url`. The app's content
 * policy allows no connections: the page's context needs `bypassCSP`.
 */
export async function installSocketClient(page: Page, url: string): Promise<void> {
  await installSocketTransport(page, url);
  await installPreload(page);
}
