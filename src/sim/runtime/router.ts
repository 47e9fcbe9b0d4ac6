/**
 * Mounts RouteModules under path prefixes on one node:http server on loopback.
 * The simulator's public server and the route modules' own tests both use it, so a module is
 * exercised over real HTTP exactly as it is served.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalOnlyRefusal } from '../control/localOnly.js';
import { BodyParseError, BodyTooLargeError, readBody, sendJson, type RouteModule, type SimResponse } from './http.js';

/** Why a request is refused before any module sees it (a Host, Origin or Content-Type a web page sends). */
export type Refusal = LocalOnlyRefusal;

export interface Mount {
  /** Path prefix without a trailing slash, e.g. '/api/v1'. Longest prefix wins. */
  readonly prefix: string;
  readonly module: RouteModule;
  /** The refusal in this module's own error shape; without it, `{ error: message }`. */
  readonly refused?: (refusal: Refusal) => SimResponse;
}

/** Checks run on every request before routing; null lets it through. */
export type Guard = (req: http.IncomingMessage) => Refusal | null;

export interface RunningServer {
  readonly server: http.Server;
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  close(): Promise<void>;
}

/** Hook run before routing (the chaos layer uses it for latency, errors and dropped connections). */
export type BeforeRoute = (req: http.IncomingMessage, res: http.ServerResponse, prefix: string) => Promise<'continue' | 'handled'>;

/** The 413 for a body over the limit, in the shape the server's callers expect. */
export type TooLarge = (limitBytes: number) => SimResponse;

const plainTooLarge: TooLarge = (limitBytes) => ({ status: 413, body: { error: `request body is over the ${limitBytes}-byte limit` } });

const plainRefused = (refusal: Refusal): SimResponse => ({ status: refusal.status, body: { error: refusal.message } });

export function createRequestListener(mounts: readonly Mount[], notFound: (path: string) => SimResponse, beforeRoute?: BeforeRoute, tooLarge: TooLarge = plainTooLarge, guard?: Guard) {
  const ordered = [...mounts].sort((a, b) => b.prefix.length - a.prefix.length);
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const mount = ordered.find((m) => url.pathname === m.prefix || url.pathname.startsWith(m.prefix + '/'));
    try {
      // First of all, so a refused request reaches no module, no chaos and no upstream, and its body is never read.
      const refusal = guard?.(req);
      if (refusal) {
        const answer = (mount?.refused ?? plainRefused)(refusal);
        sendJson(res, { ...answer, headers: { ...answer.headers, connection: 'close' } });
        return;
      }
      if (!mount) {
        sendJson(res, notFound(url.pathname));
        return;
      }
      if (beforeRoute && (await beforeRoute(req, res, mount.prefix)) === 'handled') return;
      // A body that is not JSON is handed on as bodyError: each module answers it in its own error shape.
      let body: { raw: string; json: unknown };
      let bodyError: string | undefined;
      try {
        body = await readBody(req);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          // Refused before any module sees it. The rest of the body is not read: the connection closes
          // after this answer, and the server goes on serving other connections.
          const answer = tooLarge(err.limitBytes);
          sendJson(res, { ...answer, headers: { ...answer.headers, connection: 'close' } });
          return;
        }
        if (!(err instanceof BodyParseError)) throw err;
        body = { raw: '', json: undefined };
        bodyError = err.message;
      }
      const sub = url.pathname.slice(mount.prefix.length) || '/';
      const answer = await mount.module.handle({
        method: req.method ?? 'GET',
        path: sub,
        query: url.searchParams,
        body: body.json,
        rawBody: body.raw,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        ...(bodyError ? { bodyError } : {}),
        // The socket is gone when the client hung up meanwhile; the module then answers nobody anyway.
        ...(req.socket?.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
      });
      sendJson(res, answer ?? notFound(url.pathname));
    } catch (err) {
      // The client hung up mid-request (its own timeout, or a test dropping it): there is nobody to
      // answer and nothing went wrong on our side, so close quietly instead of reporting a route failure.
      if (req.destroyed && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        res.destroy();
        return;
      }
      // A bug in a route must surface to the caller and the console, never as a hung request.
      console.error('[sim] route failed', url.pathname, err);
      if (!res.headersSent) sendJson(res, { status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'internal error' }, timestamp: Date.now() } });
      else res.destroy();
    }
  };
}

export async function listen(server: http.Server, port: number): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    origin: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Serves the given mounts on 127.0.0.1 (port 0 picks a free port). */
export async function serveModules(mounts: readonly Mount[], port = 0): Promise<RunningServer> {
  const listener = createRequestListener(mounts, (path) => ({ status: 404, body: { error: `no route ${path}` } }));
  const server = http.createServer((req, res) => {
    void listener(req, res);
  });
  return listen(server, port);
}
