/**
 * What an exit did, from the service's own fills (trade-history): the average fill price and the
 * realized PnL (the fills' closed_pnl) and fees of the orders that closed a position: a close, each close
 * of a close-all, a trailing stop's fired trigger, an OCO's filled leg. A trader reads these two numbers
 * first after an exit; the app and the command line print them from here.
 *
 * Fills land in trade-history shortly after the order reads filled, so the read is repeated a few times
 * (bounded) until the fills add up to the filled size; what was found is returned with `complete`
 * saying whether it adds up, never a number made up for what is missing.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { Fill } from '../../../shared/protocol/index.js';
import type { TradingContext } from '../orders/orderContext.js';

export interface ExitFills {
  order_ids: string[];
  /** Sum of the fills' sizes. */
  filled_size: string;
  /** Size-weighted average fill price; null when no fill was found. */
  avg_fill_price: string | null;
  /** Sum of closed_pnl (before fees); null when no fill was found. */
  realized_pnl: string | null;
  fees: string;
  fills: number;
  /** The fills found add up to the size expected (or, with none expected, at least one was found). */
  complete: boolean;
}

export interface ExitFillsOptions {
  market?: string;
  /** The filled size the orders report: the read repeats until the fills add up to it. */
  expectSize?: string | null;
  attempts?: number;
  delayMs?: number;
}

export function summarizeExitFills(orderIds: readonly string[], fills: readonly Fill[], expectSize?: string | null): ExitFills {
  const mine = fills.filter((f) => orderIds.includes(f.order_id));
  let size = new Decimal(0);
  let value = new Decimal(0);
  let pnl = new Decimal(0);
  let fees = new Decimal(0);
  for (const f of mine) {
    size = size.plus(f.size);
    value = value.plus(new Decimal(f.size).mul(f.price));
    pnl = pnl.plus(f.closed_pnl ?? 0);
    fees = fees.plus(f.fee);
  }
  const found = mine.length > 0 && size.gt(0);
  return {
    order_ids: [...orderIds],
    filled_size: canonical(size),
    avg_fill_price: found ? canonical(value.div(size).toDecimalPlaces(12)) : null,
    realized_pnl: found ? canonical(pnl) : null,
    fees: canonical(fees),
    fills: mine.length,
    complete: expectSize !== undefined && expectSize !== null ? found && size.gte(expectSize) : found,
  };
}

/** The fills of these orders from the newest page of trade-history, read again (bounded) until complete. */
export async function readExitFills(ctx: Pick<TradingContext, 'api' | 'sleep'>, wallet: string, orderIds: readonly string[], options: ExitFillsOptions = {}): Promise<ExitFills> {
  const attempts = options.attempts ?? 8;
  let last = summarizeExitFills(orderIds, [], options.expectSize);
  if (orderIds.length === 0) return last;
  for (let i = 0; i < attempts; i++) {
    const page = await ctx.api.tradeHistory({ wallet, ...(options.market ? { market: options.market } : {}), limit: 200 });
    last = summarizeExitFills(orderIds, page.fills, options.expectSize);
    if (last.complete) return last;
    if (i < attempts - 1) await ctx.sleep(options.delayMs ?? 500);
  }
  return last;
}
