/**
 * Hourly funding, on venue hours (multiples of 3 600 000 ms of SimClock time). At each hour every open
 * position pays or receives |size| x mark x rate: with a positive rate longs pay and shorts receive. One
 * payment per position per hour, settled into the position's isolated margin (a payment can push a
 * position into liquidation), with the venue's hourly rate as a raw fraction. epoch_time is the hour,
 * settled_at the settlement time (the same instant in the sim).
 */
import { d, money } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import { positionState, savePosition } from '../positions/positions.js';
import { checkLiquidations } from '../liquidation/liquidation.js';

export const HOUR_MS = 3_600_000;

export function nextHour(now: number): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
}

export function settleFunding(ctx: SimContext, epoch: number): void {
  const now = ctx.clock.now();
  for (const info of ctx.markets.all()) {
    // No live rate while a followed market's upstream is away: that hour is not paid rather than paid at a guess.
    if (ctx.venue.isPaused(info.venueSymbol)) {
      console.warn(`[sim follow] funding of ${info.symbol} for the hour ${new Date(epoch).toISOString()} skipped: its upstream venue is unreachable`);
      continue;
    }
    const rate = d(ctx.venue.fundingRate(info.venueSymbol));
    const mark = d(ctx.venue.getMark(info.venueSymbol));
    for (const wallet of ctx.store.holders(info.symbol)) {
      const pos = positionState(ctx, wallet, info.symbol);
      if (!pos) continue;
      const owed = d(money(pos.size.mul(mark).mul(rate).neg()));
      // Isolated margin is all a position can pay: a payment larger than it takes the margin (and the
      // record says what was taken, so the records add up to the balance); liquidation follows.
      const payment = pos.margin.plus(owed).lt(0) ? pos.margin.neg() : owed;
      ctx.store.addFunding(wallet, {
        market: info.symbol,
        direction: pos.size.isPositive() ? 'LONG' : 'SHORT',
        size: pos.size.abs().toFixed(),
        payment: money(payment),
        funding_rate: rate.toFixed(),
        epoch_time: epoch,
        settled_at: now,
      });
      savePosition(ctx, wallet, info.symbol, { ...pos, margin: pos.margin.plus(payment) });
    }
    checkLiquidations(ctx, info.symbol, mark);
  }
}

export function registerFundingJobs(ctx: SimContext): void {
  ctx.jobs.on('funding.settle', ({ epoch }) => {
    // Schedule the next hour first, so a failure in this one never stops funding for good.
    ctx.jobs.addAt('funding.settle', epoch + HOUR_MS, { epoch: epoch + HOUR_MS });
    settleFunding(ctx, epoch);
  });
}

/** Starts the hourly schedule on a fresh engine (a restored one has it in its saved jobs). */
export function startFunding(ctx: SimContext): void {
  const at = nextHour(ctx.clock.now());
  ctx.jobs.addAt('funding.settle', at, { epoch: at });
}
