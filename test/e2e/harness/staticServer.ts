/** Serves the built renderer (out/renderer) on loopback, with the app's CSP header, for Chromium to load. */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY, contentTypeOf } from '../../../src/main/shell/appOrigin.js';

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

export async function serveRenderer(rendererDir: string): Promise<StaticServer> {
  const root = path.resolve(rendererDir);
  if (!fs.existsSync(path.join(root, 'index.html'))) throw new Error(`${root}/index.html is missing: run \`npx electron-vite build\` first`);
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.resolve(root, pathname === '/' ? 'index.html' : pathname.slice(1));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    // Assets carry a content hash in their names: cacheable for good, as a browser profile keeps them
    // between starts (index.html is asked again each time).
    const caching = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    res.writeHead(200, { 'content-type': contentTypeOf(file), 'content-security-policy': CONTENT_SECURITY_POLICY, 'cache-control': caching });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
