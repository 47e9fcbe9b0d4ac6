/**
 * Electron adapters for the shell's rules (src/main/shell/appOrigin.ts, permissions.ts): the app://
 * protocol, the global web-contents guard, the permission handlers, and the main window. Thin on purpose: the decisions
 * live in plain functions that are tested without Electron.
 */
import { BrowserWindow, app, net, protocol, screen, session, shell, type WebContents } from 'electron';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SettingsStore } from '../settings/settingsStore.js';
import { APP_ORIGIN, APP_SCHEME, CONTENT_SECURITY_POLICY, contentTypeOf, isAllowedExternalUrl, isTrustedFrameUrl, resolveAppFile } from './appOrigin.js';
import { isPermissionAllowed } from './permissions.js';
import { DEFAULT_SIZE, MIN_SIZE, loadWindowState, saveWindowState } from './windowState.js';

/**
 * Must run before app 'ready': the scheme is standard and secure so it has an origin and CSP applies.
 * codeCache: V8 keeps the renderer's compiled code between starts (only for a standard scheme), so a
 * returning trader's first screen skips compiling its scripts (issue 17).
 */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, codeCache: true } }]);
}

/** Serves the built renderer under app://perps/ with the CSP header on every response. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, rendererDir);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) return new Response('not found', { status: 404 });
    const upstream = await net.fetch(pathToFileURL(file).toString());
    return new Response(upstream.body, {
      status: 200,
      headers: { 'content-type': contentTypeOf(file), 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
    });
  });
}

/**
 * The global guard: every web contents ever created (windows, devtools, anything) may not navigate off
 * the app, open windows, or attach webviews; allowlisted https links go to the system browser.
 */
export function installSecurityGuards(externalHosts: readonly string[], devServerUrl?: string): void {
  const openExternal = (url: string) => {
    // Reviewed: only https links to an allowlisted host reach openExternal (isAllowedExternalUrl, unit-tested).
    if (isAllowedExternalUrl(url, externalHosts)) void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
    else console.warn('[shell] refused to open a link outside the allowlist');
  };
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isTrustedFrameUrl(url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isTrustedFrameUrl(url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openExternal(url);
      return { action: 'deny' };
    });
  });
  // Only the clipboard write of the app's own page (its copy buttons); see ./permissions.ts.
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) => {
    callback(isPermissionAllowed({ permission, requestingUrl: details.requestingUrl }, devServerUrl));
  });
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    isPermissionAllowed({ permission, requestingOrigin, requestingUrl: details.requestingUrl, embeddingOrigin: details.embeddingOrigin }, devServerUrl),
  );
}

export function createMainWindow(options: { preloadPath: string; settings: SettingsStore; devServerUrl?: string }): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((d) => d.workArea);
  const saved = loadWindowState(options.settings, workAreas);
  const win = new BrowserWindow({
    ...(saved ? saved.bounds : DEFAULT_SIZE),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    backgroundColor: '#0b0e14',
    title: 'Perps Desk',
    webPreferences: {
      // Reviewed: the preload is sandboxed and context-isolated and exposes only window.perps, one function
      // per IPC channel (src/preload/index.ts; the contract test checks the built file).
      preload: options.preloadPath, // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      // Middle-click (auxclick) opens links in new windows; new windows are denied anyway, but the
      // event itself is switched off so no navigation path depends on that handler alone.
      disableBlinkFeatures: 'Auxclick',
      // The renderer's compiled code is cached from the first start on: Blink's default waits until a
      // script has been seen twice (the "heat check") before caching it, so a fresh install or update
      // would compile the whole first screen on its first two starts (the app:// scheme has codeCache).
      v8CacheOptions: 'bypassHeatCheck',
    },
  });
  if (saved?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  const remember = () => {
    if (!win.isDestroyed() && !win.isMinimized()) saveWindowState(options.settings, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
  };
  win.on('close', remember);
  win.on('moved', remember);
  win.on('resized', remember);
  void win.loadURL(options.devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}
