/**
 * Typed failures of the HTTP clients. A caller tells apart, by class:
 *  - ApiError (shared): the service answered with an error envelope (code, HTTP status, message);
 *  - DecodeError (shared): the service answered, but not in the spec's shape (the message names the field);
 *  - NetworkError / TimeoutError: no usable answer arrived;
 *  - WriteLandedUnknownResultError: a signed write was resent after a lost answer and the resend met 409,
 *    so the first copy landed and its result was lost. The caller reconciles by reading.
 * None of these ever carries a request body: bodies hold signatures, and errors end up in logs.
 */
import { ApiError, DecodeError } from '../../shared/protocol/index.js';
import type { ClassifiedError } from '../../shared/errorKinds.js';

export { ApiError, DecodeError };

export type HttpMethod = 'GET' | 'POST';

/** The request never got an answer: refused, reset, DNS failure, or the connection died mid-response. */
export class NetworkError extends Error implements ClassifiedError {
  readonly errorKind = 'transient' as const;
  readonly errorCode = 'NETWORK_ERROR';
  /**
   * True for writes: a connection that dies after the body went out may have been processed, so the
   * caller must not assume "nothing happened".
   */
  readonly mayHaveLanded: boolean;

  constructor(
    readonly method: HttpMethod,
    readonly url: string,
    detail: string,
    options?: { cause?: unknown; readOnly?: boolean },
  ) {
    super(`${method} ${url}: network error: ${detail}`, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'NetworkError';
    this.mayHaveLanded = method !== 'GET' && options?.readOnly !== true;
  }

  get errorHint(): string {
    return this.mayHaveLanded
      ? 'The connection failed after the request was sent; it may have landed. Check its state before retrying.'
      : 'Is the service running? Check --base-url / PERPS_BASE_URL (start a simulator with `perps sim`).';
  }
}

/** No complete answer within the per-request timeout (headers and body both count). */
export class TimeoutError extends Error implements ClassifiedError {
  readonly errorKind = 'transient' as const;
  readonly errorCode = 'TIMEOUT';
  /** As on NetworkError: a timed-out write may still be processed by the server. */
  readonly mayHaveLanded: boolean;

  constructor(
    readonly method: HttpMethod,
    readonly url: string,
    readonly timeoutMs: number,
    readOnly = false,
  ) {
    super(`${method} ${url}: no answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.mayHaveLanded = method !== 'GET' && !readOnly;
  }

  get errorHint(): string {
    return this.mayHaveLanded ? 'The request may have reached the service; check its state before retrying.' : 'Check the service URL (--base-url) and your connection.';
  }
}

/**
 * A signed write whose first attempt(s) lost their answer (network error, timeout or 5xx) was resent with
 * the identical bytes, and the resend answered 409 (nonce already used). That 409 is proof the earlier
 * copy was accepted by the server, not a replay mistake; its per-item result is unknown. Read the
 * state (order by client_order_id in open-orders/history, withdrawal history, key list...) instead of
 * signing a fresh copy, which could execute the action twice.
 */
export class WriteLandedUnknownResultError extends Error implements ClassifiedError {
  readonly errorKind = 'transient' as const;
  readonly errorCode = 'LANDED_RESULT_UNKNOWN';
  readonly errorHint = 'The request reached the service but its answer was lost; check history before retrying, never sign it again blindly.';
  constructor(
    /** Label of the route, e.g. 'POST /orders'. */
    readonly route: string,
    /** Attempts made, the 409 one included. */
    readonly attempts: number,
    /** What made the client resend: the lost first answer. */
    readonly firstFailure: Error,
    /** The server's 409 on the resend. */
    readonly conflict: ApiError,
  ) {
    super(`${route}: the first attempt landed (a resend of the same signed body answered 409) but its result was lost; read the state to reconcile`);
    this.name = 'WriteLandedUnknownResultError';
  }
}

/** Failures worth another try of a READ: transport trouble and server-side (5xx) errors. */
export function isTransientFailure(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof TimeoutError) return true;
  return err instanceof ApiError && err.status >= 500;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}
