/**
 * The event pumps of a session (one profile, one wallet): they turn what the services observe into the
 * contract's main-to-renderer streams, each through its own Throttle (at most 10 emissions a second,
 * latest value per key).
 *
 *  - marks: the venue WebSocket (activeAssetCtx per market, joined on venue_symbol), or polling the info
 *    API when the profile has no WebSocket URL;
 *  - orderStatus: the OrderTracker (one order-history read per poll covers every tracked order), polled
 *    while anything is live and idle otherwise;
 *  - fills: read from trade-history when the tracker sees a fill (new tids only);
 *  - positions: refreshed after fills (in a short burst, because /positions lags fills), on a slow timer,
 *    and re-priced whenever a mark of a held market moves;
 *  - withdrawals: the WithdrawalTracker, polled while a tracked withdrawal is open;
 *  - keyExpiry: a timer over the wallet's stored keys.
 *
 * Background failures are logged and retried with backoff; none is ever left as an unhandled rejection.
 */
import type { IpcEventPayload, PositionView, StreamEventName } from '../../shared/ipc.js';
import type { Fill, Position } from '../../shared/protocol/index.js';
import { OrderTracker, type TrackHint, type TrackedOrder } from '../services/orders/orderTracker.js';
import { readOpenOrders, readPositions } from '../services/reads/accountReads.js';
import type { ServiceContext } from '../services/serviceContext.js';
import { WithdrawalTracker } from '../services/money/tracker.js';
import { listTrackedWithdrawals, resumeWithdrawals } from '../services/money/withdrawals.js';
import { joinMarkets, VenueSymbolIndex } from '../venue/marketJoin.js';
import { VenueSocket } from '../venue/venueSocket.js';
import type { AppLogger } from './adapters.js';
import { Throttle } from './throttle.js';
import { fillView, orderStatusUpdate, positionView, trackedWithdrawalView } from './views.js';

export interface PumpTimings {
  /** Throttle interval of every stream (100 ms = 10 a second). */
  throttleMs: number;
  orderMinMs: number;
  orderMaxMs: number;
  /** Slow refresh of positions (liquidations, fills of orders placed elsewhere). */
  positionsRefreshMs: number;
  /** Re-reads of /positions after a fill: it lags fills. */
  positionsAfterFillMs: readonly number[];
  withdrawalMinMs: number;
  withdrawalMaxMs: number;
  keyExpiryCheckMs: number;
  /** Mark polling when there is no venue WebSocket. */
  marksPollMs: number;
}

export const DEFAULT_PUMP_TIMINGS: PumpTimings = {
  throttleMs: 100,
  orderMinMs: 250,
  orderMaxMs: 2_000,
  positionsRefreshMs: 5_000,
  positionsAfterFillMs: [250, 600, 1_500, 3_000],
  withdrawalMinMs: 1_000,
  withdrawalMaxMs: 10_000,
  keyExpiryCheckMs: 60_000,
  marksPollMs: 2_000,
};

export type NotificationKind = 'fills' | 'trigger_fires' | 'withdrawals' | 'key_expiry';

export interface PumpHost {
  readonly ctx: ServiceContext;
  readonly wallet: string;
  readonly logger: AppLogger;
  /** Sends an event (after throttling) to the renderer. */
  send<E extends StreamEventName>(event: E, payload: IpcEventPayload<E>): void;
  /** A native notification, when the user's preferences allow this kind. */
  notify(kind: NotificationKind, title: string, body: string): void;
  /** Days before expiry at which a key is reported. */
  keyWarningDays(): number;
  /** Reads changed (history caches drop their copies). */
  invalidate(kind: 'orders' | 'fills' | 'withdrawals'): void;
}

const ERROR_BACKOFF_MS = 5_000;

/**
 * A background loop: `step` returns the delay before the next run, or null to idle until kick().
 * stop() waits for a running step, so nothing runs against a torn-down session.
 */
