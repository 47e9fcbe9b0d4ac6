/**
 * The main wallet from a hex private key in a named environment variable: for automation only (CI, scripts
 * on a dedicated machine), where no one is there to type a password. Environment variables leak (process
 * listings, crash reports, shell history), so every creation emits a warning saying so through the
 * injectable logger. Neither the key nor the variable's value ever appears in a message.
 */
import { digestOf, type TypedData } from '../../shared/eip712/index.js';
import { PrivateKey } from './secp256k1.js';
import type { Signer } from './signer.js';
import { SignerError } from './signerError.js';
import { privateKeyTransactionSigner } from './transactions/privateKeyTransactionSigner.js';
import type { TransactionSigner } from './transactions/transactionSigner.js';
import { verifySignature } from './verifySignature.js';

export interface EnvKeySignerLogger {
  warn(message: string): void;
}

export interface EnvKeySignerOptions {
  /** Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default: console. */
  logger?: EnvKeySignerLogger;
}

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

export function envKeyWarning(variable: string): string {
  return (
    `Signing with the main-wallet private key from the environment variable ${variable}. ` +
    'This is meant for automation only (CI, unattended scripts): environment variables can leak through process listings, ' +
    'crash reports and shell history. Interactively, use a keystore or the offline signer instead.'
  );
}

export class EnvKeySigner implements Signer {
  readonly kind = 'env' as const;
  readonly address: string;
  readonly #key: PrivateKey;

  private constructor(
    key: PrivateKey,
    readonly variable: string,
  ) {
    this.#key = key;
    this.address = key.address;
  }

  /** Throws SignerError ENV_KEY_MISSING or ENV_KEY_INVALID. */
  static fromEnv(variable: string, options: EnvKeySignerOptions = {}): EnvKeySigner {
    const env = options.env ?? process.env;
    const logger = options.logger ?? { warn: (m: string) => console.warn(m) };
    const raw = env[variable]?.trim();
    if (!raw) throw new SignerError('ENV_KEY_MISSING', `the environment variable ${variable} is not set; it must hold the main wallet's private key in hex`);
    if (!HEX_KEY.test(raw)) {
      throw new SignerError('ENV_KEY_INVALID', `the environment variable ${variable} does not hold a private key: expected 64 hex characters, optionally 0x-prefixed`);
    }
    let key: PrivateKey;
    try {
      key = PrivateKey.fromHex(raw);
    } catch {
      // The curve refuses 0 and values >= n. The underlying error is not attached: nothing near the key is kept.
      throw new SignerError('ENV_KEY_INVALID', `the environment variable ${variable} holds 64 hex characters that are not a valid secp256k1 private key`);
    }
    logger.warn(envKeyWarning(variable));
    return new EnvKeySigner(key, variable);
  }

  /** The same key as a source-chain transaction signer (bridge, swap); the key stays in this object. */
  transactionSigner(): TransactionSigner {
    return privateKeyTransactionSigner('env', this.#key);
  }

  async signTypedData(data: TypedData): Promise<string> {
    const signature = this.#key.signDigest(digestOf(data));
    return verifySignature(data, signature, this.address);
  }

  toJSON(): string {
    return `EnvKeySigner(${this.variable}, ${this.address})`;
  }
}
