/** Shared set-up of the Trezor signer tests: a fake device on a fake USB stack, and a scripted person. */
import { TrezorSigner, type ConfirmHashes } from '../../../../src/main/signers/trezor/trezorSigner.js';
import type { ButtonPrompt, PassphraseAnswer, TrezorInteraction } from '../../../../src/main/signers/trezor/session.js';
import { openUsbWire } from '../../../../src/main/signers/trezor/usbLink.js';
import { FakeTrezor, type FakeTrezorOptions } from '../../../support/trezor/fakeTrezor.js';
import { FakeUsbTrezor, fakeUsb } from '../../../support/trezor/fakeUsb.js';

export const PATH = "m/44'/60'/0'/0/0";

/** Positions of `pin`'s digits on the matrix the device shows, as the person reads them off the screen. */
export function positionsFor(device: FakeTrezor, pin: string): string {
  const matrix = device.shownMatrix;
  if (!matrix) throw new Error('the device shows no PIN matrix');
  return [...pin].map((d) => String(matrix.indexOf(d) + 1)).join('');
}

export interface Person extends TrezorInteraction {
  readonly buttons: ButtonPrompt[];
  pinAsks: number;
  passphraseAsks: number;
}

export function person(device: () => FakeTrezor, o: { pin?: string; passphrase?: PassphraseAnswer | Error; pinError?: Error } = {}): Person {
  const p: Person = {
    buttons: [],
    pinAsks: 0,
    passphraseAsks: 0,
    pinPositions: async () => {
      p.pinAsks++;
      if (o.pinError) throw o.pinError;
      return positionsFor(device(), o.pin ?? '');
    },
    passphrase: async () => {
      p.passphraseAsks++;
      if (o.passphrase instanceof Error) throw o.passphrase;
      return o.passphrase ?? { passphrase: '' };
    },
    button: (b) => void p.buttons.push(b),
  };
  return p;
}

export interface Rig {
  device: FakeTrezor;
  usb: FakeUsbTrezor;
  person: Person;
  hashes: Parameters<ConfirmHashes>[0][];
  connect(extra?: { expectedAddress?: string; showAddress?: boolean; confirmHashes?: ConfirmHashes }): Promise<TrezorSigner>;
}

export function rig(options: FakeTrezorOptions = {}, personOptions: Parameters<typeof person>[1] = {}): Rig {
  const device = new FakeTrezor(options);
  const usb = new FakeUsbTrezor(device);
  const r: Rig = {
    device,
    usb,
    person: person(() => device, personOptions),
    hashes: [],
    connect: (extra = {}) =>
      TrezorSigner.connect({
        wire: openUsbWire(fakeUsb(usb)),
        interaction: r.person,
        path: PATH,
        showAddress: extra.showAddress ?? true,
        ...(extra.expectedAddress ? { expectedAddress: extra.expectedAddress } : {}),
        confirmHashes:
          extra.confirmHashes ??
          (async (prompt) => {
            r.hashes.push(prompt);
            return true;
          }),
      }),
  };
  return r;
}
