/**
 * The test suite's connection trap (test/support/connectionTrap.mjs), issue 36 item 17: a `lookup` option
 * that points localhost at another address, and a socket opened in a worker thread, are refused before
 * anything connects, and recorded; a lookup that answers loopback still connects. Nothing here sends a
 * packet off the machine: 192.0.2.1 (TEST-NET-1) is only ever named once the trap's last line (the TCP
 * handle's own connect, handleGuardInstalled) is checked to be in place in that very thread; a thread
 * without it reports so and tries nothing.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleGuardInstalled, installConnectionTrap, type ConnectionTrap } from '../support/connectionTrap.mjs';

let trap: ConnectionTrap;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  trap = installConnectionTrap();
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  trap.uninstall();
  await new Promise<void>((r) => server.close(() => r()));
});

/** Connects and reports 'connected' or the error's message. */
function attempt(options: net.NetConnectOpts): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err) => resolve(err.message));
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('the connection trap', () => {
  it('a lookup option pointing localhost elsewhere is refused before connecting', async () => {
    expect(handleGuardInstalled()).toBe(true);
    trap.clear();
    let asked = 0;
    const elsewhere = (_host: string, _options: unknown, cb: (err: Error | null, address: string, family: number) => void): void => {
      asked++;
      cb(null, '192.0.2.1', 4);
    };
    const result = await attempt({ host: 'localhost', port: 9, lookup: elsewhere as never });
    expect(asked).toBe(1);
    expect(result).toMatch(/connection trap: net to localhost \(resolved to 192\.0\.2\.1\):9 refused before connecting/);
    expect(trap.refused()).toEqual([{ api: 'net', host: '192.0.2.1', port: 9, refused: true, via: 'localhost' }]);
    // The same through http.request's lookup option, and with all: true answers.
    const viaHttp = await new Promise<string>((resolve) => {
      const req = http.request({ host: 'localhost', port: 9, lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) => (o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }, { address: '192.0.2.1', family: 4 }]) : cb(null, '192.0.2.1', 4))) as never });
      req.once('error', (err) => resolve(err.message));
      req.once('response', () => resolve('answered'));
      req.end();
    });
    expect(viaHttp).toMatch(/resolved to 192\.0\.2\.1/);
  });

  it('a lookup option answering loopback connects as before', async () => {
    const loopback = (_host: string, options: { all?: boolean }, cb: (...a: unknown[]) => void): void => (options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4));
    expect(await attempt({ host: 'localhost', port, lookup: loopback as never })).toBe('connected');
    expect(await attempt({ host: 'localhost', port, family: 4 })).toBe('connected');
  });

  it('a worker thread is trapped too: its connection out is refused there and recorded here', async () => {
    trap.clear();
    // The worker names the outside address only once it sees its own trap in place (else it says so).
    const code = `
      const net = require('node:net');
      const { parentPort } = require('node:worker_threads');
      const guarded = net.Socket.prototype.connect.name === 'trappedConnect';
      if (!guarded) parentPort.postMessage('the worker has no trap');
      else {
        const s = net.connect(9, '192.0.2.1');
        s.once('connect', () => { parentPort.postMessage('connected'); s.destroy(); });
        s.once('error', (err) => parentPort.postMessage(err.message));
      }
    `;
    const worker = new Worker(code, { eval: true });
    const said = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(said).toMatch(/connection trap: net to 192\.0\.2\.1:9 refused before connecting/);
    await until(() => trap.refused().length > 0, 'the worker’s record');
    expect(trap.refused()).toEqual([{ api: 'net', host: '192.0.2.1', port: 9, refused: true, worker: true }]);
  });
});
