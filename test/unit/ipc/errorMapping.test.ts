/** Errors cross IPC as typed values: each error family keeps its code; the unexpected become INTERNAL without detail. */
import { describe, expect, it } from 'vitest';
import { toIpcError } from '../../../src/main/ipc/errorMapping.js';
import { dispatch, registerHandlers, stubHandlers, type IpcEventLike } from '../../../src/main/ipc/registerHandlers.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import { ApiError } from '../../../src/shared/protocol/index.js';
import { DecimalError } from '../../../src/shared/decimal/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError } from '../../../src/main/api/errors.js';
import { VaultError } from '../../../src/main/vault/vaultError.js';
import { LedgerError } from '../../../src/main/signers/ledger/ledgerErrors.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import { ProfileError } from '../../../src/main/profiles/profiles.js';
import { IpcErrorSchema } from '../../../src/shared/ipc.js';

const quiet = { error: () => undefined };

describe('toIpcError', () => {
  it.each([
    [new ValidationError('below the minimum', { field: 'amount', code: 'BELOW_MIN', hint: 'withdraw more' }), { code: 'VALIDATION', field: 'amount', reason: 'BELOW_MIN', hint: 'withdraw more' }],
    [new ValidationError('bad'), { code: 'VALIDATION' }],
    [new DecimalError('not a decimal', 'size'), { code: 'VALIDATION' }],
    [new ApiError('FORBIDDEN', 403, 'no active key'), { code: 'FORBIDDEN', status: 403 }],
    [new ApiError(null, 409, 'nonce used'), { code: 'NONCE_REPLAYED', status: 409 }],
    [new ApiError(null, 502, 'bad gateway'), { code: 'HTTP_502', status: 502 }],
    [new VaultError('KEYCHAIN_LOCKED', 'locked'), { code: 'KEYCHAIN_LOCKED' }],
    // The vault's input refusal is the one generic validation code: no rule of its own to name in reason.
    [new VaultError('VALIDATION_ERROR', 'bad agent'), { code: 'VALIDATION', kind: 'validation' }],
    [new LedgerError('DEVICE_LOCKED', 'The Ledger is locked'), { code: 'DEVICE_LOCKED' }],
    [new LedgerError('BLIND_SIGNING_DECLINED', 'declined'), { code: 'BLIND_SIGNING_DECLINED' }],
    [new SignerError('WRONG_PASSWORD', 'wrong password for the keystore'), { code: 'VALIDATION', reason: 'WRONG_PASSWORD' }],
    [new OperationError('NO_TRADING_KEY', 'no key', { hint: 'create one' }), { code: 'NO_TRADING_KEY', hint: 'create one' }],
    [new ProfileError('PROFILE_NOT_CONFIGURED', 'no URLs', { hint: 'fill them in' }), { code: 'VALIDATION', kind: 'validation', reason: 'PROFILE_NOT_CONFIGURED', hint: 'fill them in' }],
    [new NetworkError('POST', 'http://x/orders', 'reset'), { code: 'NETWORK_ERROR', kind: 'transient' }],
    [new TimeoutError('GET', 'http://x/markets', 1000, true), { code: 'TIMEOUT' }],
    [new WriteLandedUnknownResultError('POST /orders', 2, new Error('lost'), new ApiError(null, 409, 'used')), { code: 'LANDED_RESULT_UNKNOWN' }],
  ])('%s', (err, expected) => {
    const out = toIpcError(err, 'test:channel', quiet);
    expect(out).toMatchObject(expected);
    expect(IpcErrorSchema.parse(out)).toEqual(out);
    expect(out.message.length).toBeGreaterThan(0);
  });

  it('keychain errors carry the action as hint', () => {
    const out = toIpcError(new VaultError('KEYCHAIN_UNAVAILABLE', 'no D-Bus'), 'x', quiet);
    expect(out.hint).toMatch(/Secret Service/);
  });

  it('an unexpected error is INTERNAL; its text goes to the log, not the page', () => {
    const logged: string[] = [];
    const out = toIpcError(new TypeError('cannot read properties of undefined (reading secretThing)'), 'orders:place', { error: (m) => logged.push(m) });
    expect(out).toEqual({ code: 'INTERNAL', kind: 'internal', message: 'orders:place failed unexpectedly; see the app log for details' });
    expect(logged.join()).toMatch(/secretThing/);
    expect(toIpcError('a string', 'x', quiet).code).toBe('INTERNAL');
    expect(toIpcError(null, 'x', quiet).code).toBe('INTERNAL');
  });

  it("a Node error with an uppercase code (ENOENT and its path) is internal: the path stays in main's log", () => {
    const logged: string[] = [];
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/home/alice/keys/main.json'"), { code: 'ENOENT' });
    const out = toIpcError(enoent, 'wallet:connectKeystore', { error: (m) => logged.push(m) });
    expect(out).toEqual({ code: 'INTERNAL', kind: 'internal', message: 'wallet:connectKeystore failed unexpectedly; see the app log for details' });
    expect(JSON.stringify(out)).not.toMatch(/alice/);
    expect(logged.join()).toMatch(/alice/);
  });

  it('the kind decides: validation is VALIDATION with the rule as reason, the rest keep their code and kind', () => {
    expect(toIpcError(new ApiError(null, 503, 'busy'), 'x', quiet)).toMatchObject({ code: 'HTTP_503', kind: 'transient' });
    expect(toIpcError(new ApiError('FORBIDDEN', 403, 'no key'), 'x', quiet)).toMatchObject({ code: 'FORBIDDEN', kind: 'rejected' });
    expect(toIpcError(new SignerError('KEYSTORE_INVALID', 'not a keystore'), 'x', quiet)).toMatchObject({ code: 'VALIDATION', kind: 'validation', reason: 'KEYSTORE_INVALID' });
    expect(toIpcError(new VaultError('KEYCHAIN_LOCKED', 'locked'), 'x', quiet)).toMatchObject({ code: 'KEYCHAIN_LOCKED', kind: 'transient' });
  });
});

