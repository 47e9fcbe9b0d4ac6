/**
 * The main wallet from an Ethereum JSON keystore (the format geth, Foundry and ethers write). The password
 * is asked for once, at open, used to decrypt and then dropped: it is never stored, returned or logged.
 * The decrypted key lives only inside a PrivateKey object, which never reveals it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decryptKeystoreJson, isKeystoreJson } from 'ethers';
import { digestOf, type TypedData } from '../../shared/eip712/index.js';
import { toChecksumAddress } from '../../shared/identity/index.js';
import { PrivateKey } from './secp256k1.js';
import type { Signer } from './signer.js';
import { SignerError } from './signerError.js';
import { privateKeyTransactionSigner } from './transactions/privateKeyTransactionSigner.js';
import type { TransactionSigner } from './transactions/transactionSigner.js';
import { verifySignature } from './verifySignature.js';

export class KeystoreSigner implements Signer {
  readonly kind = 'keystore' as const;
  readonly address: string;
  readonly #key: PrivateKey;

  private constructor(key: PrivateKey) {
    this.#key = key;
    this.address = key.address;
  }

  /** The address a keystore file declares, read without decrypting (to show whose password is asked). */
  static async addressOf(file: string): Promise<string | null> {
    const json = await readKeystore(file);
    const declared = (JSON.parse(json) as { address?: unknown }).address;
    if (typeof declared !== 'string') return null;
    return toChecksumAddress(declared.startsWith('0x') ? declared : `0x${declared}`, 'keystore address');
  }

  /**
   * Decrypts `file` with the password `askPassword` resolves to. Throws SignerError WRONG_PASSWORD,
   * KEYSTORE_UNREADABLE or KEYSTORE_INVALID.
   */
  static async open(file: string, askPassword: () => Promise<string>): Promise<KeystoreSigner> {
    const json = await readKeystore(file);
    let privateKeyHex: string;
    try {
      // The async decrypt yields to the event loop during scrypt, so the UI stays responsive.
      privateKeyHex = (await decryptKeystoreJson(json, await askPassword())).privateKey;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/incorrect password/i.test(message)) {
        throw new SignerError('WRONG_PASSWORD', `wrong password for the keystore ${shownName(file)}`);
      }
      // ethers redacts the password in its errors; its text names the damaged part of the file.
      throw new SignerError('KEYSTORE_INVALID', `the keystore ${shownName(file)} cannot be decrypted: ${message}`, { cause: err });
    }
    return new KeystoreSigner(PrivateKey.fromHex(privateKeyHex));
  }

  /** The same key as a source-chain transaction signer (bridge, swap); the key stays in this object. */
  transactionSigner(): TransactionSigner {
    return privateKeyTransactionSigner('keystore', this.#key);
  }

  async signTypedData(data: TypedData): Promise<string> {
    const signature = this.#key.signDigest(digestOf(data));
    return verifySignature(data, signature, this.address);
  }

  toJSON(): string {
    return `KeystoreSigner(${this.address})`;
  }
}

async function readKeystore(file: string): Promise<string> {
  let json: string;
  try {
    json = await readFile(file, 'utf8');
  } catch (err) {
    // Node's message repeats the full path; the code (ENOENT, EACCES) says what went wrong.
    throw new SignerError('KEYSTORE_UNREADABLE', `cannot read the keystore ${shownName(file)} (${(err as NodeJS.ErrnoException).code ?? 'read error'})`, { cause: err });
  }
  if (!isKeystoreJson(json)) {
    throw new SignerError('KEYSTORE_INVALID', `${shownName(file)} is not an Ethereum JSON keystore (version 3 with crypto.kdf scrypt or pbkdf2)`);
  }
  return json;
}

/**
 * The keystore as messages name it: its file name only. Messages reach the renderer and logs, and a full
 * path tells more about the machine (user name, folder layout) than the person needs to fix the input.
 */
function shownName(file: string): string {
  return path.basename(file);
}
