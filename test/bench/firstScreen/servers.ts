/**
 * The first-screen bench's serving side, in a worker thread of its own: the two pages' files and the
 * app's IPC. In Electron, main (which serves app:// and answers IPC) is another process than the one
 * driving the test; here Playwright's client shares the bench's thread, and its protocol traffic during a
 * page load would otherwise queue in front of the pages' requests and IPC answers.
 *
 * workerData: { appDir, minimalDir }. Posts { app, minimal, ipc } (origins and the IPC socket's URL) once
 * listening; closes everything and exits on the message 'close'.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { registerHandlers } from '../../../src/main/ipc/registerHandlers.js';
import { TestIpcMain } from '../../e2e/harness/preloadBridge.js';
import { startIpcSocketServer } from '../../e2e/harness/socketBridge.js';
import { serveRenderer } from '../../e2e/harness/staticServer.js';
import { syntheticMain } from '../rendererBench.js';

export interface FirstScreenServers {
  app: string;
  minimal: string;
  ipc: string;
}

const { appDir, minimalDir } = workerData as { appDir: string; minimalDir: string };
const app = await serveRenderer(appDir);
const minimal = await serveRenderer(minimalDir);
const ipc = await startIpcSocketServer(() => {
  const main = new TestIpcMain();
  registerHandlers(main, syntheticMain(0), (u) => u.startsWith(app.origin + '/'), { logger: { error: (m) => console.error(m) } });
  return main;
});
parentPort!.on('message', (m) => {
  if (m !== 'close') return;
  void Promise.all([app.close(), minimal.close(), ipc.close()]).then(() => parentPort!.close());
});
parentPort!.postMessage({ app: app.origin, minimal: minimal.origin, ipc: ipc.url } satisfies FirstScreenServers);
