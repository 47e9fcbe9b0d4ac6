/**
 * Telling an order in order-history by what was sent, for when the rows carry no client order id (the
 * spec's listed-order table has none): after a lost answer (submitOrder.ts) and for a TWAP slice written
 * as sending (twap/sliceLookup.ts). Prices and sizes are compared as decimals, so "3400" is "3400.0".
 */
import { Decimal } from '../../../shared/decimal/index.js';
import type { ListedOrder } from '../../../shared/protocol/index.js';

/** What an order was sent with, as a history row lists it back. */
export interface SentOrderFields {
  market: string;
  /** BUY / SELL (rows list it lowercase). */
  side: string;
  order_type: string;
  reduce_only: boolean;
  size: string;
  limit_price: string;
  /** Only for a trigger: then the row's trigger price must match too. */
  trigger_price?: string;
}

function sameDecimal(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return a === b || (a ?? null) === (b ?? null);
  return new Decimal(a).eq(b);
}

/** Does `row` list exactly these fields? */
export function listsSentFields(row: ListedOrder, sent: SentOrderFields): boolean {
  return (
    row.market === sent.market &&
    row.side === sent.side.toLowerCase() &&
    row.order_type === sent.order_type &&
    row.reduce_only === sent.reduce_only &&
    sameDecimal(row.limit_price, sent.limit_price) &&
    sameDecimal(row.size, sent.size) &&
    (sent.trigger_price !== undefined ? sameDecimal(row.trigger_price, sent.trigger_price) : true)
  );
}
