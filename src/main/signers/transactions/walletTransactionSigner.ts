/**
 * The main wallet as a transaction signer from a key the process can read: a JSON keystore (password
 * asked once, then dropped) or a hex private key in a named environment variable (automation only; a
 * warning says so each time). The key lives only inside a private ethers Wallet; toJSON and messages
 * show the address alone, never the key, the password or the variable's value.
 */
import { readFile } from 'node:fs/promises';
import { Transaction, Wallet, isKeystoreJson } from 'ethers';
import { envKeyWarning } from '../envKeySigner.js';
import { SignerError } from '../signerError.js';
import { toTransactionLike, verifySignedTransaction, type TransactionSigner, type UnsignedTransaction } from './transactionSigner.js';

const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

export interface EnvTransactionSignerOptions {
  env?: Readonly<Record<string, string | undefined>>;
  logger?: { warn(message: string): void };
}

export class WalletTransactionSigner implements TransactionSigner {
  readonly address: string;
  readonly #wallet: Wallet;

  private constructor(
    readonly kind: 'keystore' | 'env',
    wallet: Wallet,
  ) {
    this.#wallet = wallet;
    this.address = wallet.address;
  }

  /** Throws SignerError ENV_KEY_MISSING or ENV_KEY_INVALID; never includes the variable's value. */
  static fromEnv(variable: string, options: EnvTransactionSignerOptions = {}): WalletTransactionSigner {
    const env = options.env ?? process.env;
    const raw = env[variable]?.trim();
    if (!raw) throw new SignerError('ENV_KEY_MISSING', `the environment variable ${variable} is not set; it must hold the main wallet's private key in hex`);
    if (!HEX_KEY.test(raw)) {
      throw new SignerError('ENV_KEY_INVALID', `the environment variable ${variable} does not hold a private key: expected 64 hex characters, optionally 0x-prefixed`);
    }
    let wallet: Wallet;
    try {
      wallet = new Wallet(raw.startsWith('0x') ? raw : `0x${raw}`);
    } catch {
      // The underlying error may quote the value; it is dropped on purpose.
      throw new SignerError('ENV_KEY_INVALID', `the environment variable ${variable} holds 64 hex characters that are not a valid secp256k1 private key`);
    }
    (options.logger ?? { warn: (m: string) => console.warn(m) }).warn(envKeyWarning(variable));
    return new WalletTransactionSigner('env', wallet);
  }

  /** Throws SignerError WRONG_PASSWORD, KEYSTORE_UNREADABLE or KEYSTORE_INVALID. */
  static async fromKeystore(file: string, askPassword: () => Promise<string>): Promise<WalletTransactionSigner> {
    let json: string;
    try {
      json = await readFile(file, 'utf8');
    } catch (err) {
      throw new SignerError('KEYSTORE_UNREADABLE', `cannot read the keystore ${file}: ${(err as Error).message}`, { cause: err });
    }
    if (!isKeystoreJson(json)) throw new SignerError('KEYSTORE_INVALID', `${file} is not an Ethereum JSON keystore (version 3 with crypto.kdf scrypt or pbkdf2)`);
    // Asked outside the try: a refusal to give a password is its own error, not a damaged keystore.
    const password = await askPassword();
    let wallet: Wallet;
    try {
      const decrypted = await Wallet.fromEncryptedJson(json, password);
      // A keystore may decrypt to an HD wallet; only its signing key is needed.
      wallet = new Wallet(decrypted.privateKey);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/incorrect password/i.test(message)) throw new SignerError('WRONG_PASSWORD', `wrong password for the keystore ${file}`);
      throw new SignerError('KEYSTORE_INVALID', `the keystore ${file} cannot be decrypted: ${message}`, { cause: err });
    }
    return new WalletTransactionSigner('keystore', wallet);
  }

  async signTransaction(tx: UnsignedTransaction): Promise<string> {
    const signed = await this.#wallet.signTransaction(Transaction.from(toTransactionLike(tx)));
    return verifySignedTransaction(signed, tx, this.address);
  }

  toJSON(): string {
    return `WalletTransactionSigner(${this.kind}, ${this.address})`;
  }
}
