/**
 * `--signer SPEC`: which main-wallet signer signs a custody action (authorize, revoke, withdraw).
 *
 *   keystore:FILE   an Ethereum JSON keystore; password from PERPS_KEYSTORE_PASSWORD, else asked on the
 *                   terminal without echo
 *   env:VAR         a hex private key in the environment variable VAR (automation only; warns)
 *   offline         the air-gapped flow (offlineSigning.ts): the signing request (typed data JSON with a
 *                   summary) goes to stdout or --request-out FILE, optionally also as an animated QR code
 *                   (--qr FILE.html|DIR); the answer (hex, a signature file, or ur:eth-signature parts) is
 *                   read from stdin and verified to recover the wallet before anything is sent
 *   ledger[:PATH]   a Ledger (ledgerSigning.ts): PATH is a derivation path or SCHEME[:INDEX], default
 *                   ledger-live:0; the address is confirmed on the device and must be --wallet; blind
 *                   signing needs a typed 'yes' on a terminal, or --allow-blind-signing
 *   trezor[:PATH]   a Trezor (trezorSigning.ts): PATH as for ledger, default bip44:0 (m/44'/60'/0'/0/0); Bridge
 *                   when it runs, else USB, or the emulator with PERPS_TREZOR_TRANSPORT=udp:HOST:PORT; PIN
 *                   (as matrix positions) and passphrase asked on the terminal; the Model One signs by hashes,
 *                   which needs a typed 'yes' or --allow-blind-signing
 *   paper           --wallet's paper wallet (made by `perps quickstart`; its key is in the OS keychain):
 *                   on the sim profile only, refused on any other before anything is signed
 *
 * Parsing is separate from opening, so a malformed spec is a usage error before any prompt or file read.
 */
import type { Readable, Writable } from 'node:stream';
import { promptHidden, type RawStdin } from './prompt.js';
import { EnvKeySigner } from '../main/signers/envKeySigner.js';
import { KeystoreSigner } from '../main/signers/keystoreSigner.js';
import type { LedgerTransport } from '../main/signers/ledger/transport.js';
import type { Signer } from '../main/signers/signer.js';
import type { ServiceContext } from '../main/services/serviceContext.js';
import { ValidationError } from '../main/services/errors.js';
import type { GlobalOptions } from './globals.js';
import { openCliLedgerSigner, parseLedgerPath } from './ledgerSigning.js';
import { CliOfflineSigner, parseQrOptions } from './offlineSigning.js';
import { openCliTrezorSigner, parseTrezorPath } from './trezorSigning.js';
import type { OpenTrezorDeps } from '../main/signers/trezor/openTrezor.js';

export type SignerSpec =
  | { kind: 'keystore'; file: string }
  | { kind: 'env'; variable: string }
  | { kind: 'offline' }
  /** `path` is canonical ("m/..."), already validated. */
  | { kind: 'ledger'; path: string }
  /** `path` is canonical ("m/..."), already validated. */
  | { kind: 'trezor'; path: string }
  | { kind: 'paper' };

const USAGE = 'Use --signer keystore:FILE, env:VAR, offline, ledger[:PATH], trezor[:PATH] or (on the sim profile) paper.';

