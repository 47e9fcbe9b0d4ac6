/**
 * `--signer ledger[:PATH]` on the command line: the main wallet on a Ledger, for custody actions.
 *
 *   PATH   a derivation path (m/44'/60'/0'/0/0; h may stand for ' so the shell needs no quoting), or
 *          SCHEME[:INDEX] with SCHEME ledger-live, legacy or bip44 (see derivationPaths.ts); default
 *          ledger-live:0, which is m/44'/60'/0'/0/0.
 *
 * When the signer is opened the device is probed (present, unlocked, Ethereum app open) and released, so
 * a missing device is reported before any nonce is taken. Each signature then opens the device, shows
 * the address of PATH on its screen before the first signature of the run (the user compares it with
 * --wallet there; a device deriving another address is refused), signs and releases the device again, so
 * a command that fails before or after signing never leaves it held.
 *
 * Clear signing is the normal path. When the Ethereum app cannot clear-sign (a Nano S, an old app), the
 * terminal says that this is BLIND signing and prints the two hashes to compare with the device screen;
 * nothing goes to the device until the user types 'yes'. Without a terminal to ask on, blind signing is
 * refused unless --allow-blind-signing was given.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { sameAddress, toChecksumAddress } from '../shared/identity/index.js';
import type { TypedData } from '../shared/eip712/index.js';
import { oneLineText } from '../shared/safeText.js';
import { OperationError, ValidationError } from '../main/services/errors.js';
import type { Signer } from '../main/signers/signer.js';
import { readAddress } from '../main/signers/ledger/accounts.js';
import { assertEthereumApp } from '../main/signers/ledger/appCheck.js';
import { DERIVATION_SCHEMES, derivationPath, normalizeDerivationPath, type DerivationScheme } from '../main/signers/ledger/derivationPaths.js';
import { LedgerError, toLedgerError, type LedgerErrorCode } from '../main/signers/ledger/ledgerErrors.js';
import { LedgerSigner, type BlindSigningPrompt } from '../main/signers/ledger/ledgerSigner.js';
import { openLedger, type LedgerTransport } from '../main/signers/ledger/transport.js';

export const DEFAULT_LEDGER_SCHEME: DerivationScheme = 'ledger-live';

const PATH_HINT = `Use --signer ledger, ledger:SCHEME[:INDEX] (SCHEME ${DERIVATION_SCHEMES.map((s) => s.scheme).join(', ')}) or ledger:m/44'/60'/...`;

/** How a hardware signer's PATH argument is reported when it is malformed. */
export interface PathArgStyle {
  code: string;
  hint: string;
  defaultScheme: DerivationScheme;
}

const LEDGER_PATH_STYLE: PathArgStyle = { code: 'INVALID_LEDGER_PATH', hint: PATH_HINT, defaultScheme: DEFAULT_LEDGER_SCHEME };

/** The canonical "m/..." path of the PATH part of `ledger:PATH`; a bad one is a usage error (exit 2). */
export function parseLedgerPath(arg: string | undefined): string {
  return parseDerivationArg(arg, LEDGER_PATH_STYLE);
}

/** PATH of a hardware signer (Ledger, Trezor): a derivation path or SCHEME[:INDEX]; a bad one is a usage error. */
export function parseDerivationArg(arg: string | undefined, style: PathArgStyle): string {
  if (arg === undefined || arg.trim() === '') return derivationPath(style.defaultScheme, 0);
  const text = arg.trim();
  const bad = (message: string, cause?: unknown): ValidationError =>
    new ValidationError(message, { field: 'signer', code: style.code, hint: style.hint, ...(cause !== undefined ? { cause } : {}) });
  const [head, index, ...rest] = text.split(':');
  const scheme = DERIVATION_SCHEMES.find((s) => s.scheme === head);
  if (scheme) {
    if (rest.length > 0) throw bad(`too many parts in '${text}': expected SCHEME[:INDEX]`);
    if (index !== undefined && !/^\d{1,10}$/.test(index)) throw bad(`the account index must be a whole number, got '${index}'`);
    try {
      return derivationPath(scheme.scheme, index === undefined ? 0 : Number(index));
    } catch (err) {
      throw bad(err instanceof LedgerError ? err.message : String(err), err);
    }
  }
  if (!/^(m\/)?\d/.test(text)) throw bad(`'${text}' is neither a derivation scheme nor a derivation path`);
  try {
    // "h" and "H" are BIP 32's other hardened marker; accepting them spares shell quoting of "'".
    return normalizeDerivationPath(text.replace(/(\d)[hH](?=\/|$)/g, "$1'"));
  } catch (err) {
    throw bad(err instanceof LedgerError ? err.message : String(err), err);
  }
}

