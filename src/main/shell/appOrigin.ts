/**
 * The app's own origin and the pure rules the shell enforces with it. No Electron import here, so the
 * rules are unit-tested under plain Node; src/main/shell/*Adapter files apply them to Electron.
 */
import path from 'node:path';

/** Pages are served from this custom scheme, never file://, so the CSP and origin checks have a real origin. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'perps';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The Content-Security-Policy of every page the app serves. connect-src none: the renderer makes no network calls. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
].join('; ');

/** True for frames of the app itself (or the dev server during `npm run dev`). */
export function isTrustedFrameUrl(url: string, devServerUrl?: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
  if (devServerUrl) {
    const dev = new URL(devServerUrl);
    return parsed.origin === dev.origin && (parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1');
  }
  return false;
}

/**
 * Maps an app:// request URL to a file under the renderer folder, refusing anything that would escape it
 * (encoded '..', absolute paths, other hosts). null means 404.
 */
export function resolveAppFile(requestUrl: string, rendererDir: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  return file;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * External links: only https to an allowlisted host (exact host or a subdomain of it) leaves the app,
 * and it goes to the system browser. Everything else is refused.
 */
export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((h) => host === h.toLowerCase() || host.endsWith('.' + h.toLowerCase()));
}
