/**
 * Typed failures of the main-wallet signers (keystore, environment key, offline). Each code says what
 * went wrong and the message says what to do; no message ever includes a password, a private key or
 * the raw value of an environment variable.
 */
export type SignerErrorCode =
  /** The keystore's MAC did not match: the password is wrong. */
  | 'WRONG_PASSWORD'
  /** The keystore file cannot be read. */
  | 'KEYSTORE_UNREADABLE'
  /** The file is not an Ethereum JSON keystore (or is damaged). */
  | 'KEYSTORE_INVALID'
  /** The named environment variable is not set (or empty). */
  | 'ENV_KEY_MISSING'
  /** The environment variable does not hold a valid secp256k1 private key in hex. */
  | 'ENV_KEY_INVALID'
  /** A signature is not 65 bytes of r || s || v with v 27 or 28 and low s. */
  | 'SIGNATURE_MALFORMED'
  /** A signature recovers an address other than the signer's: nothing is sent. */
  | 'SIGNATURE_MISMATCH'
  /** The offline signer could not write the request or read the signature back. */
  | 'OFFLINE_IO';

export class SignerError extends Error {
  constructor(
    readonly code: SignerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignerError';
  }
}
