/**
 * AppError: the one failure type the services raise and every front end reads (src/shared/errorKinds.ts
 * explains the four kinds). The IPC mapping and the command line both derive what they do from `kind`:
 * exit code 2 for validation and 1 otherwise, VALIDATION versus the code itself over IPC, and a generic
 * message for internal errors, whose details only go to the log.
 *
 * ValidationError and OperationError are the two everyday constructors: input refused before anything
 * was signed or sent, and an operation attempted that failed. `toAppError` turns anything thrown (the
 * lower layers' classified errors, or an unexpected bug) into an AppError, without a ladder of classes:
 * each lower-layer class says its own kind and code (ClassifiedError).
 */
import { exitCodeOf, isClassifiedError, type ErrorKind } from '../../shared/errorKinds.js';

export type { ErrorKind };
export type ExitCode = 0 | 1 | 2;

export interface AppErrorOptions {
  hint?: string | undefined;
  field?: string | undefined;
  status?: number | undefined;
  /** Structured extras for --json output (e.g. new_wallet_fee on BELOW_MIN_AFTER_FEE). Never secrets. */
  details?: Record<string, unknown> | undefined;
  cause?: unknown;
}

export class AppError extends Error {
  readonly hint: string | undefined;
  readonly field: string | undefined;
  /** HTTP status when a service answered. */
  readonly status: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: string,
    readonly kind: ErrorKind,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    this.hint = options.hint;
    this.field = options.field;
    this.status = options.status;
    this.details = options.details;
  }

  get exitCode(): 1 | 2 {
    return exitCodeOf(this.kind);
  }
}

/** Bad input: nothing was signed and nothing was sent. */
export class ValidationError extends AppError {
  constructor(message: string, options: { field?: string; hint?: string; code?: string; cause?: unknown } = {}) {
    super(options.code ?? 'VALIDATION_ERROR', 'validation', options.field ? `${options.field}: ${message}` : message, options);
    this.name = 'ValidationError';
  }
}

/** The operation was attempted and failed: refused (the default), or no usable answer (transient). */
export class OperationError extends AppError {
  constructor(code: string, message: string, options: AppErrorOptions & { kind?: Exclude<ErrorKind, 'validation'> } = {}) {
    super(code, options.kind ?? 'rejected', message, options);
    this.name = 'OperationError';
  }
}

/**
 * Hints by code, for codes whose class does not carry its own: the service's error codes (spec,
 * "Errors") and the codes of failures the front ends word the same way.
 */
const HINTS: Record<string, string> = {
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
  NONCE_REPLAYED: 'The nonce was already used: this request (or one with the same nonce) already reached the service.',
  VALIDATION_ERROR: 'Check the value and try again; nothing was signed or sent.',
  BAD_RESPONSE: 'The service answered in an unexpected shape; check --base-url points at the trading API root (…/api/v1).',
};

/** Anything thrown, as an AppError. Unknown errors are internal: never hidden, never trusted as text for the UI. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isClassifiedError(err)) {
    const e = err as typeof err & { status?: unknown; field?: unknown; details?: unknown };
    return new AppError(e.errorCode, e.errorKind, e.message, {
      hint: e.errorHint ?? HINTS[e.errorCode],
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
      ...(typeof e.field === 'string' ? { field: e.field } : {}),
      ...(typeof e.details === 'object' && e.details !== null ? { details: e.details as Record<string, unknown> } : {}),
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new AppError('INTERNAL', 'internal', message, { cause: err });
}

export interface FailureDescription {
  /** Service error code or a local code (NETWORK_ERROR, TIMEOUT, KEYCHAIN_LOCKED, ...). */
  code: string;
  kind: ErrorKind;
  message: string;
  hint?: string;
  exitCode: 1 | 2;
  status?: number;
  details?: Record<string, unknown>;
}

/** The plain-data form of toAppError (for --json documents and logs). */
export function describeFailure(err: unknown): FailureDescription {
  const e = toAppError(err);
  const d: FailureDescription = { code: e.code, kind: e.kind, message: e.message, exitCode: e.exitCode };
  if (e.hint) d.hint = e.hint;
  if (e.status !== undefined) d.status = e.status;
  if (e.details !== undefined) d.details = e.details;
  return d;
}
