/**
 * The control APIs (/sim and /sim/companion) move marks, credit deposits and force outcomes, and have no
 * signature to protect them: only local programs may call them. A web page open in a browser on the
 * same machine can reach 127.0.0.1, so three things are refused:
 *   - a Host that is not a loopback name (DNS rebinding: evil.example resolved to 127.0.0.1 sends
 *     `Host: evil.example:PORT`), 403;
 *   - an Origin other than the server's own (a page's cross-origin request carries its Origin), 403;
 *   - a write whose Content-Type is not application/json, 415. A page can send a "simple" POST
 *     (text/plain, a form, or no body at all) without a CORS preflight; application/json cannot be
 *     sent cross-origin without one, and this server answers no preflight.
 * Node's fetch, the app and the command line send `Host: 127.0.0.1:PORT`, no Origin, and JSON.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface ControlRefusal {
  readonly status: 403 | 415;
  readonly code: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE';
  readonly message: string;
}

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

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

/** Why a control request is refused, or null when it may go on. */
export function controlRefusal(request: { readonly method: string; readonly headers: IncomingHttpHeaders }): ControlRefusal | null {
  const host = hostUrl(request.headers.host);
  if (host === null || !LOOPBACK_HOSTNAMES.has(host.hostname)) {
    return { status: 403, code: 'FORBIDDEN', message: 'the control API answers only requests addressed to a loopback host (127.0.0.1, localhost, [::1])' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && originOf(origin) !== host.origin) {
    return { status: 403, code: 'FORBIDDEN', message: 'the control API refuses requests from another origin (a web page)' };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && !isJson(request.headers['content-type'])) {
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'control writes must be sent as Content-Type: application/json' };
  }
  return null;
}
