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
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((p) => p.stop()));
  }
}
