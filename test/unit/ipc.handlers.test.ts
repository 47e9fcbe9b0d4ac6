/** Main-side IPC handlers: payloads validated with zod, sender frames checked, errors returned as typed values. */
import { describe, expect, it } from 'vitest';
import { registerHandlers, stubHandlers, type IpcEventLike } from '../../src/main/ipc/registerHandlers.js';
import { VaultError } from '../../src/main/vault/vaultError.js';

type Listener = (event: IpcEventLike, payload: unknown) => Promise<unknown>;

function harness(handler: () => Promise<{ name: string; version: string; profile: string; platform: string; vault_closed: string | null }>) {
  const listeners = new Map<string, Listener>();
  registerHandlers({ handle: (c, l) => listeners.set(c, l) }, stubHandlers({ 'app:getInfo': handler }), (url) => url.startsWith('app://perps/'), { logger: { error: () => undefined } });
  return (channel: string, payload: unknown, url = 'app://perps/index.html') => listeners.get(channel)!({ senderFrame: { url } }, payload);
}

const info = { name: 'Perps Desk', version: '0.1.0', profile: 'sim', platform: 'linux', vault_closed: null };

describe('IPC handlers', () => {
  it('answers a valid request from the app frame', async () => {
    const call = harness(async () => info);
    expect(await call('app:getInfo', {})).toEqual({ ok: true, value: info });
  });

  it('refuses a sender frame that is not the app', async () => {
    let called = false;
    const call = harness(async () => {
      called = true;
      return info;
    });
    expect(await call('app:getInfo', {}, 'https://evil.example/')).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    expect(called).toBe(false);
  });

  it('refuses a payload that does not match the schema, naming the problem', async () => {
    const call = harness(async () => info);
    expect(await call('app:getInfo', { extra: 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
  });

  it('returns service errors as typed values with their hint', async () => {
    const call = harness(async () => {
      throw new VaultError('KEYCHAIN_LOCKED', 'keychain locked');
    });
    const locked = new VaultError('KEYCHAIN_LOCKED', 'keychain locked');
    expect(await call('app:getInfo', {})).toEqual({ ok: false, error: { code: 'KEYCHAIN_LOCKED', kind: 'transient', message: locked.message, hint: locked.action } });
  });
});
