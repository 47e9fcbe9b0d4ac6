/**
 * A FetchFn on Node's own http/https modules, for short-lived processes (the `perps` command line).
 *
 * Why not the global fetch: Node's fetch (undici) parses HTTP with llhttp compiled to WebAssembly, and
 * compiling it on a process's first request costs about 100 ms, more than the rest of a command's
 * start-up; node:http's parser is native and ready. The app, a long-lived process, keeps the global fetch.
 *
 * It does what httpRequest and the clients above it rely on, the way fetch does it: method, headers and a
 * string body; the AbortSignal (a request aborted before or during the exchange rejects with the signal's
 * reason); redirects followed as fetch's default 'follow' does (303, and 301/302 after a POST, become a
 * GET without body; at most 20); a connection failure rejects with TypeError('fetch failed') carrying the
 * system error as its cause. The answer is a real Response (status, headers, body) read in full.
 */
import http from 'node:http';
import https from 'node:https';

const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose Response must have a null body. */
const NULL_BODY = new Set([204, 205, 304]);

interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Header names (lowercase) to values; fetch's default `accept: *\/*` unless the caller sets one. */
function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = { accept: '*/*' };
  const h = init?.headers;
  if (!h) return out;
  if (Array.isArray(h)) for (const [k, v] of h) out[k!.toLowerCase()] = v!;
  else if (typeof (h as Headers).forEach === 'function') (h as Headers).forEach((v, k) => (out[k.toLowerCase()] = v));
  else for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  return out;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** One request and its whole answer; rejects like fetch on a failed connection or an abort. */
function exchangeOnce(x: Exchange, signal: AbortSignal | undefined): Promise<{ status: number; statusText: string; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const transport = x.url.protocol === 'https:' ? https : http;
    const headers = { ...x.headers };
    if (x.body !== undefined) headers['content-length'] = String(Buffer.byteLength(x.body));
    const req = transport.request(x.url, { method: x.method, headers });
    const onAbort = (): void => {
      req.destroy();
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    req.on('error', (err) => {
      done();
      if (signal?.aborted) return; // already rejected with the abort reason
      reject(new TypeError('fetch failed', { cause: err }));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => {
        done();
        if (!signal?.aborted) reject(new TypeError('fetch failed', { cause: err }));
      });
      res.on('end', () => {
        done();
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    req.end(x.body);
  });
}

export const nodeHttpFetch: typeof fetch = async (input, init) => {
  if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('nodeHttpFetch takes a URL, not a Request');
  const signal = init?.signal ?? undefined;
  if (init?.body !== undefined && init.body !== null && typeof init.body !== 'string') throw new TypeError('nodeHttpFetch sends string bodies only');
  let x: Exchange = { method: (init?.method ?? 'GET').toUpperCase(), url: new URL(input), headers: headersOf(init), body: init?.body ?? undefined };
  for (let redirects = 0; ; redirects++) {
    if (x.url.protocol !== 'http:' && x.url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`unsupported protocol ${x.url.protocol}`) });
    const res = await exchangeOnce(x, signal);
    const location = res.headers.location;
    if (REDIRECTS.has(res.status) && location !== undefined) {
      if (redirects >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
      const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && x.method === 'POST');
      const next = new URL(location, x.url);
      const headers = { ...x.headers };
      // Fetch drops the body's own headers with the body.
      if (toGet) for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) delete headers[h];
      // As fetch does: credentials never follow a redirect to another origin.
      if (next.origin !== x.url.origin) delete headers['authorization'];
      x = { method: toGet ? 'GET' : x.method, url: next, headers, body: toGet ? undefined : x.body };
      continue;
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v)) for (const one of v) headers.append(k, one);
      else if (v !== undefined) headers.set(k, v);
    }
    const response = new Response(NULL_BODY.has(res.status) ? null : res.body, { status: res.status, statusText: res.statusText, headers });
    // A Response made here has no url of its own; fetch's says where the answer finally came from.
    Object.defineProperty(response, 'url', { value: x.url.href });
    return response;
  }
};
