/**
 * What position alerts (PnL, distance to the liquidation estimate) are evaluated on outside the app:
 * `perps alert watch` reads each watched wallet's positions priced at the venue's marks every everyMs
 * (services/reads/positionRisk.ts, the figures `perps positions` and the app show). The app evaluates
 * them on its own positions stream instead.
 */
import { pollEvery } from '../reads/pollEvery.js';
import { readPositionViews } from '../reads/positionRisk.js';
import type { ServiceContext } from '../serviceContext.js';
import type { PositionObservation } from './alertEvaluator.js';

export interface PositionPollOptions {
  ctx: ServiceContext;
  /** The wallets position alerts watch now (read before each poll: alerts come and go). */
  wallets(): string[];
  everyMs: number;
  observe(obs: PositionObservation): void;
  onError(err: Error): void;
}

export function startPositionPoll(o: PositionPollOptions): { stop(): void } {
  const poll = async (): Promise<void> => {
    for (const wallet of o.wallets()) {
      const { positions } = await readPositionViews(o.ctx, wallet);
      const at = Date.now();
      for (const v of positions) o.observe({ market: v.market, wallet, at, unrealizedPnl: v.unrealized_pnl, liquidationDistance: v.liquidation_distance });
    }
  };
  return pollEvery(poll, o.everyMs, o.onError);
}
