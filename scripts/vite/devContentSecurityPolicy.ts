/**
 * `npm run dev` serves the renderer from Vite's dev server, whose page needs two things the app's
 * strict policy (the meta element in src/renderer/index.html, and the app:// header) forbids: Vite's
 * HMR WebSocket back to the dev server (connect-src 'none' blocks it), and the React refresh preamble,
 * an inline module script (script-src 'self' has no inline). In serve mode only, this plugin rewrites
 * the meta policy of the served page:
 *   - connect-src: exactly the dev server's origin (HMR pings, the error overlay) and its ws: origin;
 *   - script-src: 'self' plus the sha256 hash of each inline script of the served page (the preamble),
 *     so exactly those scripts run, rather than any inline script ('unsafe-inline').
 * Everything else stays as strict as in the built app. `electron-vite build` never runs this plugin,
 * so the built index.html keeps the policy as written.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Plugin, ViteDevServer } from 'vite';

const META_POLICY = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/i;
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
/** The host names Vite listens on for "all interfaces"; the page is then opened on localhost. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '0000:0000:0000:0000:0000:0000:0000:0000']);

/**
 * The origin the Electron window loads in dev: electron-vite builds ELECTRON_RENDERER_URL from the
 * server's host (localhost unless one is set) and port, so the same is done here, with the port the
 * server actually listens on.
 */
export function devServerOrigin(server: Pick<ViteDevServer, 'config' | 'httpServer'>): string {
  const conf = server.config.server;
  const protocol = conf.https ? 'https' : 'http';
  const host = typeof conf.host === 'string' && !WILDCARD_HOSTS.has(conf.host) ? conf.host : 'localhost';
  const address = server.httpServer?.address() as AddressInfo | string | null | undefined;
  const port = address && typeof address === 'object' ? address.port : conf.port;
  return `${protocol}://${host}:${port}`;
}

/** CSP hash source of an inline script's text, as the browser computes it (UTF-8, sha256, base64). */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The dev variant of a policy: only script-src and connect-src change. */
export function devPolicy(policy: string, origin: string, inlineScripts: readonly string[]): string {
  const ws = origin.replace(/^http/, 'ws');
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive.length > 0)
    .map((directive) => {
      const name = directive.split(/\s+/)[0];
      if (name === 'script-src') return ["script-src 'self'", ...inlineScripts.map(scriptHash)].join(' ');
      if (name === 'connect-src') return `connect-src ${origin} ${ws}`;
      return directive;
    })
    .join('; ');
}

/** The text of every inline script (no src attribute) of a page. */
export function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(SCRIPT)].filter(([, attrs]) => !/\bsrc\s*=/i.test(attrs ?? '')).map(([, , text]) => text ?? '');
}

export function devContentSecurityPolicy(): Plugin {
  return {
    name: 'perps:dev-content-security-policy',
    apply: 'serve',
    transformIndexHtml: {
      // After every other plugin has injected its tags (the preamble among them), so their hashes count.
      order: 'post',
      handler(html, ctx) {
        if (!ctx.server) return html;
        const server = ctx.server;
        if (!META_POLICY.test(html)) throw new Error('index.html has no Content-Security-Policy meta element to adapt for the dev server');
        const scripts = inlineScriptsOf(html);
        return html.replace(META_POLICY, (_all, before: string, policy: string, after: string) => before + devPolicy(policy, devServerOrigin(server), scripts) + after);
      },
    },
  };
}
