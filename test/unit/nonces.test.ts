/** Nonces: unique and strictly increasing per wallet, in bursts, across restarts and across processes. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { NonceSource } from '../../src/main/nonces/nonceSource.js';
import { OperationError } from '../../src/main/services/errors.js';
import { tempDir } from '../support/keychain.js';
import { REPO_ROOT } from '../support/paths.js';

const run = promisify(execFile);
const wallet = Wallet.createRandom().address;

function strictlyIncreasing(xs: number[]): boolean {
  return xs.every((x, i) => i === 0 || x > xs[i - 1]!);
}

describe('nonce source', () => {
  it('a burst of 10,000 concurrent requests yields zero duplicates, in call order', async () => {
    const source = new NonceSource({ dataDir: tempDir('nonce-burst') });
    const started = Date.now();
    const nonces = await Promise.all(Array.from({ length: 10_000 }, () => source.next(wallet)));
    expect(new Set(nonces).size).toBe(10_000);
    expect(strictlyIncreasing(nonces)).toBe(true);
    // Unix-ms based: the first is at or after the wall clock when the burst began.
    expect(nonces[0]!).toBeGreaterThanOrEqual(started);
  });

  it('stays strictly increasing when every request falls in the same millisecond', async () => {
    const source = new NonceSource({ dataDir: tempDir('nonce-ms'), now: () => 1_763_700_000_000 });
    const nonces: number[] = [];
    for (let i = 0; i < 50; i++) nonces.push(await source.next(wallet));
    expect(nonces[0]).toBe(1_763_700_000_000);
    expect(nonces).toEqual(Array.from({ length: 50 }, (_, i) => 1_763_700_000_000 + i));
  });

  it('follows the clock when it moves ahead', async () => {
    let now = 1_000_000;
    const source = new NonceSource({ dataDir: tempDir('nonce-clock'), now: () => now });
    expect(await source.next(wallet)).toBe(1_000_000);
    now = 5_000_000;
    expect(await source.next(wallet)).toBe(5_000_000);
  });

  it('continues above the persisted high-water mark after a restart, even if the clock went back', async () => {
    const dataDir = tempDir('nonce-restart');
    const first = new NonceSource({ dataDir, now: () => 2_000_000 });
    const before = await Promise.all(Array.from({ length: 2500 }, () => first.next(wallet)));
    const max = Math.max(...before);
    const second = new NonceSource({ dataDir, now: () => 1_000_000 });
    const after = await second.next(wallet);
    expect(after).toBeGreaterThan(max);
    expect(fs.readFileSync(path.join(dataDir, 'nonces.json'), 'utf8')).toContain(wallet.toLowerCase());
  });

  it('keeps wallets independent', async () => {
    const source = new NonceSource({ dataDir: tempDir('nonce-wallets'), now: () => 7_000 });
    const other = Wallet.createRandom().address;
    expect(await source.next(wallet)).toBe(7_000);
    expect(await source.next(other)).toBe(7_000);
    expect(await source.next(wallet)).toBe(7_001);
  });

  it('refuses an invalid wallet with a clear error', async () => {
    const source = new NonceSource({ dataDir: tempDir('nonce-bad') });
    await expect(source.next('0xnot-a-wallet')).rejects.toThrow(/wallet/);
  });

  it('two processes sharing a data folder never issue the same nonce', async () => {
    const dataDir = tempDir('nonce-procs');
    const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
    const fixture = path.join(REPO_ROOT, 'test/fixtures/nonceProcess.ts');
    const [a, b] = await Promise.all([run(tsx, [fixture, dataDir, wallet, '3000']), run(tsx, [fixture, dataDir, wallet, '3000'])]);
    const xs = JSON.parse(a.stdout) as number[];
    const ys = JSON.parse(b.stdout) as number[];
    expect(strictlyIncreasing(xs) && strictlyIncreasing(ys)).toBe(true);
    expect(new Set([...xs, ...ys]).size).toBe(6000);
  });

  it('a lock left by a process killed while holding it is taken over once stale, not reported', async () => {
    const dir = tempDir('nonce-dead-holder');
    const first = await new NonceSource({ dataDir: dir }).next(wallet);
    // What kill -9 in the middle of a lease leaves: the lock folder, last refreshed 4 s ago.
    const lock = path.join(dir, 'nonces.json.lock');
    fs.mkdirSync(lock);
    const past = new Date(Date.now() - 4_000);
    fs.utimesSync(lock, past, past);
    const started = Date.now();
    const next = await new NonceSource({ dataDir: dir }).next(wallet);
    const waited = Date.now() - started;
    expect(next).toBeGreaterThan(first);
    // It waited for the lock to go stale (5 s after its last refresh), and not much longer.
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(waited).toBeLessThan(4_000);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a lock a live process keeps past the wait is NONCE_STORE_BUSY (transient), and nothing is issued', async () => {
    const dir = tempDir('nonce-busy');
    const first = await new NonceSource({ dataDir: dir }).next(wallet);
    const file = path.join(dir, 'nonces.json');
    const before = fs.readFileSync(file, 'utf8');
    // Another process's lease in progress (proper-lockfile keeps refreshing a lock it holds).
    const release = await lockfile.lock(file, { stale: 5_000 });
    try {
      const err = await new NonceSource({ dataDir: dir, lockWaitMs: 300 }).next(wallet).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OperationError);
      expect((err as OperationError).code).toBe('NONCE_STORE_BUSY');
      expect((err as OperationError).kind).toBe('transient');
      expect((err as OperationError).message).toMatch(/stayed locked by another Perps Desk process for 0\.3 s; nothing was signed/);
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    } finally {
      await release();
    }
    expect(await new NonceSource({ dataDir: dir }).next(wallet)).toBeGreaterThan(first);
  });
});
