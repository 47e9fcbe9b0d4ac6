/**
 * The ticket's Scale tab as data: a ladder of 2 to 20 LIMIT legs between two prices, the sizes equal or
 * skewed, sent as one batch. The ladder is built by the same pure function main's scale strategy uses
 * (src/shared/orders/scaleLadder.ts), so the rungs the ticket lists and the chart draws are the legs the
 * review shows and the key signs; its errors (a range too narrow for the count, the smallest leg below
 * min_order_value) are shown before anything is sent.
 */
import type { MarketView, OrderIntent } from '../../../../shared/ipc';
import { MAX_SCALE_LEGS, MIN_SCALE_LEGS, ScaleLadderError, scaleLadder, type ScaleRung } from '../../../../shared/orders/scaleLadder';
import { orderCosts, type CostedLeg } from '../../../../shared/orders/orderCosts';
import type { TicketPosition } from './ticketModel';
import { Decimal, dec, isDecimalText, type DecimalValue } from '../../lib/decimal';

export interface ScaleFields {
  from: string;
  to: string;
  count: string;
  total: string;
  /** The last leg's size over the first's; '1' = equal sizes. */
  skew: string;
}

export const initialScale: ScaleFields = { from: '', to: '', count: '5', total: '', skew: '1' };

export type ScaleFieldKey = keyof ScaleFields | 'form';

export interface ScaleCheck {
  rungs: ScaleRung[] | null;
  errors: Partial<Record<ScaleFieldKey, string>>;
  notional: DecimalValue | null;
  fee: DecimalValue | null;
  margin: DecimalValue | null;
  /** The volume-weighted price of the ladder if every leg fills. */
  averagePrice: DecimalValue | null;
  ok: boolean;
}

/** Which ticket field a ladder error belongs to (the ladder names its input fields as the intent does). */
const FIELD_OF: Record<string, keyof ScaleFields> = { from_price: 'from', to_price: 'to', count: 'count', total_size: 'total', skew: 'skew' };

export interface ScaleContext {
  side: 'BUY' | 'SELL';
  leverage: number;
  reduceOnly: boolean;
  postOnly: boolean;
  mark: string | null;
  positions: readonly TicketPosition[];
}

export function checkScale(f: ScaleFields, market: MarketView, c: ScaleContext): ScaleCheck {
  const { side, leverage, reduceOnly } = c;
  const errors: ScaleCheck['errors'] = {};
  const none: ScaleCheck = { rungs: null, errors, notional: null, fee: null, margin: null, averagePrice: null, ok: false };
  if (f.from.trim() === '') errors.from = 'Enter the first leg’s price';
  if (f.to.trim() === '') errors.to = 'Enter the last leg’s price';
  if (f.total.trim() === '') errors.total = 'Enter the total size';
  const count = Number(f.count);
  if (!/^\d+$/.test(f.count.trim()) || count < MIN_SCALE_LEGS || count > MAX_SCALE_LEGS) errors.count = `${MIN_SCALE_LEGS} to ${MAX_SCALE_LEGS} legs`;
  if (!isDecimalText(f.skew)) errors.skew = 'A number: the last leg’s size over the first’s (1 = equal)';
  if (Object.keys(errors).length > 0) return none;
  let rungs: ScaleRung[];
  try {
    // The fields go to the ladder as typed: the one decimal grammar refuses " 5" or "5.", and an off-tick
    // end is refused naming the valid prices either side, never rounded.
    rungs = scaleLadder(market, { side, from: f.from, to: f.to, count, totalSize: f.total, skew: f.skew, reduceOnly });
  } catch (err) {
    if (!(err instanceof ScaleLadderError)) throw err;
    const field = FIELD_OF[err.field] ?? 'form';
    errors[field] = err.message + (err.errorHint ? ` ${err.errorHint}` : '');
    return none;
  }
  // Costed by the function the review uses: a leg priced through the mark is a taker, the rest makers.
  const legs: CostedLeg[] = rungs.map((r) => ({
    market: market.symbol,
    side,
    size: r.size,
    limit_price: r.price,
    order_type: 'LIMIT',
    time_in_force: c.postOnly ? 'ALO' : 'GTC',
    reduce_only: reduceOnly,
    leverage: reduceOnly ? undefined : leverage,
    client_order_id: `rung-${r.index}`,
  }));
  const m = dec(c.mark);
  const costs = orderCosts(legs, new Map([[market.symbol, market]]), m ? new Map([[market.symbol, m]]) : new Map(), c.positions);
  const size = rungs.reduce((a, r) => a.plus(r.size), new Decimal(0));
  const value = rungs.reduce((a, r) => a.plus(r.notional), new Decimal(0));
  return {
    rungs,
    errors,
    notional: costs.notional,
    fee: costs.fees,
    margin: costs.margin,
    averagePrice: size.isZero() ? null : value.div(size),
    ok: true,
  };
}

export function scaleIntent(f: ScaleFields, market: MarketView, o: { side: 'BUY' | 'SELL'; leverage: number; reduceOnly: boolean; postOnly: boolean }): OrderIntent {
  return {
    kind: 'scale',
    market: market.symbol,
    side: o.side,
    from_price: f.from,
    to_price: f.to,
    count: Number(f.count),
    total_size: f.total,
    ...(f.skew !== '1' ? { skew: f.skew } : {}),
    time_in_force: o.postOnly ? 'ALO' : 'GTC',
    ...(o.reduceOnly ? { reduce_only: true } : { leverage: o.leverage }),
  };
}
