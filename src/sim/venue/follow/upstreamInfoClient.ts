/**
 * The upstream venue's info API (POST {type: ...} to its root), read-only and keyless. Each answer is
 * validated against upstreamSchemas.ts, so a changed or broken upstream is an error, never a guess.
 * An answer is read as a stream and refused past a size cap (issue 26: a 300 MB answer must not take the
 * simulator's memory with it).
 */
import type { z } from 'zod';
import { l2BookSchema, metaAndAssetCtxsSchema, type UpstreamL2Book } from './upstreamSchemas.js';

/** An answer the upstream gave slower than this counts as no answer (the feed may be going away). */
const REQUEST_TIMEOUT_MS = 4000;
/** The largest answer read (the real venue's largest, a full candle snapshot, is well under 1 MB). */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class UpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export class UpstreamInfoClient {
  constructor(
    readonly infoUrl: string,
    readonly maxAnswerBytes: number = DEFAULT_MAX_ANSWER_BYTES,
  ) {}

  metaAndAssetCtxs(): Promise<z.infer<typeof metaAndAssetCtxsSchema>> {
    return this.post({ type: 'metaAndAssetCtxs' }).then((body) => parse(metaAndAssetCtxsSchema, body, 'metaAndAssetCtxs'));
  }

  l2Book(coin: string): Promise<UpstreamL2Book> {
    return this.post({ type: 'l2Book', coin }).then((body) => parse(l2BookSchema, body, `l2Book ${coin}`));
  }

  /** Any info request, answered as the upstream sent it (the proxied candle and funding history reads). */
  async post(body: unknown): Promise<unknown> {
    const abort = new AbortController();
    let response: Response;
    try {
      response = await fetch(this.infoUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
    } catch (err) {
      throw new UpstreamError(`${this.infoUrl} did not answer: ${describeFetchError(err)}`);
    }
    let text: string;
    try {
      text = await readCapped(response, this.maxAnswerBytes);
    } catch (err) {
      // Stop the transfer: what is left of the answer is not read, nor kept.
      abort.abort();
      if (err instanceof UpstreamError) throw new UpstreamError(`${this.infoUrl} ${err.message}`);
      throw new UpstreamError(`${this.infoUrl} did not finish its answer: ${describeFetchError(err)}`);
    }
    if (!response.ok) throw new UpstreamError(`${this.infoUrl} answered ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UpstreamError(`${this.infoUrl} answered something that is not JSON: ${text.slice(0, 200)}`);
    }
  }
}

/** The body as text, or an UpstreamError as soon as it is longer than `cap` bytes (declared or sent). */
async function readCapped(response: Response, cap: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > cap) throw new UpstreamError(`answered ${declared} bytes, more than the ${cap} bytes an answer may have: refused`);
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      // A cancel that fails changes nothing: the caller's abort closes the connection anyway.
      await reader.cancel().catch(() => undefined);
      throw new UpstreamError(`answered more than the ${cap} bytes an answer may have: refused`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parse<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`the upstream's ${what} is not in the expected shape: ${parsed.error.issues[0]?.message ?? 'invalid'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
  return parsed.data;
}

function describeFetchError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS} ms`;
  return e.cause?.code ?? e.cause?.message ?? e.message;
}
