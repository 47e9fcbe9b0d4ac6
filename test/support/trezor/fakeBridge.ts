/**
 * Trezor Bridge (trezord-go) in front of a FakeTrezor, on 127.0.0.1, faithful to trezord's core.go where
 * the app depends on it (issue 36):
 *  - enumerate, acquire/PATH/PREVIOUS (PREVIOUS must be the current session; taking the device from it
 *    releases it, as trezord allows where it can cancel USB calls), post, read, call, release;
 *  - one /call or /read at a time per session: a second is refused 400 {"error":"other call in
 *    progress"}. /post is not checked since trezord 2.0.29; `postChecksCall` models the older ones, which
 *    refused a /post during a /read too;
 *  - a /call or /read whose request goes away releases the session ("detected request close,
 *    auto-release"), so a later call on it is "session not found";
 *  - errors are HTTP 400 with {"error": text}, as respondError writes them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeTrezor } from './fakeTrezor.js';
import { ReportReader, toReports } from './protocol.js';

export interface FakeBridge {
  readonly url: string;
  /** Every request's endpoint ("enumerate", "acquire", "post", "read", "call", "release"), in order. */
  readonly calls: string[];
  /** Every refusal sent, as "endpoint: error". */
  readonly refusals: string[];
  /** The session now held (null: free). */
  readonly session: string | null;
  close(): Promise<void>;
}

export interface FakeBridgeOptions {
  /** Another program's session on the device at start. */
  heldBy?: string | null;
  /** trezord before 2.0.29: /post is refused while a /call or /read runs on the session. */
  postChecksCall?: boolean;
}

export async function startFakeBridge(device: FakeTrezor, options: FakeBridgeOptions = {}): Promise<FakeBridge> {
  const reader = new ReportReader();
  const out: string[] = [];
  let readers: { deliver: (hex: string) => void; fail: (error: string) => void }[] = [];
  device.onReport = (r) => {
    const m = reader.push(r);
    if (!m) return;
    const head = Buffer.alloc(6);
    head.writeUInt16BE(m[0], 0);
    head.writeUInt32BE(m[1].length, 2);
    const hex = Buffer.concat([head, Buffer.from(m[1])]).toString('hex');
    const w = readers.shift();
    if (w) w.deliver(hex);
    else out.push(hex);
  };
  const calls: string[] = [];
  const refusals: string[] = [];
  let session: string | null = options.heldBy ?? null;
  let lastId = 10;
  /** A /call or /read under way on the session (trezord's session.call flag). */
  let callInProgress = false;
  const refuse = (res: http.ServerResponse, endpoint: string, error: string): void => {
    refusals.push(`${endpoint}: ${error}`);
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
  };
  const write = (hexBody: string): void => {
    const b = Buffer.from(hexBody, 'hex');
    for (const r of toReports(b.readUInt16BE(0), b.subarray(6))) device.receiveReport(r);
  };
  /** Reads one message for `res`; the request going away first releases the session. */
  const readFor = (req: http.IncomingMessage, res: http.ServerResponse, ssid: string): void => {
    callInProgress = true;
    let done = false;
    const entry = {
      deliver: (hex: string): void => {
        done = true;
        callInProgress = false;
        res.end(hex);
      },
      fail: (error: string): void => {
        done = true;
        refuse(res, 'read', error);
      },
    };
    res.on('close', () => {
      if (done) return;
      readers = readers.filter((r) => r !== entry);
      if (session === ssid) {
        callInProgress = false;
        session = null;
      }
    });
    const hex = out.shift();
    if (hex) entry.deliver(hex);
    else readers.push(entry);
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      const [, endpoint = '', a, b] = url.split('/');
      calls.push(endpoint);
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (endpoint === 'enumerate') return void res.end(JSON.stringify([{ path: '1', vendor: 4617, product: 21441, session, debug: false, debugSession: null }]));
      if (endpoint === 'acquire') {
        if (a !== '1') return refuse(res, endpoint, 'device not found');
        const previous = b === 'null' || b === undefined ? null : b;
        if (previous !== session) return refuse(res, endpoint, 'wrong previous session');
        // Taking the device closes the previous session: its pending read fails.
        for (const r of readers.splice(0)) r.fail('closed device');
        callInProgress = false;
        session = String(++lastId);
        return void res.end(JSON.stringify({ session }));
      }
      if (a !== session || session === null) return refuse(res, endpoint, 'session not found');
      const ssid = session;
      if (endpoint === 'release') {
        session = null;
        return void res.end('{}');
      }
      if (endpoint === 'post') {
        if (options.postChecksCall && callInProgress) return refuse(res, endpoint, 'other call in progress');
        write(body);
        return void res.end();
      }
      if (endpoint === 'read' || endpoint === 'call') {
        if (callInProgress) return refuse(res, endpoint, 'other call in progress');
        if (endpoint === 'call') write(body);
        return readFor(req, res, ssid);
      }
      refuse(res, endpoint, 'not found');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    refusals,
    get session() {
      return session;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
