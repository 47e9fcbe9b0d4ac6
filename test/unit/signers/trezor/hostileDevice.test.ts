/**
 * A hostile or broken Trezor (issue 36, items 8 and 10), behind an emulator-style UDP port on loopback:
 * silence after Initialize, a header announcing 1 MiB and nothing more (also after a screen), endless
 * ButtonRequests, a device that ignores Cancel, and datagrams forged from another loopback address on
 * the emulator's port. Every step that needs no person ends within the step timeout as TREZOR_TIMEOUT
 * and the link is closed; a person's step is never timed; forged datagrams are never read.
 */
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { withdrawTypedData } from '../../../../src/shared/eip712/index.js';
import { openUdpWire } from '../../../../src/main/signers/trezor/udpLink.js';
import { MAX_BUTTON_REQUESTS } from '../../../../src/main/signers/trezor/session.js';
import { TrezorError } from '../../../../src/main/signers/trezor/trezorErrors.js';
import { TrezorSigner } from '../../../../src/main/signers/trezor/trezorSigner.js';
import type { MessageWire } from '../../../../src/main/signers/trezor/wire.js';
import { FakeTrezor } from '../../../support/trezor/fakeTrezor.js';
import { peerOf, startFakeEmulator } from '../../../support/trezor/fakeEmulator.js';
import { encode, toReports, WIRE_TYPES } from '../../../support/trezor/protocol.js';
import { headerOnly, startScriptedEmulator, type Script, type ScriptedEmulator } from '../../../support/trezor/scriptedEmulator.js';
import { PATH, person } from './support.js';

const STEP_MS = 300;
const FEATURES = { vendor: 'trezor.io', major_version: 2, minor_version: 8, patch_version: 1, initialized: true, unlocked: true, model: 'Safe 5', internal_model: 'T3T1', capabilities: [1, 7, 17] };
const closers: (() => Promise<void>)[] = [];
/** Derived once: deriving takes longer than a step timeout on a busy machine. */
const WALLET = FakeTrezor.addressAt(PATH);

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function emulator(script: Script): Promise<ScriptedEmulator> {
  const e = await startScriptedEmulator(script);
  closers.push(() => e.close());
  return e;
}

async function connect(port: number, stepTimeoutMs = STEP_MS): Promise<{ result: Promise<TrezorSigner>; person: ReturnType<typeof person>; wire: MessageWire }> {
  const p = person(() => new FakeTrezor());
  const wire = await openUdpWire('127.0.0.1', port);
  closers.push(() => wire.close());
  return { result: TrezorSigner.connect({ wire, interaction: p, path: PATH, showAddress: false, confirmHashes: async () => true, stepTimeoutMs }), person: p, wire };
}

async function failureOf(p: Promise<unknown>): Promise<TrezorError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrezorError);
  return err as TrezorError;
}

