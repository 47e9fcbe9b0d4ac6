/**
 * The upstream venue's info API (POST {type: ...} to its root), read-only and keyless. Each answer is
 * validated against upstreamSchemas.ts, so a changed or broken upstream is an error, never a guess.
 */
import type { z } from 'zod';
import { l2BookSchema, metaAndAssetCtxsSchema, type UpstreamL2Book } from './upstreamSchemas.js';

/** An answer the upstream gave slower than this counts as no answer (the feed may be going away). */
const REQUEST_TIMEOUT_MS = 4000;

export class UpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export class UpstreamInfoClient {
  constructor(readonly infoUrl: string) {}

  metaAndAssetCtxs(): Promise<z.infer<typeof metaAndAssetCtxsSchema>> {
    return this.post({ type: 'metaAndAssetCtxs' }).then((body) => parse(metaAndAssetCtxsSchema, body, 'metaAndAssetCtxs'));
  }

  l2Book(coin: string): Promise<UpstreamL2Book> {
    return this.post({ type: 'l2Book', coin }).then((body) => parse(l2BookSchema, body, `l2Book ${coin}`));
  }

  /** Any info request, answered as the upstream sent it (the proxied candle and funding history reads). */
  async post(body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.infoUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new UpstreamError(`${this.infoUrl} did not answer: ${describeFetchError(err)}`);
    }
    const text = await response.text();
    if (!response.ok) throw new UpstreamError(`${this.infoUrl} answered ${response.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UpstreamError(`${this.infoUrl} answered something that is not JSON: ${text.slice(0, 200)}`);
    }
  }
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
