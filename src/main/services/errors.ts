/**
 * The two kinds of failure a service reports, so every front end (CLI, IPC, UI) can tell the user what
 * happened and what to do next:
 *  - ValidationError: the input was refused before anything was signed or sent (CLI exit 2). Safe to fix
 *    the input and try again: no nonce was spent, no request reached the service.
 *  - OperationError: the operation was attempted and failed: the service rejected it, the network failed,
 *    the keychain refused (CLI exit 1). `code` is the service's error code (or a local code) and `hint`
 *    says what to do.
 * `describeFailure` turns any thrown value (including the API client's typed errors) into one of these
 * shapes, so callers never have to know every error class below them.
 */
import { ApiError, DecodeError } from '../../shared/protocol/index.js';
import { DecimalError } from '../../shared/decimal/index.js';
import { IdentifierError } from '../../shared/identity/index.js';
import { TypedDataError } from '../../shared/eip712/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError } from '../api/errors.js';
import { VaultError } from '../vault/vaultError.js';
import { ProfileError } from '../profiles/profiles.js';
import { SignerError, type SignerErrorCode } from '../signers/signerError.js';

export type ExitCode = 0 | 1 | 2;

/** Base of the services' own errors: a stable code, a hint and the CLI exit code. */
export abstract class ServiceError extends Error {
  abstract readonly exitCode: 1 | 2;

  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Bad input: nothing was signed and nothing was sent. */
export class ValidationError extends ServiceError {
  readonly exitCode = 2 as const;
  readonly field: string | undefined;