export class Loop {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private wake = false;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<number | null>,
    private readonly logger: AppLogger,
  ) {}

  kick(delayMs = 0): void {
    if (this.stopped) return;
    if (this.current) {
      this.wake = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delayMs);
  }

  private run(): void {
    this.timer = null;
    this.current = (async () => {
      let next: number | null;
      try {
        next = await this.step();
      } catch (err) {
        this.logger.warn(`[pumps] ${this.name} failed, retrying in ${ERROR_BACKOFF_MS / 1000} s: ${(err as Error).message}`);
        next = ERROR_BACKOFF_MS;
      }
      this.current = null;
      if (this.stopped) return;
      if (this.wake) {
        this.wake = false;
        next = 0;
      }
      if (next !== null) this.timer = setTimeout(() => this.run(), next);
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }
}

export class EventPumps {
  readonly tracker: OrderTracker;
  private readonly t: PumpTimings;
  private readonly throttles: {
    orderStatus: Throttle<ReturnType<typeof orderStatusUpdate>>;
    fills: Throttle<ReturnType<typeof fillView>>;
    positions: Throttle<{ positions: PositionView[]; at: number }>;
    marks: Throttle<{ market: string; mark: string; at: number }>;
    withdrawals: Throttle<ReturnType<typeof trackedWithdrawalView>>;
    keyExpiry: Throttle<IpcEventPayload<'keyExpiry'>['keys'][number]>;
  };
  private readonly marks = new Map<string, string>();
  private positions: Position[] = [];
  private readonly seenTids = new Set<string>();
  private fillsSeeded = false;
  private readonly lastOrders = new Map<string, TrackedOrder>();
  private readonly notifiedTriggers = new Set<string>();
  private readonly keyNotices = new Map<string, string>();
  private readonly withdrawalTracker: WithdrawalTracker;
  private readonly loops: Loop[] = [];
  private readonly orderLoop: Loop;
  private readonly withdrawalLoop: Loop;
  private readonly positionsLoop: Loop;
  private readonly keyLoop: Loop;
  private marksLoop: Loop | null = null;
  private socket: VenueSocket | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private orderInterval: number;
  private withdrawalInterval: number;
  private stopped = false;

  constructor(
    private readonly host: PumpHost,
    timings: Partial<PumpTimings> = {},
  ) {
    this.t = { ...DEFAULT_PUMP_TIMINGS, ...timings };
    const { ctx, wallet, logger } = host;
    const onError = (err: unknown) => logger.error(`[pumps] delivering an event failed: ${(err as Error).message}`);
    const throttle = <T>(key: (v: T) => string, emit: (values: T[]) => void) => new Throttle<T>({ intervalMs: this.t.throttleMs, key, emit, onError });
    this.throttles = {
      orderStatus: throttle((u) => u.order_id, (updates) => host.send('orderStatus', { updates })),
      fills: throttle((f) => f.tid, (fills) => host.send('fills', { fills })),
      // One key: the latest snapshot replaces any older one still waiting.
      positions: throttle(() => 'snapshot', (snapshots) => host.send('positions', snapshots[snapshots.length - 1]!)),
      marks: throttle((m) => m.market, (marks) => host.send('marks', { marks })),
      withdrawals: throttle((w) => w.intent_id, (withdrawals) => host.send('withdrawals', { withdrawals })),
      keyExpiry: throttle((k) => k.agent, (keys) => host.send('keyExpiry', { keys })),
    };
    this.tracker = new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep, minIntervalMs: this.t.orderMinMs, maxIntervalMs: this.t.orderMaxMs });
    this.orderInterval = this.t.orderMinMs;
    this.withdrawalInterval = this.t.withdrawalMinMs;
    this.withdrawalTracker = new WithdrawalTracker(ctx, {
      minIntervalMs: this.t.withdrawalMinMs,
      maxIntervalMs: this.t.withdrawalMaxMs,
      onUpdate: (record) => {
        if (record.wallet.toLowerCase() !== wallet.toLowerCase()) return;
        this.throttles.withdrawals.push(trackedWithdrawalView(record));
        host.invalidate('withdrawals');
        if (record.phase === 'DONE' && record.status !== null) {
          host.notify('withdrawals', `Withdrawal ${record.status.toLowerCase()}`, `${record.amount} USDC${record.status === 'COMPLETED' ? ' sent to your wallet' : record.failure_reason ? `: ${record.failure_reason}` : ''}`);
        }
      },
    });
    this.orderLoop = this.loop('order tracking', () => this.orderStep());
    this.withdrawalLoop = this.loop('withdrawal tracking', () => this.withdrawalStep());
    this.positionsLoop = this.loop('positions refresh', async () => {
      await this.refreshPositions();
      return this.t.positionsRefreshMs;
    });
    this.keyLoop = this.loop('key expiry check', async () => {
      await this.checkKeys();
      return this.t.keyExpiryCheckMs;
    });
  }

  private loop(name: string, step: () => Promise<number | null>): Loop {
    const l = new Loop(name, step, this.host.logger);
    this.loops.push(l);
    return l;
  }

  /** Seeds state (open orders to follow, fills already seen, marks, positions) and starts every stream. */
  async start(): Promise<void> {
    const { ctx, wallet, logger } = this.host;
    await this.seedMarks();
    this.startMarkFeed();
    try {
      for (const row of await readOpenOrders(ctx, wallet)) {
        this.tracker.track(row.order_id, { market: row.market, order_type: row.order_type, justSubmitted: false });
      }
    } catch (err) {
      logger.warn(`[pumps] could not read open orders at start: ${(err as Error).message}`);
    }
    await this.seedFills();
    this.positionsLoop.kick();
    this.keyLoop.kick();
    this.orderLoop.kick();
    try {
      // Withdrawals signed before a restart are resent unchanged (never re-signed), then followed.
      const { errors } = await resumeWithdrawals(ctx, { wallet });
      for (const e of errors) logger.warn(`[pumps] withdrawal ${e.intent_id} could not be resent yet: ${(e.error as Error).message}`);
    } catch (err) {
      logger.warn(`[pumps] resuming withdrawals failed: ${(err as Error).message}`);
    }
    this.withdrawalLoop.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.loops.map((l) => l.stop()));
    await this.marksLoop?.stop();
    if (this.socket) await this.socket.close();
    this.socket = null;
    for (const th of Object.values(this.throttles)) th.close();
  }

  /** Follows orders just placed, modified or cancelled by the app. */
  track(orderId: string, hint: TrackHint): void {
    this.tracker.track(orderId, hint);
    this.kickOrders();
  }

  kickOrders(): void {
    this.orderInterval = this.t.orderMinMs;
    this.orderLoop.kick();
  }

  kickWithdrawals(): void {
    this.withdrawalInterval = this.t.withdrawalMinMs;
    this.withdrawalLoop.kick();
  }

  kickKeys(): void {
    this.keyLoop.kick();
  }

  latestMark(symbol: string): string | undefined {
    return this.marks.get(symbol);
  }

  markSnapshot(): ReadonlyMap<string, string> {
    return this.marks;
  }

  positionViews(positions: readonly Position[] = this.positions): PositionView[] {
    return positions.map((p) => positionView(p, this.marks.get(p.market)));
  }

  /** Reads /positions and publishes the snapshot. */
  async refreshPositions(): Promise<PositionView[]> {
    const rows = await readPositions(this.host.ctx, this.host.wallet);
    if (this.stopped) return [];
    this.positions = rows;
    const views = this.positionViews(rows);
    this.throttles.positions.push({ positions: views, at: Date.now() });
    return views;
  }

  /** /positions lags fills: read it a few times over the next seconds. */
  refreshPositionsSoon(): void {
    for (const ms of this.t.positionsAfterFillMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.refreshPositions().catch((err: unknown) => this.host.logger.warn(`[pumps] positions refresh failed: ${(err as Error).message}`));
      }, ms);
      this.timers.add(timer);
    }
  }

  // ---- marks ------------------------------------------------------------------------------------------

  private async seedMarks(): Promise<void> {
    try {
      await this.pollMarks();
    } catch (err) {
      this.host.logger.warn(`[pumps] reading venue marks failed: ${(err as Error).message}`);
    }
  }

  private async pollMarks(): Promise<void> {
    const { ctx } = this.host;
    const markets = await ctx.config.markets();
    const [meta, ctxs] = await ctx.venue.metaAndAssetCtxs();
    const join = joinMarkets(markets, meta, ctxs);
    const at = Date.now();
    for (const j of join.joined) if (j.ctx) this.applyMark(j.market.symbol, j.ctx.markPx, at);
  }

  private startMarkFeed(): void {
    const { ctx, logger } = this.host;
    const url = ctx.profile.venueWsUrl;
    if (!url) {
      this.marksLoop = new Loop('mark polling', async () => {
        await this.pollMarks();
        return this.t.marksPollMs;
      }, logger);
      this.marksLoop.kick(this.t.marksPollMs);
      return;
    }
    const socket = new VenueSocket({ url, logger: { warn: (m) => logger.warn(`[venue] ${m}`) } });
    this.socket = socket;
    socket.on('error', (err) => logger.warn(`[venue] ${err.message}`));
    void (async () => {
      try {
        const markets = await ctx.config.markets();
        const index = new VenueSymbolIndex(markets);
        // Venue events carry the venue's coin; they are routed back to markets on venue_symbol, never symbol.
        socket.on('activeAssetCtx', ({ coin, ctx: assetCtx }) => {
          const market = index.marketForCoin(coin);
          if (market) this.applyMark(market.symbol, assetCtx.markPx, Date.now());
        });
        for (const m of markets) if (m.is_active) socket.subscribe({ type: 'activeAssetCtx', coin: m.venue_symbol });
        await socket.connect();
      } catch (err) {
        if (!this.stopped) logger.warn(`[pumps] the venue feed could not start: ${(err as Error).message}`);
      }
    })();
  }

  private applyMark(symbol: string, mark: string, at: number): void {
    if (this.stopped) return;
    if (this.marks.get(symbol) === mark) return;
    this.marks.set(symbol, mark);
    this.throttles.marks.push({ market: symbol, mark, at });
    // Positions are re-priced from the new mark (the throttle keeps this at 10 a second at most).
    if (this.positions.some((p) => p.market === symbol)) this.throttles.positions.push({ positions: this.positionViews(), at });
  }

  // ---- orders and fills -------------------------------------------------------------------------------

  private activeOrders(): number {
    return this.tracker.all().filter((o) => !o.terminal && o.replaced_by === null).length;
  }

  private async orderStep(): Promise<number | null> {
    if (this.activeOrders() === 0) return null;
    const changed = await this.tracker.pollOnce();
    if (changed.length > 0) {
      this.orderInterval = this.t.orderMinMs;
      let filled = false;
      for (const o of changed) {
        const prev = this.lastOrders.get(o.order_id);
        this.lastOrders.set(o.order_id, o);
        this.throttles.orderStatus.push(orderStatusUpdate(o));
        if (o.filled_size !== null && o.filled_size !== '0' && o.filled_size !== prev?.filled_size) filled = true;
        if (o.status === 'FILLED' || o.status === 'PARTIALLY_FILLED_CANCELLED') filled = true;
        if (o.order_type === 'TRIGGER' && prev?.armed === true && !o.armed && (o.list_status === 'triggered' || o.status === 'ACCEPTED' || o.status === 'EXECUTING' || o.status === 'FILLED')) {
          if (!this.notifiedTriggers.has(o.order_id)) {
            this.notifiedTriggers.add(o.order_id);
            this.host.notify('trigger_fires', 'Trigger fired', `${o.market ?? ''} trigger ${o.order_id} fired`.trim());
          }
        }
      }
      this.host.invalidate('orders');
      if (filled) {
        await this.readNewFills();
        this.refreshPositionsSoon();
      }
      // A terminal order never changes again: stop holding it (a long session places many orders).
      for (const o of changed) {
        if (o.terminal) {
          this.tracker.untrack(o.order_id);
          this.lastOrders.delete(o.order_id);
        }
      }
    } else {
      this.orderInterval = Math.min(this.t.orderMaxMs, this.orderInterval * 2);
    }
    return this.activeOrders() === 0 ? null : this.orderInterval;
  }

  private async seedFills(): Promise<void> {
    try {
      const page = await this.host.ctx.api.tradeHistory({ wallet: this.host.wallet, limit: 200 });
      for (const f of page.fills) this.seenTids.add(f.tid);
      this.fillsSeeded = true;
    } catch (err) {
      this.host.logger.warn(`[pumps] reading recent fills failed: ${(err as Error).message}`);
    }
  }

  /** New fills of the wallet (newest page of trade-history; tids already seen are skipped). */
  private async readNewFills(): Promise<void> {
    const page = await this.host.ctx.api.tradeHistory({ wallet: this.host.wallet, limit: 200 });
    const fresh: Fill[] = page.fills.filter((f) => !this.seenTids.has(f.tid)).reverse();
    for (const f of fresh) this.seenTids.add(f.tid);
    if (!this.fillsSeeded) {
      // Without a baseline every fill would look new; take this page as the baseline instead.
      this.fillsSeeded = true;
      return;
    }
    if (fresh.length === 0) return;
    this.host.invalidate('fills');
    for (const f of fresh) this.throttles.fills.push(fillView(f));
    if (fresh.length === 1) {
      const f = fresh[0]!;
      this.host.notify('fills', 'Order filled', `${f.dir} ${f.size} ${f.market ?? ''} at ${f.price}`.replace(/\s+/g, ' ').trim());
    } else {
      this.host.notify('fills', 'Orders filled', `${fresh.length} new fills`);
    }
  }

  // ---- withdrawals ------------------------------------------------------------------------------------

  private async withdrawalStep(): Promise<number | null> {
    const open = listTrackedWithdrawals(this.host.ctx, { wallet: this.host.wallet, open: true });
    if (open.length === 0) return null;
    const { changed } = await this.withdrawalTracker.pollOnce((r) => r.wallet.toLowerCase() === this.host.wallet.toLowerCase());
    this.withdrawalInterval = changed.length > 0 ? this.t.withdrawalMinMs : Math.min(this.t.withdrawalMaxMs, this.withdrawalInterval * 2);
    return listTrackedWithdrawals(this.host.ctx, { wallet: this.host.wallet, open: true }).length === 0 ? null : this.withdrawalInterval;
  }

  // ---- key expiry -------------------------------------------------------------------------------------

  private async checkKeys(): Promise<void> {
    const { ctx, wallet } = this.host;
    const keys = ctx.vault.list({ environment: ctx.profile.name, wallet }).filter((k) => k.expires_at !== null);
    if (keys.length === 0) return;
    const now = await ctx.clock.now();
    const windowMs = this.host.keyWarningDays() * 86_400_000;
    for (const k of keys) {
      const expiresAt = k.expires_at!;
      const left = expiresAt - now;
      if (left > windowMs) {
        this.keyNotices.delete(k.agent);
        continue;
      }
      const expired = left <= 0;
      this.throttles.keyExpiry.push({ agent: k.agent, name: k.name, expires_at: expiresAt, expires_in_ms: Math.round(left), expired });
      const state = `${expired ? 'expired' : 'expiring'}:${expiresAt}`;
      if (this.keyNotices.get(k.agent) !== state) {
        this.keyNotices.set(k.agent, state);
        this.host.notify(
          'key_expiry',
          expired ? 'Trading key expired' : 'Trading key expires soon',
          expired ? `${k.name} (${k.agent}) has expired: renew it or authorize a new key.` : `${k.name} (${k.agent}) expires in ${Math.max(1, Math.ceil(left / 86_400_000))} day(s): renew it.`,
        );
      }
    }
  }
}
