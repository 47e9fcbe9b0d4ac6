/**
 * The inference API's error contract (spec: Errors > Inference API) as typed errors. Body shape
 * `{ error: { message, type, code } }`. Each class carries the spec's suggested action and whether the
 * request may be retried unchanged: only 429 and 502/503 are (with exponential backoff); 400 to 404 never
 * are, since the same request would be refused the same way (and a refused request is never charged,
 * so nothing is lost by stopping).
 *
 * Classification goes by HTTP status first, then by code, so a gateway that drops or renames a code still
 * lands in the right class: 401 is key_disabled only when the code says so, 402 is the balance error
 * whether the code reads insufficient_balance or the type insufficient_quota, and 403 is the spending
 * limit whether its body has no code (the spec's shape) or `code: null`.
 *
 * The service's message is free text and may quote the key it refused (as "Incorrect API key provided:
 * sk-..." services do). Errors end up in logs, in the app's error lines and in --json output, so the
 * message is built only after every stretch of the key that could identify it has been cut out
 * (redactKey).
 */
import { InferenceErrorSchema } from '../../../shared/protocol/index.js';
import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';

export type InferenceErrorKind =
  | 'invalid_request'
  | 'invalid_api_key'
  | 'key_disabled'
  | 'insufficient_balance'
  | 'spending_limit'
  | 'not_found'
  | 'video_not_ready'
  | 'rate_limited'
  | 'host_unavailable'
  | 'unknown';

/** The spec's "Action" column (and for 404, the hint it gives in the meaning). */
export const INFERENCE_ACTIONS: Record<InferenceErrorKind, string> = {
  invalid_request: 'Read the message: a parameter, the content, its size or count, or the model refused the request.',
  invalid_api_key: 'Check the API key, or create a new one.',
  key_disabled: 'The API key is turned off: enable it.',
  insufficient_balance: 'Deposit to the inference account, or lower max_tokens.',
  spending_limit: "The key's or account's spending limit is reached: raise it, or wait for the reset.",
  not_found: 'No such model or endpoint: check the ids against GET /v1/models.',
  video_not_ready: 'The video is unfinished: poll its status until completed.',
  rate_limited: 'Too many requests: back off and retry.',
  host_unavailable: "The model's hosts could not answer: retry shortly.",
  unknown: 'The inference service failed; retry later.',
};

const RETRYABLE: ReadonlySet<InferenceErrorKind> = new Set(['rate_limited', 'host_unavailable']);

export class InferenceError extends Error implements ClassifiedError {
  readonly action: string;
  /** True only for 429 and 502/503: worth the same request again after a backoff. */
  readonly retryable: boolean;

