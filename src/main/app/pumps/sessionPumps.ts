/**
 * The event pumps of one session (one profile, one wallet), started in order (marks first, so positions
 * are priced from the start) and stopped together. Background failures are logged and retried with
 * backoff inside each pump.
 */
import type { PositionView } from '../../../shared/ipc.js';
import type { OrderTracker } from '../../services/orders/orderTracker.js';
import { KeyExpiryPump } from './keyExpiryPump.js';
import { MarksPump } from './marksPump.js';
import { OrdersPump } from './ordersPump.js';
import { PositionsPump } from './positionsPump.js';
import type { Pump, PumpHost } from './pump.js';
import { WithdrawalsPump } from './withdrawalsPump.js';

import { hasPendingProtection, restorePendingProtection } from '../../services/positions/rearm.js';

export class SessionPumps {
  readonly marks: MarksPump;
  readonly orders: OrdersPump;
  readonly positions: PositionsPump;
  readonly withdrawals: WithdrawalsPump;
  readonly keyExpiry: KeyExpiryPump;
  private readonly all: Pump[];

  constructor(readonly host: PumpHost) {
    this.marks = new MarksPump(host);
    this.orders = new OrdersPump(host);
    this.positions = new PositionsPump(host, this.marks);
    this.withdrawals = new WithdrawalsPump(host);
    this.keyExpiry = new KeyExpiryPump(host);
    this.all = [this.marks, this.orders, this.positions, this.keyExpiry, this.withdrawals];
  }

  get wallet(): string {
    return this.host.wallet;
  }

  /** The tracker following this wallet's orders (tests wait on it). */
  get tracker(): OrderTracker {
    return this.orders.tracker;
  }

  latestMark(symbol: string): string | undefined {
    return this.marks.latest(symbol);
  }

  /** Reads /positions now, publishes them, and returns them priced at the latest marks. */
  refreshPositions(): Promise<PositionView[]> {
    return this.positions.refresh();
  }

  async start(): Promise<void> {
    for (const p of this.all) await p.start();
    void this.restoreProtection();
  }

  /**
   * TP/SL a close lifted and a killed process (app or command line) never re-armed go back now, on the
   * next start (issue 35, item 2). Said in a notification; the positions refresh shows them armed.
   */
  private async restoreProtection(): Promise<void> {
    const { ctx, wallet, logger } = this.host;
    try {
      if (!hasPendingProtection(ctx.profile.dataDir)) return;
      const { outcomes, problems } = await restorePendingProtection(ctx, { wallet });
      for (const o of outcomes) {
        if (o.summary.length > 0) this.host.notify('alerts', `${o.market} TP/SL after an interrupted close`, o.summary.join('\n'));
      }
      for (const p of problems) logger.warn(`[pumps] ${p}`);
      if (outcomes.length > 0) this.positions.kick();
    } catch (err) {
      logger.warn(`[pumps] restoring TP/SL after an interrupted close failed: ${(err as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((p) => p.stop()));
  }
}
