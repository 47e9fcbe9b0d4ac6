/**
 * The Trezor as the app's main wallet, through the REAL IPC handlers, with the firmware-faithful fake
 * device behind a fake USB stack (PERPS_TREZOR_TRANSPORT=usb, the harness injecting the usb module):
 *  - a Safe 5 connects (the device shows the address; only the path and address are remembered) and
 *    signs a withdrawal struct by struct that completes against the simulator;
 *  - a locked Model One asks for its PIN through trezorPrompt, answered as positions on the matrix the
 *    device shows (digits or anything else is refused at the IPC boundary), and signs by hashes after
 *    the blind-signing confirmation shows both;
 *  - trezor:cancel during a screen on the device reaches the device (it receives Cancel) and ends as
 *    TREZOR_CANCELLED; rejecting on the device is TREZOR_REJECTED_ON_DEVICE; a Safe 7 and an old
 *    firmware are refused with their own codes; no device is TREZOR_NO_DEVICE;
 *  - over the emulator's UDP port on loopback, a Model T authorizes a trading key the simulator accepts.
 *
 * The simulator runs a manual clock (issue 37): the deposit's credit and a withdrawal's steps come as the
 * test moves it (advanceUntil); the device's screens and prompts take no simulated time.
 *
 * The harness is shared, but each test builds what it needs: ensure helpers look at the actual state,
 * the connected wallet (wallet:current), the free balance and the fake device plugged in (its model,
 * what it decides, whether the app connected through it), and plug, connect, unplug, disconnect or fund
 * only what is missing; each test reads the prompts raised after its start. So every test passes alone
 * or in any order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload, TrezorPrompt } from '../../../src/shared/ipc.js';
import { FakeTrezor, type FakeTrezorOptions } from '../../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor } from '../../support/trezor/fakeUsb.js';
import { startFakeEmulator, type FakeEmulator } from '../../support/trezor/fakeEmulator.js';
import type { UsbDeviceLike } from '../../../src/main/signers/trezor/usbLink.js';
import { AppHarness } from './appHarness.js';

const PATH = "m/44'/60'/0'/0/0";
const ADDRESS = FakeTrezor.addressAt(PATH);
/** A long PIN, so its positions are a string no log line or file would hold by chance. */
const PIN = '918273645192';

