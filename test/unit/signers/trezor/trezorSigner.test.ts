/**
 * The Trezor signer against the fake device: the service's custody actions (built from
 * ../shared/vectors/eip712.json with the app's builders) signed over the same digest the vectors
 * give, what the device shows, PIN matrix and passphrase, the Model One's hashes, and every error the
 * person can meet (no device, locked, wrong state, unplugged mid-signing, old firmware, rejected,
 * cancelled, Safe 7).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  authorizeAgentTypedData,
  bytesToHex,
  domainSeparator,
  hashStruct,
  orderTypedData,
  recoverDigestSigner,
  revokeAgentTypedData,
  withdrawTypedData,
  type TypedData,
} from '../../../../src/shared/eip712/index.js';
import { TrezorSigner } from '../../../../src/main/signers/trezor/trezorSigner.js';
import { TrezorError } from '../../../../src/main/signers/trezor/trezorErrors.js';
import { openUsbWire } from '../../../../src/main/signers/trezor/usbLink.js';
import { SHARED_DIR } from '../../../support/paths.js';
import { FakeTrezor } from '../../../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor, fakeUsb } from '../../../support/trezor/fakeUsb.js';
import { PATH, rig } from './support.js';

interface Vector {
  name: string;
  body: Record<string, unknown>;
  digest: string;
}
const VECTORS = (JSON.parse(fs.readFileSync(path.join(SHARED_DIR, 'vectors/eip712.json'), 'utf8')) as { vectors: Vector[] }).vectors;
const vector = (name: string): Vector => VECTORS.find((v) => v.name === name) as Vector;
const CUSTODY: [string, (b: never) => TypedData][] = [
  ['register', (b) => authorizeAgentTypedData(b)],
  ['revoke', (b) => revokeAgentTypedData(b)],
  ['withdraw-default-rail', (b) => withdrawTypedData(b, 'Mainnet')],
];
const withdrawal = (): TypedData => withdrawTypedData(vector('withdraw-default-rail').body as never, 'Mainnet');
const DEVICE_ADDRESS = FakeTrezor.addressAt(PATH);

async function failure(p: Promise<unknown>): Promise<TrezorError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrezorError);
  return err as TrezorError;
}

describe('Trezor signer: the service custody actions', () => {
  for (const [name, build] of CUSTODY) {
    it(`${name}: the Safe 5 signs the vector's digest after showing every field`, async () => {
      const r = rig({ model: 'T3T1' });
      const signer = await r.connect();
      expect(signer.address).toBe(DEVICE_ADDRESS);
      expect(signer.model).toMatchObject({ name: 'Trezor Safe 5', mode: 'typed-data' });
      const data = build(vector(name).body as never);
      const sig = await signer.signTypedData(data);
      // The device hashed exactly the digest the spec's vectors give for this action.
      expect(recoverDigestSigner(Buffer.from(vector(name).digest.slice(2), 'hex'), sig)).toBe(DEVICE_ADDRESS);
      const values = r.device.screens.filter((s) => s.name === 'confirm_typed_value');
      expect(values[0]?.lines).toEqual([`name: Service Perps`, `version: 2`, `chainId: ${data.domain.chainId}`]);
      for (const [member, value] of Object.entries(data.message)) {
        expect(values.some((s) => s.title === member && s.lines[0]?.toLowerCase() === String(value).toLowerCase())).toBe(true);
      }
      expect(r.person.buttons.map((b) => b.name)).toContain('confirm_typed_data_final');
      await signer.close();
    });
  }

  it('the Model One signs by hashes: the app is shown the same two hashes the device shows, and the signature verifies', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1] });
    const signer = await r.connect();
    expect(signer.model.mode).toBe('hashes');
    const data = withdrawal();
    const sig = await signer.signTypedData(data);
    expect(recoverDigestSigner(Buffer.from(vector('withdraw-default-rail').digest.slice(2), 'hex'), sig)).toBe(DEVICE_ADDRESS);
    const expected = { domainSeparatorHex: bytesToHex(domainSeparator(data.domain.chainId)), messageHashHex: bytesToHex(hashStruct('Withdraw', data.message as never)) };
    expect(r.hashes).toEqual([{ primaryType: 'Withdraw', ...expected }]);
    const shown = r.device.screens.map((s) => `${s.name}:${s.lines.join('')}`);
    expect(shown).toContain(`confirm_domain_hash:${expected.domainSeparatorHex}`);
    expect(shown).toContain(`confirm_message_hash:${expected.messageHashHex}`);
    expect(r.device.received).not.toContain('EthereumSignTypedData');
  });

  it('the Model One: declining the hashes sends nothing to sign', async () => {
    const r = rig({ model: 'T1B1', version: [1, 10, 5] });
    const signer = await r.connect({ confirmHashes: async () => false });
    expect((await failure(signer.signTypedData(withdrawal()))).code).toBe('HASH_SIGNING_DECLINED');
    expect(r.device.received).not.toContain('EthereumSignTypedHash');
  });

  it('an order is never signed by the main wallet, and the device is not asked', async () => {
    const r = rig();
    const signer = await r.connect();
    const before = r.device.received.length;
    const order = orderTypedData(vector('register').body['wallet_address'] as string, { market: 'BTC', side: 'BUY', size: '1', limit_price: '1', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false, leverage: 1, client_order_id: 'x', nonce: '1' } as never, 'mainnet');
    expect((await failure(signer.signTypedData(order))).code).toBe('NOT_A_CUSTODY_ACTION');
    expect(r.device.received.length).toBe(before);
  });
});

describe('Trezor signer: PIN and passphrase', () => {
  it('Model One: the PIN is sent as positions on the scrambled matrix, never as digits', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1], pin: '1234' }, { pin: '1234' });
    const signer = await r.connect();
    expect(r.person.pinAsks).toBe(1);
    expect(signer.address).toBe(DEVICE_ADDRESS);
  });

  it('Model One: a wrong PIN is PIN_INVALID', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1], pin: '1234' }, { pin: '9999' });
    expect((await failure(r.connect())).code).toBe('PIN_INVALID');
  });

  it('a PIN that cannot be given leaves the device cancelled and says it is locked', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1], pin: '1234' }, { pinError: new TrezorError('DEVICE_LOCKED', 'no terminal to enter the PIN on') });
    expect((await failure(r.connect())).code).toBe('DEVICE_LOCKED');
    expect(r.device.received).toContain('Cancel');
  });

  it('touchscreen models take the PIN on the device: the app only says so', async () => {
    const r = rig({ model: 'T2T1', pin: '1234', devicePin: '1234' });
    await r.connect();
    expect(r.person.pinAsks).toBe(0);
    expect(r.person.buttons[0]).toMatchObject({ code: 20, name: 'pin_device' });
  });

  it('a passphrase typed in the app selects the hidden wallet', async () => {
    const r = rig({ model: 'T3T1', passphraseProtection: true }, { passphrase: { passphrase: 'hidden' } });
    const signer = await r.connect();
    expect(signer.address).toBe(FakeTrezor.addressAt(PATH, 'hidden'));
    expect(signer.address).not.toBe(DEVICE_ADDRESS);
  });

  it('a passphrase entered on the device never passes through the app', async () => {
    const r = rig({ model: 'T3T1', passphraseProtection: true, devicePassphrase: 'ondevice' }, { passphrase: { onDevice: true } });
    const signer = await r.connect();
    expect(signer.address).toBe(FakeTrezor.addressAt(PATH, 'ondevice'));
  });

  it('the Model One cannot take the passphrase on the device: refused before it is asked', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1], passphraseProtection: true }, { passphrase: { onDevice: true } });
    expect((await failure(r.connect())).code).toBe('INVALID_SETTING');
  });

  it('a device deriving another address than the wallet is refused', async () => {
    const r = rig({ passphraseProtection: true }, { passphrase: { passphrase: 'other' } });
    expect((await failure(r.connect({ expectedAddress: DEVICE_ADDRESS }))).code).toBe('ADDRESS_MISMATCH');
  });
});

describe('Trezor signer: errors', () => {
  it('no device on USB', async () => {
    expect(() => openUsbWire(fakeUsb())).toThrow(expect.objectContaining({ code: 'NO_DEVICE' }));
  });

  it('a device in bootloader mode (its own USB id) is the wrong state', () => {
    const usb = new FakeUsbTrezor(new FakeTrezor(), { idVendor: 0x1209, idProduct: 0x53c0 });
    expect(() => openUsbWire(fakeUsb(usb))).toThrow(expect.objectContaining({ code: 'WRONG_STATE' }));
  });

  it('bootloader mode or no seed in Features is the wrong state', async () => {
    expect((await failure(rig({ bootloader: true }).connect())).code).toBe('WRONG_STATE');
    expect((await failure(rig({ initialized: false }).connect())).code).toBe('WRONG_STATE');
  });

  it('firmware too old for typed data: 2.4.2 and 1.10.4 refused, 2.4.3 and 1.10.5 accepted', async () => {
    expect((await failure(rig({ model: 'T2T1', version: [2, 4, 2] }).connect())).code).toBe('FIRMWARE_TOO_OLD');
    expect((await failure(rig({ model: 'T1B1', version: [1, 10, 4] }).connect())).code).toBe('FIRMWARE_TOO_OLD');
    await expect(rig({ model: 'T2T1', version: [2, 4, 3] }).connect()).resolves.toBeInstanceOf(TrezorSigner);
    await expect(rig({ model: 'T1B1', version: [1, 10, 5] }).connect()).resolves.toBeInstanceOf(TrezorSigner);
  });

  it('Safe 7 is refused clearly instead of hanging', async () => {
    const err = await failure(rig({ model: 'T3W1' }).connect());
    expect(err.code).toBe('UNSUPPORTED_MODEL');
    expect(err.errorHint).toMatch(/Safe 7/);
  });

  it('rejected on the device', async () => {
    const r = rig({ decide: (s) => (s.name === 'confirm_typed_data_final' ? 'reject' : 'confirm') });
    const signer = await r.connect();
    const err = await failure(signer.signTypedData(withdrawal()));
    expect(err.code).toBe('REJECTED_ON_DEVICE');
    expect(err.errorKind).toBe('rejected');
  });

  it('cancel in the app cancels on the device', async () => {
    const r = rig({ decide: (s) => (s.name === 'confirm_typed_data_final' ? 'wait' : 'confirm') });
    const signer = await r.connect();
    const pending = signer.signTypedData(withdrawal());
    await waitFor(() => r.device.screens.some((s) => s.name === 'confirm_typed_data_final'));
    await signer.cancel();
    expect((await failure(pending)).code).toBe('CANCELLED');
    expect(r.device.received.at(-1)).toBe('Cancel');
  });

  it('unplugged in the middle of signing', async () => {
    const r = rig();
    const signer = await r.connect();
    r.usb.unplugAfterReports = r.usb.reportsIn + 5;
    const err = await failure(signer.signTypedData(withdrawal()));
    expect(err.code).toBe('DISCONNECTED');
    expect(err.errorKind).toBe('transient');
    expect(r.device.received).not.toContain('EthereumTypedDataValueAck');
  });

  it('another flow under way: UnexpectedMessage is the wrong state', async () => {
    const r = rig({ model: 'T1B1', version: [1, 12, 1] });
    const signer = await r.connect();
    // The Model One does not know EthereumSignTypedData (its firmware lacks the EIP-712 structs).
    const { signTypedDataOnDevice } = await import('../../../../src/main/signers/trezor/deviceCalls.js');
    const { TrezorSession } = await import('../../../../src/main/signers/trezor/session.js');
    const session = new TrezorSession(openUsbWire(fakeUsb(new FakeUsbTrezor(new FakeTrezor({ model: 'T1B1', version: [1, 12, 1] })))), r.person);
    const err = await failure(signTypedDataOnDevice(session, [0x8000002c, 0x8000003c, 0x80000000, 0, 0], withdrawal() as never));
    expect(err.code).toBe('WRONG_STATE');
    await signer.close();
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}
