/**
 * Typed failures of the main-wallet signers (keystore, environment key, offline). Each code says what
 * went wrong and the message says what to do; no message ever includes a password, a private key or
 * the raw value of an environment variable.
 */
import type { ClassifiedError, ErrorKind } from '../../shared/errorKinds.js';

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
  | 'OFFLINE_IO'
  /** A paper wallet was asked to sign off the simulator profile (or for another environment): refused. */
  | 'PAPER_WALLET_SIM_ONLY'
  /** A paper wallet was asked to sign something a main wallet does not sign (an order). */
  | 'PAPER_WALLET_UNSUPPORTED';

/**
 * Codes that mean the --signer input is unusable (file, password, variable): found before anything is
 * signed, so they are input errors (exit 2). The rest are failed operations.
 */
const INPUT_CODES: readonly SignerErrorCode[] = ['WRONG_PASSWORD', 'KEYSTORE_UNREADABLE', 'KEYSTORE_INVALID', 'ENV_KEY_MISSING', 'ENV_KEY_INVALID', 'PAPER_WALLET_SIM_ONLY', 'PAPER_WALLET_UNSUPPORTED'];
const HINTS: Partial<Record<SignerErrorCode, string>> = {
  WRONG_PASSWORD: 'Check the keystore password (PERPS_KEYSTORE_PASSWORD, or type it when asked).',
  KEYSTORE_UNREADABLE: 'Check the path in --signer keystore:FILE.',
  KEYSTORE_INVALID: '--signer keystore:FILE needs an Ethereum JSON keystore (v3).',
  ENV_KEY_MISSING: 'Set the variable named in --signer env:VAR to the main wallet private key (hex).',
  ENV_KEY_INVALID: 'The variable must hold 64 hex characters (optionally 0x-prefixed).',
  SIGNATURE_MISMATCH: 'The signature was made by another key or over other data. Sign exactly the typed data shown, with the wallet given by --wallet.',
  SIGNATURE_MALFORMED: 'Paste the 65-byte signature (0x + 130 hex characters).',
  PAPER_WALLET_SIM_ONLY: 'A paper wallet holds simulator money only and signs nothing anywhere else: on this profile, use a keystore, a Ledger or the offline signer.',
  PAPER_WALLET_UNSUPPORTED: 'A paper wallet signs custody actions (authorize, revoke, withdraw); orders are signed by its trading key.',
};

export class SignerError extends Error implements ClassifiedError {
  constructor(
    readonly code: SignerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SignerError';
  }

  get errorKind(): ErrorKind {
    return INPUT_CODES.includes(this.code) ? 'validation' : 'rejected';
  }

  get errorCode(): string {
    return this.code;
  }

  get errorHint(): string | undefined {
    return HINTS[this.code];
  }
}
