/** The shell's pure rules: trusted frames, the app:// file mapping, external links, window state. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, isAllowedExternalUrl, isTrustedFrameUrl, resolveAppFile } from '../../src/main/shell/appOrigin.js';
import { loadWindowState, saveWindowState } from '../../src/main/shell/windowState.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { tempDir } from '../support/keychain.js';

describe('trusted frames', () => {
  it('trusts only the app origin (and the loopback dev server when one is set)', () => {
    expect(isTrustedFrameUrl('app://perps/index.html')).toBe(true);
    expect(isTrustedFrameUrl('app://evil/index.html')).toBe(false);
    expect(isTrustedFrameUrl('file:///tmp/out/renderer/index.html')).toBe(false);
    expect(isTrustedFrameUrl('https://perps.example/')).toBe(false);
    expect(isTrustedFrameUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isTrustedFrameUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isTrustedFrameUrl('not a url')).toBe(false);
  });
});

describe('app:// file mapping', () => {
  const root = tempDir('renderer');
  fs.writeFileSync(path.join(root, 'index.html'), '<html></html>');

  it('serves files under the renderer folder', () => {
    expect(resolveAppFile('app://perps/', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppFile('app://perps/assets/a.js', root)).toBe(path.join(root, 'assets/a.js'));
  });

  it('refuses traversal, other hosts and other schemes', () => {
    expect(resolveAppFile('app://perps/..%2f..%2fetc/passwd', root)).toBeNull();
    // The URL parser folds an encoded '..' segment away: it stays inside the folder.
    expect(resolveAppFile('app://perps/%2e%2e/secret', root)).toBe(path.join(root, 'secret'));
    expect(resolveAppFile('app://other/index.html', root)).toBeNull();
    expect(resolveAppFile('file:///etc/passwd', root)).toBeNull();
    expect(resolveAppFile('app://perps/a%00b', root)).toBeNull();
  });

  it('has a CSP that forbids network access and inline scripts', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
  });
});

describe('external links', () => {
  const allow = ['github.com', 'docs.perpsdesk.app'];
  it('opens only https links to allowlisted hosts', () => {
    expect(isAllowedExternalUrl('https://github.com/x', allow)).toBe(true);
    expect(isAllowedExternalUrl('https://gist.github.com/x', allow)).toBe(true);
    expect(isAllowedExternalUrl('http://github.com/x', allow)).toBe(false);
    expect(isAllowedExternalUrl('https://github.com.evil.io/', allow)).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@github.com/', allow)).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)', allow)).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd', allow)).toBe(false);
  });
});

describe('window state', () => {
  const display = { x: 0, y: 0, width: 2560, height: 1440 };
  it('remembers bounds and restores them when on screen', () => {
    const store = openNodeSettings(tempDir('win'));
    expect(loadWindowState(store, [display])).toBeNull();
    saveWindowState(store, { bounds: { x: 100, y: 80, width: 1400, height: 900 }, maximized: true });
    expect(loadWindowState(store, [display])).toEqual({ bounds: { x: 100, y: 80, width: 1400, height: 900 }, maximized: true });
  });

  it('ignores bounds on a display that is gone', () => {
    const store = openNodeSettings(tempDir('win2'));
    saveWindowState(store, { bounds: { x: 3000, y: 80, width: 1400, height: 900 }, maximized: false });
    expect(loadWindowState(store, [display])).toBeNull();
  });
});
