/**
 * One plain line per order leg, written from the leg exactly as it will be sent: what a person reads
 * first in the review (the app's dialog, the command line's --dry-run) before the raw typed data.
 *
 *   Buy 0.5 ETH at 3,328 limit, GTC, 1x
 *   Buy 0.5 ETH at market, worst price 3,416.1, 2x
 *   Sell the whole position when the mark reaches 3,566 (take profit), at market, worst price 3,548.2, once the entry fills
 *
 * Numbers are the signed values with thousands separators (never rounded). Leverage is named only on a
 * leg that posts margin (not reduce-only); a leg that signs none there is described as taking the
 * market's maximum, which is how the service reads a missing leverage. A MARKET leg names its worst price
 * (its limit_price, the bound); a trigger of size 0 closes the whole position.
 */
import { groupedDecimal } from '../decimal/display.js';
import type { Market } from '../protocol/schemas/config.js';
import type { Side, SubmittableOrderType, TimeInForce, Tpsl } from '../protocol/schemas/orders.js';

export interface DescribableLeg {
  side: Side;
  size: string;
  limit_price: string;
  order_type: SubmittableOrderType;
  time_in_force?: TimeInForce | null | undefined;
  reduce_only: boolean;
  leverage?: number | null | undefined;
  trigger?: { trigger_price: string; tpsl: Tpsl; is_market: boolean } | null | undefined;
  parent_client_order_id?: string | null | undefined;
}

export type DescribableMarket = Pick<Market, 'symbol' | 'max_leverage'>;

const TIF_WORDS: Record<TimeInForce, string> = { GTC: 'GTC', IOC: 'IOC', ALO: 'post-only' };

export function describeLeg(leg: DescribableLeg, market: DescribableMarket): string {
  const verb = leg.side === 'BUY' ? 'Buy' : 'Sell';
  const price = groupedDecimal(leg.limit_price);
  const amount = leg.order_type === 'TRIGGER' && isZero(leg.size) ? 'the whole position' : `${groupedDecimal(leg.size)} ${market.symbol}`;
  const parts: string[] = [];
  if (leg.order_type === 'TRIGGER' && leg.trigger) {
    const kind = leg.trigger.tpsl === 'TP' ? 'take profit' : 'stop loss';
    parts.push(`${verb} ${amount} when the mark reaches ${groupedDecimal(leg.trigger.trigger_price)} (${kind})`);
    parts.push(leg.trigger.is_market ? `at market, worst price ${price}` : `at ${price} limit`);
  } else if (leg.order_type === 'MARKET') {
    parts.push(`${verb} ${amount} at market, worst price ${price}`);
  } else {
    parts.push(`${verb} ${amount} at ${price} limit`);
    if (leg.time_in_force) parts.push(TIF_WORDS[leg.time_in_force]);
  }
  if (leg.reduce_only && leg.order_type !== 'TRIGGER') parts.push('reduce-only');
  if (!leg.reduce_only) parts.push(leg.leverage ? `${leg.leverage}x` : `the market's maximum leverage (${market.max_leverage}x)`);
  if (leg.parent_client_order_id) parts.push('once the entry fills');
  return parts.join(', ');
}

function isZero(size: string): boolean {
  return /^0*(\.0*)?$/.test(size);
}
