/**
 * The first screen's reads from main's one answer (src/renderer/src/ipc/firstScreenRead.ts): each part
 * lands under its view's key as that channel's own answer would (value or error), restored entries are
 * replaced, and when the combined answer fails each read is asked on its own channel.
 * (A .dom.test: typechecked with the renderer's DOM types, tsconfig.web.json.)
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FirstScreen, IpcResult } from '../../../src/shared/ipc.js';
import { FIRST_SCREEN_READS } from '../../../src/shared/ipc/channels.js';
import { FIRST_SCREEN_KEYS, putFirstScreen, readFirstScreen } from '../../../src/renderer/src/ipc/firstScreenRead.js';
import { IpcQueryError } from '../../../src/renderer/src/ipc/client.js';
import { qk } from '../../../src/renderer/src/ipc/queries.js';
import { createQueryClient } from '../../../src/renderer/src/ipc/queryClient.js';

const WALLET = '0x1111111111111111111111111111111111111111';
const values = {
  wallet: { address: WALLET, signer: null, last_signer_kind: 'keystore' },
  keys: { wallet: WALLET, environment: 'Testnet', keys: [] },
  markets: { markets: [{ symbol: 'BTC', mark: '97000.5' }], at: 1 },
  settings: { theme: 'dark', default_leverage: 3 },
  profile: { active: 'sim', environment: 'Testnet' },
  notifications: { fills: true },
  appInfo: { name: 'Perps Desk', version: '1.0.0', profile: 'sim', platform: 'linux', vault_closed: null },
  simFeed: null,
  hotkeys: { enabled: false, bindings: {} },
} as const;

function combined(overrides: Partial<Record<keyof typeof values, IpcResult<unknown>>> = {}): IpcResult<FirstScreen> {
  const parts = Object.fromEntries(Object.entries(values).map(([part, value]) => [part, overrides[part as keyof typeof values] ?? { ok: true, value }]));
  return { ok: true, value: parts as unknown as FirstScreen };
}

/** window.perps with only the first screen's channels, answering `values` and counting the calls. */
function fakeBridge(): Map<string, number> {
  const calls = new Map<string, number>();
  const api: Record<string, Record<string, () => Promise<IpcResult<unknown>>>> = {};
  for (const [part, channel] of Object.entries(FIRST_SCREEN_READS)) {
    const [group, name] = channel.split(':') as [string, string];
    (api[group] ??= {})[name] = async () => {
      calls.set(channel, (calls.get(channel) ?? 0) + 1);
      return { ok: true, value: values[part as keyof typeof values] };
    };
  }
  vi.stubGlobal('window', { perps: api });
  return calls;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const client = () => new QueryClient({ defaultOptions: { queries: { retry: 1, retryDelay: 0 } } });

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  warn.mockRestore();
});

describe('the first screen from one answer', () => {
  it('puts every part under the key its view reads, replacing what was restored, and asks no channel alone', async () => {
    const calls = fakeBridge();
    const c = client();
    // Restored from the last session (fresh for the first frame): replaced all the same.
    c.setQueryData(qk.markets, { markets: [{ symbol: 'BTC', mark: null }], at: 0 });
    readFirstScreen(c, Promise.resolve(combined()));
    await settle();
    for (const [part, key] of Object.entries(FIRST_SCREEN_KEYS)) expect(c.getQueryData(key), part).toEqual(values[part as keyof typeof values]);
    expect(c.getQueryData<{ markets: { mark: string }[] }>(qk.markets)!.markets[0]!.mark).toBe('97000.5');
    expect([...calls.keys()]).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('an answer that has arrived is in the cache at once, before any render; a failed part becomes its error', async () => {
    const calls = fakeBridge();
    const c = createQueryClient();
    const answer = combined({ keys: { ok: false, error: { code: 'NO_WALLET', kind: 'rejected', message: 'no main wallet' } } });
    putFirstScreen(c, (answer as { ok: true; value: FirstScreen }).value);
    // Synchronously: the first render reads it without waiting on anything.
    expect(c.getQueryData(qk.wallet)).toEqual(values.wallet);
    expect(c.getQueryData(qk.markets)).toEqual(values.markets);
    expect(c.getQueryState(qk.markets)?.isInvalidated).toBe(false);
    await vi.waitFor(() => expect(c.getQueryState(qk.keys)?.status).toBe('error'));
    expect(c.getQueryState(qk.keys)?.error).toMatchObject({ code: 'NO_WALLET' });
    expect([...calls.keys()]).toEqual([]);
  });

  it("a part that failed is that read's error (code, kind, hint), and only its retry asks the channel itself", async () => {
    const calls = fakeBridge();
    // The app's client: retries what may pass on a second try (transient), not what was refused.
    const c = createQueryClient();
    readFirstScreen(
      c,
      Promise.resolve(
        combined({
          keys: { ok: false, error: { code: 'NO_WALLET', kind: 'rejected', message: 'no main wallet', hint: 'Finish onboarding.' } },
          markets: { ok: false, error: { code: 'SERVICE_UNAVAILABLE', kind: 'transient', message: 'the service did not answer' } },
        }),
      ),
    );
    await vi.waitFor(() => expect(c.getQueryState(qk.markets)?.status).toBe('success'), { timeout: 5_000 });
    const keys = c.getQueryState(qk.keys)!;
    expect(keys.status).toBe('error');
    expect(keys.error).toBeInstanceOf(IpcQueryError);
    expect(keys.error).toMatchObject({ code: 'NO_WALLET', kind: 'rejected', hint: 'Finish onboarding.' });
    // A refused read is not asked again; a transient one is retried on its own channel, and answers.
    expect(calls.get('keys:list')).toBeUndefined();
    expect(calls.get('markets:list')).toBe(1);
    expect(c.getQueryData(qk.markets)).toEqual(values.markets);
    expect(c.getQueryData(qk.wallet)).toEqual(values.wallet);
  });

  it('main without the combined read (or a broken bridge): each read is asked on its own channel, and said so', async () => {
    for (const answer of [
      () => Promise.resolve<IpcResult<FirstScreen>>({ ok: false, error: { code: 'NOT_IMPLEMENTED', kind: 'internal', message: 'app:firstScreen is not implemented' } }),
      () => Promise.reject<IpcResult<FirstScreen>>(new Error('the app core is gone')),
    ]) {
      const calls = fakeBridge();
      const c = client();
      readFirstScreen(c, answer());
      await vi.waitFor(() => expect(calls.size).toBe(Object.keys(FIRST_SCREEN_READS).length));
      await settle();
      for (const [part, key] of Object.entries(FIRST_SCREEN_KEYS)) expect(c.getQueryData(key), part).toEqual(values[part as keyof typeof values]);
      expect([...calls.values()].every((n) => n === 1)).toBe(true);
      expect(String(warn.mock.calls.at(-1)?.[0])).toMatch(/did not come in one answer \((NOT_IMPLEMENTED|the app core is gone)/);
      vi.unstubAllGlobals();
    }
  });
});
