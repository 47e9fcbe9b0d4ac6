/**
 * The inference API's error contract (spec: Errors > Inference API): body
 * `{ error: { message, type, code } }`, human-readable message.
 * The 403 spending-limit answer has no code in the spec ("(no code)"), so its body has no `code` member at
 * all: `{ error: { message, type } }`. Sending `code: null` instead would be a value the spec never shows,
 * and a client must classify the 403 by its status anyway.
 */
import type { SimResponse } from '../../runtime/http.js';

export type InferenceErrorCode = 'invalid_request' | 'invalid_api_key' | 'key_disabled' | 'insufficient_balance' | 'not_found' | 'video_not_ready' | 'rate_limited' | 'host_unavailable';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  // Spec: 402 insufficient_balance carries type insufficient_quota.
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'invalid_request_error',
  // A write that is not JSON, refused by the simulator's local-only guard (src/sim/control/localOnly.ts).
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  502: 'server_error',
  503: 'server_error',
};

export function inferenceError(status: number, code: InferenceErrorCode | null, message: string, headers?: Record<string, string>): SimResponse {
  const type = TYPES[status];
  if (!type) throw new Error(`inference: no error type for HTTP ${status}`);
  return { status, body: { error: { message, type, ...(code !== null ? { code } : {}) } }, ...(headers ? { headers } : {}) };
}

/** Thrown inside request handling; the module turns it into the response above. */
export class InferenceFailure extends Error {
  constructor(readonly response: SimResponse) {
    super(JSON.stringify(response.body));
  }
}

export function fail(status: number, code: InferenceErrorCode | null, message: string, headers?: Record<string, string>): never {
  throw new InferenceFailure(inferenceError(status, code, message, headers));
}