  constructor(
    readonly kind: InferenceErrorKind,
    readonly status: number,
    /** The service's human-readable message. */
    readonly serverMessage: string,
    readonly code: string | null,
    readonly type: string | null,
    /** From a Retry-After header, when the service sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`inference: HTTP ${status}${code ? ` ${code}` : ''}: ${serverMessage}`);
    this.name = 'InferenceError';
    this.action = INFERENCE_ACTIONS[kind];
    this.retryable = RETRYABLE.has(kind);
  }

  get errorKind(): ErrorKind {
    return this.retryable ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return `INFERENCE_${this.kind.toUpperCase()}`;
  }

  get errorHint(): string {
    return this.action;
  }
}

type Args = ConstructorParameters<typeof InferenceError> extends [InferenceErrorKind, ...infer R] ? R : never;

export class InferenceInvalidRequestError extends InferenceError {
  constructor(...a: Args) {
    super('invalid_request', ...a);
    this.name = 'InferenceInvalidRequestError';
  }
}
export class InferenceInvalidApiKeyError extends InferenceError {
  constructor(...a: Args) {
    super('invalid_api_key', ...a);
    this.name = 'InferenceInvalidApiKeyError';
  }
}
export class InferenceKeyDisabledError extends InferenceError {
  constructor(...a: Args) {
    super('key_disabled', ...a);
    this.name = 'InferenceKeyDisabledError';
  }
}
export class InferenceInsufficientBalanceError extends InferenceError {
  constructor(...a: Args) {
    super('insufficient_balance', ...a);
    this.name = 'InferenceInsufficientBalanceError';
  }
}
/** 403 without a code: the key's or the account's spending limit. */
export class InferenceSpendingLimitError extends InferenceError {
  constructor(...a: Args) {
    super('spending_limit', ...a);
    this.name = 'InferenceSpendingLimitError';
  }
}
export class InferenceNotFoundError extends InferenceError {
  constructor(...a: Args) {
    super('not_found', ...a);
    this.name = 'InferenceNotFoundError';
  }
}
export class InferenceVideoNotReadyError extends InferenceError {
  constructor(...a: Args) {
    super('video_not_ready', ...a);
    this.name = 'InferenceVideoNotReadyError';
  }
}
export class InferenceRateLimitedError extends InferenceError {
  constructor(...a: Args) {
    super('rate_limited', ...a);
    this.name = 'InferenceRateLimitedError';
  }
}
export class InferenceHostUnavailableError extends InferenceError {
  constructor(...a: Args) {
    super('host_unavailable', ...a);
    this.name = 'InferenceHostUnavailableError';
  }
}

/** Retry-After: delay-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** What replaces a piece of the key in a server message. */
export const REDACTED = '[redacted]';

/**
 * Shortest run of the key's characters that is cut out of a message. The whole key is always cut; so is
 * any 8 or more of its characters in a row, because a service may quote the key without its well-known
 * prefix (`sk-`, `sk-proj-`) or only its tail, and 8 random characters still narrow a key down a lot.
 * Shorter runs (the 4-character tail many services show on purpose) are left: they identify nothing and
 * cutting them would mangle ordinary words.
 */
export const MIN_REDACTED_RUN = 8;

/**
 * The spellings of the key a message may echo besides the key itself. Gateways and proxies quote what
 * they received: an Authorization header in base64 (Basic auth encodes `user:key`, so the key can start
 * at any of the three byte offsets of a base64 group), a URL with the key percent-encoded, a hex dump of
 * the bytes. Case changes, base64url's alphabet and separators are handled by comparing skeletons (see
 * skeletonOf), so each spelling is listed once.
 */
function encodedSpellings(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const spellings = [key, bytes.toString('hex'), encodeURIComponent(key)];
  for (let offset = 0; offset < 3; offset++) {
    // Base64 of the key after `offset` other bytes; only the characters made of key bits alone are kept.
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    spellings.push(encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6)));
  }
  return [...new Set(spellings)];
}

/**
 * A string's letters and digits, lower-cased, with the index in the original of each. Comparing
 * skeletons finds an echo whatever its case (an upper-cased key, hex in capitals), whatever separates
 * its pieces (a key split by spaces, line breaks or dashes) and in base64url as in base64 (they differ
 * only in `+/` against `-_`). Random key material matches an ordinary word's skeleton for 8 characters
 * with a chance of about 36^-8 per position pair, so nothing ordinary is cut.
 */
function skeletonOf(text: string): { chars: string; at: number[] } {
  let chars = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/[0-9A-Za-z]/.test(c)) {
      chars += c.toLowerCase();
      at.push(i);
    }
  }
  return { chars, at };
}

/**
 * Marks in `covered` every index of `text` inside a common run of at least `minRun` characters of
 * `text` and `needle`. Longest-common-substring table, one row at a time: run[j] is the length of the
 * common run ending at the current text character and needle[j - 1].
 */
