/**
 * The first-screen cache (src/renderer/src/ipc/firstScreenCache.ts): what is written, what comes back,
 * and what is refused. Storage is an in-memory implementation of the Web Storage interface.
 * (A .dom.test: typechecked with the renderer's DOM types, tsconfig.web.json.)
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetFirstScreen, persistFirstScreen, restoreFirstScreen } from '../../../src/renderer/src/ipc/firstScreenCache.js';
import { qk } from '../../../src/renderer/src/ipc/queries.js';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

const KEY = 'perps-desk:first-screen';
const WALLET = '0x1111111111111111111111111111111111111111';
const market = {
  symbol: 'BTC',
  venue_symbol: 'BTC',
  joined: true,
  is_active: true,
  only_isolated: false,
  mark: '97000.5',
  oracle: '96990',
  mid: '97001',
  prev_day_px: '95000',
  change_24h: '0.021',
  funding_rate: '0.0000125',
  open_interest: '1234.5',
  day_volume: '88000000',
  max_leverage: 40,
  display_max_leverage: 40,
  tick_size: '0.5',
  sz_decimals: 5,
  px_decimals: 1,
  min_order_value: '10',
};

function loadedClient(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(qk.wallet, { address: WALLET, signer: null, last_signer_kind: 'keystore' });
  client.setQueryData(qk.keys, { wallet: WALLET, environment: 'Testnet', keys: [] });
  client.setQueryData(qk.markets, { markets: [market], at: 1 });
  client.setQueryData(qk.settings, { theme: 'dark', default_leverage: 3 });
  client.setQueryData(qk.profile, { active: 'sim', environment: 'Testnet' });
  client.setQueryData(qk.balance, { wallet: WALLET, free_balance: '12345' });
  client.setQueryData(qk.positions, { positions: [{ market: 'BTC', size: '1' }] });
  return client;
}

let storage: MemoryStorage;
beforeEach(() => {
  vi.useFakeTimers();
  storage = new MemoryStorage();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('first-screen cache', () => {
  it('writes the gate and ticket data after a moment, without prices, money or positions; a new start gets it back, fresh for the first frame', () => {
    const stop = persistFirstScreen(loadedClient(), storage);
    expect(storage.getItem(KEY)).toBeNull();
    vi.advanceTimersByTime(1_000);
    const text = storage.getItem(KEY)!;
    expect(text).not.toContain('12345');
    expect(text).not.toContain('97000.5');
    stop();

    const next = new QueryClient();
    expect(restoreFirstScreen(next, storage)).toBe(true);
    expect(next.getQueryData<{ address: string }>(qk.wallet)?.address).toBe(WALLET);
    const m = next.getQueryData<{ markets: (typeof market)[] }>(qk.markets)!.markets[0]!;
    expect(m).toMatchObject({ symbol: 'BTC', tick_size: '0.5', sz_decimals: 5, max_leverage: 40, min_order_value: '10' });
    for (const f of ['mark', 'oracle', 'mid', 'prev_day_px', 'change_24h', 'funding_rate', 'open_interest', 'day_volume'] as const) expect(m[f]).toBeNull();
    expect(next.getQueryData(qk.settings)).toEqual({ theme: 'dark', default_leverage: 3 });
    expect(next.getQueryData(qk.profile)).toEqual({ active: 'sim', environment: 'Testnet' });
    expect(next.getQueryData(qk.keys)).toBeDefined();
    expect(next.getQueryData(qk.balance)).toBeUndefined();
    expect(next.getQueryData(qk.positions)).toBeUndefined();
    // Fresh for the first frame: no view asks main on mounting (main's one answer replaces it: firstScreenRead).
    const restored = [qk.wallet, qk.keys, qk.markets, qk.settings, qk.profile].map((k) => next.getQueryCache().find({ queryKey: k, exact: true })!);
    expect(restored.every((q) => !q.isStaleByTime(2_000))).toBe(true);
  });

  it('writes again after a change, once per burst', () => {
    const client = loadedClient();
    const stop = persistFirstScreen(client, storage);
    vi.advanceTimersByTime(1_000);
    const write = vi.spyOn(storage, 'setItem');
    client.setQueryData(qk.settings, { theme: 'light', default_leverage: 3 });
    client.setQueryData(qk.settings, { theme: 'light', default_leverage: 5 });
    vi.advanceTimersByTime(1_000);
    expect(write).toHaveBeenCalledTimes(1);
    expect(storage.getItem(KEY)).toContain('"default_leverage":5');
    // A change outside the cached set writes nothing.
    client.setQueryData(qk.balance, { wallet: WALLET, free_balance: '1' });
    vi.advanceTimersByTime(1_000);
    expect(write).toHaveBeenCalledTimes(1);
    stop();
    client.setQueryData(qk.settings, { theme: 'dark', default_leverage: 2 });
    vi.advanceTimersByTime(1_000);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('a wallet gone while the terminal was open: nothing is kept for the next start', () => {
    const client = loadedClient();
    const stop = persistFirstScreen(client, storage);
    vi.advanceTimersByTime(1_000);
    expect(storage.getItem(KEY)).not.toBeNull();
    client.setQueryData(qk.wallet, { address: null, signer: null, last_signer_kind: null });
    vi.advanceTimersByTime(1_000);
    expect(storage.getItem(KEY)).toBeNull();
    stop();
  });

  it('refuses a cache from another build, one without a wallet, and one that cannot be read (and removes each)', () => {
    const stop = persistFirstScreen(loadedClient(), storage);
    vi.advanceTimersByTime(1_000);
    stop();
    const good = JSON.parse(storage.getItem(KEY)!) as { build: string; state: { queries: { queryKey: unknown[] }[] } };

    storage.setItem(KEY, JSON.stringify({ ...good, build: '/assets/index-older.js' }));
    expect(restoreFirstScreen(new QueryClient(), storage)).toBe(false);
    expect(storage.getItem(KEY)).toBeNull();

    storage.setItem(KEY, JSON.stringify({ ...good, state: { ...good.state, queries: good.state.queries.filter((q) => q.queryKey[0] !== 'wallet') } }));
    const client = new QueryClient();
    expect(restoreFirstScreen(client, storage)).toBe(false);
    expect(client.getQueryData(qk.markets)).toBeUndefined();
    expect(storage.getItem(KEY)).toBeNull();

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    storage.setItem(KEY, '{"build": tr');
    expect(restoreFirstScreen(new QueryClient(), storage)).toBe(false);
    expect(storage.getItem(KEY)).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not be read and was removed'));
    warn.mockRestore();

    expect(restoreFirstScreen(new QueryClient(), storage)).toBe(false);
  });

  it('forget removes it', () => {
    storage.setItem(KEY, '{}');
    forgetFirstScreen(storage);
    expect(storage.getItem(KEY)).toBeNull();
  });
});
