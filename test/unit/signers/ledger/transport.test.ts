/** The USB side, as far as it can be exercised without a device. */
import { describe, expect, it } from 'vitest';
import { LedgerError } from '../../../../src/main/signers/ledger/ledgerErrors.js';
import { listLedgerDevices, openLedger, withDeadline } from '../../../../src/main/signers/ledger/transport.js';
import { Transport } from './support/ledgerKit.js';

class ClosableTransport extends Transport {
  closed = 0;
  override async close(): Promise<void> {
    this.closed++;
  }
}

describe('Ledger USB transport', () => {
  it('lists plugged-in devices through node-hid (loaded on first use)', async () => {
    const devices = await listLedgerDevices();
    expect(Array.isArray(devices)).toBe(true);
    for (const d of devices) expect(typeof d.path).toBe('string');
  });

  it('opening with no device plugged in is NO_DEVICE', async () => {
    if ((await listLedgerDevices()).length > 0) return; // a real Ledger is attached: do not touch it
    const err = await openLedger().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LedgerError);
    expect((err as LedgerError).code).toBe('NO_DEVICE');
  });
});

describe('withDeadline', () => {
  it('returns the result when the operation finishes in time, without closing', async () => {
    const t = new ClosableTransport();
    await expect(withDeadline(t, 1000, 'x', async () => 42)).resolves.toBe(42);
    expect(t.closed).toBe(0);
  });

  it('reports TIMEOUT (not the disconnection the close causes) and closes the transport', async () => {
    const t = new ClosableTransport();
    let rejectOp: (e: unknown) => void = () => {};
    const op = new Promise<never>((_, reject) => {
      rejectOp = reject;
    });
    const origClose = t.close.bind(t);
    t.close = async () => {
      await origClose();
      rejectOp(new Error('device closed'));
    };
    const err = await withDeadline(t, 20, 'waiting', () => op).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as LedgerError).code).toBe('TIMEOUT');
    expect(t.closed).toBe(1);
  });
});
