import { describe, expect, it } from 'vitest';
import { LedgerError, toLedgerError, type LedgerErrorCode, type LedgerStep } from '../../../../src/main/signers/ledger/ledgerErrors.js';
import { ledgerErrors } from './support/ledgerKit.js';

const status = (sw: number) => new ledgerErrors.TransportStatusError(sw);

describe('toLedgerError', () => {
  it.each<[string, number, LedgerStep, LedgerErrorCode]>([
    ['locked', 0x5515, 'sign-clear', 'DEVICE_LOCKED'],
    ['locked (older firmware)', 0x6982, 'app-check', 'DEVICE_LOCKED'],
    ['rejected', 0x6985, 'sign-clear', 'REJECTED_ON_DEVICE'],
    ['rejected address', 0x6985, 'get-address', 'REJECTED_ON_DEVICE'],
    ['blind signing off', 0x6a80, 'sign-hashed', 'BLIND_SIGNING_DISABLED'],
    ['CLA not supported (dashboard)', 0x6e00, 'app-check', 'ETH_APP_NOT_OPEN'],
    ['INS not supported at app check', 0x6d00, 'app-check', 'ETH_APP_NOT_OPEN'],
    ['INS not supported while signing', 0x6d00, 'sign-hashed', 'DEVICE_ERROR'],
    ['no app open (recent firmware)', 0x6511, 'get-address', 'ETH_APP_NOT_OPEN'],
    ['anything else', 0x6f00, 'sign-clear', 'DEVICE_ERROR'],
  ])('%s (%s at %s) -> %s', (_label, sw, step, code) => {
    const err = toLedgerError(status(sw), step);
    expect(err).toBeInstanceOf(LedgerError);
    expect(err.code).toBe(code);
    expect(err.statusCode).toBe(sw);
    expect(err.cause).toBeDefined();
  });

  it('maps the LockedDeviceError child class (0x5515) too', () => {
    const locked = new ledgerErrors.LockedDeviceError();
    expect(toLedgerError(locked, 'app-check').code).toBe('DEVICE_LOCKED');
  });

  it('maps disconnection, busy and no-device transport errors', () => {
    expect(toLedgerError(new ledgerErrors.DisconnectedDevice(), 'sign-clear').code).toBe('DISCONNECTED');
    expect(toLedgerError(new ledgerErrors.DisconnectedDeviceDuringOperation('x'), 'sign-clear').code).toBe('DISCONNECTED');
    expect(toLedgerError(new ledgerErrors.TransportRaceCondition('busy'), 'sign-clear').code).toBe('DEVICE_BUSY');
    expect(toLedgerError(new ledgerErrors.TransportError('NoDevice', 'NoDevice'), 'open').code).toBe('NO_DEVICE');
  });

  it('passes a LedgerError through unchanged and keeps the cause of others', () => {
    const e = new LedgerError('TIMEOUT', 't');
    expect(toLedgerError(e, 'sign-clear')).toBe(e);
    const boom = new Error('boom');
    const mapped = toLedgerError(boom, 'sign-clear');
    expect(mapped.code).toBe('DEVICE_ERROR');
    expect(mapped.cause).toBe(boom);
  });
});
