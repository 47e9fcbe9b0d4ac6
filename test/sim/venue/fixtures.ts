/** Shared set-up for the venue market data tests: asset configs, a manual clock and a loopback server. */
import { WebSocket } from 'ws';
import { SimClock } from '../../../src/sim/runtime/clock.js';
import { SeededRandom } from '../../../src/sim/runtime/random.js';
import { serveModules, type RunningServer } from '../../../src/sim/runtime/router.js';
import { VenueMarketData, VenueWebSocketHub, createInfoModule, type VenueAssetConfig } from '../../../src/sim/venue/index.js';

/** A fixed start (mid-minute, mid-hour) so history alignment is exercised and runs are repeatable. */
export const START = Date.UTC(2025, 0, 15, 12, 34, 56, 789);

export const ASSETS: VenueAssetConfig[] = [
  {
    venueSymbol: 'BTC',
    venueAssetIndex: 0,
    szDecimals: 5,
    maxLeverage: 40,
    onlyIsolated: false,
    tickSize: '1',
    initialMark: '97000',
    volatilityBps: 3,
    fundingRate: '0.0000125',
    spreadBps: 1,
    depthPerLevel: '0.5',
    levels: 20,
  },
  {
    venueSymbol: 'ETH',
    venueAssetIndex: 1,
    szDecimals: 4,
    maxLeverage: 25,
    onlyIsolated: false,
    tickSize: '0.1',
    initialMark: '3300.5',
    volatilityBps: 4,
    fundingRate: '-0.00002',
    spreadBps: 2,
    depthPerLevel: '5',
    levels: 10,
  },
  {
    venueSymbol: 'kPEPE',
    venueAssetIndex: 2,
    szDecimals: 0,
    maxLeverage: 10,
    onlyIsolated: true,
    tickSize: '0.000001',
    initialMark: '0.012345',
    volatilityBps: 8,
    fundingRate: '0.0001',
    spreadBps: 0,
    depthPerLevel: '100000',
    levels: 5,
  },
];

export function makeVenue(seed = 7, start = START, assets: VenueAssetConfig[] = ASSETS): { venue: VenueMarketData; clock: SimClock } {
  const clock = new SimClock({ manual: true, start });
  const venue = new VenueMarketData({ assets, clock, random: new SeededRandom(seed) });
  return { venue, clock };
}

export interface Served {
  venue: VenueMarketData;
  /** The WebSocket hub served at /ws, built on the venue as the simulator's server builds it. */
  hub: VenueWebSocketHub;
  clock: SimClock;
  running: RunningServer;
  info(body: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** Serves the info module at /info (and the WebSocket at /ws) on loopback, like the simulator does. */
export async function serveVenue(seed = 7): Promise<Served> {
  const { venue, clock } = makeVenue(seed);
  const running = await serveModules([{ prefix: '/info', module: createInfoModule(venue) }]);
  const hub = new VenueWebSocketHub(venue);
  hub.attach(running.server, '/ws');
  return {
    venue,
    hub,
    clock,
    running,
    info: (body) => postInfo(running.origin, body),
    close: async () => {
      venue.stop();
      // Upgraded sockets keep the HTTP server open, so they close first.
      await hub.close();
      await running.close();
    },
  };
}

export async function postInfo(origin: string, body: unknown, raw?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${origin}/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire messages are inspected field by field in the tests
export type Message = any;

/** A WebSocket client that reads messages strictly in order. */
export class TestClient {
  private readonly queue: Message[] = [];
  private waiter: (() => void) | null = null;
  private closed: { code: number } | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.queue.push(JSON.parse(String(data)) as Message);
      this.waiter?.();
    });
    ws.on('close', (code) => {
      this.closed = { code };
      this.waiter?.();
    });
  }

  static async connect(url: string): Promise<TestClient> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TestClient(ws);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async next(timeoutMs = 3000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for a message`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a message');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
    return this.queue.shift();
  }

  /**
   * Everything the server sent before answering a ping. The server answers in order, so this is
   * exactly what it pushed up to now: a way to assert that nothing (more) was sent.
   */
  async drain(): Promise<Message[]> {
    this.send({ method: 'ping' });
    const out: Message[] = [];
    for (;;) {
      const message = await this.next();
      if (message.channel === 'pong') return out;
      out.push(message);
    }
  }

  async waitClose(timeoutMs = 3000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('timed out waiting for close');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.closed.code;
  }

  close(): void {
    this.ws.close();
  }
}
