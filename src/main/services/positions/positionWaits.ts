/**
 * /positions lags fills (spec, "Position lifecycle rules" 2): an order can read FILLED while the position
 * is not there yet. Anything that acts on a position after a fill polls until the read reflects it.
 */
import type { Position } from '../../../shared/protocol/index.js';
import { pollUntil, type PollOptions, type TradingContext } from '../orders/orderContext.js';

export async function readPosition(ctx: Pick<TradingContext, 'api'>, accountId: string, market: string): Promise<Position | undefined> {
  const { positions } = await ctx.api.positions(accountId);
  return positions.find((p) => p.market === market);
}

/**
 * Polls GET /account/{account_id}/positions until `predicate` holds for the market's position (undefined
 * when there is none). Returns that position (or undefined).
 */
export async function waitForPosition(
  ctx: Pick<TradingContext, 'api' | 'sleep'>,
  accountId: string,
  market: string,
  predicate: (p: Position | undefined) => boolean,
  what: string,
  options: PollOptions = {},
): Promise<Position | undefined> {
  const found = await pollUntil(
    ctx.sleep,
    what,
    async () => {
      const p = await readPosition(ctx, accountId, market);
      return predicate(p) ? { p } : undefined;
    },
    { minIntervalMs: 150, maxIntervalMs: 1_000, ...options },
  );
  return found.p;
}

/** Waits until the position differs from `before` (a higher version, or gone / newly there). */
export function waitForPositionChange(
  ctx: Pick<TradingContext, 'api' | 'sleep'>,
  accountId: string,
  market: string,
  before: Position | undefined,
  options: PollOptions = {},
): Promise<Position | undefined> {
  return waitForPosition(
    ctx,
    accountId,
    market,
    (p) => (before === undefined ? p !== undefined : p === undefined || p.version > before.version),
    `waiting for the ${market} position to reflect the fill`,
    options,
  );
}
