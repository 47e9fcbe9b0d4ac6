/**
 * A stand-in for Electron's download mirror on 127.0.0.1: serves one release's zip and its
 * SHASUMS256.txt at the paths @electron/get asks for (`{mirror}v{version}/{file}`), and records every
 * request it sees, so a test can prove the download went here and nowhere else.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Mirror {
  /** The mirror's base URL, as ELECTRON_MIRROR takes it (ending in a slash). */
  readonly url: string;
  /** Every request path seen, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export function sha256(data: Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

export async function startMirror(version: string, files: Readonly<Record<string, Buffer>>): Promise<Mirror> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const prefix = `/v${version}/`;
    const name = req.url?.startsWith(prefix) ? decodeURIComponent(req.url.slice(prefix.length)) : undefined;
    const body = name !== undefined ? files[name] : undefined;
    if (req.method !== 'GET' || body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on: taken from the system, then released. */
export async function closedLoopbackPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
