/**
 * Typed failures of air-gapped signing. The dangerous outcome is accepting a signature that does not
 * belong to this request (another wallet, another message, an old QR code left on a screen), so those
 * cases have their own codes and the message says what the user should check.
 */
import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';

export type AirgapErrorCode =
  /** Only AuthorizeAgent, RevokeAgent and Withdraw are signed by the main wallet. */
  | 'NOT_A_CUSTODY_ACTION'
  /** A derivation path, fingerprint or other request parameter is invalid. */
  | 'INVALID_REQUEST'
  /** Not 65 bytes r || s || v (v 27/28 or 0/1), or high s. */
  | 'SIGNATURE_MALFORMED'
  /** The signature recovers another address: wrong wallet, or it signed other data. */
  | 'SIGNATURE_MISMATCH'
  /** The text is not a UR, or its CBOR does not decode. */
  | 'UR_INVALID'
  /** A UR of another type than eth-signature (e.g. the request itself scanned back). */
  | 'UR_WRONG_TYPE'
  /** Not all parts of an animated UR have been scanned yet. */
  | 'UR_INCOMPLETE'
  /** The eth-signature answers another request (its request id differs). */
  | 'REQUEST_ID_MISMATCH'
  /** A signature file could not be read or is too large. */
  | 'FILE_UNREADABLE';

export class AirgapError extends Error implements ClassifiedError {
  constructor(
    readonly code: AirgapErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AirgapError';
  }

  get errorKind(): ErrorKind {
    return this.code === 'INVALID_REQUEST' ? 'validation' : 'rejected';
  }

  get errorCode(): string {
    return this.code;
  }
}
