/**
 * Producing signatures: the only place key bytes meet the curve. Callers hold keys as opaque
 * PrivateKey objects created here; nothing outside src/main ever sees them.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { addressOfPublicKey, bytesToHex, hexToBytes } from '../../shared/eip712/index.js';
import { VaultError } from '../vault/vaultError.js';
import { assertVaultOpen, holdsKeys } from '../vault/vaultGate.js';

// Precomputed base-point tables make every signature cheaper; done once per process.
secp256k1.utils.precompute(8);

/**
 * A private key held in memory for signing; toJSON/toString never reveal it. Every signature asks the
 * vault's gate first (vaultGate.ts), so no signer that holds a key signs while the vault is closed; a
 * closed gate locks the key: its bytes are wiped and it never signs again (the holder reads or asks for
 * it afresh).
 */
export class PrivateKey {
  readonly address: string;
  readonly #bytes: Uint8Array;
  #locked = false;

  private constructor(bytes: Uint8Array) {
    if (!secp256k1.utils.isValidPrivateKey(bytes)) throw new Error('invalid secp256k1 private key');
    this.#bytes = bytes;
    this.address = addressOfPublicKey(secp256k1.getPublicKey(bytes, false));
    holdsKeys(this);
  }

  /** Whether the key was locked (wiped) when the vault closed. */
  get locked(): boolean {
    return this.#locked;
  }

  /** Wipes the key's bytes; it never signs again. */
  lock(): void {
    this.#locked = true;
    this.#bytes.fill(0);
  }

  static generate(): PrivateKey {
    return new PrivateKey(secp256k1.utils.randomPrivateKey());
  }

  static fromHex(hex: string): PrivateKey {
    return new PrivateKey(hexToBytes(hex.startsWith('0x') ? hex : '0x' + hex));
  }

  /** 65-byte r||s||v hex signature of a 32-byte digest, v 27 or 28, low s (RFC 6979 deterministic). */
  signDigest(digest: Uint8Array): string {
    assertVaultOpen();
    if (this.#locked) throw new VaultError('VAULT_CLOSED', `the key of ${this.address} was locked when the vault closed; connect the wallet again (a trading key is read from the keychain again by itself)`);
    const sig = secp256k1.sign(digest, this.#bytes, { lowS: true });
    return bytesToHex(sig.toCompactRawBytes()) + (27 + sig.recovery).toString(16);
  }

  /** Hex for the keychain only; the vault is its sole caller. */
  exportForKeychain(): string {
    if (this.#locked) throw new VaultError('VAULT_CLOSED', `the key of ${this.address} was locked when the vault closed`);
    return bytesToHex(this.#bytes);
  }

  toJSON(): string {
    return `PrivateKey(${this.address})`;
  }

  toString(): string {
    return `PrivateKey(${this.address})`;
  }
}