export function parseSignerSpec(spec: string | undefined): SignerSpec {
  if (spec === undefined || spec.trim() === '') {
    throw new ValidationError('a main-wallet signer is required for this command', { field: 'signer', code: 'SIGNER_REQUIRED', hint: USAGE });
  }
  const s = spec.trim();
  const colon = s.indexOf(':');
  const kind = colon < 0 ? s : s.slice(0, colon);
  const arg = colon < 0 ? undefined : s.slice(colon + 1);
  switch (kind) {
    case 'keystore':
      if (!arg) throw new ValidationError('keystore needs a file: keystore:FILE', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      return { kind: 'keystore', file: arg };
    case 'env':
      if (!arg || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) {
        throw new ValidationError('env needs a variable name: env:VAR', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      }
      return { kind: 'env', variable: arg };
    case 'offline':
      if (arg !== undefined) throw new ValidationError('offline takes no argument (--request-out FILE and --qr say where the signing request goes)', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      return { kind: 'offline' };
    case 'ledger':
      return { kind: 'ledger', path: parseLedgerPath(arg) };
    case 'trezor':
      return { kind: 'trezor', path: parseTrezorPath(arg) };
    case 'paper':
      if (arg !== undefined) throw new ValidationError('paper takes no argument (--wallet names the paper wallet)', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      return { kind: 'paper' };
    default:
      throw new ValidationError(`unknown signer '${kind}'`, { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
  }
}

export interface OpenSignerOptions {
  /** The wallet the command acts for; the offline signer's signatures must recover it. */
  wallet: string;
  /** --json: stdout carries only the result, so the offline request goes to stderr instead. */
  json: boolean;
  /** --request-out: where the offline signer writes the signing request (a file) instead of stdout. */
  requestOut?: string | undefined;
  /** --qr, --qr-fingerprint, --qr-path: the offline request as an animated QR code too. */
  qr?: string | undefined;
  qrFingerprint?: string | undefined;
  qrPath?: string | undefined;
  /** --allow-blind-signing (Ledger). */
  allowBlindSigning?: boolean | undefined;
  /** The command's services, which hold the paper wallets (--signer paper); a command without them refuses paper. */
  paper?: Pick<ServiceContext, 'paperSigner'> | undefined;
  /** How the Ledger is reached; tests open an emulator or a recording here instead of USB. */
  ledger?: {
    openTransport?: () => Promise<LedgerTransport>;
    confirmTimeoutMs?: number;
    signTimeoutMs?: number;
  };
  /** How the Trezor is reached in tests (stand-ins for the usb module or Bridge); else PERPS_TREZOR_TRANSPORT decides. */
  trezor?: OpenTrezorDeps;
  env?: NodeJS.ProcessEnv;
  stdin?: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout?: Writable;
  stderr?: Writable;
}

/** The signer-related global options of a command, for openSigner. */
export function signerOptionsOf(g: GlobalOptions): Pick<OpenSignerOptions, 'json' | 'requestOut' | 'qr' | 'qrFingerprint' | 'qrPath' | 'allowBlindSigning'> {
  return { json: g.json === true, requestOut: g.requestOut, qr: g.qr, qrFingerprint: g.qrFingerprint, qrPath: g.qrPath, allowBlindSigning: g.allowBlindSigning === true };
}

/**
 * Opens the signer a spec names. Errors are typed (SignerError, ValidationError, OperationError) and never
 * hold secrets. Options that belong to another signer kind are refused rather than ignored, so a
 * mistyped command never silently drops, say, the QR code its user expects.
 */
export async function openSigner(spec: SignerSpec, options: OpenSignerOptions): Promise<Signer> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const stderr = options.stderr ?? process.stderr;
  const qr = parseQrOptions(options);
  if (spec.kind !== 'offline' && (qr !== undefined || options.requestOut !== undefined)) {
    throw new ValidationError('--request-out and --qr apply to --signer offline only', { field: 'signer', code: 'INVALID_SIGNER_OPTIONS' });
  }
  if (spec.kind !== 'ledger' && spec.kind !== 'trezor' && options.allowBlindSigning === true) {
    throw new ValidationError('--allow-blind-signing applies to --signer ledger and trezor only', { field: 'signer', code: 'INVALID_SIGNER_OPTIONS' });
  }
  switch (spec.kind) {
    case 'keystore':
      return KeystoreSigner.open(spec.file, async () => {
        const fromEnv = env['PERPS_KEYSTORE_PASSWORD'];
        if (fromEnv !== undefined) return fromEnv;
        if (!stdin.isTTY || !stdin.setRawMode) {
          throw new ValidationError('no keystore password: PERPS_KEYSTORE_PASSWORD is not set and there is no terminal to ask on', {
            field: 'signer',
            code: 'PASSWORD_REQUIRED',
            hint: 'Set PERPS_KEYSTORE_PASSWORD, or run the command in a terminal.',
          });
        }
        return promptHidden(`Password for ${spec.file}: `, stdin as RawStdin, stderr);
      });
    case 'env':
      // The warning (env keys are for automation) goes to stderr, never to the result on stdout.
      return EnvKeySigner.fromEnv(spec.variable, { env, logger: { warn: (m) => void stderr.write(`warning: ${m}\n`) } });
    case 'offline':
      return new CliOfflineSigner({
        wallet: options.wallet,
        json: options.json,
        requestOut: options.requestOut,
        qr,
        stdin,
        stdout: options.stdout ?? process.stdout,
        stderr,
      });
    case 'ledger':
      return openCliLedgerSigner({
        wallet: options.wallet,
        path: spec.path,
        allowBlindSigning: options.allowBlindSigning === true,
        stdin,
        stderr,
        ...(options.ledger?.openTransport ? { openTransport: options.ledger.openTransport } : {}),
        ...(options.ledger?.confirmTimeoutMs !== undefined ? { confirmTimeoutMs: options.ledger.confirmTimeoutMs } : {}),
        ...(options.ledger?.signTimeoutMs !== undefined ? { signTimeoutMs: options.ledger.signTimeoutMs } : {}),
      });
    case 'trezor':
      return openCliTrezorSigner({
        wallet: options.wallet,
        path: spec.path,
        allowBlindSigning: options.allowBlindSigning === true,
        env,
        stdin,
        stderr,
        ...(options.trezor ? { deps: options.trezor } : {}),
      });
    case 'paper':
      if (!options.paper) throw new ValidationError('--signer paper is not available for this command', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      // Refused here on any profile but sim, and for an address that is not a paper wallet of this data folder.
      return options.paper.paperSigner(options.wallet);
  }
}

