/**
 * A loopback stand-in for a real venue's public market data (Hyperliquid's info API and WebSocket), for
 * the follower's tests. It answers with the real API's quirks: whole numbers written with a trailing
 * `.0`, spot pairs (`@1`, `PURR/USDC`) in allMids, `marginTables` and `marginTableId` in meta, a delisted
 * asset whose midPx, premium and impactPxs are null, and channels the follower does not know
 * (`notification`, `webData2`) pushed to every socket. The test scripts it: contexts, books and trades
 * change when told, and `goDown()` / `comeBack()` make it vanish and return.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface Level {
  px: string;
  sz: string;
  n: number;
}

export interface Ctx {
  funding: string;
  openInterest: string;
  prevDayPx: string;
  dayNtlVlm: string;
  premium: string | null;
  oraclePx: string;
  markPx: string;
  midPx: string | null;
  impactPxs: [string, string] | null;
  dayBaseVlm: string;
}

interface Asset {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  marginTableId: number;
  isDelisted?: true;
  ctx: Ctx;
  book: { time: number; levels: [Level[], Level[]] };
}

function liveCtx(mark: string, funding: string): Ctx {
  return {
    funding,
    openInterest: '1234.5',
    prevDayPx: mark,
    dayNtlVlm: '1000000.0',
    premium: '0.0001',
    oraclePx: mark,
    markPx: mark,
    midPx: mark,
    impactPxs: [mark, mark],
    dayBaseVlm: '10.0',
  };
}

export class UpstreamVenue {
  readonly assets = new Map<string, Asset>();
  /** Info requests received, by type (the follower polls at most once a second per kind). */
  readonly requests: { type: string; at: number }[] = [];
  private server: http.Server | null = null;
  private wss: WebSocketServer | null = null;
  private readonly sockets = new Set<Socket>();
  protected readonly clients = new Map<WebSocket, Set<string>>();
  private down = false;
  /** When false, WebSocket upgrades are refused: the follower must poll. */
  acceptSockets = true;
  port = 0;
  private bookTime = 1_770_000_000_000;

  constructor() {
    this.add({ name: 'BTC', szDecimals: 5, maxLeverage: 40, marginTableId: 56, mark: '97000.0', funding: '0.0000125' });
    this.add({ name: 'ETH', szDecimals: 4, maxLeverage: 25, marginTableId: 55, mark: '3500.0', funding: '0.0000125' });
    // Delisted: the venue keeps it in the universe with nulls where a book would be measured.
    this.add({ name: 'MATIC', szDecimals: 1, maxLeverage: 20, marginTableId: 20, mark: '0.3756', funding: '0.0' });
    const matic = this.assets.get('MATIC')!;
    matic.isDelisted = true;
    matic.ctx = { ...matic.ctx, midPx: null, premium: null, impactPxs: null };
    this.add({ name: 'SOL', szDecimals: 2, maxLeverage: 20, marginTableId: 54, mark: '180.0', funding: '0.0000125' });
    this.add({ name: 'kPEPE', szDecimals: 0, maxLeverage: 10, marginTableId: 10, mark: '0.012', funding: '0.0000125' });
    // WIF is deliberately absent: the simulator's WIF market must keep the walk.
  }

  private add(a: { name: string; szDecimals: number; maxLeverage: number; marginTableId: number; mark: string; funding: string }): void {
    this.assets.set(a.name, {
      name: a.name,
      szDecimals: a.szDecimals,
      maxLeverage: a.maxLeverage,
      marginTableId: a.marginTableId,
      ctx: liveCtx(a.mark, a.funding),
      book: { time: this.bookTime, levels: [[], []] },
    });
  }

  get infoUrl(): string {
    return `http://127.0.0.1:${this.port}/info`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.onRequest(req, res));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    const wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      if (this.down || !this.acceptSockets || !req.url?.startsWith('/ws')) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    this.server = server;
    this.wss = wss;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const ws of this.clients.keys()) ws.terminate();
    this.wss?.close();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The venue vanishes: every socket is cut, requests are dropped unanswered, upgrades refused. */
  goDown(): void {
    this.down = true;
    for (const ws of this.clients.keys()) ws.terminate();
    for (const socket of this.sockets) socket.destroy();
  }

  comeBack(): void {
    this.down = false;
  }

  /** Sockets the follower holds open. */
  get socketCount(): number {
    return this.clients.size;
  }

  /** New context values (mark, funding, ...) for a coin, pushed on activeAssetCtx. */
  setCtx(coin: string, change: Partial<Ctx>): void {
    const asset = this.asset(coin);
    asset.ctx = { ...asset.ctx, ...change };
    this.push(`activeAssetCtx:${coin}`, { channel: 'activeAssetCtx', data: { coin, ctx: asset.ctx } });
    this.push('allMids', { channel: 'allMids', data: { mids: this.allMids() } });
  }

  /** A new book snapshot (a new time), pushed on l2Book. Returns its time. */
  setBook(coin: string, bids: Level[], asks: Level[]): number {
    const asset = this.asset(coin);
    this.bookTime += 500;
    asset.book = { time: this.bookTime, levels: [bids, asks] };
    this.push(`l2Book:${coin}`, { channel: 'l2Book', data: { coin, ...asset.book } });
    return this.bookTime;
  }

  /** The same snapshot sent again (the venue repeats an unchanged book every block). */
  repeatBook(coin: string): void {
    this.push(`l2Book:${coin}`, { channel: 'l2Book', data: { coin, ...this.asset(coin).book } });
  }

  trade(coin: string, side: 'B' | 'A', px: string, sz: string): void {
    const tid = Math.floor(Math.random() * 1e15);
    const trade = { coin, side, px, sz, time: Date.now(), hash: '0x' + '1'.repeat(64), tid, users: ['0x' + 'a'.repeat(40), '0x' + 'b'.repeat(40)] };
    this.push(`trades:${coin}`, { channel: 'trades', data: [trade] });
  }

  protected asset(coin: string): Asset {
    const asset = this.assets.get(coin);
    if (!asset) throw new Error(`no upstream asset ${coin}`);
    return asset;
  }

  private allMids(): Record<string, string> {
    const mids: Record<string, string> = {};
    for (const asset of this.assets.values()) if (asset.ctx.midPx) mids[asset.name] = asset.ctx.midPx;
    // Spot pairs sit in the same map on the real venue.
    mids['@1'] = '12.5';
    mids['PURR/USDC'] = '0.2';
    return mids;
  }

  private answer(body: { type?: string; coin?: string; req?: { coin: string; interval: string; startTime: number } }): unknown {
    switch (body.type) {
      case 'metaAndAssetCtxs': {
        const list = [...this.assets.values()];
        return [
          {
            universe: list.map((a) => ({ szDecimals: a.szDecimals, name: a.name, maxLeverage: a.maxLeverage, marginTableId: a.marginTableId, ...(a.isDelisted ? { isDelisted: true } : {}) })),
            marginTables: [[56, { description: 'tiered 40x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 40 }] }]],
          },
          list.map((a) => a.ctx),
        ];
      }
      case 'allMids':
        return this.allMids();
      case 'l2Book': {
        const asset = this.assets.get(body.coin ?? '');
        return asset ? { coin: asset.name, ...asset.book } : null;
      }
      case 'candleSnapshot': {
        const t = body.req!.startTime;
        return [{ t, T: t + 59_999, s: body.req!.coin, i: body.req!.interval, o: '96000.0', c: '96500.0', h: '96600.0', l: '95900.0', v: '12.5', n: 42 }];
      }
      case 'fundingHistory':
        return [{ coin: body.coin, fundingRate: '0.0000321', premium: '0.0000196', time: 1_770_000_000_000 }];
      default:
        return undefined;
    }
  }

  /** A hostile venue's own answer to an info request (hostileVenue.ts); true when it answered. */
  protected intercept(_body: { type?: string }, _res: http.ServerResponse): boolean {
    return false;
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.down) {
      req.socket.destroy();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { type?: string };
      this.requests.push({ type: body.type ?? '?', at: Date.now() });
      if (this.intercept(body, res)) return;
      const answer = this.answer(body);
      if (answer === undefined) {
        res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify('Failed to deserialize the JSON body into the target type'));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  }

  private accept(ws: WebSocket): void {
    const subs = new Set<string>();
    this.clients.set(ws, subs);
    ws.on('close', () => this.clients.delete(ws));
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString('utf8')) as { method: string; subscription?: { type: string; coin?: string } };
      if (msg.method === 'ping') return void ws.send(JSON.stringify({ channel: 'pong' }));
      if (msg.method !== 'subscribe' || !msg.subscription) return;
      const { type, coin } = msg.subscription;
      const key = coin ? `${type}:${coin}` : type;
      subs.add(key);
      ws.send(JSON.stringify({ channel: 'subscriptionResponse', data: { method: 'subscribe', subscription: msg.subscription } }));
      // Channels the follower never asked for arrive anyway on the real venue.
      ws.send(JSON.stringify({ channel: 'notification', data: { notification: 'hello' } }));
      if (type === 'activeAssetCtx' && coin) ws.send(JSON.stringify({ channel: 'activeAssetCtx', data: { coin, ctx: this.asset(coin).ctx } }));
      if (type === 'l2Book' && coin) ws.send(JSON.stringify({ channel: 'l2Book', data: { coin, ...this.asset(coin).book } }));
      if (type === 'allMids') ws.send(JSON.stringify({ channel: 'allMids', data: { mids: this.allMids() } }));
    });
  }

  protected push(key: string, message: unknown): void {
    const text = JSON.stringify(message);
    for (const [ws, subs] of this.clients) if (subs.has(key) && ws.readyState === WebSocket.OPEN) ws.send(text);
  }
}