/** A terminal-ish input: process.stdin, or a stream a test stands in with. */
export type PromptInput = Readable & { isTTY?: boolean };

export interface BlindSigningTerminal {
  stdin: PromptInput;
  stderr: Writable;
  /** --allow-blind-signing: consent given up front. */
  allow: boolean;
}

/**
 * The terminal side of the blind-signing fallback. Says plainly that this is BLIND signing, prints the
 * two hashes the device will show, and resolves true only when the user types 'yes' (or gave
 * --allow-blind-signing). With no terminal on stdin and no flag it refuses: a 'yes' piped in by a
 * script is not a person comparing hashes.
 */
export async function confirmBlindSigningOnTerminal(prompt: BlindSigningPrompt, io: BlindSigningTerminal): Promise<boolean> {
  return askHashConsentOnTerminal(io, {
    banner: [
      '*** BLIND SIGNING ***',
      `The Ethereum app on this Ledger cannot show this ${prompt.primaryType} field by field (no EIP-712 clear signing:`,
      'a Nano S or an old app). It can only sign it BLIND: the device shows two hashes and nothing else, so the',
      'device cannot show you what you approve. Compare both hashes on the device screen with these, in full:',
      `  domain hash (domain separator): ${prompt.domainSeparatorHex}`,
      `  message hash:                   ${prompt.messageHashHex}`,
      'Approve on the device only if both match. Updating the Ethereum app with Ledger Live gives clear signing.',
    ],
    refusal: 'blind signing needs your consent, and there is no terminal to ask on',
    hint: 'Run the command in a terminal and type yes after comparing the hashes, pass --allow-blind-signing, or update the Ethereum app for clear signing. Nothing was signed.',
    question: "Type 'yes' to sign blind, anything else to cancel: ",
  });
}

/**
 * Consent to signing two hashes the device shows instead of the message (a Ledger without clear signing,
 * a Trezor Model One): the banner with both hashes, then a typed 'yes' on a terminal, or --allow-blind-signing.
 * With no terminal and no flag it refuses: a 'yes' piped in by a script is not a person comparing hashes.
 */
export async function askHashConsentOnTerminal(io: BlindSigningTerminal, text: { banner: string[]; refusal: string; hint: string; question: string }): Promise<boolean> {
  io.stderr.write(['', ...text.banner, ''].join('\n'));
  if (io.allow) {
    io.stderr.write('--allow-blind-signing was given: continuing without asking.\n');
    return true;
  }
  if (io.stdin.isTTY !== true) {
    throw new ValidationError(text.refusal, { field: 'signer', code: 'BLIND_SIGNING_NEEDS_CONSENT', hint: text.hint });
  }
  io.stderr.write(text.question);
  const answer = await readLine(io.stdin);
  return answer !== null && answer.trim().toLowerCase() === 'yes';
}

