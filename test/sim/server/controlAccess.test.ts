/**
 * The control APIs (/sim and /sim/companion) answer only local programs: a web page in a browser on the
 * same machine must not move marks or credit deposits, neither by a "simple" cross-origin POST
 * (text/plain, no preflight) nor by DNS rebinding (its own host name resolved to 127.0.0.1). Every
 * refusal is checked to have changed nothing, and the legitimate callers (the faucet of the app and of the
 * command line, the test helpers' JSON posts) still work.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { nodeHttpFetch } from '../../../src/main/api/nodeHttpFetch.js';
import { postSimControl } from '../../../src/main/services/sim/controlApi.js';
import { Api, startTestSim } from './helpers.js';
import { rawRequest } from './rawHttp.js';

let sim: RunningSimulator;
let api: Api;

beforeAll(async () => {
  ({ sim, api } = await startTestSim());
});
afterAll(async () => {
  await sim?.stop();
});

const markBody = (price: string) => JSON.stringify({ market: 'BTC', price });
const own = () => new URL(sim.urls.control_url).host; // 127.0.0.1:PORT

async function btcMark(): Promise<string> {
  return (await api.control('/state')).marks.BTC as string;
}

describe('the control API refuses what a web page can send', () => {
  it('a text/plain POST (a simple request, no preflight) is 415 and the mark does not move', async () => {
    const before = await btcMark();
    const res = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: markBody('12345') });
    expect(res.status, res.text).toBe(415);
    expect(res.json).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(await btcMark()).toBe(before);
  });

  it('a form POST and a POST with no Content-Type at all are 415 too (freeze-marks takes no body)', async () => {
    const form = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'market=BTC&price=1' });
    expect(form.status).toBe(415);
    const bare = await rawRequest(`${sim.urls.control_url}/drop-sockets`, { method: 'POST' });
    expect(bare.status).toBe(415);
  });

  it('a foreign Host (DNS rebinding) is 403, for writes and for reads, and nothing moves', async () => {
    const before = await btcMark();
    const port = new URL(sim.urls.control_url).port;
    const write = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json' }, body: markBody('12345') });
    expect(write.status, write.text).toBe(403);
    expect(write.json).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    const read = await rawRequest(`${sim.urls.control_url}/state`, { headers: { host: `evil.example:${port}` } });
    expect(read.status).toBe(403);
    for (const host of ['evil.example', `127.0.0.1.evil.example:${port}`, `evil.example@127.0.0.1:${port}`, `127.0.0.1:${port}/x`]) {
      const res = await rawRequest(`${sim.urls.control_url}/state`, { headers: { host } });
      expect(res.status, host).toBe(403);
    }
    expect(await btcMark()).toBe(before);
  });

  it('a foreign Origin is 403 even with a loopback Host and JSON, and nothing moves', async () => {
    const before = await btcMark();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost.evil.example']) {
      const res = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: markBody('12345') });
      expect(res.status, `${origin}: ${res.text}`).toBe(403);
    }
    expect(await btcMark()).toBe(before);
  });

  it('the companion control API (/sim/companion) refuses the same requests in its own { error } shape', async () => {
    const fund = JSON.stringify({ chain: 'arbitrum', address: Wallet.createRandom().address, amount: '1000' });
    const url = `${sim.urls.companion_control_url}/rpc/fund`;
    const text = await rawRequest(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: fund });
    expect(text.status).toBe(415);
    expect(typeof text.json.error).toBe('string');
    const host = await rawRequest(url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' }, body: fund });
    expect(host.status).toBe(403);
    const origin = await rawRequest(url, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: fund });
    expect(origin.status).toBe(403);
  });
});

describe('local programs still use it', () => {
  it('JSON from Node (no Origin), from localhost, and with the server\'s own Origin moves the mark', async () => {
    await api.mark('BTC', '90001');
    expect(await btcMark()).toBe('90001');
    const port = new URL(sim.urls.control_url).port;
    const viaLocalhost = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { host: `localhost:${port}`, 'content-type': 'application/json; charset=utf-8' }, body: markBody('90002') });
    expect(viaLocalhost.status, viaLocalhost.text).toBe(200);
    const sameOrigin = await rawRequest(`${sim.urls.control_url}/mark`, { method: 'POST', headers: { origin: `http://${own()}`, 'content-type': 'application/json' }, body: markBody('90003') });
    expect(sameOrigin.status, sameOrigin.text).toBe(200);
    expect(await btcMark()).toBe('90003');
  });

  // The app posts with the global fetch, the command line with node:http (nodeHttpFetch.ts): both get through.
  it.each([
    ['the app (fetch)', fetch],
    ['the command line (node:http)', nodeHttpFetch],
  ])("the faucet's control request from %s credits a deposit", async (_who, fetchFn) => {
    const wallet = Wallet.createRandom().address;
    await postSimControl({ controlUrl: sim.urls.control_url, fetch: fetchFn }, '/deposit', { wallet, amount: '25' });
    await api.advance(2000);
    const state = await api.control('/state');
    const account = (state.accounts as { wallet: string; free_balance: string }[]).find((a) => a.wallet === wallet);
    expect(account?.free_balance).toBe('25');
  });
});
