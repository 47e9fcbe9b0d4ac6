/**
 * positions: refreshed on a slow timer (liquidations, fills of orders placed elsewhere), in a short burst
 * after a fill or a position change (because /positions lags fills), and re-priced whenever a mark of a
 * held market moves. Each refresh also reads position-triggers (the armed TP/SL shown on each position)
 * and the markets (their maintenance_margin_ratio prices the liquidation estimate); every re-pricing is
 * looked at by the liquidation watch (riskWarning stream, notifications).
 */
import type { PositionView } from '../../../shared/ipc.js';
import type { ListedOrder, Market, Position } from '../../../shared/protocol/index.js';
import type { TrailingView } from '../../../shared/ipc/risk.js';
import { trailingViews } from '../../services/algos/trailing/trailView.js';
import { walletIds } from '../../services/orders/orderContext.js';
import { readPositions } from '../../services/reads/accountReads.js';
import { positionView } from '../views.js';
import { protectionFields, readProtection, type PositionProtection } from '../../services/positions/protection.js';
import { FailureMemory, logFailureOnce } from '../../services/positions/stopFailureAlerts.js';
import { LiquidationWatch } from './liquidationWatch.js';
import { Loop } from './loop.js';
import type { MarksPump } from './marksPump.js';
import { streamThrottle, type Pump, type PumpHost } from './pump.js';

export class PositionsPump implements Pump {
  private positions: Position[] = [];
  /** The armed reduce-only triggers read with the positions (position-triggers). */
  private triggers: ListedOrder[] = [];
  private markets = new Map<string, Market>();
  private readonly watch: LiquidationWatch;
  private readonly throttle;
  private readonly loop: Loop;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  /** The trailing stops by market, read from the data folder at each refresh (the command line may run them). */
  private trailing = new Map<string, TrailingView>();
  /** Each position's TP/SL state (armed, none, failed) at the last refresh, by market (issue 35). */
  private protection = new Map<string, PositionProtection>();
  private readonly failures = new FailureMemory();

  constructor(
    private readonly host: PumpHost,
    private readonly marks: MarksPump,
  ) {
    // One key: the latest snapshot replaces any older one still waiting.
    this.throttle = streamThrottle<{ positions: PositionView[]; at: number }>(host, () => 'snapshot', (snapshots) => host.send('positions', snapshots[snapshots.length - 1]!));
    this.watch = new LiquidationWatch(host);
    this.loop = new Loop(
      'positions refresh',
      async () => {
        await this.refresh();
        return host.timings.positionsRefreshMs;
      },
      host.logger,
    );
    marks.onChange((market, at) => {
      // Positions are re-priced from the new mark (the throttle keeps this at 10 a second at most).
      if (this.positions.some((p) => p.market === market)) this.publish(this.views(), at);
    });
    this.unsubscribe.push(host.events.on('positions.changed', () => this.refreshSoon()));
  }

  async start(): Promise<void> {
    this.loop.kick();
  }

  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.loop.stop();
    this.throttle.close();
    this.watch.close();
  }

  views(positions: readonly Position[] = this.positions): PositionView[] {
    return positions.map((p) => ({
      ...positionView(p, this.marks.latest(p.market), { market: this.markets.get(p.market), triggers: this.triggers }),
      trailing: this.trailing.get(p.market) ?? null,
      ...protectionFields(this.protection.get(p.market)),
    }));
  }

  private publish(views: PositionView[], at: number): void {
    this.throttle.push({ positions: views, at });
    this.watch.update(views, at);
    this.host.observePositions?.(views, at);
  }

  /** Reads /positions, the armed triggers and the markets, and publishes the snapshot. */
  async refresh(): Promise<PositionView[]> {
    const { ctx, wallet } = this.host;
    const [rows, triggers, markets] = await Promise.all([readPositions(ctx, wallet), ctx.api.positionTriggers(walletIds(wallet).wallet), ctx.config.markets()]);
    if (this.stopped) return [];
    this.positions = rows;
    this.triggers = triggers.orders;
    this.markets = new Map(markets.map((m) => [m.symbol, m]));
    this.trailing = trailingViews(ctx, wallet);
    // A stop that fired and was cancelled unfilled is found in the order history at each refresh.
    this.protection = rows.length > 0 ? (await readProtection(ctx, wallet, { positions: rows, triggers: triggers.orders })).byMarket : new Map();
    if (this.stopped) return [];
    const views = this.views(rows);
    this.publish(views, Date.now());
    this.sayFailures(views);
    return views;
  }

  /** Each new failure once: native notification, the page's assertive toast and live region, the alerts log. */
  private sayFailures(views: readonly PositionView[]): void {
    const { ctx } = this.host;
    for (const firing of this.failures.fresh(ctx.profile.name, views, Date.now())) {
      this.host.notify('alerts', firing.title, firing.message);
      this.host.send('alertFired', { firings: [firing] });
      try {
        logFailureOnce(ctx.profile.dataDir, firing);
      } catch (err) {
        this.host.logger.warn(`[pumps] logging a failed stop failed: ${(err as Error).message}`);
      }
    }
  }

  /** /positions lags fills: read it a few times over the next seconds. */
  refreshSoon(): void {
    if (this.stopped) return;
    for (const ms of this.host.timings.positionsAfterFillMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.refresh().catch((err: unknown) => this.host.logger.warn(`[pumps] positions refresh failed: ${(err as Error).message}`));
      }, ms);
      this.timers.add(timer);
    }
  }
}
