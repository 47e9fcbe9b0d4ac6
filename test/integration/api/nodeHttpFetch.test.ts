/**
 * nodeHttpFetch, the command line's FetchFn on node:http, against a loopback server: every case is run
 * through Node's own fetch as well and must come out the same (status, body, headers the server saw,
 * redirects, aborts, failures), since the clients above it were written for fetch. Then the API client's
 * transport rules (a dropped answer, a timeout) through it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError, TradingApiClient } from '../../../src/main/api/index.js';
import { nodeHttpFetch } from '../../../src/main/api/nodeHttpFetch.js';

let server: http.Server;
let origin: string;
/** The same server under another origin (a redirect there is cross-origin). */
let otherOrigin: string;
/** A loopback port nothing listens on (fetch refuses some low ports, such as 1, before connecting). */
let closedPort: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const echo = (): void => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' });
        res.end(JSON.stringify({ method: req.method, path: url.pathname, body: Buffer.concat(chunks).toString('utf8'), contentType: req.headers['content-type'] ?? null, accept: req.headers['accept'] ?? null, authorization: req.headers['authorization'] ?? null }));
      };
      if (url.pathname.startsWith('/slow')) {
        setTimeout(echo, 1_000);
        return;
      }
      switch (url.pathname) {
        case '/echo':
          return echo();
        case '/empty':
          res.writeHead(204);
          return res.end();
        case '/html':
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end('<html>bad gateway</html>');
        case '/redirect': {
          const to = url.searchParams.get('to') ?? '/echo';
          res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to });
          return res.end();
        }
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          return res.end();
        case '/drop':
          req.socket.destroy();
          return;
        default:
          res.writeHead(404);
          res.end('no such path');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  otherOrigin = `http://localhost:${port}`;
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

type Outcome = { status: number; url: string; contentType: string | null; text: string } | { rejected: string; cause?: string };

async function outcome(f: typeof fetch, url: string, init?: RequestInit): Promise<Outcome> {
  try {
    const res = await f(url, init);
    return { status: res.status, url: res.url, contentType: res.headers.get('content-type'), text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { rejected: `${e.name}: ${e.message}`, ...(e.cause?.code === 'ECONNREFUSED' ? { cause: e.cause.code } : {}) };
  }
}

async function same(url: string, init?: () => RequestInit): Promise<Outcome> {
  const ours = await outcome(nodeHttpFetch, url, init?.());
  expect(ours).toEqual(await outcome(fetch, url, init?.()));
  return ours;
}

describe('nodeHttpFetch answers as fetch does', () => {
  it('a GET: status, headers and body', async () => {
    const r = await same(`${origin}/echo`, () => ({ headers: { accept: 'application/json' } }));
    expect(r).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(JSON.parse((r as { text: string }).text)).toMatchObject({ method: 'GET', accept: 'application/json', body: '' });
  });

  it('a POST sends its body and headers', async () => {
    const r = await same(`${origin}/echo`, () => ({ method: 'POST', body: '{"a":"1.50"}', headers: { 'content-type': 'application/json' } }));
    expect(JSON.parse((r as { text: string }).text)).toMatchObject({ method: 'POST', body: '{"a":"1.50"}', contentType: 'application/json' });
  });

  it('an empty 204 and an HTML error page are answers, not failures', async () => {
    expect(await same(`${origin}/empty`)).toMatchObject({ status: 204, text: '' });
    expect(await same(`${origin}/html`)).toMatchObject({ status: 502, text: '<html>bad gateway</html>' });
  });

  it.each([
    [302, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [303, 'POST', 'GET', ''],
    [307, 'POST', 'POST', '{"x":1}'],
    [308, 'POST', 'POST', '{"x":1}'],
    [302, 'GET', 'GET', ''],
  ])('follows a %i after a %s as a %s', async (status, method, after, body) => {
    const r = await same(`${origin}/redirect?status=${status}&to=/echo`, () => ({ method, headers: { 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{"x":1}' } : {}) }));
    expect(r).toMatchObject({ status: 200, url: `${origin}/echo` });
    expect(JSON.parse((r as { text: string }).text)).toMatchObject({ method: after, body });
  });

  it('drops the authorization header on a redirect to another origin, keeps it on the same origin', async () => {
    const cross = await same(`${origin}/redirect?to=${encodeURIComponent(`${otherOrigin}/echo`)}`, () => ({ headers: { authorization: 'Bearer k' } }));
    expect(JSON.parse((cross as { text: string }).text)).toMatchObject({ authorization: null });
    const sameOrigin = await same(`${origin}/redirect?to=/echo`, () => ({ headers: { authorization: 'Bearer k' } }));
    expect(JSON.parse((sameOrigin as { text: string }).text)).toMatchObject({ authorization: 'Bearer k' });
  });

  it('gives up on a redirect loop', async () => {
    expect(await same(`${origin}/loop`)).toEqual({ rejected: 'TypeError: fetch failed' });
  });

  it('a refused connection is TypeError("fetch failed") with the system error as its cause', async () => {
    expect(await same(`http://127.0.0.1:${closedPort}/echo`)).toEqual({ rejected: 'TypeError: fetch failed', cause: 'ECONNREFUSED' });
  });

  it('an abort, before or during the exchange, rejects with the signal’s reason', async () => {
    const before = new AbortController();
    before.abort(new Error('shutting down'));
    expect(await same(`${origin}/echo`, () => ({ signal: before.signal }))).toEqual({ rejected: 'Error: shutting down' });
    expect(await same(`${origin}/slow`, () => ({ signal: AbortSignal.timeout(100) }))).toEqual({ rejected: 'TimeoutError: The operation was aborted due to timeout' });
  });

  it('a connection closed without an answer is TypeError("fetch failed")', async () => {
    expect(await same(`${origin}/drop`)).toEqual({ rejected: 'TypeError: fetch failed' });
  });
});

describe('the trading API client over nodeHttpFetch', () => {
  it('a slow answer is a TimeoutError, a refused connection a NetworkError naming its cause', async () => {
    const slow = new TradingApiClient({ baseUrl: `${origin}/slow`, fetch: nodeHttpFetch, timeoutMs: 200, retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(slow.markets()).rejects.toBeInstanceOf(TimeoutError);
    const refused = new TradingApiClient({ baseUrl: `http://127.0.0.1:${closedPort}/api/v1`, fetch: nodeHttpFetch, retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(refused.markets()).rejects.toSatisfy((e) => e instanceof NetworkError && /ECONNREFUSED/.test(e.message));
  });
});
