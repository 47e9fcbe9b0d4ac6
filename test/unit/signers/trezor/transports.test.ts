/**
 * The links other than USB, each with the fake device behind a loopback stand-in: the emulator's UDP
 * port (one 64-byte report per datagram) and Trezor Bridge's HTTP API. And the no-network rule: with
 * every outbound connection trapped, signing over each link opens nothing but USB and loopback.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawTypedData } from '../../../../src/shared/eip712/index.js';
import { openTrezorWire } from '../../../../src/main/signers/trezor/openTrezor.js';
import { TrezorSigner } from '../../../../src/main/signers/trezor/trezorSigner.js';
import type { MessageWire } from '../../../../src/main/signers/trezor/wire.js';
import { installConnectionTrap, type ConnectionTrap } from '../../../support/connectionTrap.mjs';
import { FakeTrezor } from '../../../support/trezor/fakeTrezor.js';
import { startFakeBridge } from '../../../support/trezor/fakeBridge.js';
import { startFakeEmulator } from '../../../support/trezor/fakeEmulator.js';
import { FakeUsbTrezor, fakeUsb } from '../../../support/trezor/fakeUsb.js';
import { PATH, person } from './support.js';

const WALLET = FakeTrezor.addressAt(PATH);
const withdrawal = withdrawTypedData(
  { account_id: WALLET.toLowerCase() + '0'.repeat(24), amount: '25', nonce: '1763700001000', signature_chain_id: 998 },
  'Testnet',
);

async function signOver(wire: MessageWire, device: FakeTrezor): Promise<string> {
  const signer = await TrezorSigner.connect({ wire, interaction: person(() => device), path: PATH, showAddress: true, confirmHashes: async () => true });
  try {
    return await signer.signTypedData(withdrawal);
  } finally {
    await signer.close();
  }
}

/** A loopback port nothing listens on. */
async function closedPort(kind: 'tcp' | 'udp'): Promise<number> {
  if (kind === 'udp') {
    const s = dgram.createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
    const port = s.address().port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('Trezor links', () => {
  let trap: ConnectionTrap;
  beforeAll(() => {
    trap = installConnectionTrap();
  });
  afterAll(() => trap.uninstall());

  it('the emulator over UDP on 127.0.0.1: signs, and nothing but loopback datagrams leave', async () => {
    const device = new FakeTrezor();
    const emulator = await startFakeEmulator(device);
    trap.clear();
    const sig = await signOver(await openTrezorWire({ kind: 'udp', host: '127.0.0.1', port: emulator.port }), device);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(trap.records.length).toBeGreaterThan(0);
    // The signer's datagrams go to the emulator's port; the stand-in's answers (same process) come back on loopback too.
    // (dgram resolves the literal address through dns.lookup, which the trap records too.)
    expect(trap.records.every((r) => (r.api === 'dgram' || r.api === 'dns.lookup') && r.host === '127.0.0.1' && !r.refused)).toBe(true);
    expect(trap.records.some((r) => r.port === emulator.port)).toBe(true);
    await emulator.close();
  });

  it('no emulator listening: NO_DEVICE after the ping goes unanswered', async () => {
    const port = await closedPort('udp');
    await expect(openTrezorWire({ kind: 'udp', host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'NO_DEVICE' });
  });

  it('Trezor Bridge when it runs: enumerate, acquire, post/read, release', async () => {
    const device = new FakeTrezor();
    const bridge = await startFakeBridge(device);
    trap.clear();
    const sig = await signOver(await openTrezorWire({ kind: 'auto' }, { bridgeUrl: bridge.url, usb: fakeUsb() }), device);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(bridge.calls[0]).toBe('enumerate');
    expect(bridge.calls).toContain('acquire');
    expect(bridge.calls.at(-1)).toBe('release');
    expect(trap.records.every((r) => r.api === 'net' && r.host === '127.0.0.1' && !r.refused)).toBe(true);
    await bridge.close();
  });

  it('a device Trezor Suite holds through Bridge is not taken from it', async () => {
    const bridge = await startFakeBridge(new FakeTrezor(), { heldBy: '3' });
    await expect(openTrezorWire({ kind: 'auto' }, { bridgeUrl: bridge.url })).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    expect(bridge.calls).not.toContain('acquire');
    await bridge.close();
  });

  it('no Bridge running: USB is used, and the only other attempt was the loopback Bridge port', async () => {
    const device = new FakeTrezor();
    const port = await closedPort('tcp');
    trap.clear();
    const sig = await signOver(await openTrezorWire({ kind: 'auto' }, { bridgeUrl: `http://127.0.0.1:${port}`, usb: fakeUsb(new FakeUsbTrezor(device)) }), device);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(trap.destinations()).toEqual([`127.0.0.1:${port}`]);
    expect(trap.refused()).toEqual([]);
  });
});
