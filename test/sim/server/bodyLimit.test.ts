/**
 * A request body over 1 MiB is refused with 413 on every interface of the simulator, whether its
 * Content-Length says so up front or it only grows past the limit while streaming, and the server goes
 * on answering other requests.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { startTestSim } from './helpers.js';
import { rawRequest } from './rawHttp.js';

const LIMIT = 1024 * 1024;
let sim: RunningSimulator;

beforeAll(async () => {
  ({ sim } = await startTestSim());
});
afterAll(async () => {
  await sim?.stop();
});

/** Streams `bytes` of JSON-ish text in chunks with no Content-Length (chunked transfer encoding). */
function streamedPost(url: string, bytes: number): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    req.write('{"pad":"');
    pump();
  });
}

describe('request body limit', () => {
  it('answers 413 PAYLOAD_TOO_LARGE for a declared body over 1 MiB, on the trading API and the control API, and keeps serving', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(LIMIT) });
    for (const url of [`${sim.urls.base_url}/orders`, `${sim.urls.control_url}/mark`, `${sim.urls.bridge_url}/encode`]) {
      const res = await rawRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body });
      expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(413);
      expect(res.headers['connection']).toBe('close');
    }
    const trading = await rawRequest(`${sim.urls.base_url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(trading.json).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    // The server is still there for everyone else.
    const after = await fetch(`${sim.urls.base_url}/markets`);
    expect(after.status).toBe(200);
  });

  it('answers 413 for a streamed body (no Content-Length) once it passes 1 MiB, and keeps serving', async () => {
    const res = await streamedPost(`${sim.urls.base_url}/orders`, 3 * LIMIT);
    expect(res.status, res.text.slice(0, 200)).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    const state = await fetch(`${sim.urls.control_url}/state`);
    expect(state.status).toBe(200);
  });

  it('still reads a body just under the limit (the limit is 1 MiB, not less)', async () => {
    // Valid JSON that is not an order body: the trading API reads it and answers 400 naming a field.
    const body = JSON.stringify({ pad: 'x'.repeat(LIMIT - 64) });
    const res = await rawRequest(`${sim.urls.base_url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status, res.text.slice(0, 200)).toBe(400);
    expect(res.json).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
  });
});
