/**
 * `--signer trezor[:PATH]` in process: PATH parsing (hostile input refused as usage errors), and the
 * terminal side of the device against the fake Trezor on a fake USB stack: the passphrase typed or left
 * to the device, the PIN as positions from a pipe, end of input while the device waits, and the Model
 * One's hashes needing consent.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { withdrawTypedData } from '../../../src/shared/eip712/index.js';
import { openSigner, parseSignerSpec } from '../../../src/cli/signerSpec.js';
import { FakeTrezor, type FakeTrezorOptions } from '../../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor, fakeUsb } from '../../support/trezor/fakeUsb.js';

const PATH = "m/44'/60'/0'/0/0";

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

function stdin(isTTY: boolean): PassThrough & { isTTY: boolean } {
  const s = new PassThrough() as PassThrough & { isTTY: boolean };
  s.isTTY = isTTY;
  return s;
}

function withdrawalFor(wallet: string) {
  return withdrawTypedData({ account_id: accountIdFromWallet(wallet), amount: '25', nonce: '1760000000001', signature_chain_id: 998 }, 'Testnet');
}

function open(device: FakeTrezor, wallet: string, input: PassThrough & { isTTY: boolean }, extra: { allowBlindSigning?: boolean } = {}) {
  const stderr = new Capture();
  const signer = openSigner(parseSignerSpec('trezor'), {
    wallet,
    json: true,
    stdin: input,
    stderr,
    env: { PERPS_TREZOR_TRANSPORT: 'usb' },
    trezor: { usb: fakeUsb(new FakeUsbTrezor(device)) },
    ...(extra.allowBlindSigning ? { allowBlindSigning: true } : {}),
  });
  return { signer, stderr };
}

const device = (o: FakeTrezorOptions = {}): FakeTrezor => new FakeTrezor(o);

describe('--signer trezor[:PATH] parsing', () => {
  it.each([
    ['trezor', PATH],
    ['trezor:bip44:3', "m/44'/60'/0'/0/3"],
    ['trezor:ledger-live:2', "m/44'/60'/2'/0/0"],
    ['trezor:m/44h/60h/0h/0/9', "m/44'/60'/0'/0/9"],
  ])('%s is %s', (spec, path) => {
    expect(parseSignerSpec(spec)).toEqual({ kind: 'trezor', path });
  });

  it.each(['trezor:nonsense', "trezor:m/44'/0'/0'", 'trezor:bip44:-1', 'trezor:bip44:1:2', 'trezor:../../etc/passwd', 'trezor:' + '1/'.repeat(500)])('%s is a usage error', (spec) => {
    expect(() => parseSignerSpec(spec)).toThrow(expect.objectContaining({ code: 'INVALID_TREZOR_PATH', kind: 'validation' }));
  });
});

describe('--signer trezor on the terminal', () => {
  it('probes the device when opened and says what it is', async () => {
    const { signer, stderr } = open(device(), FakeTrezor.addressAt(PATH), stdin(false));
    await signer;
    expect(stderr.text).toMatch(/Trezor: Trezor Safe 5 "Test Trezor", firmware 2\.8\.1, via USB\./);
  });

  it('a passphrase typed on a pipe selects the hidden wallet; it is never echoed', async () => {
    const wallet = FakeTrezor.addressAt(PATH, 'hidden words');
    const input = stdin(false);
    const { signer, stderr } = open(device({ passphraseProtection: true }), wallet, input);
    input.write('hidden words\n');
    const sig = await (await signer).signTypedData(withdrawalFor(wallet));
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(stderr.text).toMatch(/press Enter alone to type it on the Trezor/);
    expect(stderr.text).not.toContain('hidden words');
  });

  it('an empty answer leaves the passphrase to the device', async () => {
    const wallet = FakeTrezor.addressAt(PATH, 'typed on device');
    const input = stdin(false);
    const { signer, stderr } = open(device({ passphraseProtection: true, devicePassphrase: 'typed on device' }), wallet, input);
    input.write('\n');
    await (await signer).signTypedData(withdrawalFor(wallet));
    expect(stderr.text).toMatch(/type your passphrase on the Trezor/);
  });

  it('Model One: PIN positions read from a pipe; end of input while the device waits is DEVICE_LOCKED and the device is cancelled', async () => {
    const d = device({ model: 'T1B1', version: [1, 12, 1], pin: '1397' });
    const wallet = FakeTrezor.addressAt(PATH);
    const input = stdin(false);
    const { signer } = open(d, wallet, input, { allowBlindSigning: true });
    const s = await signer;
    const typing = (async () => {
      while (!d.shownMatrix) await new Promise((r) => setTimeout(r, 2));
      const m = d.shownMatrix;
      input.write([...'1397'].map((x) => String(m.indexOf(x) + 1)).join('') + '\n');
    })();
    await expect(s.signTypedData(withdrawalFor(wallet))).resolves.toMatch(/^0x[0-9a-f]{130}$/);
    await typing;

    const locked = device({ model: 'T1B1', version: [1, 12, 1], pin: '1397' });
    const closed = stdin(false);
    const second = open(locked, wallet, closed, { allowBlindSigning: true });
    const s2 = await second.signer;
    closed.end();
    await expect(s2.signTypedData(withdrawalFor(wallet))).rejects.toMatchObject({ code: 'TREZOR_DEVICE_LOCKED', kind: 'transient' });
    expect(locked.received).toContain('Cancel');
  });

  it('Model One: signing by hashes needs consent; without a terminal or the flag nothing is signed', async () => {
    const d = device({ model: 'T1B1', version: [1, 12, 1] });
    const wallet = FakeTrezor.addressAt(PATH);
    const { signer, stderr } = open(d, wallet, stdin(false));
    await expect((await signer).signTypedData(withdrawalFor(wallet))).rejects.toMatchObject({ code: 'BLIND_SIGNING_NEEDS_CONSENT' });
    expect(stderr.text).toMatch(/SIGNING BY HASHES/);
    expect(d.received).not.toContain('EthereumSignTypedHash');

    const tty = stdin(true);
    const yes = open(device({ model: 'T1B1', version: [1, 12, 1] }), wallet, tty);
    const s = await yes.signer;
    const pending = s.signTypedData(withdrawalFor(wallet));
    await new Promise((r) => setTimeout(r, 50));
    tty.write('yes\n');
    await expect(pending).resolves.toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('the wallet must be the address of PATH on the device', async () => {
    const { signer } = open(device(), '0x1111111111111111111111111111111111111111', stdin(false));
    await expect((await signer).signTypedData(withdrawalFor('0x1111111111111111111111111111111111111111'))).rejects.toMatchObject({ code: 'TREZOR_ADDRESS_MISMATCH' });
  });

  it('issue 36 item 9: a hostile label and Failure message reach the terminal and the error without a control or bidi character', async () => {
    const forged = '\r\x1b[2K\x1b[1Asigned OK, sending withdrawal to 0x2222\n';
    const hostile = device({
      label: `Mine\x1b[2J\x1b]52;c;ZWNobyBwd25lZA==\x07${forged}\u202E`,
      rejectMessage: `Cancelled${forged}\x1b]0;title\x07`,
      decide: (screen) => (screen.name === 'confirm_typed_data_final' ? 'reject' : 'confirm'),
    });
    const wallet = FakeTrezor.addressAt(PATH);
    const { signer, stderr } = open(hostile, wallet, stdin(false));
    const err = await (await signer).signTypedData(withdrawalFor(wallet)).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toMatchObject({ code: 'TREZOR_REJECTED_ON_DEVICE' });
    // eslint-disable-next-line no-control-regex -- looks for the control characters that must be gone
    const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
    expect(stderr.text).not.toMatch(controls);
    expect(err!.message).not.toMatch(controls);
    expect(err!.message).not.toContain('\n');
    // The label prints on its own line, the forged words inside it, never as a line of their own.
    expect(stderr.text).toContain('Trezor: Trezor Safe 5 "Mine[2J]52;c;ZWNobyBwd25lZA== [2K[1Asigned OK, sending');
    expect(stderr.text.split('\n').some((line) => line.startsWith('signed OK'))).toBe(false);
  });
});
