/**
 * The chain RPC client's failures as the services see them: a request timeout is RPC_UNREACHABLE (only a
 * receipt wait that runs out is RECEIPT_TIMEOUT), details survive into the service error (so --json keeps
 * the hash), and RPC URLs, whose path or query often holds a provider key, are never printed whole.
 */
import { makeError } from 'ethers';
import { describe, expect, it } from 'vitest';
import { EvmRpcClient, EvmRpcError, redactUrl, scrubUrl, toEvmRpcError } from '../../src/main/api/evm/evmRpc.js';
import { companionFailure } from '../../src/main/services/companion/companionFailures.js';
import { describeFailure, OperationError } from '../../src/main/services/errors.js';

const KEY = '0123456789abcdef0123456789abcdef';

describe('redactUrl / scrubUrl', () => {
  it.each([
    [`https://mainnet.example.io/v3/${KEY}`, 'https://mainnet.example.io/…'],
    [`https://rpc.example.io/?apikey=${KEY}`, 'https://rpc.example.io/…'],
    [`https://user:${KEY}@rpc.example.io`, 'https://rpc.example.io/…'],
    ['http://127.0.0.1:8545', 'http://127.0.0.1:8545'],
    ['http://127.0.0.1:8545/', 'http://127.0.0.1:8545'],
    ['not a url', '(not a URL)'],
  ])('%s -> %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('removes the URL, its path and its query from a message', () => {
    const url = `https://mainnet.example.io/v3/${KEY}?x=1`;
    const text = `POST ${url}: failed; path /v3/${KEY}?x=1 and ${KEY}`;
    const out = scrubUrl(text, url);
    expect(out).toContain('https://mainnet.example.io/…');
    expect(out).not.toContain(`/v3/${KEY}`);
  });
});

describe('toEvmRpcError', () => {
  it('a TIMEOUT outside the receipt wait is RPC_UNREACHABLE, never RECEIPT_TIMEOUT', () => {
    const e = toEvmRpcError('arbitrum', 'reading the balance', makeError('timeout', 'TIMEOUT', { operation: 'request.send', reason: 'timeout' }));
    expect(e.code).toBe('RPC_UNREACHABLE');
    expect(e.message).toMatch(/^arbitrum: reading the balance: the RPC endpoint did not answer in time/);
  });

  it('network and server failures are RPC_UNREACHABLE, with the URL redacted from the message', () => {
    const url = `https://rpc.example.io/v3/${KEY}`;
    const e = toEvmRpcError('base', 'eth_call', makeError(`request to ${url} failed`, 'NETWORK_ERROR', { event: 'x' }), url);
    expect(e.code).toBe('RPC_UNREACHABLE');
    expect(e.message).not.toContain(KEY);
    expect(e.message).toContain('https://rpc.example.io/…');
  });

  it('details added by the caller reach the service error and its --json description', () => {
    const e = new EvmRpcError('RECEIPT_TIMEOUT', 'arbitrum', 'no receipt for the transaction 0xabc', { details: { tx_hash: '0xabc' } }).withDetails({ tx: 'main' });
    expect(e.message).toBe('arbitrum: no receipt for the transaction 0xabc');
    const f = companionFailure(e);
    expect(f).toBeInstanceOf(OperationError);
    expect(describeFailure(f)).toMatchObject({ code: 'RECEIPT_TIMEOUT', exitCode: 1, details: { tx_hash: '0xabc', tx: 'main' } });
  });
});

describe('EvmRpcClient.open', () => {
  it('an endpoint that does not answer eth_chainId in time is RPC_UNREACHABLE, its key not in the message', async () => {
    const url = `https://rpc.example.io/v3/${KEY}`;
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const err = await EvmRpcClient.open({ chain: 'arbitrum', url, timeoutMs: 50, fetch: hang }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EvmRpcError);
    expect((err as EvmRpcError).code).toBe('RPC_UNREACHABLE');
    expect((err as Error).message).toContain('https://rpc.example.io/…');
    expect((err as Error).message).not.toContain(KEY);
  });

  it('an endpoint serving another chain is WRONG_CHAIN, its key not in the message', async () => {
    const url = `https://rpc.example.io/v3/${KEY}`;
    const base: typeof fetch = async () => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2105' }), { status: 200 });
    const err = await EvmRpcClient.open({ chain: 'arbitrum', url, expectedChainId: 42161n, fetch: base }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as EvmRpcError).code).toBe('WRONG_CHAIN');
    expect((err as Error).message).not.toContain(KEY);
  });
});
