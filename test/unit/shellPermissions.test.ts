/**
 * The session's permission decisions: the app's own page may write to the clipboard (its copy buttons
 * use navigator.clipboard.writeText, which needs `clipboard-sanitized-write`), and nothing else is
 * granted to anyone. The same decision serves Electron's check handler and its request handler.
 */
import { describe, expect, it } from 'vitest';
import { isPermissionAllowed } from '../../src/main/shell/permissions.js';

const APP_PAGE = 'app://perps/index.html';
const DEV = 'http://localhost:5173';

describe('permission decisions', () => {
  it('grants clipboard-sanitized-write to the app page, as a request (requestingUrl) and as a check (origin, url)', () => {
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingUrl: APP_PAGE })).toBe(true);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: 'app://perps', requestingUrl: APP_PAGE })).toBe(true);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: 'app://perps' })).toBe(true);
  });

  it('refuses every other permission to the app page', () => {
    for (const permission of ['clipboard-read', 'deprecated-sync-clipboard-read', 'media', 'display-capture', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'hid', 'usb', 'serial', 'fileSystem', 'unknown', '']) {
      expect(isPermissionAllowed({ permission, requestingUrl: APP_PAGE, requestingOrigin: 'app://perps' }), permission).toBe(false);
    }
  });

  it('refuses the clipboard to any other origin, to a cross-origin subframe, and when no frame is named', () => {
    for (const url of ['https://evil.example/', 'app://evil/index.html', 'file:///tmp/index.html', 'http://localhost:5173/', 'http://127.0.0.1:9/', 'about:blank', 'not a url']) {
      expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingUrl: url }), url).toBe(false);
      expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: url }), url).toBe(false);
    }
    // The app page's origin with another frame's URL (or the reverse) is not the app page.
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: 'app://perps', requestingUrl: 'https://evil.example/' })).toBe(false);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: 'https://evil.example', requestingUrl: APP_PAGE })).toBe(false);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: 'app://perps', embeddingOrigin: 'https://evil.example' })).toBe(false);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write' })).toBe(false);
  });

  it('grants it to the loopback dev server only while running `npm run dev` (devServerUrl set)', () => {
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingUrl: `${DEV}/` }, DEV)).toBe(true);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingOrigin: DEV }, DEV)).toBe(true);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingUrl: `${DEV}/` })).toBe(false);
    expect(isPermissionAllowed({ permission: 'clipboard-sanitized-write', requestingUrl: 'http://localhost:5174/' }, DEV)).toBe(false);
    expect(isPermissionAllowed({ permission: 'media', requestingUrl: `${DEV}/` }, DEV)).toBe(false);
  });
});
