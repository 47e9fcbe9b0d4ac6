/**
 * Issue #26 item 9: the simulator listens on 127.0.0.1 and every route of it (the trading API, the
 * venue's info endpoint and WebSocket, the companions) follows the control API's rules: a non-loopback
 * Host (DNS rebinding) and a foreign Origin (a web page) are 403, a write that is not JSON is 415, each
 * in the route's own error shape, before any module (or upstream venue) sees the request. Before the fix
 * a balance read with `Host: evil.example` answered the account's data. What the app's main process,
 * the command line and the tests send (a loopback Host, no Origin, JSON) still passes.
 */
import net from 'node:net';
import { Wallet } from 'ethers';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { startTestSim, type Api } from './helpers.js';
import { rawRequest } from './rawHttp.js';

let sim: RunningSimulator;
let api: Api;
let port: string;
const wallet = Wallet.createRandom().address;
const accountId = wallet.toLowerCase() + '0'.repeat(24);

beforeAll(async () => {
  ({ sim, api } = await startTestSim());
  port = new URL(sim.urls.base_url).port;
  await api.control('/deposit', { wallet, amount: '100' });
  await api.advance(sim.config.timings.deposit_confirm_ms);
});
afterAll(async () => {
  await sim?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const FOREIGN_HOSTS = () => ['evil.example', `128.0.0.1:${port}`, `127.0.0.256:${port}`, `127.1.evil.example:${port}`, `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `evil.example@127.0.0.1:${port}`];
const FOREIGN_ORIGINS = () => ['https://evil.example', 'null', 'http://127.0.0.1:1', `http://localhost.evil.example:${port}`];
const LOOPBACK_HOSTS = () => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, `127.255.255.254:${port}`];

describe('the trading API answers local programs only', () => {
  const balanceUrl = () => `${sim.urls.base_url}/account/${accountId}/balance`;

  it('a balance read with a foreign Host is 403 FORBIDDEN in the envelope, and carries no account data', async () => {
    for (const host of FOREIGN_HOSTS()) {
      const res = await rawRequest(balanceUrl(), { headers: { host } });
      expect(res.status, `${host}: ${res.text}`).toBe(403);
      expect(res.json).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      expect(res.text).not.toContain('free_balance');
    }
  });

  it('a read from a foreign Origin is 403, with a loopback Host', async () => {
    for (const origin of FOREIGN_ORIGINS()) {
      const res = await rawRequest(balanceUrl(), { headers: { origin } });
      expect(res.status, `${origin}: ${res.text}`).toBe(403);
      expect(res.text).not.toContain('free_balance');
    }
  });

  it('a text/plain or form POST (a page needs no preflight for these) is 415 and reaches no route', async () => {
    const handle = vi.spyOn(sim.engine.api, 'handle');
    for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      const res = await rawRequest(`${sim.urls.base_url}/orders`, { method: 'POST', headers: { 'content-type': type }, body: '{"orders":[]}' });
      expect(res.status, res.text).toBe(415);
      expect(res.json).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    expect(handle).not.toHaveBeenCalled();
  });

  it('a loopback Host (127.0.0.0/8, localhost, [::1]) with no Origin, or with its own origin, is served', async () => {
    for (const host of LOOPBACK_HOSTS()) {
      const res = await rawRequest(balanceUrl(), { headers: { host } });
      expect(res.status, `${host}: ${res.text}`).toBe(200);
      expect(res.json.data.free_balance).toBe('100');
      const own = await rawRequest(balanceUrl(), { headers: { host, origin: `http://${host}` } });
      expect(own.status, `${host} own origin: ${own.text}`).toBe(200);
    }
    // Node's fetch, as the app's main process and the command line use it.
    expect((await api.get(`/account/${accountId}/balance`)).status).toBe(200);
  });
});

describe('the venue info endpoint answers local programs only', () => {
  const body = JSON.stringify({ type: 'allMids' });

  it('a foreign Origin, a foreign Host or a text/plain POST is refused before the module (and so any upstream request) runs', async () => {
    const handle = vi.spyOn(sim.venueInfo, 'handle');
    const proxy = vi.spyOn(sim.venue, 'proxyInfo');
    const origin = await rawRequest(sim.urls.venue_info_url, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body });
    expect(origin.status, origin.text).toBe(403);
    expect(typeof origin.json).toBe('string');
    const host = await rawRequest(sim.urls.venue_info_url, { method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json' }, body });
    expect(host.status).toBe(403);
    const text = await rawRequest(sim.urls.venue_info_url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(text.status).toBe(415);
    expect(handle).not.toHaveBeenCalled();
    expect(proxy).not.toHaveBeenCalled();
  });

  it('a JSON POST with a loopback Host and no Origin is answered', async () => {
    for (const host of LOOPBACK_HOSTS()) {
      const res = await rawRequest(sim.urls.venue_info_url, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body });
      expect(res.status, `${host}: ${res.text}`).toBe(200);
      expect(res.json.BTC).toBeDefined();
    }
  });
});

/** Sends `head` as written (two Host headers cannot be sent through node:http or fetch) and returns the status line and body. */
function rawSocketRequest(head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // One answer is enough: the server keeps the connection open otherwise.
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (headEnd >= 0 && (!length || text.length >= headEnd + 4 + Number(length[1]))) socket.end();
    });
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

describe('issue 36 item 17: a request with two Host headers is refused, whichever comes first', () => {
  it('a balance read, a control read and a WebSocket upgrade with a loopback Host then a rebinding one are 403', async () => {
    for (const [first, second] of [
      [`127.0.0.1:${port}`, 'evil.example'],
      ['evil.example', `127.0.0.1:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
    ]) {
      const balance = await rawSocketRequest(`GET ${new URL(sim.urls.base_url).pathname.replace(/\/$/, '')}/account/${accountId}/balance HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`);
      expect(balance.status, balance.text).toBe(403);
      expect(balance.text).toContain('more than one Host header');
      expect(balance.text).not.toContain('free_balance');
      const control = await rawSocketRequest(`GET /sim/state HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`);
      expect(control.status, control.text).toBe(403);
      const wsPath = new URL(sim.urls.venue_ws_url).pathname;
      const upgrade = await rawSocketRequest(
        `GET ${wsPath} HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      expect(upgrade.status, upgrade.text).toBe(403);
    }
    // One loopback Host, sent the same raw way, is still answered.
    const one = await rawSocketRequest(`GET ${new URL(sim.urls.base_url).pathname.replace(/\/$/, '')}/account/${accountId}/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(one.status, one.text).toBe(200);
    expect(one.text).toContain('free_balance');
  });
});

describe('the venue WebSocket answers local programs only', () => {
  /** The handshake's outcome: 'open', or the HTTP status it was refused with. */
  function handshake(options: { origin?: string; host?: string }): Promise<'open' | number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(sim.urls.venue_ws_url, { ...(options.origin ? { origin: options.origin } : {}), ...(options.host ? { headers: { host: options.host } } : {}) });
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.once('error', (err) => reject(err));
    });
  }

  it('an upgrade from a foreign Origin or to a foreign Host is refused with 403 and no socket opens', async () => {
    const before = sim.venueSockets.clientCount;
    for (const origin of FOREIGN_ORIGINS()) expect(await handshake({ origin }), origin).toBe(403);
    for (const host of FOREIGN_HOSTS()) expect(await handshake({ host }), host).toBe(403);
    expect(sim.venueSockets.clientCount).toBe(before);
  });

  it('an upgrade with a loopback Host and no Origin (the app main process) opens', async () => {
    for (const host of LOOPBACK_HOSTS()) expect(await handshake({ host }), host).toBe('open');
    expect(await handshake({})).toBe('open');
  });
});

describe('the companions answer local programs only, each in its own error shape', () => {
  it('bridge, points and aggregator: { error } 403 for a foreign Host or Origin', async () => {
    for (const url of [`${sim.urls.bridge_url}/quote`, `${sim.urls.platform_url}/v1/point/leaderboard`, `${sim.urls.aggregator_url}/arbitrum/swap`]) {
      const host = await rawRequest(url, { headers: { host: 'evil.example' } });
      expect(host.status, url).toBe(403);
      expect(typeof host.json.error).toBe('string');
      const origin = await rawRequest(url, { headers: { origin: 'https://evil.example' } });
      expect(origin.status, url).toBe(403);
    }
  });

  it('inference: its error object; RPC: a JSON-RPC error; a text/plain write is 415', async () => {
    const inference = await rawRequest(`${sim.urls.inference_url}/v1/models`, { headers: { origin: 'https://evil.example' } });
    expect(inference.status).toBe(403);
    expect(inference.json).toMatchObject({ error: { type: 'permission_error' } });
    const rpc = await rawRequest(`${sim.urls.rpc_url}/arbitrum`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    expect(rpc.status).toBe(415);
    expect(rpc.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    // The same call as JSON from a local program is answered.
    const ok = await rawRequest(`${sim.urls.rpc_url}/arbitrum`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    expect(ok.status).toBe(200);
    expect(typeof ok.json.result).toBe('string');
  });
});