/** One line from `input` (null when it ends first); the reader is closed after, so the process can exit. */
export function readLine(input: Readable): Promise<string | null> {
  // A pipe or terminal stdin that readline has started reading keeps the process alive even when
  // paused; it is held (ref) only while a line is awaited, so the program exits when its work is done
  // although whoever feeds stdin keeps it open.
  const handle = input as Readable & { ref?: () => void; unref?: () => void };
  handle.ref?.();
  return new Promise<string | null>((resolve, reject) => {
    const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      input.removeListener('error', onError);
      rl.close();
      handle.unref?.();
      settle();
    };
    const onError = (err: Error): void => finish(() => reject(new OperationError('STDIN_UNREADABLE', `cannot read the answer: ${err.message}`, { cause: err })));
    rl.once('line', (line) => finish(() => resolve(line)));
    rl.once('close', () => finish(() => resolve(null)));
    input.once('error', onError);
  });
}

const LEDGER_HINTS: Record<LedgerErrorCode, string> = {
  NO_DEVICE: "Plug in the Ledger, unlock it and open the Ethereum app. On Linux, install Ledger's udev rules first (README, 'Hardware wallets').",
  DEVICE_LOCKED: 'Unlock the Ledger with its PIN, open the Ethereum app and run the command again.',
  ETH_APP_NOT_OPEN: 'Open the Ethereum app on the Ledger (install it with Ledger Live if it is missing), then run the command again.',
  BLIND_SIGNING_DISABLED: "This app can only sign blind and blind signing is off: enable 'Blind signing' in the Ethereum app's settings, or better, update the app with Ledger Live for clear signing.",
  REJECTED_ON_DEVICE: 'It was rejected on the Ledger; nothing was signed or sent. Run the command again to retry.',
  BLIND_SIGNING_DECLINED: 'Nothing was signed or sent. Update the Ethereum app with Ledger Live for clear signing, or run again and type yes after comparing the hashes.',
  DISCONNECTED: 'Reconnect the Ledger (a data cable, not a charge-only one), unlock it, open the Ethereum app and run the command again.',
  TIMEOUT: 'The Ledger waited too long for an answer. Reconnect it and run the command again; nothing was sent.',
  DEVICE_BUSY: 'Close Ledger Live or any other program using the Ledger, then run the command again.',
  ADDRESS_MISMATCH:
    "The Ledger's account at this path is not --wallet: pick the right one with --signer ledger:SCHEME:INDEX or ledger:m/44'/60'/..., and check the passphrase (if any) is the one for this wallet.",
  SIGNATURE_MISMATCH: 'The signature does not recover --wallet: check the passphrase and account on the Ledger. Nothing was sent.',
  NOT_A_CUSTODY_ACTION: 'The main wallet signs only custody actions (authorize, revoke, withdraw); orders are signed by the trading key.',
  INVALID_PATH: PATH_HINT,
  DEVICE_ERROR: 'Unplug and replug the Ledger, open the Ethereum app and try again; update its firmware and Ethereum app with Ledger Live if it persists.',
};

/**
 * A Ledger failure as a command-line failure: a bad derivation path is bad usage (exit 2); everything
 * else is an operation that failed at the device (exit 1). The code stays the LedgerError's, prefixed so
 * a script can tell the device's SIGNATURE_MISMATCH from the offline signer's.
 */
export function ledgerFailure(err: unknown): unknown {
  if (!(err instanceof LedgerError)) return err;
  const hint = LEDGER_HINTS[err.code];
  if (err.code === 'INVALID_PATH') return new ValidationError(err.message, { field: 'signer', code: 'INVALID_LEDGER_PATH', hint, cause: err });
  return new OperationError(`LEDGER_${err.code}`, err.message, {
    hint,
    cause: err,
    ...(err.statusCode !== undefined ? { details: { status_word: '0x' + err.statusCode.toString(16).padStart(4, '0') } } : {}),
  });
}

