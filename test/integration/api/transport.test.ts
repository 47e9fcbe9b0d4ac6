/**
 * The client's transport rules against a scripted loopback server: each request is answered by the next
 * scripted step, so retries, resends, timeouts and dropped connections happen exactly when wanted.
 * (The simulator tests in this folder cover the same rules end to end against the service's behaviour.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  DecodeError,
  NetworkError,
  TimeoutError,
  TradingApiClient,
  WriteLandedUnknownResultError,
  backoffDelay,
  type ClientRetryInfo,
} from '../../../src/main/api/index.js';

type Step =
  | { status: number; body: unknown; delayMs?: number }
  /** Read the whole request, then kill the connection without answering (the request was processed). */
  | { drop: true };

interface Seen {
  method: string;
  url: string;
  body: string;
}

let server: http.Server;
let base: string;
let script: Step[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      const step = script.shift() ?? { status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'script exhausted' }, timestamp: 1 } };
      if ('drop' in step) {
        req.socket.destroy();
        return;
      }
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(step.status, { 'content-type': 'application/json' });
        res.end(typeof step.body === 'string' ? step.body : JSON.stringify(step.body));
      };
      if (step.delayMs) setTimeout(send, step.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  script = [];
  seen = [];
});

const ok = (data: unknown, success = true): Step => ({ status: 200, body: { success, data, timestamp: 1_700_000_000_000 } });
const fail = (status: number, code: string | null, message = 'x'): Step => ({ status, body: { success: false, error: { code, message }, timestamp: 1 } });

function client(extra: Partial<ConstructorParameters<typeof TradingApiClient>[0]> = {}): { api: TradingApiClient; sleeps: number[]; retries: ClientRetryInfo[] } {
  const sleeps: number[] = [];
  const retries: ClientRetryInfo[] = [];
  const api = new TradingApiClient({
    baseUrl: base,
    timeoutMs: 2_000,
    retry: { attempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onRetry: (info) => retries.push(info),
    ...extra,
  });
  return { api, sleeps, retries };
}

const WALLET = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
const ACCOUNT = WALLET.toLowerCase() + '0'.repeat(24);
const SIG = '0x' + '11'.repeat(32) + '22'.repeat(32) + '1b';
const cancelBody = { account: WALLET, order_type: 'LIMIT' as const, nonce: '1700000000000', signature: SIG };
const placeBody = {
  account_id: ACCOUNT,
  orders: [{ market: 'BTC', side: 'BUY' as const, size: '0.01', limit_price: '50000', order_type: 'LIMIT' as const, time_in_force: 'GTC' as const, client_order_id: 'c1', nonce: '1700000000001', signature: SIG }],
};

describe('backoff with full jitter', () => {
  it('draws in [0, min(max, base * 2^n)) and caps at maxDelayMs', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10, 5000].map((n) => backoffDelay(n, policy, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999, 999]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });
});

