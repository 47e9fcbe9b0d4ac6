/**
 * Position records: the engine's truth changes at once; GET /positions shows it position_lag_ms later
 * (the spec: "/positions lags fills"). Every change increments `version`; a position that closes
 * disappears, and a new one on the same market gets a new id.
 */
import { ZERO, d, money, price8, str } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { SimPosition } from '../state/model.js';
import type { PositionState } from './ledger.js';

export function stateOf(p: SimPosition): PositionState {
  return { size: d(p.size), entry: d(p.entry_price), margin: d(p.isolated_margin) };
}

export function positionState(ctx: SimContext, wallet: string, market: string): PositionState | null {
  const p = ctx.store.position(wallet, market);
  return p ? stateOf(p) : null;
}

/** Stores the new state (null closes the position) and schedules its publication. */
export function savePosition(ctx: SimContext, wallet: string, market: string, next: PositionState | null): SimPosition | null {
  const now = ctx.clock.now();
  const current = ctx.store.position(wallet, market);
  let saved: SimPosition | null = null;
  if (next && !next.size.isZero()) {
    saved = current
      ? { ...current, size: str(next.size), entry_price: price8(next.entry), isolated_margin: money(nonNegative(next.margin)), version: current.version + 1, updated_at: now }
      : {
          id: ctx.store.nextPositionId(),
          market,
          size: str(next.size),
          entry_price: price8(next.entry),
          isolated_margin: money(nonNegative(next.margin)),
          version: 1,
          opened_at: now,
          updated_at: now,
        };
    ctx.store.setPosition(wallet, saved, market);
  } else if (current) {
    ctx.store.setPosition(wallet, null, market);
  }
  ctx.jobs.add('position.publish', ctx.timings.position_lag_ms, { wallet, market, view: saved ? { ...saved } : null });
  return saved;
}

function nonNegative(v: PositionState['margin']): PositionState['margin'] {
  return v.lt(0) ? ZERO : v;
}

export function registerPositionJobs(ctx: SimContext): void {
  ctx.jobs.on('position.publish', ({ wallet, market, view }) => {
    ctx.store.publish(wallet, market, view);
  });
}