describe('a hostile Trezor: deadlines on every step that needs no person (item 8)', () => {
  it('silent after Initialize: TREZOR_TIMEOUT within the step timeout, and the link is closed', async () => {
    const e = await emulator(() => undefined);
    const started = Date.now();
    const { result, wire } = await connect(e.port);
    const err = await failureOf(result);
    expect(err.code).toBe('TIMEOUT');
    // Closed: a late answer can never be read as the next request's.
    await expect(wire.read()).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(err.errorCode).toBe('TREZOR_TIMEOUT');
    expect(err.message).toContain('did not answer Initialize');
    expect(Date.now() - started).toBeLessThan(STEP_MS + 2000);
    expect(e.received).toEqual(['Initialize']);
  });

  it('a header announcing 1 MiB and nothing more: TREZOR_TIMEOUT, not a wait without end', async () => {
    const e = await emulator((msg, reply) => {
      if (msg.name === 'Initialize') reply.reports([headerOnly(WIRE_TYPES['Features']!, 1 << 20)]);
    });
    const { result } = await connect(e.port);
    const err = await failureOf(result);
    expect(err.errorCode).toBe('TREZOR_TIMEOUT');
  });

  it('the same half message after a screen (a person step) still ends: the rest of a message needs no person', async () => {
    const e = await emulator((msg, reply) => {
      if (msg.name === 'Initialize') reply.message('ButtonRequest', { code: 1, name: 'other' });
      if (msg.name === 'ButtonAck') reply.reports([headerOnly(WIRE_TYPES['Features']!, 1 << 20)]);
    });
    const { result } = await connect(e.port);
    const err = await failureOf(result);
    expect(err.errorCode).toBe('TREZOR_TIMEOUT');
    expect(err.message).toContain('did not finish');
  });

  it('a person at a screen is never timed: an answer three step timeouts later is taken', async () => {
    const e = await emulator((msg, reply) => {
      if (msg.name === 'Initialize') reply.message('ButtonRequest', { code: 1, name: 'other' });
      if (msg.name === 'ButtonAck') setTimeout(() => reply.message('Features', FEATURES), STEP_MS * 3);
      if (msg.name === 'EthereumGetAddress') reply.message('EthereumAddress', { address: WALLET });
    });
    const { result, person: p } = await connect(e.port);
    const signer = await result;
    expect(signer.address).toBe(WALLET);
    expect(p.buttons).toHaveLength(1);
  });

  it('a device that ignores Cancel at a screen: TREZOR_TIMEOUT one step timeout after the Cancel', async () => {
    const e = await emulator((msg, reply) => {
      if (msg.name === 'Initialize') reply.message('ButtonRequest', { code: 1, name: 'other' });
    });
    const wire = await openUdpWire('127.0.0.1', e.port);
    closers.push(() => wire.close());
    const { TrezorSession } = await import('../../../../src/main/signers/trezor/session.js');
    const session = new TrezorSession(wire, person(() => new FakeTrezor()), { stepTimeoutMs: STEP_MS });
    const pending = session.call('Initialize', {}, ['Features']);
    for (let i = 0; i < 200 && !e.received.includes('ButtonAck'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(e.received).toContain('ButtonAck');
    const cancelledAt = Date.now();
    await session.cancel();
    const err = await failureOf(pending);
    expect(err.errorCode).toBe('TREZOR_TIMEOUT');
    expect(err.message).toContain('Cancel');
    expect(Date.now() - cancelledAt).toBeLessThan(STEP_MS + 2000);
    expect(e.received.at(-1)).toBe('Cancel');
  });

  it('ButtonRequests without end are answered at most MAX_BUTTON_REQUESTS times, then refused and the link closed', async () => {
    let sent = 0;
    const e = await emulator((msg, reply) => {
      if (msg.name === 'Initialize' || msg.name === 'ButtonAck') {
        sent++;
        reply.message('ButtonRequest', { code: 1, name: 'other' });
      }
    });
    const { result, person: p } = await connect(e.port, 5000);
    const err = await failureOf(result);
    expect(err.errorCode).toBe('TREZOR_DEVICE_ERROR');
    expect(err.message).toContain(`more than ${MAX_BUTTON_REQUESTS} confirmations`);
    expect(p.buttons.length).toBe(MAX_BUTTON_REQUESTS);
    expect(e.received.filter((n) => n === 'ButtonAck')).toHaveLength(MAX_BUTTON_REQUESTS);
    expect(sent).toBe(MAX_BUTTON_REQUESTS + 1);
  });
});

describe('the emulator link takes datagrams only from the emulator (item 10)', () => {
  it('a forged signature from 127.0.0.2 on the emulator port is never read; the device’s own is returned', async () => {
    const device = new FakeTrezor();
    const emu = await startFakeEmulator(device);
    closers.push(() => emu.close());
    // Another local program, on 127.0.0.2 with the emulator's port number.
    const spoofer = dgram.createSocket('udp4');
    await new Promise<void>((r) => spoofer.bind(emu.port, '127.0.0.2', r));
    closers.push(() => new Promise<void>((r) => spoofer.close(() => r())));
    const forged = encode('EthereumTypedDataSignature', { signature: new Uint8Array(65).fill(7), address: FakeTrezor.addressAt(PATH) });
    let spoofed = 0;
    let signerPort = 0;
    // Just before the device sends its signature, the spoofer sends a forged one to the signer's port.
    const real = device.onReport;
    let chain = Promise.resolve();
    device.onReport = (r) => {
      const isSignature = r[1] === 0x23 && r.readUInt16BE(3) === WIRE_TYPES['EthereumTypedDataSignature'];
      chain = chain.then(async () => {
        if (isSignature && signerPort) {
          for (const report of toReports(forged.type, forged.payload)) await new Promise<void>((ok) => spoofer.send(report, signerPort, '127.0.0.1', () => ok()));
          spoofed++;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        real(r);
      });
    };
    const wire = await openUdpWire('127.0.0.1', emu.port);
    closers.push(() => wire.close());
    const signer = await TrezorSigner.connect({ wire, interaction: person(() => device), path: PATH, showAddress: false, confirmHashes: async () => true, stepTimeoutMs: 5000 });
    signerPort = peerOf(emu)!.port;
    const data = withdrawTypedData({ account_id: FakeTrezor.addressAt(PATH).toLowerCase() + '0'.repeat(24), amount: '25', nonce: '1763700001000', signature_chain_id: 998 }, 'Testnet');
    const sig = await signer.signTypedData(data);
    expect(spoofed).toBe(1);
    expect(sig).not.toContain('0707070707');
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
  });
});