export interface CliLedgerOptions {
  /** --wallet: the address the device must derive at `path`. */
  wallet: string;
  /** Canonical "m/..." path (parseLedgerPath). */
  path: string;
  allowBlindSigning: boolean;
  stdin: PromptInput;
  stderr: Writable;
  /** Opens the device; default the first Ledger on USB. Tests pass an emulator or a recording. */
  openTransport?: () => Promise<LedgerTransport>;
  /** How long the address screen and the signing screen wait for the user (defaults: the signer's). */
  confirmTimeoutMs?: number;
  signTimeoutMs?: number;
}

/** Opens (probes) the Ledger signer of `--signer ledger[:PATH]`. Errors are command-line errors (see ledgerFailure). */
export async function openCliLedgerSigner(options: CliLedgerOptions): Promise<Signer> {
  const signer = new CliLedgerSigner(options);
  await signer.probe();
  return signer;
}

class CliLedgerSigner implements Signer {
  readonly kind = 'ledger' as const;
  readonly address: string;
  readonly #options: CliLedgerOptions;
  readonly #open: () => Promise<LedgerTransport>;
  /** Set once the user approved the address on the device in this run. */
  #confirmed = false;

  constructor(options: CliLedgerOptions) {
    this.#options = options;
    this.address = toChecksumAddress(options.wallet, 'wallet');
    this.#open = options.openTransport ?? (() => openLedger());
  }

  /** Present, unlocked, Ethereum app open; the device is released again. */
  async probe(): Promise<void> {
    await this.#withDevice(async (transport) => {
      const app = await assertEthereumApp(transport);
      this.#options.stderr.write(`Ledger: Ethereum app ${app.version} is open.\n`);
    });
  }

  signTypedData(data: TypedData): Promise<string> {
    return this.#withDevice(async (transport) => {
      const { stderr, path } = this.#options;
      const common = {
        transport,
        path,
        confirmBlindSigning: (prompt: BlindSigningPrompt) => confirmBlindSigningOnTerminal(prompt, { stdin: this.#options.stdin, stderr, allow: this.#options.allowBlindSigning }),
        ...(this.#options.signTimeoutMs !== undefined ? { timeouts: { signMs: this.#options.signTimeoutMs } } : {}),
      };
      let signer: LedgerSigner;
      if (!this.#confirmed) {
        // The host could show any address; the device screen cannot lie. Before the first signature the
        // user reads the address there and approves it, and it must be --wallet.
        stderr.write(`Ledger: check that the device shows ${this.address} (${path}) and approve it there.\n`);
        signer = await LedgerSigner.connect({
          ...common,
          expectedAddress: this.address,
          ...(this.#options.confirmTimeoutMs !== undefined ? { confirmTimeoutMs: this.#options.confirmTimeoutMs } : {}),
        });
        this.#confirmed = true;
      } else {
        // Confirmed earlier in this run; the device was released since, so make sure it is still the same one.
        const address = await readAddress(transport, path, { display: false });
        if (!sameAddress(address, this.address)) {
          throw new LedgerError('ADDRESS_MISMATCH', `The Ledger now derives ${address} at ${path}, not ${this.address}: was another device or passphrase connected?`);
        }
        signer = new LedgerSigner({ ...common, address: this.address });
      }
      stderr.write(`Ledger: review the ${data.primaryType} on the device and approve it.\n`);
      return signer.signTypedData(data);
    });
  }

  /** Runs `op` with the device open and always releases it; every Ledger failure leaves as a CLI error. */
  async #withDevice<T>(op: (transport: LedgerTransport) => Promise<T>): Promise<T> {
    let transport: LedgerTransport;
    try {
      transport = await this.#open();
    } catch (err) {
      throw ledgerFailure(toLedgerError(err, 'open'));
    }
    try {
      return await op(transport);
    } catch (err) {
      throw ledgerFailure(err);
    } finally {
      // A failed close (device already unplugged) does not hide the operation's own outcome, but is said.
      await transport.close().catch((err: unknown) => this.#options.stderr.write(`warning: releasing the Ledger failed: ${oneLineText(err instanceof Error ? err.message : String(err))}\n`));
    }
  }
}
