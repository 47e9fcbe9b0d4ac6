/**
 * `--signer trezor[:PATH]` on the command line: the main wallet on a Trezor, for custody actions.
 *
 *   PATH   a derivation path (m/44'/60'/0'/0/0; h may stand for ') or SCHEME[:INDEX] as for the Ledger;
 *          default bip44:0, which is m/44'/60'/0'/0/0 (Trezor Suite's first Ethereum account).
 *
 * The device is reached through Trezor Bridge when it runs, USB otherwise, or the emulator when
 * PERPS_TREZOR_TRANSPORT=udp[:HOST:PORT] (loopback only). When the signer is opened, the device is probed
 * (model, firmware, seed) and released, so a missing or unsuitable Trezor is reported before any nonce
 * is taken. Each signature then opens it, shows the address of PATH on its screen before the first
 * signature of the run (it must be --wallet), signs and releases it.
 *
 * The person's side is on the terminal: the Model One's PIN as POSITIONS on the scrambled matrix the
 * device shows (typed without echo on a terminal, read as a line from a pipe: positions mean nothing
 * without the device's screen), the passphrase (typed here, or on the device when it can take it), and
 * what the device is showing. The Model One signs only two hashes: they are printed, and a typed 'yes'
 * (or --allow-blind-signing) is needed, as for a Ledger that cannot clear-sign.
 */
import type { Writable } from 'node:stream';
import { toChecksumAddress } from '../shared/identity/index.js';
import { oneLineText } from '../shared/safeText.js';
import type { TypedData } from '../shared/eip712/index.js';
import { OperationError, ValidationError } from '../main/services/errors.js';
import type { Signer } from '../main/signers/signer.js';
import type { BlindSigningPrompt } from '../main/signers/ledger/ledgerSigner.js';
import { initialize } from '../main/signers/trezor/deviceCalls.js';
import { openTrezorWire, parseTrezorTransport, TRANSPORT_ENV, type OpenTrezorDeps } from '../main/signers/trezor/openTrezor.js';
import { TrezorSession, type ButtonPrompt, type PassphraseAnswer, type TrezorInteraction } from '../main/signers/trezor/session.js';
import { TrezorError } from '../main/signers/trezor/trezorErrors.js';
import { TrezorSigner } from '../main/signers/trezor/trezorSigner.js';
import type { MessageWire } from '../main/signers/trezor/wire.js';
import { askHashConsentOnTerminal, parseDerivationArg, readLine, type PromptInput } from './ledgerSigning.js';
import { promptHidden, type RawStdin } from './prompt.js';

const PATH_HINT = "Use --signer trezor, trezor:bip44:INDEX (also ledger-live, legacy) or trezor:m/44'/60'/...";

/** The canonical "m/..." path of `trezor:PATH`; a bad one is a usage error (exit 2). */
export function parseTrezorPath(arg: string | undefined): string {
  return parseDerivationArg(arg, { code: 'INVALID_TREZOR_PATH', hint: PATH_HINT, defaultScheme: 'bip44' });
}

/** A Trezor failure as a command-line failure: bad settings are usage errors (exit 2), the rest failed operations. */
export function trezorFailure(err: unknown): unknown {
  if (!(err instanceof TrezorError)) return err;
  if (err.code === 'INVALID_SETTING') return new ValidationError(err.message, { field: 'signer', code: 'INVALID_TREZOR_SETTING', cause: err, ...(err.errorHint ? { hint: err.errorHint } : {}) });
  return new OperationError(err.errorCode, err.message, { kind: err.errorKind === 'transient' ? 'transient' : 'rejected', cause: err, hint: err.errorHint });
}

/** What each device screen asks of the person, in the terminal's words (a Map: the name comes from the device). */
const SCREENS = new Map<string, string>(Object.entries({
  show_address: 'check that the address on the Trezor is --wallet, then confirm it there',
  confirm_address: 'the Trezor shows the signing address: check it is --wallet and confirm',
  confirm_typed_value: 'the Trezor shows the values: check each one against the summary above and confirm',
  should_show_struct: 'the Trezor asks whether to show the full message: choose to show it, and check every field',
  confirm_typed_data_final: 'confirm signing on the Trezor (reject there if anything differs)',
  confirm_domain_hash: 'the Trezor shows the domain hash: compare it with the one printed above',
  confirm_message_hash: 'the Trezor shows the message hash: compare it with the one printed above',
  pin_device: 'enter your PIN on the Trezor',
  passphrase_device: 'type your passphrase on the Trezor',
}));

export interface TerminalIo {
  stdin: PromptInput & { setRawMode?: (mode: boolean) => unknown };
  stderr: Writable;
}

/** Hidden on a terminal, a plain line from a pipe; the end of input is a cancelled entry. */
async function ask(io: TerminalIo, prompt: string): Promise<string> {
  if (io.stdin.isTTY === true && io.stdin.setRawMode) return promptHidden(prompt, io.stdin as RawStdin, io.stderr);
  io.stderr.write(prompt);
  const line = await readLine(io.stdin);
  if (line === null) throw new TrezorError('DEVICE_LOCKED', 'No answer on standard input: the Trezor was told to cancel.');
  return line.replace(/\r$/, '');
}

