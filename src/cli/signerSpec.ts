/**
 * `--signer SPEC`: which main-wallet signer signs a custody action (authorize, revoke, withdraw).
 *
 *   keystore:FILE   an Ethereum JSON keystore; password from PERPS_KEYSTORE_PASSWORD, else asked on the
 *                   terminal without echo
 *   env:VAR         a hex private key in the environment variable VAR (automation only; warns)
 *   offline         the typed data goes to stdout (or to a file the command names), the signature is read
 *                   from stdin; it is verified to recover the wallet before anything is sent
 *   ledger[:PATH]   a Ledger device: arrives with the custody issue
 *
 * Parsing is separate from opening, so a malformed spec is a usage error before any prompt or file read.
 */
import type { Readable, Writable } from 'node:stream';
import { EnvKeySigner } from '../main/signers/envKeySigner.js';
import { KeystoreSigner } from '../main/signers/keystoreSigner.js';
import { OfflineSigner, fileSink, stdinSource, stdoutSink } from '../main/signers/offlineSigner.js';
import type { Signer } from '../main/signers/signer.js';
import { ValidationError } from '../main/services/errors.js';

export type SignerSpec =
  | { kind: 'keystore'; file: string }
  | { kind: 'env'; variable: string }
  | { kind: 'offline' }
  | { kind: 'ledger'; path?: string };

const USAGE = 'Use --signer keystore:FILE, env:VAR, offline or ledger[:PATH].';

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
      if (arg !== undefined) throw new ValidationError('offline takes no argument (the command decides where the typed data goes)', { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
      return { kind: 'offline' };
    case 'ledger':
      return arg ? { kind: 'ledger', path: arg } : { kind: 'ledger' };
    default:
      throw new ValidationError(`unknown signer '${kind}'`, { field: 'signer', code: 'INVALID_SIGNER', hint: USAGE });
  }
}

export interface OpenSignerOptions {
  /** The wallet the command acts for; the offline signer's signatures must recover it. */
  wallet: string;
  /** --json: stdout carries only the result, so the offline request goes to stderr instead. */
  json: boolean;
  /** Where the offline signer writes the typed data (a file) instead of stdout. */
  requestOut?: string;
  env?: NodeJS.ProcessEnv;
  stdin?: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout?: Writable;
  stderr?: Writable;
}

/** Opens the signer a spec names. Errors are typed (SignerError, ValidationError) and never hold secrets. */
export async function openSigner(spec: SignerSpec, options: OpenSignerOptions): Promise<Signer> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const stderr = options.stderr ?? process.stderr;
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
        return promptHidden(`Password for ${spec.file}: `, stdin as Readable & { setRawMode: (mode: boolean) => unknown }, stderr);
      });
    case 'env':
      // The warning (env keys are for automation) goes to stderr, never to the result on stdout.
      return EnvKeySigner.fromEnv(spec.variable, { env, logger: { warn: (m) => void stderr.write(`warning: ${m}\n`) } });
    case 'offline': {
      const sink = options.requestOut ? fileSink(options.requestOut) : options.json ? stdoutSink(stderr) : stdoutSink(options.stdout ?? process.stdout);
      return new OfflineSigner({
        address: options.wallet,
        sink,
        source: stdinSource(stdin, { prompt: 'Sign the typed data above with the main wallet, then paste the signature: ', promptTo: stderr }),
      });
    }
    case 'ledger':
      throw new ValidationError('the Ledger signer is not available yet: it arrives with the custody issue', {
        field: 'signer',
        code: 'SIGNER_UNAVAILABLE',
        hint: 'Use --signer keystore:FILE or --signer offline for now.',
      });
  }
}

/** Reads a line from a terminal without echoing it (raw mode; Ctrl-C aborts). */
function promptHidden(prompt: string, stdin: Readable & { setRawMode: (mode: boolean) => unknown }, out: Writable): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    out.write(prompt);
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    const cleanup = (): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      out.write('\n');
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          cleanup();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          cleanup();
          reject(new ValidationError('password entry cancelled', { field: 'signer', code: 'CANCELLED' }));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
