/**
 * The trading API's envelope and errors. Handlers throw ApiFailure for request-level errors (400, 401,
 * 403, 404, 409) and return data for successes; the API module turns both into the spec's envelope,
 * stamped with SimClock time.
 */
import type { SimResponse } from '../runtime/http.js';

export type ErrorCode =
  | 'INVALID_REQUEST'
  | 'INVALID_SIGNATURE'
  | 'INVALID_ENVIRONMENT'
  | 'INVALID_EXPIRES_AT'
  | 'INVALID_SIGNATURE_CHAIN_ID'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'INTERNAL_ERROR'
  // Not in the spec's table: transport limits of this server (a body over 1 MiB) and of its control API.
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE';

/**
 * A request-level failure. `code` is null only for the replayed-nonce 409, which the spec lists with
 * no code: the sim answers `error: { code: null, message: 'nonce already used ...' }`; clients read the
 * 409 status.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

export const invalidRequest = (message: string): ApiFailure => new ApiFailure(400, 'INVALID_REQUEST', message);
export const notFound = (message: string): ApiFailure => new ApiFailure(404, 'NOT_FOUND', message);
export const nonceReplayed = (nonce: string): ApiFailure => new ApiFailure(409, null, `nonce ${nonce} was already used by this wallet`);

/**
 * The one 403 message of every trading-key route: identical whether the recovered signer has no active
 * key or the signed payload differs from the sent one (both recover an address with no active key).
 */
export const FORBIDDEN_MESSAGE = 'signature does not recover an active trading key of this account';
export const forbidden = (): ApiFailure => new ApiFailure(403, 'FORBIDDEN', FORBIDDEN_MESSAGE);

/** A 200 answer whose envelope `success` is false (cancel-batch, rejected legs): data still travels. */
export class Envelope {
  constructor(
    readonly data: unknown,
    readonly success: boolean,
  ) {}
}

export function successBody(data: unknown, now: number, success = true): { success: boolean; data: unknown; timestamp: number } {
  return { success, data, timestamp: now };
}

export function errorResponse(status: number, code: ErrorCode | null, message: string, now: number): SimResponse {
  return { status, body: { success: false, error: { code, message }, timestamp: now } };
}

export function okResponse(data: unknown, now: number, success = true): SimResponse {
  return { status: 200, body: successBody(data, now, success) };
}