describe('dispatch / registerHandlers', () => {
  const info = { name: 'Perps Desk', version: '1', profile: 'sim', platform: 'linux', vault_closed: null };

  it('refuses an invalid payload before the handler runs, naming the field', async () => {
    let ran = false;
    const handlers = stubHandlers({
      'orders:place': async () => {
        ran = true;
        return { success: true, reconciled: false, legs: [] };
      },
    });
    const r = await dispatch('orders:place', handlers, { preview_id: 42 }, quiet);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', field: 'preview_id' } });
    expect(ran).toBe(false);
  });

  it('an answer outside the contract is refused (INTERNAL), and extra fields are stripped', async () => {
    const bad = await dispatch('app:getInfo', stubHandlers({ 'app:getInfo': async () => ({ name: 1 }) as never }), {}, quiet);
    expect(bad).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    const extra = await dispatch('app:getInfo', stubHandlers({ 'app:getInfo': async () => ({ ...info, secret_body: 'x' }) }), {}, quiet);
    expect(extra).toEqual({ ok: true, value: info });
  });

  it('maps a thrown service error to its typed value', async () => {
    const r = await dispatch(
      'withdraw:preview',
      stubHandlers({
        'withdraw:preview': async () => {
          throw new ValidationError('5 is more than the free balance', { field: 'amount', code: 'INSUFFICIENT_BALANCE' });
        },
      }),
      { amount: '5' },
      quiet,
    );
    expect(r).toEqual({ ok: false, error: { code: 'VALIDATION', kind: 'validation', message: 'amount: 5 is more than the free balance', field: 'amount', reason: 'INSUFFICIENT_BALANCE' } });
  });

  it('registers every channel, refuses untrusted frames and records each exchange', async () => {
    const listeners = new Map<string, (e: IpcEventLike, p: unknown) => Promise<unknown>>();
    const exchanges: string[] = [];
    registerHandlers({ handle: (c, l) => listeners.set(c, l) }, stubHandlers({ 'app:getInfo': async () => info }), (url) => url.startsWith('app://perps/'), {
      logger: quiet,
      onExchange: (x) => exchanges.push(x.channel),
    });
    expect(listeners.size).toBeGreaterThan(40);
    expect(await listeners.get('app:getInfo')!({ senderFrame: { url: 'https://evil.example/' } }, {})).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    expect(await listeners.get('app:getInfo')!({ senderFrame: null }, {})).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    expect(await listeners.get('app:getInfo')!({ senderFrame: { url: 'app://perps/index.html' } }, undefined)).toEqual({ ok: true, value: info });
    expect(await listeners.get('keys:list')!({ senderFrame: { url: 'app://perps/index.html' } }, {})).toMatchObject({ ok: false, error: { code: 'NOT_IMPLEMENTED' } });
    expect(exchanges).toEqual(['app:getInfo', 'app:getInfo', 'app:getInfo', 'keys:list']);
  });

  it('refuses to register an incomplete table', () => {
    const handlers = stubHandlers({}) as unknown as Record<string, unknown>;
    delete handlers['orders:place'];
    expect(() => registerHandlers({ handle: () => undefined }, handlers as never, () => true)).toThrow(/orders:place/);
  });
});
