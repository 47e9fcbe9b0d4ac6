/**
 * orderStatus and fills: the OrderTracker (one order-history read per poll covers every tracked order),
 * polled while anything is live and idle otherwise; fills are read from trade-history when the tracker
 * sees one (new tids only). Orders the desks place, modify or cancel arrive as 'orders.submitted' events;
 * a fill is announced as 'positions.changed' (the positions pump re-reads) and makes the order and fill
 * histories stale.
 */
import type { Fill } from '../../../shared/protocol/index.js';
import { OrderTracker, type TrackedOrder } from '../../services/orders/orderTracker.js';
import { readOpenOrders } from '../../services/reads/accountReads.js';
import { fillView, orderStatusUpdate } from '../views.js';
import { Loop } from './loop.js';
import { streamThrottle, type Pump, type PumpHost } from './pump.js';

export class OrdersPump implements Pump {
  readonly tracker: OrderTracker;
  private readonly statusThrottle;
  private readonly fillsThrottle;
  private readonly loop: Loop;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly seenTids = new Set<string>();
  private fillsSeeded = false;
  private readonly lastOrders = new Map<string, TrackedOrder>();
  private readonly notifiedTriggers = new Set<string>();
  private interval: number;

  constructor(private readonly host: PumpHost) {
    const { ctx, wallet, timings } = host;
    this.statusThrottle = streamThrottle<ReturnType<typeof orderStatusUpdate>>(host, (u) => u.order_id, (updates) => host.send('orderStatus', { updates }));
    this.fillsThrottle = streamThrottle<ReturnType<typeof fillView>>(host, (f) => f.tid, (fills) => host.send('fills', { fills }));
    this.tracker = new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep, minIntervalMs: timings.orderMinMs, maxIntervalMs: timings.orderMaxMs });
    this.interval = timings.orderMinMs;
    this.loop = new Loop('order tracking', () => this.step(), host.logger);
    this.unsubscribe.push(host.events.on('orders.submitted', (e) => {
      for (const o of e.orders) this.tracker.track(o.order_id, o.hint);
      this.kick();
    }));
    this.unsubscribe.push(host.events.on('orders.changed', () => this.kick()));
  }

  /** Seeds the orders to follow (everything open) and the fills already seen, then starts. */
  async start(): Promise<void> {
    const { ctx, wallet, logger } = this.host;
    try {
      for (const row of await readOpenOrders(ctx, wallet)) {
        this.tracker.track(row.order_id, { market: row.market, order_type: row.order_type, justSubmitted: false });
      }
    } catch (err) {
      logger.warn(`[pumps] could not read open orders at start: ${(err as Error).message}`);
    }
    try {
      const page = await ctx.api.tradeHistory({ wallet, limit: 200 });
      for (const f of page.fills) this.seenTids.add(f.tid);
      this.fillsSeeded = true;
    } catch (err) {
      logger.warn(`[pumps] reading recent fills failed: ${(err as Error).message}`);
    }
    this.loop.kick();
  }

  kick(): void {
    this.interval = this.host.timings.orderMinMs;
    this.loop.kick();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    await this.loop.stop();
    this.statusThrottle.close();
    this.fillsThrottle.close();
  }

  private active(): number {
    return this.tracker.all().filter((o) => !o.terminal && o.replaced_by === null).length;
  }

  private async step(): Promise<number | null> {
    if (this.active() === 0) return null;
    const { timings } = this.host;
    const changed = await this.tracker.pollOnce();
    if (changed.length > 0) {
      this.interval = timings.orderMinMs;
      let filled = false;
      for (const o of changed) {
        const prev = this.lastOrders.get(o.order_id);
        this.lastOrders.set(o.order_id, o);
        this.statusThrottle.push(orderStatusUpdate(o));
        if (o.filled_size !== null && o.filled_size !== '0' && o.filled_size !== prev?.filled_size) filled = true;
        if (o.status === 'FILLED' || o.status === 'PARTIALLY_FILLED_CANCELLED') filled = true;
        if (o.order_type === 'TRIGGER' && prev?.armed === true && !o.armed && (o.list_status === 'triggered' || o.status === 'ACCEPTED' || o.status === 'EXECUTING' || o.status === 'FILLED')) {
          if (!this.notifiedTriggers.has(o.order_id)) {
            this.notifiedTriggers.add(o.order_id);
            this.host.notify('trigger_fires', 'Trigger fired', `${o.market ?? ''} trigger ${o.order_id} fired`.trim());
          }
        }
      }
      this.host.events.emit({ type: 'history.changed', kinds: ['orders'] });
      if (filled) {
        await this.readNewFills();
        this.host.events.emit({ type: 'positions.changed' });
      }
      // A terminal order never changes again: stop holding it (a long session places many orders).
      for (const o of changed) {
        if (o.terminal) {
          this.tracker.untrack(o.order_id);
          this.lastOrders.delete(o.order_id);
        }
      }
    } else {
      this.interval = Math.min(timings.orderMaxMs, this.interval * 2);
    }
    return this.active() === 0 ? null : this.interval;
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
    this.host.events.emit({ type: 'history.changed', kinds: ['fills'] });
    for (const f of fresh) this.fillsThrottle.push(fillView(f));
    if (fresh.length === 1) {
      const f = fresh[0]!;
      this.host.notify('fills', 'Order filled', `${f.dir} ${f.size} ${f.market ?? ''} at ${f.price}`.replace(/\s+/g, ' ').trim());
    } else {
      this.host.notify('fills', 'Orders filled', `${fresh.length} new fills`);
    }
  }
}