describe('reads', () => {
  it('retry 5xx and transport failures with backoff, then decode the envelope', async () => {
    script = [fail(503, 'INTERNAL_ERROR'), { drop: true }, ok({ account: ACCOUNT, free_balance: '12.5' })];
    const { api, sleeps, retries } = client();
    expect(await api.balance(ACCOUNT)).toEqual({ account: ACCOUNT, free_balance: '12.5' });
    expect(seen.map((s) => s.url)).toEqual(Array(3).fill(`/api/v1/account/${ACCOUNT}/balance`));
    expect(sleeps).toEqual([50, 100]); // random 0.5 of 100 then of 200
    expect(retries.map((r) => r.route)).toEqual(['GET /account/{account_id}/balance', 'GET /account/{account_id}/balance']);
    expect(retries[0]!.error).toBeInstanceOf(ApiError);
    expect(retries[1]!.error).toBeInstanceOf(NetworkError);
  });

  it('never retry a 4xx: the ApiError carries code, status and message', async () => {
    script = [fail(400, 'INVALID_REQUEST', 'limit: must be 1..200')];
    const err = await client().api.openOrders({ wallet: WALLET, limit: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'INVALID_REQUEST', status: 400, message: 'limit: must be 1..200' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`/api/v1/account/open-orders?wallet=${WALLET}&limit=500`);
  });

  it('a 404 is retried only where opted in: order(id) yes, withdrawal(id) no', async () => {
    script = [fail(404, 'NOT_FOUND'), fail(404, 'NOT_FOUND'), ok({ order_id: 'o-1', status: 'SUBMITTED' })];
    expect(await client().api.order('o-1')).toMatchObject({ order_id: 'o-1', status: 'SUBMITTED' });
    expect(seen).toHaveLength(3);
    seen = [];
    script = [fail(404, 'NOT_FOUND')];
    await expect(client().api.withdrawal('w-1')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(seen).toHaveLength(1);
    seen = [];
    script = [fail(404, 'NOT_FOUND')];
    await expect(client().api.order('o-2', { retryNotFound: false })).rejects.toMatchObject({ status: 404 });
    expect(seen).toHaveLength(1);
  });

  it('a slow answer is a typed TimeoutError once the budget is spent', async () => {
    script = [ok([], true), ok([], true)].map((s) => ({ ...s, delayMs: 400 }));
    const { api } = client({ timeoutMs: 60, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const err = await api.markets().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ timeoutMs: 60, method: 'GET', mayHaveLanded: false });
    expect(seen).toHaveLength(2);
  });

  it('a body off the spec is a DecodeError naming the field, and is not retried', async () => {
    script = [ok({ account: ACCOUNT, free_balance: 12.5 })];
    const err = await client().api.balance(ACCOUNT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as Error).message).toMatch(/free_balance/);
    expect(seen).toHaveLength(1);
  });

  it('a connection refused is a NetworkError', async () => {
    const api = new TradingApiClient({ baseUrl: 'http://127.0.0.1:1/api/v1', retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(api.markets()).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('writes', () => {
  it('a lost answer is resent with the identical bytes; a 409 on the resend is reported as landed', async () => {
    script = [{ drop: true }, fail(409, null, 'nonce already used')];
    const { api, retries } = client();
    const err = await api.placeOrders(placeBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteLandedUnknownResultError);
    const landed = err as WriteLandedUnknownResultError;
    expect(landed.route).toBe('POST /orders');
    expect(landed.attempts).toBe(2);
    expect(landed.firstFailure).toBeInstanceOf(NetworkError);
    expect(landed.conflict.status).toBe(409);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(seen[0]!.body).toBe(JSON.stringify(placeBody));
    expect(retries).toHaveLength(1);
  });

  it('a timed-out write is resent identically; a 200 on the resend is the result', async () => {
    script = [{ ...ok({ status: 'SUBMITTED' }), delayMs: 300 }, ok({ status: 'SUBMITTED' })];
    const { api } = client({ timeoutMs: 80 });
    expect(await api.cancel('o-9', cancelBody)).toEqual({ status: 'SUBMITTED' });
    expect(seen.map((s) => s.url)).toEqual(['/api/v1/orders/o-9/cancel', '/api/v1/orders/o-9/cancel']);
    expect(seen[1]!.body).toBe(seen[0]!.body);
  });

  it('a 409 on the FIRST attempt is a genuine replay: ApiError 409, not "landed"', async () => {
    script = [fail(409, null, 'nonce 1700000000000 was already used')];
    const err = await client().api.cancel('o-1', cancelBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).not.toBeInstanceOf(WriteLandedUnknownResultError);
    expect((err as ApiError).isReplayedNonce).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('a 4xx is never resent', async () => {
    script = [fail(403, 'FORBIDDEN')];
    await expect(client().api.placeOrders(placeBody)).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(seen).toHaveLength(1);
  });

  it('when every attempt loses its answer, the last failure is thrown and says the write may have landed', async () => {
    script = [{ drop: true }, { drop: true }, { drop: true }];
    const { api } = client({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    const err = await api.placeOrders(placeBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveLanded).toBe(true);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
    expect(seen).toHaveLength(3);
  });

  it('batch routes return the envelope success flag with the legs (cancel-batch success:false at 200)', async () => {
    script = [ok([{ order_id: 'a', status: 'SUBMITTED' }, { order_id: 'b', status: 'FAILED', reason: 'bad signature' }], false)];
    const r = await client().api.cancelBatch({ account: WALLET, cancels: [{ order_id: 'a', order_type: 'LIMIT', nonce: '1', signature: SIG }, { order_id: 'b', order_type: 'LIMIT', nonce: '2', signature: SIG }] });
    expect(r.success).toBe(false);
    expect(r.legs.map((l) => l.status)).toEqual(['SUBMITTED', 'FAILED']);
  });
});

describe('page walkers', () => {
  it('walk open orders 200 at a time until total', async () => {
    const row = (i: number) => ({
      order_id: `o${i}`, market: 'BTC', side: 'buy', size: '1', filled_size: '0', limit_price: '1', order_type: 'LIMIT',
      time_in_force: 'GTC', reduce_only: false, status: 'open', submitted_at: 1, status_at: 1,
    });
    const page = (from: number, n: number) => ok({ orders: Array.from({ length: n }, (_, k) => row(from + k)), total: 450 });
    script = [page(0, 200), page(200, 200), page(400, 50)];
    const all = await client().api.allOpenOrders({ wallet: WALLET, market: 'BTC' });
    expect(all).toHaveLength(450);
    expect(all[449]!.order_id).toBe('o449');
    expect(seen.map((s) => new URL(s.url, 'http://x').searchParams.toString())).toEqual([
      `wallet=${WALLET}&market=BTC&offset=0&limit=200`,
      `wallet=${WALLET}&market=BTC&offset=200&limit=200`,
      `wallet=${WALLET}&market=BTC&offset=400&limit=200`,
    ]);
  });

  it('walk deposit history (no total) until a short page', async () => {
    const dep = (i: number) => ({ tx_hash: `0x${i}`, amount: '1', source: 'send', status: 'CONFIRMED', detected_at: 1, credited_at: 2 });
    script = [ok({ account: ACCOUNT, deposits: Array.from({ length: 200 }, (_, i) => dep(i)) }), ok({ account: ACCOUNT, deposits: [dep(200)] })];
    expect(await client().api.allDepositHistory(ACCOUNT)).toHaveLength(201);
    expect(seen).toHaveLength(2);
  });
});