function markRuns(text: string, needle: string, minRun: number, mark: (from: number, to: number) => void): void {
  let prev = new Uint32Array(needle.length + 1);
  let run = new Uint32Array(needle.length + 1);
  for (let i = 0; i < text.length; i++) {
    run.fill(0);
    let longest = 0;
    for (let j = 1; j <= needle.length; j++) {
      if (text[i] !== needle[j - 1]) continue;
      const n = (prev[j - 1] ?? 0) + 1;
      run[j] = n;
      longest = Math.max(longest, n);
    }
    if (longest >= minRun) mark(i + 1 - longest, i);
    [prev, run] = [run, prev];
  }
}

/**
 * `text` with the key, and every run of at least MIN_REDACTED_RUN of its characters, replaced by
 * REDACTED, in any of the spellings an echo may use: as is, in another case, split by separators,
 * base64 or base64url, percent-encoded or hex.
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  const key = apiKey?.trim() ?? '';
  if (key === '' || text === '') return text;
  const covered = new Uint8Array(text.length);
  // The key character for character (case aside), separators included: a key shorter than the run
  // length can only be matched whole.
  markRuns(text.toLowerCase(), key.toLowerCase(), Math.min(MIN_REDACTED_RUN, key.length), (from, to) => covered.fill(1, from, to + 1));
  // Every spelling by skeleton; a run covers the original characters from its first to its last, so the
  // separators inside a split key go too.
  const textSkeleton = skeletonOf(text);
  for (const spelling of encodedSpellings(key)) {
    const needle = skeletonOf(spelling).chars;
    if (needle === '') continue;
    markRuns(textSkeleton.chars, needle, Math.min(MIN_REDACTED_RUN, needle.length), (from, to) => covered.fill(1, textSkeleton.at[from]!, textSkeleton.at[to]! + 1));
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (covered[i] !== 1) out += text[i];
    else if (i === 0 || covered[i - 1] !== 1) out += REDACTED;
  }
  return out;
}

/** A service message longer than this is cut: it is for a human to read, and it bounds redactKey's work. */
const MAX_MESSAGE_CHARS = 1_000;

/**
 * The typed error of an inference error answer. `apiKey` is the key the request carried: it (and any long
 * stretch of it) is cut out of the service's message, code and type before they go into the error.
 */
export function inferenceErrorOf(status: number, body: unknown, retryAfterMs: number | null = null, apiKey?: string): InferenceError {
  const parsed = InferenceErrorSchema.safeParse(body);
  const rawMessage = parsed.success ? parsed.data.error.message.slice(0, MAX_MESSAGE_CHARS) : typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 200) : `HTTP ${status}`;
  const message = redactKey(rawMessage, apiKey);
  const rawCode = parsed.success ? (parsed.data.error.code ?? null) : null;
  const rawType = parsed.success ? (parsed.data.error.type ?? null) : null;
  // The code and type are matched exactly below; one that quotes the key is garbage and lands as unknown.
  const code = rawCode === null ? null : redactKey(rawCode, apiKey);
  const type = rawType === null ? null : redactKey(rawType, apiKey);
  const args: Args = [status, message, code, type, retryAfterMs];
  switch (status) {
    case 400:
      return new InferenceInvalidRequestError(...args);
    case 401:
      return code === 'key_disabled' ? new InferenceKeyDisabledError(...args) : new InferenceInvalidApiKeyError(...args);
    case 402:
      return new InferenceInsufficientBalanceError(...args);
    case 403:
      return new InferenceSpendingLimitError(...args);
    case 404:
      return new InferenceNotFoundError(...args);
    case 409:
      return new InferenceVideoNotReadyError(...args);
    case 429:
      return new InferenceRateLimitedError(...args);
    case 502:
    case 503:
      return new InferenceHostUnavailableError(...args);
    default:
      // Codes the spec names can still arrive on another status behind a gateway; otherwise unknown.
      if (code === 'insufficient_balance' || type === 'insufficient_quota') return new InferenceInsufficientBalanceError(...args);
      if (code === 'rate_limited') return new InferenceRateLimitedError(...args);
      if (code === 'host_unavailable') return new InferenceHostUnavailableError(...args);
      return new InferenceError('unknown', ...args);
  }
}