/** The person's side of the Trezor on a terminal. */
export function terminalInteraction(io: TerminalIo): TrezorInteraction {
  let lastScreen: string | undefined;
  return {
    async pinPositions() {
      io.stderr.write(
        [
          'Trezor: enter your PIN. The Trezor shows its digits scrambled on a 3x3 grid; type the POSITION of each',
          'of your digits on that grid, read like a numeric keypad (never the digits themselves):',
          '    7 8 9',
          '    4 5 6',
          '    1 2 3',
          '',
        ].join('\n'),
      );
      return ask(io, 'PIN positions: ');
    },
    async passphrase(onDeviceAvailable): Promise<PassphraseAnswer> {
      if (onDeviceAvailable) {
        const typed = await ask(io, 'Trezor passphrase (press Enter alone to type it on the Trezor instead): ');
        return typed === '' ? { onDevice: true } : { passphrase: typed };
      }
      return { passphrase: await ask(io, 'Trezor passphrase (press Enter alone for the standard wallet): ') };
    },
    button(prompt: ButtonPrompt) {
      const name = prompt.name ?? 'other';
      if (name === lastScreen) return;
      lastScreen = name;
      io.stderr.write(`Trezor: ${SCREENS.get(name) ?? 'confirm on the Trezor'}.\n`);
    },
  };
}

/** The Model One's hash signing, on the terminal: the hashes, and an explicit yes (or --allow-blind-signing). */
export function confirmHashesOnTerminal(prompt: BlindSigningPrompt, io: TerminalIo & { allow: boolean }): Promise<boolean> {
  return askHashConsentOnTerminal(io, {
    banner: [
      '*** SIGNING BY HASHES ***',
      `The Trezor Model One cannot show this ${prompt.primaryType} field by field; it shows two hashes and nothing else.`,
      'Compare both on the device screen with these, in full:',
      `  domain hash (domain separator): ${prompt.domainSeparatorHex}`,
      `  message hash:                   ${prompt.messageHashHex}`,
      'Confirm on the device only if both match.',
    ],
    refusal: 'signing by hashes needs your consent, and there is no terminal to ask on',
    hint: 'Run the command in a terminal and type yes after comparing the hashes, or pass --allow-blind-signing. Nothing was signed.',
    question: "Type 'yes' to continue, anything else to cancel: ",
  });
}

export interface CliTrezorOptions extends TerminalIo {
  wallet: string;
  path: string;
  allowBlindSigning: boolean;
  env: NodeJS.ProcessEnv;
  /** Tests: stand-ins for the usb module or Bridge. */
  deps?: OpenTrezorDeps;
}

/** Opens (probes) the Trezor signer of `--signer trezor[:PATH]`. Errors are command-line errors. */
export async function openCliTrezorSigner(options: CliTrezorOptions): Promise<Signer> {
  let setting;
  try {
    setting = parseTrezorTransport(options.env[TRANSPORT_ENV]);
  } catch (err) {
    throw trezorFailure(err);
  }
  const signer = new CliTrezorSigner(options, () => openTrezorWire(setting, options.deps));
  await signer.probe();
  return signer;
}

class CliTrezorSigner implements Signer {
  readonly kind = 'trezor' as const;
  readonly address: string;
  readonly #options: CliTrezorOptions;
  readonly #open: () => Promise<MessageWire>;
  readonly #interaction: TrezorInteraction;
  #confirmed = false;

  constructor(options: CliTrezorOptions, open: () => Promise<MessageWire>) {
    this.#options = options;
    this.address = toChecksumAddress(options.wallet, 'wallet');
    this.#open = open;
    this.#interaction = terminalInteraction(options);
  }

  /** Present, initialized, firmware new enough, not a Safe 7; released again. */
  async probe(): Promise<void> {
    await this.#withWire(async (wire) => {
      const model = await initialize(new TrezorSession(wire, this.#interaction));
      this.#options.stderr.write(
        `Trezor: ${model.name}${model.label ? ` "${oneLineText(model.label)}"` : ''}, firmware ${model.firmware}, via ${wire.via}${model.mode === 'hashes' ? ' (signs by hashes only)' : ''}.\n`,
      );
    });
  }

  signTypedData(data: TypedData): Promise<string> {
    return this.#withWire(async (wire) => {
      const { stderr, path } = this.#options;
      if (!this.#confirmed) stderr.write(`Trezor: the device will show the address of ${path}; it must be ${this.address}.\n`);
      const signer = await TrezorSigner.connect({
        wire,
        interaction: this.#interaction,
        path,
        expectedAddress: this.address,
        showAddress: !this.#confirmed,
        confirmHashes: (prompt) => confirmHashesOnTerminal(prompt, { ...this.#options, allow: this.#options.allowBlindSigning }),
      });
      this.#confirmed = true;
      stderr.write(`Trezor: review the ${data.primaryType} on the device and confirm it there.\n`);
      return signer.signTypedData(data);
    });
  }

  async #withWire<T>(op: (wire: MessageWire) => Promise<T>): Promise<T> {
    let wire: MessageWire;
    try {
      wire = await this.#open();
    } catch (err) {
      throw trezorFailure(err);
    }
    try {
      return await op(wire);
    } catch (err) {
      throw trezorFailure(err);
    } finally {
      await wire.close().catch((err: unknown) => this.#options.stderr.write(`warning: releasing the Trezor failed: ${oneLineText(err instanceof Error ? err.message : String(err))}\n`));
    }
  }
}
