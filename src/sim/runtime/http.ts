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

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<{ raw: string; json: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BodyParseError('request body too large');
    chunks.push(buf);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.length === 0) return { raw, json: undefined };
  try {
    return { raw, json: JSON.parse(raw) as unknown };
  } catch {
    throw new BodyParseError('request body is not valid JSON');
  }
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
