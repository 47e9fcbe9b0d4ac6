/**
 * Issue #26 item 8: a malformed percent-encoding in a path parameter is the client's mistake. Every
 * trading-API route that takes one answers 400 INVALID_REQUEST in the spec's envelope, and nothing is
 * written to stderr. Before the fix, decodeURIComponent threw in the router: 500 and a stack on stderr.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { startTestSim } from './helpers.js';
import { rawRequest } from './rawHttp.js';

let sim: RunningSimulator;

beforeAll(async () => {
  ({ sim } = await startTestSim());
});
afterAll(async () => {
  await sim?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every route of the trading API with a path parameter, the parameter written as {}. */
const ROUTES: ReadonlyArray<readonly ['GET' | 'POST', string]> = [
  ['GET', '/orders/{}'],
  ['POST', '/orders/{}/cancel'],
  ['POST', '/orders/{}/modify'],
  ['GET', '/account/{}/balance'],
  ['GET', '/account/{}/positions'],
  ['GET', '/account/{}/deposit-history'],
  ['GET', '/account/{}/withdrawal-history'],
  ['GET', '/withdrawal-history/{}'],
  ['GET', '/positions/margin/{}'],
];

/** Not percent-encoding (%ZZ, a lone %), and escapes of bytes that are not UTF-8. */
const MALFORMED = ['%ZZ', '%', 'abc%2', '%C0%AF', '%E0%A4%A'];

describe('a malformed percent-escape in a path parameter', () => {
  it.each(ROUTES)('%s %s answers 400 INVALID_REQUEST naming the path, with nothing on stderr', async (method, route) => {
    const stderr = vi.spyOn(process.stderr, 'write');
    const consoleError = vi.spyOn(console, 'error');
    for (const bad of MALFORMED) {
      const url = sim.urls.base_url + route.replace('{}', bad);
      const res = await rawRequest(url, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
      expect(res.status, `${method} ${url}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
      expect(res.json.error.message).toContain(`path: the segment ${JSON.stringify(bad)}`);
      expect(typeof res.json.timestamp).toBe('number');
    }
    expect(consoleError).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });

  it('the companions with path parameters answer 400 in their own shape too: inference models and videos, the aggregator chain', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const key = 'sk-path-params-test';
    const created = await rawRequest(`${sim.urls.companion_control_url}/inference/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, balance: '10' }) });
    expect(created.status, created.text).toBe(200);
    for (const bad of MALFORMED) {
      for (const route of ['/v1/models/', '/v1/videos/']) {
        const res = await rawRequest(sim.urls.inference_url + route + bad, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status, `${route}${bad}: ${res.text}`).toBe(400);
        expect(res.json).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_request' } });
      }
      const swap = await rawRequest(`${sim.urls.aggregator_url}/${bad}/swap`);
      expect(swap.status, `aggregator ${bad}: ${swap.text}`).toBe(400);
      expect(typeof swap.json.error).toBe('string');
    }
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('a well-formed escape is still decoded (an unknown order id, percent-encoded, is 404 on that id)', async () => {
    const res = await rawRequest(`${sim.urls.base_url}/orders/${encodeURIComponent('no such/id')}`);
    expect(res.status).toBe(404);
    expect(res.json.error.message).toContain('no such/id');
  });
});
