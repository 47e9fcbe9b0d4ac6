/**
 * The firmware's own EIP-712 vectors (trezor-firmware common/tests/fixtures/ethereum/sign_typed_data.json,
 * copied as data into test/fixtures/trezor): the signer's struct-by-struct answers, sent through the real
 * USB link code to the fake device over a fake USB stack, must make it produce exactly the vectors'
 * signatures; and the Model One's hash signing must produce the same signatures from the two hashes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDerivationPath } from '../../../../src/main/signers/ledger/derivationPaths.js';
import { initialize, signTypedDataOnDevice, signTypedHashOnDevice } from '../../../../src/main/signers/trezor/deviceCalls.js';
import { TrezorSession, type TrezorInteraction } from '../../../../src/main/signers/trezor/session.js';
import { openUsbWire } from '../../../../src/main/signers/trezor/usbLink.js';
import { structAck, valueAck, type Eip712Document } from '../../../../src/main/signers/trezor/typedDataAnswers.js';
import { FakeTrezor, type FakeTrezorOptions } from '../../../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor, fakeUsb } from '../../../support/trezor/fakeUsb.js';

interface Vector {
  name: string;
  parameters: { path: string; metamask_v4_compat: boolean; data: Eip712Document; message_hash: string | null; domain_separator_hash: string };
  result: { address: string; sig: string };
}
const FIXTURE = JSON.parse(readFileSync(new URL('../../../fixtures/trezor/sign_typed_data.json', import.meta.url), 'utf8')) as { setup: { mnemonic: string }; tests: Vector[] };

const quiet: TrezorInteraction = {
  pinPositions: () => Promise.reject(new Error('no PIN expected')),
  passphrase: () => Promise.reject(new Error('no passphrase expected')),
  button: () => undefined,
};

async function sessionWith(options: FakeTrezorOptions): Promise<{ device: FakeTrezor; session: TrezorSession }> {
  const device = new FakeTrezor({ mnemonic: FIXTURE.setup.mnemonic, ...options });
  const session = new TrezorSession(openUsbWire(fakeUsb(new FakeUsbTrezor(device))), quiet);
  await initialize(session);
  return { device, session };
}

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b).toString('hex');

describe('Trezor firmware vectors (sign_typed_data.json)', () => {
  it('has the vectors', () => {
    expect(FIXTURE.setup.mnemonic).toBe('all all all all all all all all all all all all');
    expect(FIXTURE.tests.length).toBeGreaterThanOrEqual(10);
  });

  for (const v of FIXTURE.tests) {
    it(`full typed data, ${v.name}: the exact signature of the vector`, async () => {
      const { device, session } = await sessionWith({ model: 'T3T1' });
      const signed = await signTypedDataOnDevice(session, parseDerivationPath(v.parameters.path), v.parameters.data, { metamaskV4Compat: v.parameters.metamask_v4_compat });
      expect(hex(signed.signature)).toBe(v.result.sig);
      expect(signed.address).toBe(v.result.address);
      // Every struct was asked once, EIP712Domain first; the last screen is the final confirmation.
      const structs = device.requests.filter((r) => r.startsWith('struct:'));
      expect(structs[0]).toBe('struct:EIP712Domain');
      // Each struct once, except that a domain-only message asks for EIP712Domain again as its primary
      // type, as collect_types() in sign_typed_data.py does.
      if (v.parameters.data.primaryType === 'EIP712Domain') expect(structs).toEqual(['struct:EIP712Domain', 'struct:EIP712Domain']);
      else expect(new Set(structs).size).toBe(structs.length);
      expect(device.screens.at(-1)?.name).toBe('confirm_typed_data_final');
      await session.close();
    });

    it(`by hashes (Model One), ${v.name}: the same signature from the two hashes`, async () => {
      const { device, session } = await sessionWith({ model: 'T1B1', version: [1, 12, 1] });
      const domain = Buffer.from(v.parameters.domain_separator_hash.slice(2), 'hex');
      const message = v.parameters.message_hash ? Buffer.from(v.parameters.message_hash.slice(2), 'hex') : undefined;
      const signed = await signTypedHashOnDevice(session, parseDerivationPath(v.parameters.path), domain, message);
      expect(hex(signed.signature)).toBe(v.result.sig);
      expect(device.screens.map((s) => s.name)).toEqual(['confirm_address', 'confirm_domain_hash', message ? 'confirm_message_hash' : 'confirm_empty_typed_message']);
      expect(device.screens[1]?.lines).toEqual([v.parameters.domain_separator_hash]);
      await session.close();
    });
  }

  it('answers basic_data struct by struct in the firmware order: types depth first, then values by member path', async () => {
    const v = FIXTURE.tests.find((t) => t.name === 'basic_data') as Vector;
    const { device, session } = await sessionWith({ model: 'T2T1' });
    await signTypedDataOnDevice(session, parseDerivationPath(v.parameters.path), v.parameters.data);
    expect(device.requests).toEqual([
      'struct:EIP712Domain',
      'struct:Mail',
      'struct:Person',
      'value:0,0',
      'value:0,1',
      'value:0,2',
      'value:0,3',
      'value:1,0,0',
      'value:1,0,1',
      'value:1,1,0',
      'value:1,1,1',
      'value:1,2',
    ]);
    const d = v.parameters.data;
    expect(structAck(d, 'Person')).toEqual({ members: [{ name: 'name', type: { data_type: 4 } }, { name: 'wallet', type: { data_type: 6 } }] });
    expect(structAck(d, 'Mail')['members']).toEqual([
      { name: 'from', type: { data_type: 8, size: 2, struct_name: 'Person' } },
      { name: 'to', type: { data_type: 8, size: 2, struct_name: 'Person' } },
      { name: 'contents', type: { data_type: 4 } },
    ]);
    expect(Buffer.from(valueAck(d, [0, 2])['value'] as Uint8Array).toString('hex')).toBe('00'.repeat(31) + '01');
    expect(new TextDecoder().decode(valueAck(d, [1, 1, 0])['value'] as Uint8Array)).toBe('Bob');
    // What the device showed: the domain on one screen, then each member of the message.
    const shown = device.screens.filter((s) => s.name === 'confirm_typed_value').map((s) => `${s.title}=${s.lines.join('|')}`);
    expect(shown[0]).toBe('EIP712Domain=name: Ether Mail|version: 1|chainId: 1|verifyingContract: 0x1e0ae8205e9726e6f296ab8869160a6423e2337e');
    expect(shown).toContain('contents=Hello, Bob!');
    await session.close();
  });
});
