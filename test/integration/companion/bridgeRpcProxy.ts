/**
 * A JSON-RPC proxy on loopback in front of the simulator's per-chain RPC, for the failures a healthy node
 * never produces: a receipt that never comes, a gas estimate too low (so the transaction is mined and
 * reverts out of gas), a request left unanswered. Every call is recorded, so a test can count what was
 * sent (eth_sendRawTransaction). Its URLs carry a fake provider key in the path
 * (http://127.0.0.1:PORT/v3/<key>/<chain>), so tests also check that key is never printed.
 *
 * Everything not overridden is forwarded to the simulator unchanged (batches included, as ethers sends).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcCall {
  chain: string;
  method: string;
  params: unknown[];
}

/** An answer in place of the simulator's, `'hang'` for none at all, or undefined to forward. */
export type RpcOverride = { result: unknown } | { error: { code: number; message: string } } | 'hang' | undefined;

export const PROXY_KEY = 'sk-live-9f8e7d6c5b4a3210';

export class RpcProxy {
  readonly calls: RpcCall[] = [];
  /** Decides per call; null forwards everything. */
  hook: ((call: RpcCall) => RpcOverride) | null = null;
  /** The simulator's RPC root (…/rpc); set before the first call. */
  target = '';
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(target = ''): Promise<RpcProxy> {
    let proxy: RpcProxy | null = null;
    const server = http.createServer((req, res) => {
      void proxy!.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new RpcProxy(server, `http://127.0.0.1:${port}`);
    proxy.target = target;
    return proxy;
  }

  /** The URL of `chain` through this proxy, with a provider key in its path. */
  url(chain: string, key = PROXY_KEY): string {
    return `${this.origin}/v3/${key}/${chain}`;
  }

  count(method: string, chain?: string): number {
    return this.calls.filter((c) => c.method === method && (chain === undefined || c.chain === chain)).length;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const chain = (req.url ?? '').split('/').filter(Boolean).at(-1) ?? '';
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    const items = (Array.isArray(body) ? body : [body]) as { id: unknown; method: string; params?: unknown[] }[];
    const answers = new Map<unknown, unknown>();
    const forward: typeof items = [];
    for (const item of items) {
      const call: RpcCall = { chain, method: item.method, params: item.params ?? [] };
      this.calls.push(call);
      const o = this.hook?.(call);
      if (o === 'hang') {
        // No answer: the client's own timeout decides.
        this.hanging.add(res);
        return;
      }
      if (o === undefined) forward.push(item);
      else answers.set(item.id, { jsonrpc: '2.0', id: item.id, ...o });
    }
    if (forward.length > 0) {
      const r = await fetch(`${this.target}/${chain}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forward) });
      const got = (await r.json()) as { id: unknown }[] | { id: unknown };
      for (const a of Array.isArray(got) ? got : [got]) answers.set(a.id, a);
    }
    const out = items.map((i) => answers.get(i.id));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body) ? out : out[0]));
  }
}

/** A loopback port nothing listens on (bound, then released): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A loopback HTTP server that records every request and answers 503: proves whether anything was sent. */
export async function recordingServer(): Promise<{ url: string; requests: string[]; stop(): Promise<void> }> {
  const requests: string[] = [];
  const s = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'recording server' }));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}