  constructor(
    message: string,
    options: { field?: string; hint?: string; code?: string; cause?: unknown } = {},
  ) {
    super(options.code ?? 'VALIDATION_ERROR', options.field ? `${options.field}: ${message}` : message, options.hint, { cause: options.cause });
    this.name = 'ValidationError';
    this.field = options.field;
  }
}

/** The operation was attempted and failed (service rejection, network, keychain, inconsistent state). */
export class OperationError extends ServiceError {
  readonly exitCode = 1 as const;
  /** HTTP status when the service answered. */
  readonly status: number | undefined;
  /** Structured extras for --json output (e.g. new_wallet_fee on BELOW_MIN_AFTER_FEE). Never secrets. */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: string,
    message: string,
    options: { hint?: string; status?: number; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(code, message, options.hint, { cause: options.cause });
    this.name = 'OperationError';
    this.status = options.status;
    this.details = options.details;
  }
}

/**
 * Signer failures that happen before anything is signed because the --signer input is unusable (file,
 * password, variable): bad usage (exit 2). The rest (a signature that does not verify, offline I/O) are
 * failed operations (exit 1).
 */
const SIGNER_INPUT_CODES: readonly SignerErrorCode[] = ['WRONG_PASSWORD', 'KEYSTORE_UNREADABLE', 'KEYSTORE_INVALID', 'ENV_KEY_MISSING', 'ENV_KEY_INVALID'];
const SIGNER_HINTS: Partial<Record<SignerErrorCode, string>> = {
  WRONG_PASSWORD: 'Check the keystore password (PERPS_KEYSTORE_PASSWORD, or type it when asked).',
  KEYSTORE_UNREADABLE: 'Check the path in --signer keystore:FILE.',
  KEYSTORE_INVALID: '--signer keystore:FILE needs an Ethereum JSON keystore (v3).',
  ENV_KEY_MISSING: 'Set the variable named in --signer env:VAR to the main wallet private key (hex).',
  ENV_KEY_INVALID: 'The variable must hold 64 hex characters (optionally 0x-prefixed).',
  SIGNATURE_MISMATCH: 'The signature was made by another key or over other data. Sign exactly the typed data shown, with the wallet given by --wallet.',
  SIGNATURE_MALFORMED: 'Paste the 65-byte signature (0x + 130 hex characters).',
};

/** Hints for the service's error codes (spec, "Errors"). */
const API_HINTS: Record<string, string> = {
  INVALID_REQUEST: 'The service refused the request shape; the message names the field.',
  INVALID_SIGNATURE: 'The signature did not recover the wallet: check --signer is the main wallet named by --wallet, and the chain id.',
  INVALID_ENVIRONMENT: 'The signed environment does not match this server: check --profile (sim signs Testnet, mainnet signs Mainnet).',
  INVALID_EXPIRES_AT: 'expires_at must be in the future and at most 180 days ahead; check the system clock.',
  INVALID_SIGNATURE_CHAIN_ID: 'signature_chain_id must be a positive integer equal to the signed domain chainId.',
  UNAUTHORIZED: 'The withdrawal signature did not verify: sign with the main wallet that owns the account.',
  FORBIDDEN:
    'No active trading key matched the signature. Run `perps keys list --wallet ADDR`: if the key is missing or expired, run `perps keys new` and `perps keys authorize`.',
  NOT_FOUND: 'Not found (it may not be persisted yet); retry shortly.',
  INTERNAL_ERROR: 'The service failed; retry later.',
};

export interface FailureDescription {
  /** Service error code or a local code (NETWORK_ERROR, TIMEOUT, KEYCHAIN_LOCKED, ...). */
  code: string;
  message: string;
  hint?: string;
  exitCode: 1 | 2;
  status?: number;
  details?: Record<string, unknown>;
}

/** One description for any thrown value. Unknown errors are operation failures (exit 1), never hidden. */
export function describeFailure(err: unknown): FailureDescription {
  const withHint = (d: Omit<FailureDescription, 'hint'>, hint: string | undefined): FailureDescription => (hint ? { ...d, hint } : d);
  if (err instanceof OperationError) {
    const d: FailureDescription = withHint({ code: err.code, message: err.message, exitCode: 1 }, err.hint);
    if (err.status !== undefined) d.status = err.status;
    if (err.details !== undefined) d.details = err.details;
    return d;
  }
  if (err instanceof ValidationError) return withHint({ code: err.code, message: err.message, exitCode: 2 }, err.hint);
  // Input errors from the shared layer happen before signing: they are validation errors.
  if (err instanceof DecimalError || err instanceof IdentifierError) {
    return { code: 'VALIDATION_ERROR', message: err.message, exitCode: 2, hint: 'Check the value and try again; nothing was signed or sent.' };
  }
  if (err instanceof ProfileError) return withHint({ code: err.code, message: err.message, exitCode: 2 }, err.hint);
  if (err instanceof WriteLandedUnknownResultError) {
    return {
      code: 'LANDED_RESULT_UNKNOWN',
      message: err.message,
      exitCode: 1,
      hint: 'The request reached the service but its answer was lost; check history before retrying, never sign it again blindly.',
    };
  }
  if (err instanceof ApiError) {
    const code = err.code ?? (err.status === 409 ? 'NONCE_REPLAYED' : `HTTP_${err.status}`);
    const hint = err.code ? API_HINTS[err.code] : err.status === 409 ? 'The nonce was already used: this request (or one with the same nonce) already reached the service.' : undefined;
    return withHint({ code, message: err.message, exitCode: 1, status: err.status }, hint);
  }
  if (err instanceof TimeoutError) {
    return withHint(
      { code: 'TIMEOUT', message: err.message, exitCode: 1 },
      err.mayHaveLanded ? 'The request may have reached the service; check its state before retrying.' : 'Check the service URL (--base-url) and your connection.',
    );
  }
  if (err instanceof NetworkError) {
    return withHint(
      { code: 'NETWORK_ERROR', message: err.message, exitCode: 1 },
      err.mayHaveLanded
        ? 'The connection failed after the request was sent; it may have landed. Check its state before retrying.'
        : 'Is the service running? Check --base-url / PERPS_BASE_URL (start a simulator with `perps sim`).',
    );
  }
  if (err instanceof DecodeError) {
    return { code: 'BAD_RESPONSE', message: err.message, exitCode: 1, hint: 'The service answered in an unexpected shape; check --base-url points at the trading API root (…/api/v1).' };
  }
  if (err instanceof VaultError) {
    return { code: err.code === 'INVALID_INPUT' ? 'VALIDATION_ERROR' : err.code, message: err.message, exitCode: err.code === 'INVALID_INPUT' ? 2 : 1, hint: err.action };
  }
  if (err instanceof SignerError) {
    return withHint({ code: err.code, message: err.message, exitCode: SIGNER_INPUT_CODES.includes(err.code) ? 2 : 1 }, SIGNER_HINTS[err.code]);
  }
  if (err instanceof TypedDataError) return { code: 'SIGNING_ERROR', message: err.message, exitCode: 1 };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'ERROR', message, exitCode: 1 };
}
