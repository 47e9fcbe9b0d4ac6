/**
 * The trading API's response envelope, decoded into a typed result or a typed error. Batch and async routes
 * answer 200 with per-item outcomes (cancel-batch may say success:false at 200): those are results, and
 * callers read the items, so the envelope's `success` flag alone never makes an error out of a 200.
 */
import { z } from 'zod';
import type { ClassifiedError } from '../errorKinds.js';

export const ERROR_CODES = [
  'INVALID_REQUEST',
  'INVALID_SIGNATURE',
  'INVALID_ENVIRONMENT',
  'INVALID_EXPIRES_AT',
  'INVALID_SIGNATURE_CHAIN_ID',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INTERNAL_ERROR',
] as const;
export type KnownErrorCode = (typeof ERROR_CODES)[number];

/** A service error: code (null for the code-less 409), HTTP status and the server's message. */
export class ApiError extends Error implements ClassifiedError {
  constructor(
    readonly code: string | null,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isReplayedNonce(): boolean {
    return this.status === 409;
  }

  /** A 5xx or 429 may pass; any other answer is the service's refusal. */
  get errorKind(): 'rejected' | 'transient' {
    return this.status >= 500 || this.status === 429 ? 'transient' : 'rejected';
  }

  /** The service's code; the code-less 409 is a replayed nonce. */
  get errorCode(): string {
    return this.code ?? (this.status === 409 ? 'NONCE_REPLAYED' : `HTTP_${this.status}`);
  }
}

/** The response did not match the spec's shape; the message names the field. */
export class DecodeError extends Error implements ClassifiedError {
  readonly errorKind = 'rejected' as const;
  readonly errorCode = 'BAD_RESPONSE';
  constructor(
    message: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

const SuccessEnvelope = z.object({ success: z.boolean(), data: z.unknown(), timestamp: z.number() });
const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string().nullable().optional(), message: z.string() }),
  timestamp: z.number().optional(),
});

export type Decoded<T> = { ok: true; data: T; success: boolean; timestamp: number } | { ok: false; error: ApiError };

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/** Parses with a schema; a failure becomes a DecodeError whose message names the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  const first = issues[0]!;
  throw new DecodeError(`${what}: ${first.path}: ${first.message}`, issues);
}

/** Decodes an HTTP status plus JSON body of the trading API. */
export function decodeEnvelope<S extends z.ZodType>(status: number, body: unknown, dataSchema: S, what: string): Decoded<z.infer<S>> {
  if (status >= 400 || (typeof body === 'object' && body !== null && 'error' in body && !('data' in body))) {
    const e = ErrorEnvelope.safeParse(body);
    if (e.success) return { ok: false, error: new ApiError(e.data.error.code ?? null, status, e.data.error.message) };
    // 409 on a replayed nonce has no code in the spec; any unparseable error body keeps its status.
    return { ok: false, error: new ApiError(null, status, typeof body === 'string' ? body : `HTTP ${status}`) };
  }
  const env = parseWith(SuccessEnvelope, body, `${what} envelope`);
  return { ok: true, data: parseWith(dataSchema, env.data, what), success: env.success, timestamp: env.timestamp };
}
