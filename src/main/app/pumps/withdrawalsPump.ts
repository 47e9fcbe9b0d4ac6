/**
 * withdrawals: the WithdrawalTracker, polled while a tracked withdrawal of this wallet is open. At start,
 * withdrawals signed before a restart are resent unchanged (never re-signed), then followed. A withdrawal
 * the funds desk submits arrives as a 'withdrawals.changed' event.
 */
import { WithdrawalTracker } from '../../services/money/tracker.js';
import { listTrackedWithdrawals, resumeWithdrawals } from '../../services/money/withdrawals/index.js';
import { trackedWithdrawalView } from '../views.js';
import { Loop } from './loop.js';
import { streamThrottle, type Pump, type PumpHost } from './pump.js';

export class WithdrawalsPump implements Pump {
  private readonly throttle;
  private readonly tracker: WithdrawalTracker;
  private readonly loop: Loop;
  private readonly unsubscribe: (() => void)[] = [];
  private interval: number;

  constructor(private readonly host: PumpHost) {
    const { ctx, wallet, timings } = host;
    this.throttle = streamThrottle<ReturnType<typeof trackedWithdrawalView>>(host, (w) => w.intent_id, (withdrawals) => host.send('withdrawals', { withdrawals }));
    this.interval = timings.withdrawalMinMs;
    this.tracker = new WithdrawalTracker(ctx, {
      minIntervalMs: timings.withdrawalMinMs,
      maxIntervalMs: timings.withdrawalMaxMs,
      onUpdate: (record) => {
        if (record.wallet.toLowerCase() !== wallet.toLowerCase()) return;
        this.throttle.push(trackedWithdrawalView(record));
        host.events.emit({ type: 'history.changed', kinds: ['withdrawals'] });
        if (record.phase === 'DONE' && record.status !== null) {
          host.notify('withdrawals', `Withdrawal ${record.status.toLowerCase()}`, `${record.amount} USDC${record.status === 'COMPLETED' ? ' sent to your wallet' : record.failure_reason ? `: ${record.failure_reason}` : ''}`);
        }
      },
    });
    this.loop = new Loop('withdrawal tracking', () => this.step(), host.logger);
    this.unsubscribe.push(host.events.on('withdrawals.changed', (e) => {
      if (e.withdrawal) this.throttle.push(e.withdrawal);
      this.kick();
    }));
  }

  async start(): Promise<void> {
    const { ctx, wallet, logger } = this.host;
    try {
      const { errors, damaged } = await resumeWithdrawals(ctx, { wallet });
      for (const e of errors) logger.warn(`[pumps] withdrawal ${e.intent_id} could not be resent yet: ${(e.error as Error).message}`);
      for (const d of damaged) logger.warn(`[pumps] the withdrawal record ${d.name} is damaged and was not resumed: ${d.reason}`);
    } catch (err) {
      logger.warn(`[pumps] resuming withdrawals failed: ${(err as Error).message}`);
    }
    this.loop.kick();
  }

  kick(): void {
    this.interval = this.host.timings.withdrawalMinMs;
    this.loop.kick();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    await this.loop.stop();
    this.throttle.close();
  }

  private open(): number {
    return listTrackedWithdrawals(this.host.ctx, { wallet: this.host.wallet, open: true }).length;
  }

  private async step(): Promise<number | null> {
    if (this.open() === 0) return null;
    const { timings, wallet } = this.host;
    const { changed } = await this.tracker.pollOnce((r) => r.wallet.toLowerCase() === wallet.toLowerCase());
    this.interval = changed.length > 0 ? timings.withdrawalMinMs : Math.min(timings.withdrawalMaxMs, this.interval * 2);
    return this.open() === 0 ? null : this.interval;
  }
}
