/**
 * One HTTP exchange with a per-request timeout. The timeout is one AbortSignal for the whole exchange,
 * headers and body both, because a server that sends headers and then stalls is as dead as one that
 * never answers. Failures become NetworkError or TimeoutError; any HTTP status is an answer, not a failure.
 */
import { NetworkError, TimeoutError, type HttpMethod } from './errors.js';

export type FetchFn = typeof fetch;

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  /** Already serialised JSON: a resend must send these exact bytes, so callers serialise once. */
  body?: string;
  timeoutMs: number;
  /** Caller cancellation (shutdown); an abort from here is rethrown as is, not as a timeout. */
  signal?: AbortSignal;
  /** A POST that changes nothing (the venue's info API): its failures never "may have landed". */
  readOnly?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Parsed JSON, or the raw text when the body is not JSON (proxies answer HTML), or undefined when empty. */
  body: unknown;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export async function httpRequest(fetchFn: FetchFn, req: HttpRequest): Promise<HttpResponse> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([timeout.signal, req.signal]) : timeout.signal;
  try {
    const init: RequestInit = {
      method: req.method,
      signal,
      headers: req.body !== undefined ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
    };
    if (req.body !== undefined) init.body = req.body;
    const res = await fetchFn(req.url, init);
    const text = await res.text();
    return { status: res.status, body: parseBody(text) };
  } catch (err) {
    if (req.signal?.aborted) throw err;
    if (timeout.signal.aborted) throw new TimeoutError(req.method, req.url, req.timeoutMs, req.readOnly ?? false);
    throw new NetworkError(req.method, req.url, describeFetchFailure(err), { cause: err, readOnly: req.readOnly ?? false });
  } finally {
    clearTimeout(timer);
  }
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: keep the text so the error (or DecodeError) can show what came back.
    return text;
  }
}

/** Node's fetch says only "fetch failed"; the useful part (ECONNRESET, "other side closed") is in the cause. */
function describeFetchFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${err.message} (${typeof code === 'string' ? `${code}: ` : ''}${cause.message})`;
  }
  return err.message;
}
