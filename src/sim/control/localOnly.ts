/**
 * The simulator listens on 127.0.0.1 and answers only local programs, on every route: the control APIs
 * (/sim, /sim/companion) move marks and credit deposits with no signature to protect them, and the
 * trading API, the venue's info endpoint and WebSocket and the companions serve an account's balances,
 * orders and positions to anyone who asks. A web page open in a browser on the same machine can reach
 * 127.0.0.1, so three things are refused:
 *   - a Host that is not a loopback name (DNS rebinding: evil.example resolved to 127.0.0.1 sends
 *     `Host: evil.example:PORT`), or more than one Host header, 403;
 *   - an Origin other than the server's own (a page's cross-origin request carries its Origin), 403;
 *   - a write whose Content-Type is not application/json, 415. A page can send a "simple" POST
 *     (text/plain, a form, or no body at all) without a CORS preflight; application/json cannot be
 *     sent cross-origin without one, and this server answers no preflight.
 * Node's fetch, node:http, ethers and ws (the app's main process, the command line, the test
 * helpers) send `Host: 127.0.0.1:PORT` (or another 127/8 address, localhost, or [::1]), no Origin, and JSON.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface LocalOnlyRefusal {
  readonly status: 403 | 415;
  readonly code: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE';
  readonly message: string;
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '[::1]']);
/** The whole 127.0.0.0/8 block is loopback (a test's stand-ins for other hosts sit on 127.0.0.2 and up). */
const LOOPBACK_V4 = /^127\.(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){2}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname) || LOOPBACK_V4.test(hostname);
}

/** The Host header as a URL (http://host[:port]); null when absent or anything beyond host[:port]. */
function hostUrl(host: string | undefined): URL | null {
  if (!host) return null;
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    return url;
  } catch {
    return null;
  }
}

/** How many Host headers a request carries (rawHeaders: name, value, name, value, ...). */
function hostHeaderCount(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** The Origin header's origin; null for 'null' (an opaque origin) or anything unparsable. */
function originOf(origin: string): string | null {
  try {
    const parsed = new URL(origin).origin;
    return parsed === 'null' ? null : parsed;
  } catch {
    return null;
  }
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * Why a request is refused, or null when it may go on. A WebSocket upgrade is checked as the GET it is
 * (Host and Origin: a page can open a WebSocket to any origin, and its handshake carries its Origin).
 */
export function localOnlyRefusal(request: { readonly method: string; readonly headers: IncomingHttpHeaders; readonly rawHeaders?: readonly string[] }): LocalOnlyRefusal | null {
  // Node keeps the first of several Host headers and drops the rest: a loopback one first and a
  // rebinding name after was answered (issue 36). A request naming more than one host is refused whole.
  if (request.rawHeaders !== undefined && hostHeaderCount(request.rawHeaders) > 1) {
    return { status: 403, code: 'FORBIDDEN', message: 'the simulator refuses a request with more than one Host header' };
  }
  const host = hostUrl(request.headers.host);
  if (host === null || !isLoopbackHostname(host.hostname)) {
    return { status: 403, code: 'FORBIDDEN', message: 'the simulator answers only requests addressed to a loopback host (127.0.0.0/8, localhost, [::1])' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && originOf(origin) !== host.origin) {
    return { status: 403, code: 'FORBIDDEN', message: 'the simulator refuses requests from another origin (a web page)' };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && !isJson(request.headers['content-type'])) {
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'writes to the simulator must be sent as Content-Type: application/json' };
  }
  return null;
}
