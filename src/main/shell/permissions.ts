/**
 * Which web permissions the session grants. One, to one frame: `clipboard-sanitized-write`, which
 * navigator.clipboard.writeText needs for the app's copy buttons, to the app's own page (app://perps, or
 * the loopback dev server during `npm run dev`). Every other permission, and every other origin or a
 * cross-origin subframe, is refused. Electron asks twice (a check, then a request when the check
 * failed), so both handlers use this one decision. No Electron import: unit-tested under plain Node.
 */
import { isTrustedFrameUrl } from './appOrigin.js';

/** The permissions the app's own page may use. */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export interface PermissionAsk {
  readonly permission: string;
  /** The last URL the requesting frame loaded (both handlers; absent for checks not made for a document). */
  readonly requestingUrl?: string | undefined;
  /** The requesting origin (the check handler's third argument). */
  readonly requestingOrigin?: string | undefined;
  /** Set only for a cross-origin subframe (check handler). */
  readonly embeddingOrigin?: string | undefined;
}

export function isPermissionAllowed(ask: PermissionAsk, devServerUrl?: string): boolean {
  if (!GRANTED_PERMISSIONS.has(ask.permission)) return false;
  if (ask.embeddingOrigin !== undefined && ask.embeddingOrigin !== '') return false;
  // Every place the frame is named must be the app; at least one must be given.
  const named = [ask.requestingUrl, ask.requestingOrigin].filter((u): u is string => u !== undefined);
  return named.length > 0 && named.every((u) => isTrustedFrameUrl(u, devServerUrl));
}
