/**
 * Cancel through Trezor Bridge (issue 36, item 16), against a fake Bridge that runs one /call or /read
 * per session as trezord does. During a device screen our /read waits; Cancel must still reach the
 * device. trezord since 2.0.29 takes a /post then; older ones refuse it ("other call in progress"), and
 * the wire releases the pending read, takes the device again and calls with Cancel. Either way the
 * signature ends as CANCELLED, never as "another program holds the Trezor". A silent device through
 * Bridge ends as TREZOR_TIMEOUT with its read released (item 8). All on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withdrawTypedData } from '../../../../src/shared/eip712/index.js';
import { openBridgeWire } from '../../../../src/main/signers/trezor/bridgeWire.js';
import { TrezorError } from '../../../../src/main/signers/trezor/trezorErrors.js';
import { TrezorSigner } from '../../../../src/main/signers/trezor/trezorSigner.js';
import { FakeTrezor } from '../../../support/trezor/fakeTrezor.js';
import { startFakeBridge, type FakeBridge } from '../../../support/trezor/fakeBridge.js';
import { PATH, person } from './support.js';

const WALLET = FakeTrezor.addressAt(PATH);
const withdrawal = withdrawTypedData({ account_id: WALLET.toLowerCase() + '0'.repeat(24), amount: '25', nonce: '1763700001000', signature_chain_id: 998 }, 'Testnet');
const bridges: FakeBridge[] = [];

afterEach(async () => {
  for (const b of bridges.splice(0)) await b.close();
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

async function failureOf(p: Promise<unknown>): Promise<TrezorError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrezorError);
  return err as TrezorError;
}

/** A device waiting at its final screen, a signature pending through the Bridge, and Cancel pressed in the app. */
async function cancelAtFinalScreen(postChecksCall: boolean): Promise<{ device: FakeTrezor; bridge: FakeBridge; err: TrezorError; signer: TrezorSigner }> {
  const device = new FakeTrezor({ decide: (s) => (s.name === 'confirm_typed_data_final' ? 'wait' : 'confirm') });
  const bridge = await startFakeBridge(device, { postChecksCall });
  bridges.push(bridge);
  const signer = await TrezorSigner.connect({ wire: await openBridgeWire(bridge.url), interaction: person(() => device), path: PATH, showAddress: false, confirmHashes: async () => true, stepTimeoutMs: 5000 });
  const pending = signer.signTypedData(withdrawal);
  // The device shows its final screen and has its ButtonAck; the /read of its answer is under way.
  await until(
    () =>
      device.screens.at(-1)?.name === 'confirm_typed_data_final' &&
      device.received.filter((m) => m === 'ButtonAck').length === device.screens.length &&
      bridge.calls.slice(-2).join() === 'post,read',
    'the pending read at the final screen',
  );
  await signer.cancel();
  const err = await failureOf(pending);
  return { device, bridge, err, signer };
}

describe('Cancel through Trezor Bridge (item 16)', () => {
  it('the fake Bridge refuses a second /read on a session as trezord does, and releases a session whose read goes away', async () => {
    const device = new FakeTrezor();
    const bridge = await startFakeBridge(device);
    bridges.push(bridge);
    const session = ((await (await fetch(`${bridge.url}/acquire/1/null`, { method: 'POST' })).json()) as { session: string }).session;
    const first = new AbortController();
    const pending = fetch(`${bridge.url}/read/${session}`, { method: 'POST', signal: first.signal }).catch(() => null);
    await until(() => bridge.calls.filter((c) => c === 'read').length === 1, 'the first read');
    const second = await fetch(`${bridge.url}/read/${session}`, { method: 'POST' });
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ error: 'other call in progress' });
    first.abort();
    await pending;
    await until(() => bridge.session === null, 'the auto-release');
    const after = await fetch(`${bridge.url}/read/${session}`, { method: 'POST' });
    expect(await after.json()).toEqual({ error: 'session not found' });
  });

  it('trezord 2.0.29 and later: Cancel goes as a /post beside the pending /read; the signature ends CANCELLED', async () => {
    const { device, bridge, err, signer } = await cancelAtFinalScreen(false);
    expect(err.code).toBe('CANCELLED');
    expect(device.received.at(-1)).toBe('Cancel');
    expect(bridge.refusals).toEqual([]);
    await signer.close();
    expect(bridge.session).toBeNull();
  });

  it('older trezord refuses the /post: the pending read is released, the device taken again and Cancel called; CANCELLED, not DEVICE_BUSY', async () => {
    const { device, bridge, err, signer } = await cancelAtFinalScreen(true);
    expect(err.code).toBe('CANCELLED');
    expect(err.message).not.toMatch(/Another program/);
    expect(device.received.at(-1)).toBe('Cancel');
    expect(bridge.refusals).toEqual(['post: other call in progress']);
    // Released read, then acquire again and one /call with the Cancel.
    const tail = bridge.calls.slice(bridge.calls.lastIndexOf('post'));
    expect(tail).toContain('acquire');
    expect(tail.at(-1)).toBe('call');
    // The wire follows the new session, and releases it on close.
    const held = bridge.session;
    expect(held).not.toBeNull();
    await signer.close();
    expect(bridge.calls.at(-1)).toBe('release');
    expect(bridge.session).toBeNull();
  });

  it('a device silent after Initialize through Bridge: TREZOR_TIMEOUT, and the pending read is released', async () => {
    const device = new FakeTrezor();
    const bridge = await startFakeBridge(device);
    bridges.push(bridge);
    // The device swallows Initialize and never answers.
    device.receiveReport = () => undefined;
    const wire = await openBridgeWire(bridge.url);
    const err = await failureOf(TrezorSigner.connect({ wire, interaction: person(() => device), path: PATH, showAddress: false, confirmHashes: async () => true, stepTimeoutMs: 300 }));
    expect(err.errorCode).toBe('TREZOR_TIMEOUT');
    await until(() => bridge.session === null, 'the session released');
  });
});
