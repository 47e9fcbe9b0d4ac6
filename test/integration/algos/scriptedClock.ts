/**
 * The simulator's clock for an algorithm under test (its waits advance it): after each wait, the marks
 * scheduled up to the new time are set, in order, and the runner named by `stopAt` is asked to stop once
 * its time comes. The algorithm sees the market move between two of its looks, as it would live.
 */
import type { AlgoClock } from '../../../src/main/services/algos/algoClock.js';
import type { TradingWorld } from '../orders/tradingWorld.js';

export class ScriptedClock implements AlgoClock {
  /** Mark changes scheduled on the simulator's clock, applied by the next wait once their time comes. */
  script: { at: number; mark: string }[] = [];
  stopAt: { at: number; runner: { requestStop(): void } } | null = null;

  constructor(
    private readonly w: TradingWorld,
    private readonly market = 'ETH',
  ) {}

  async now(): Promise<number> {
    return this.w.sim.clock.now();
  }

  async sleep(ms: number): Promise<void> {
    await this.w.ctx.sleep(ms);
    const now = this.w.sim.clock.now();
    while (this.script.length > 0 && this.script[0]!.at <= now) await this.w.setMark(this.market, this.script.shift()!.mark);
    if (this.stopAt && this.stopAt.at <= now) this.stopAt.runner.requestStop();
  }
}
