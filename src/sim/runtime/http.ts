/**
 * Small HTTP helpers shared by every simulator route module (trading API, venue info, companions).
 * Each module exposes a RouteModule; the simulator server strips the module's prefix and hands it the rest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SimRequest {
  readonly method: string;
  /** Path below the module prefix, always starting with '/', without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Parsed JSON body for POST/PUT; undefined when there is no body. */
  readonly body: unknown;
  /** Raw body text (signature checks compare what was sent). */
  readonly rawBody: string;
  readonly headers: IncomingMessage['headers'];
  /** The headers as sent (name, value, ...): a header sent twice shows here, not in `headers`. */
  readonly rawHeaders?: readonly string[];
  /** Set when the body could not be read as JSON; the module answers it with a 400 in its own shape. */
  readonly bodyError?: string;
  /** The client's address (per-address limits such as the inference API's 429). */
  readonly remoteAddress?: string;
}

export interface SimResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface RouteModule {
  /** Answers a request, or returns null when no route of this module matches (the server answers 404). */
  handle(request: SimRequest): Promise<SimResponse | null> | SimResponse | null;
}

export class BodyParseError extends Error {}

/** The most a request body may hold; a larger one is answered 413 without being read to the end. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A body over MAX_BODY_BYTES: the router answers 413 and closes the connection. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`request body is over the ${limitBytes}-byte limit`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads the body as text and JSON. Past MAX_BODY_BYTES (declared in Content-Length, or counted while
 * reading) it rejects with BodyTooLargeError and keeps discarding what still arrives: the request
 * stream is never destroyed here, so the 413 can still be written on its socket.
 */
export function readBody(req: IncomingMessage): Promise<{ raw: string; json: unknown }> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(new BodyTooLargeError(MAX_BODY_BYTES));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) fail(new BodyTooLargeError(MAX_BODY_BYTES));
      else chunks.push(chunk);
    });
    req.once('error', fail);
    // A client that hangs up mid-body: 'close' without 'end'. Reported like the stream error it is.
    req.once('close', () => {
      if (!req.complete) fail(Object.assign(new Error('request aborted before its body ended'), { code: 'ECONNRESET' }));
    });
    req.once('end', () => {
      if (settled) return;
      settled = true;
      const raw = Buffer.concat(chunks).toString('utf8');
      if (raw.length === 0) return resolve({ raw, json: undefined });
      try {
        resolve({ raw, json: JSON.parse(raw) as unknown });
      } catch {
        reject(new BodyParseError('request body is not valid JSON'));
      }
    });
  });
}

export function sendJson(res: ServerResponse, response: SimResponse): void {
  const text = JSON.stringify(response.body);
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...response.headers,
  });
  res.end(text);
}

export function json(status: number, body: unknown): SimResponse {
  return { status, body };
}