describe('Trezor main wallet through IPC', () => {
  let h: AppHarness;
  const plugged: UsbDeviceLike[] = [];
  const plug = (options: FakeTrezorOptions): FakeTrezor => {
    const device = new FakeTrezor(options);
    plugged.splice(0, plugged.length, new FakeUsbTrezor(device));
    return device;
  };
  const prompts = () => h.eventsOf<TrezorPrompt>('trezorPrompt').map((e) => e.payload);
  const waitPrompt = (kind: TrezorPrompt['kind'], after: number) => h.waitFor(`a ${kind} prompt`, () => prompts().slice(after).find((p) => p.kind === kind));
  const withdrawalDone = (intent: string) =>
    h.advanceUntil(
      'the withdrawal to complete',
      () =>
        h
          .eventsOf<IpcEventPayload<'withdrawals'>>('withdrawals')
          .flatMap((e) => e.payload.withdrawals)
          .some((w) => w.intent_id === intent && w.status === 'COMPLETED'),
      100,
    );

  /** A withdrawal needs funds: 500 USDC from the faucet to the connected wallet when it has less than 100 free, awaited until credited. */
  const ensureFunded = async (): Promise<void> => {
    if (new Decimal((await h.call('account:balance', {})).free_balance).gte('100')) return;
    await h.faucet('500');
  };
  /** Nothing plugged in and no signer connected. */
  const ensureNothingConnected = async (): Promise<void> => {
    plugged.splice(0, plugged.length);
    if ((await h.call('wallet:current', {})).signer !== null) await h.call('wallet:disconnect', {});
  };
  /**
   * A Safe 5 that confirms every screen, plugged in and connected at PATH: kept when the device plugged in
   * is one (not set to be unplugged) the app connected through (it showed the address) and the wallet is
   * its address; plugged and connected afresh otherwise.
   */
  const ensureSafe5 = async (): Promise<FakeUsbTrezor> => {
    const usb = plugged[0] as FakeUsbTrezor | undefined;
    const d = usb?.device;
    const current = await h.call('wallet:current', {});
    const usable =
      d !== undefined &&
      usb!.unplugAfterReports === undefined &&
      d.options.model === 'T3T1' &&
      d.options.pin === undefined &&
      !d.options.passphraseProtection &&
      d.options.decide({ name: 'confirm_typed_data_final', code: 0, title: '', lines: [] }) === 'confirm' &&
      d.screens.some((s) => s.name === 'show_address') &&
      current.signer?.kind === 'trezor' &&
      current.address === ADDRESS;
    if (usable) return usb!;
    plug({ model: 'T3T1' });
    await h.call('trezor:connect', { path: PATH });
    return plugged[0] as FakeUsbTrezor;
  };

  beforeAll(async () => {
    h = await AppHarness.start('trezor', { env: { PERPS_TREZOR_TRANSPORT: 'usb' }, core: { trezor: { usb: { getDeviceList: () => plugged } } } });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  it('no device plugged in is TREZOR_NO_DEVICE, and nothing is connected', async () => {
    await ensureNothingConnected();
    const err = await h.fail('trezor:connect', { path: PATH });
    expect(err.code).toBe('TREZOR_NO_DEVICE');
    expect(err.hint).toMatch(/udev/);
    expect((await h.call('wallet:current', {})).signer).toBeNull();
  });

  it('connects a Safe 5: the device shows the address, and only the path and address are remembered', async () => {
    const device = plug({ model: 'T3T1' });
    const from = prompts().length;
    const view = await h.call('trezor:connect', { path: PATH });
    expect(view).toMatchObject({ address: ADDRESS, signer: { kind: 'trezor', label: `Trezor Safe 5 ${PATH}`, path: PATH }, last_signer_kind: 'trezor' });
    expect(device.screens.map((s) => s.name)).toContain('show_address');
    expect(prompts().slice(from).find((p) => p.kind === 'button')).toMatchObject({ model: 'Trezor Safe 5', screen: { name: 'show_address' } });
    expect(prompts().at(-1)?.kind).toBe('idle');
  });

  it('a withdrawal signed on the Safe 5, struct by struct, completes against the simulator', async () => {
    const device = await ensureSafe5();
    await ensureFunded();
    const preview = await h.call('withdraw:preview', { amount: '20' });
    const tracked = await h.call('withdraw:submit', { review_id: preview.review.review_id });
    expect(tracked).toMatchObject({ amount: '20', phase: 'TRACKING' });
    expect(device.device.requests).toContain('struct:Withdraw');
    expect(device.device.screens.map((s) => s.name)).toContain('confirm_typed_data_final');
    await withdrawalDone(tracked.intent_id);
  });

  it('rejected on the device is TREZOR_REJECTED_ON_DEVICE, and nothing is sent', async () => {
    plug({ model: 'T3T1', decide: (s) => (s.name === 'confirm_typed_data_final' ? 'reject' : 'confirm') });
    await h.call('trezor:connect', { path: PATH });
    await ensureFunded();
    const before = (await h.call('withdraw:list', {})).withdrawals.length;
    const preview = await h.call('withdraw:preview', { amount: '5' });
    const err = await h.fail('withdraw:submit', { review_id: preview.review.review_id });
    expect(err).toMatchObject({ code: 'TREZOR_REJECTED_ON_DEVICE', kind: 'rejected' });
    expect(err.message).toMatch(/rejected on the Trezor/);
    expect((await h.call('withdraw:list', {})).withdrawals.length).toBe(before);
  });

  it('trezor:cancel while the device shows the withdrawal reaches the device and ends as TREZOR_CANCELLED', async () => {
    const device = plug({ model: 'T3T1', decide: (s) => (s.name === 'confirm_typed_data_final' ? 'wait' : 'confirm') });
    await h.call('trezor:connect', { path: PATH });
    await ensureFunded();
    const from = prompts().length;
    const preview = await h.call('withdraw:preview', { amount: '5' });
    const submitted = h.invoke('withdraw:submit', { review_id: preview.review.review_id });
    await h.waitFor('the final screen', () => prompts().slice(from).find((p) => p.kind === 'button' && p.screen?.name === 'confirm_typed_data_final'));
    expect(await h.call('trezor:cancel', {})).toEqual({ cancelled: true });
    const r = await submitted;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('TREZOR_CANCELLED');
    expect(device.received).toContain('Cancel');
    // Nothing is under way now: a second cancel has nothing to stop.
    expect(await h.call('trezor:cancel', {})).toEqual({ cancelled: false });
  });

  it('a locked Model One asks for its PIN as positions; digits and junk are refused at the boundary; hashes are confirmed in the app', async () => {
    const device = plug({ model: 'T1B1', version: [1, 12, 1], pin: PIN });
    const from = prompts().length;
    const connecting = h.call('trezor:connect', { path: PATH });
    const pin = await waitPrompt('pin', from);
    expect(pin).toMatchObject({ model: 'Trezor Model One', passphrase_on_device: false });
    for (const bad of [{ positions: '0123' }, { positions: 'abc' }, { positions: '' }, { positions: '1'.repeat(51) }, { positions: 1234 }, { positions: '12', extra: 1 }]) {
      expect((await h.fail('trezor:answerPin', { prompt_id: pin.prompt_id, ...bad })).code).toBe('INVALID_PAYLOAD');
    }
    expect(await h.call('trezor:answerPin', { prompt_id: 'not-the-prompt', positions: '123' })).toEqual({ delivered: false });
    const matrix = device.shownMatrix!;
    const positions = [...PIN].map((d) => String(matrix.indexOf(d) + 1)).join('');
    expect(await h.call('trezor:answerPin', { prompt_id: pin.prompt_id, positions })).toEqual({ delivered: true });
    expect(await connecting).toMatchObject({ address: ADDRESS, signer: { kind: 'trezor', label: `Trezor Model One ${PATH}` } });
    await ensureFunded();

    // Withdraw: the Model One signs two hashes, shown first in the blind-signing confirmation.
    const preview = await h.call('withdraw:preview', { amount: '7' });
    const blind = () => h.eventsOf<IpcEventPayload<'blindSigningRequest'>>('blindSigningRequest');
    const seen = blind().length;
    const submitted = h.call('withdraw:submit', { review_id: preview.review.review_id });
    const ask = await h.waitFor('the hashes to confirm', () => blind()[seen]);
    expect(ask.payload).toMatchObject({ primary_type: 'Withdraw' });
    expect(ask.payload.summary.join(' ')).toMatch(/7/);
    await h.call('prompt:respondBlindSigning', { prompt_id: ask.payload.prompt_id, accept: true });
    const tracked = await submitted;
    expect(device.screens.map((s) => s.name)).toEqual(expect.arrayContaining(['confirm_domain_hash', 'confirm_message_hash']));
    await withdrawalDone(tracked.intent_id);

    // The PIN (and its positions) are nowhere: not in the logs, not in any file of the data folder.
    const files = fs.readdirSync(h.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const f of files) {
      const text = fs.readFileSync(path.join(f.parentPath, f.name), 'latin1');
      expect(text).not.toContain(positions);
      expect(text).not.toContain(PIN);
    }
    expect(h.logs.join('\n')).not.toContain(positions);
    expect(JSON.stringify(h.exchanges.filter((x) => x.channel !== 'trezor:answerPin'))).not.toContain(positions);
  }, 60_000);

  it('cancel while the PIN is asked sends Cancel to the device: TREZOR_CANCELLED', async () => {
    const device = plug({ model: 'T1B1', version: [1, 12, 1], pin: PIN });
    const from = prompts().length;
    const connecting = h.invoke('trezor:connect', { path: PATH });
    await waitPrompt('pin', from);
    expect(await h.call('trezor:cancel', {})).toEqual({ cancelled: true });
    const r = await connecting;
    expect(!r.ok && r.error.code).toBe('TREZOR_CANCELLED');
    expect(device.received).toContain('Cancel');
  });

  it('a passphrase typed in the app opens its wallet, one entered on the device too; neither is kept', async () => {
    const SECRET = 'correct horse battery staple 42';
    plug({ model: 'T3T1', passphraseProtection: true, devicePassphrase: 'on the device' });
    let from = prompts().length;
    const typed = h.call('trezor:connect', { path: PATH });
    const ask = await waitPrompt('passphrase', from);
    expect(ask).toMatchObject({ model: 'Trezor Safe 5', passphrase_on_device: true });
    expect((await h.fail('trezor:answerPassphrase', { prompt_id: ask.prompt_id, passphrase: 'x'.repeat(51) })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('trezor:answerPassphrase', { prompt_id: ask.prompt_id, on_device: false })).code).toBe('INVALID_PAYLOAD');
    expect(await h.call('trezor:answerPassphrase', { prompt_id: ask.prompt_id, passphrase: SECRET })).toEqual({ delivered: true });
    expect((await typed).address).toBe(FakeTrezor.addressAt(PATH, SECRET));

    plug({ model: 'T3T1', passphraseProtection: true, devicePassphrase: 'on the device' });
    from = prompts().length;
    const onDevice = h.call('trezor:connect', { path: PATH });
    const second = await waitPrompt('passphrase', from);
    await h.call('trezor:answerPassphrase', { prompt_id: second.prompt_id, on_device: true });
    expect((await onDevice).address).toBe(FakeTrezor.addressAt(PATH, 'on the device'));
    expect(prompts().slice(from).some((p) => p.kind === 'button' && p.screen?.name === 'passphrase_device')).toBe(true);

    for (const f of fs.readdirSync(h.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
      expect(fs.readFileSync(path.join(f.parentPath, f.name), 'latin1')).not.toContain(SECRET);
    }
    expect(h.logs.join('\n')).not.toContain(SECRET);
  });

  it('a Trezor unplugged while signing is TREZOR_DISCONNECTED, and nothing is sent', async () => {
    plug({ model: 'T3T1' });
    await h.call('trezor:connect', { path: PATH });
    await ensureFunded();
    const usb = plugged[0] as FakeUsbTrezor;
    const before = (await h.call('withdraw:list', {})).withdrawals.length;
    const preview = await h.call('withdraw:preview', { amount: '5' });
    usb.unplugAfterReports = usb.reportsIn + 3;
    const err = await h.fail('withdraw:submit', { review_id: preview.review.review_id });
    expect(err.code).toBe('TREZOR_DISCONNECTED');
    expect((await h.call('withdraw:list', {})).withdrawals.length).toBe(before);
  });

  it('a Safe 7, an old firmware and a bad path are refused with their own codes', async () => {
    plug({ model: 'T3W1' });
    expect((await h.fail('trezor:connect', { path: PATH })).code).toBe('TREZOR_UNSUPPORTED_MODEL');
    plug({ model: 'T2T1', version: [2, 4, 2] });
    const old = await h.fail('trezor:connect', { path: PATH });
    expect(old.code).toBe('TREZOR_FIRMWARE_TOO_OLD');
    expect(old.message).toMatch(/2\.4\.3/);
    plug({ model: 'T3T1' });
    expect((await h.fail('trezor:connect', { path: "m/44'/60'/x" })).code).toBe('VALIDATION');
    for (const bad of [{}, { path: 7 }, { path: PATH, device: 'x' }, { path: 'm/'.repeat(40) }]) expect((await h.fail('trezor:connect', bad)).code).toBe('INVALID_PAYLOAD');
  });
});

describe('Trezor main wallet through IPC, over the emulator port (PERPS_TREZOR_TRANSPORT=udp:127.0.0.1:PORT)', () => {
  let h: AppHarness;
  let emulator: FakeEmulator;
  const device = new FakeTrezor({ model: 'T2T1' });

  beforeAll(async () => {
    emulator = await startFakeEmulator(device);
    h = await AppHarness.start('trezor-udp', { env: { PERPS_TREZOR_TRANSPORT: `udp:127.0.0.1:${emulator.port}` } });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
    await emulator?.close();
  });

  it('connects the Model T and authorizes a trading key it signed struct by struct, which the simulator accepts', async () => {
    const view = await h.call('trezor:connect', { path: PATH });
    expect(view).toMatchObject({ address: ADDRESS, signer: { kind: 'trezor', label: `Trezor Model T ${PATH}` } });
    const { agent } = await h.call('keys:create', { name: 'trezor' });
    const review = await h.call('keys:review', { action: 'authorize', agent });
    await h.call('keys:authorize', { review_id: review.review_id });
    expect(device.requests).toContain('struct:AuthorizeAgent');
    const { keys } = await h.call('keys:list', {});
    expect(keys.find((k) => k.agent === agent)).toMatchObject({ status: 'ACTIVE' });
  });
});
