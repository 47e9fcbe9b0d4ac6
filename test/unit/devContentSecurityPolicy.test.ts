/**
 * The renderer's Content-Security-Policy in both modes: the built index.html keeps the app's strict
 * policy (the one the app:// header sends, less frame-ancestors, which a meta element cannot carry),
 * and in serve mode the dev plugin opens exactly what Vite's dev server needs: the React refresh
 * preamble by its hash, and connections to the dev server's own origin and its ws: origin.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IndexHtmlTransformContext, IndexHtmlTransformHook, ViteDevServer } from 'vite';
import { CONTENT_SECURITY_POLICY } from '../../src/main/shell/appOrigin.js';
import { devContentSecurityPolicy, scriptHash } from '../../scripts/vite/devContentSecurityPolicy.js';
import { REPO_ROOT } from '../support/paths.js';

const BUILT_HTML = path.join(REPO_ROOT, 'out/renderer/index.html');
const SOURCE_HTML = path.join(REPO_ROOT, 'src/renderer/index.html');
/** What @vitejs/plugin-react injects in serve mode. */
const PREAMBLE = 'import { injectIntoGlobalHook } from "/@react-refresh";\ninjectIntoGlobalHook(window);\nwindow.$RefreshReg$ = () => {};\nwindow.$RefreshSig$ = () => (type) => type;';

function metaPolicy(html: string): string {
  const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
  if (!m) throw new Error('no Content-Security-Policy meta element');
  return m[1]!;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Runs the plugin's transformIndexHtml as Vite's dev server would (ctx.server set). */
async function serveTransform(html: string, server: Partial<ViteDevServer>): Promise<string> {
  const plugin = devContentSecurityPolicy();
  expect(plugin.apply).toBe('serve');
  const hook = plugin.transformIndexHtml as { handler: IndexHtmlTransformHook; order: string };
  expect(hook.order).toBe('post');
  const ctx = { path: '/index.html', filename: SOURCE_HTML, server: server as ViteDevServer } as IndexHtmlTransformContext;
  return (await hook.handler.call({} as never, html, ctx)) as string;
}

const devServer = (port: number, host?: string): Partial<ViteDevServer> => ({ config: { server: { port, ...(host ? { host } : {}) } } as never, httpServer: null });

describe('the built renderer', () => {
  beforeAll(() => {
    // The suite runs after `electron-vite build` (scripts/test.sh); build here only when run on its own.
    if (!fs.existsSync(BUILT_HTML)) execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/electron-vite'), ['build'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }, 120_000);

  it('carries the strict policy: the app:// header policy less frame-ancestors, no inline script, no network', () => {
    const built = directives(metaPolicy(fs.readFileSync(BUILT_HTML, 'utf8')));
    const header = directives(CONTENT_SECURITY_POLICY);
    header.delete('frame-ancestors');
    expect(built).toEqual(header);
    expect(built.get('script-src')).toEqual(["'self'"]);
    expect(built.get('connect-src')).toEqual(["'none'"]);
  });
});

describe('the dev server policy (serve mode)', () => {
  const source = fs.readFileSync(SOURCE_HTML, 'utf8');
  const served = source.replace('<head>', `<head>\n    <script type="module">${PREAMBLE}</script>\n    <script type="module" src="/@vite/client"></script>`);

  it("allows the refresh preamble by its hash and connects to the dev server's origin and ws: origin, nothing else", async () => {
    const out = directives(metaPolicy(await serveTransform(served, devServer(5173))));
    expect(out.get('script-src')).toEqual(["'self'", scriptHash(PREAMBLE)]);
    expect(out.get('connect-src')).toEqual(['http://localhost:5173', 'ws://localhost:5173']);
    // No wildcard and no unsafe-eval anywhere; the one unsafe-inline is style-src's, as in the build.
    expect([...out.values()].flat().filter((v) => /unsafe|\*/.test(v))).toEqual(["'unsafe-inline'"]);
    expect(out.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    // Every other directive is the built app's.
    const strict = directives(metaPolicy(source));
    for (const [name, values] of strict) if (name !== 'script-src' && name !== 'connect-src') expect(out.get(name), name).toEqual(values);
    expect(new Set(out.keys())).toEqual(new Set(strict.keys()));
  });

  it('uses the host the dev server is configured with, and the port it listens on', async () => {
    const listening = { config: { server: { port: 5173, host: '127.0.0.1' } } as never, httpServer: { address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 5199 }) } as never };
    const out = directives(metaPolicy(await serveTransform(served, listening)));
    expect(out.get('connect-src')).toEqual(['http://127.0.0.1:5199', 'ws://127.0.0.1:5199']);
    const wildcard = directives(metaPolicy(await serveTransform(served, devServer(5173, '0.0.0.0'))));
    expect(wildcard.get('connect-src')).toEqual(['http://localhost:5173', 'ws://localhost:5173']);
  });

  it('leaves a page alone outside the dev server, and refuses a page without the meta policy', async () => {
    const plugin = devContentSecurityPolicy();
    const hook = plugin.transformIndexHtml as { handler: IndexHtmlTransformHook };
    const buildCtx = { path: '/index.html', filename: SOURCE_HTML } as IndexHtmlTransformContext;
    expect(await hook.handler.call({} as never, served, buildCtx)).toBe(served);
    await expect(serveTransform('<html><head></head></html>', devServer(5173))).rejects.toThrow(/Content-Security-Policy/);
  });
});
