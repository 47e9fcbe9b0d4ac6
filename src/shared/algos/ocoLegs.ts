/**
 * An OCO pair's fields as a person types them (the ticket's OCO type), checked before main prepares it:
 * each price a decimal on the market's tick, the buy below the mark and the sell above it (a leg past the
 * mark would fill at once: OCO_LEG_WOULD_FILL, the code main's prepareOco refuses it with), the size of
 * each leg within the market's places, and each leg worth at least the market's minimum. Nothing is
 * rounded: what fails is said at its field. Main checks everything again against the mark it reads then.
 */
import { Decimal, decimalTextProblem, parseDecimalText } from '../decimal/decimal.js';
import { groupedDecimal } from '../decimal/display.js';
import { checkNotional, checkPrice, checkSize } from '../protocol/marketRules.js';
import type { Market } from '../protocol/schemas/config.js';

export type OcoLegsMarket = Pick<Market, 'symbol' | 'tick_size' | 'px_decimals' | 'sz_decimals' | 'min_order_value' | 'max_notional'>;

export interface OcoLegsInput {
  buy: string;
  sell: string;
  size: string;
}

export interface OcoLegsCheck {
  errors: Partial<Record<keyof OcoLegsInput, string>>;
  /** Each leg's value (size x its price), when it can be read. */
  buyValue: Decimal | null;
  sellValue: Decimal | null;
  ok: boolean;
}

/** The code a leg past the mark is refused with, here and by main. */
export const OCO_LEG_WOULD_FILL = 'OCO_LEG_WOULD_FILL';

function number(text: string, what: string): { value: Decimal } | { error: string } {
  if (text.trim() === '') return { error: `Enter the ${what}` };
  const problem = decimalTextProblem(text);
  if (problem) return { error: `Not a number: ${problem}` };
  const value = parseDecimalText(text);
  if (value.lte(0)) return { error: `The ${what} must be greater than 0` };
  return { value };
}

export function checkOcoLegs(input: OcoLegsInput, market: OcoLegsMarket, mark: string | null): OcoLegsCheck {
  const errors: OcoLegsCheck['errors'] = {};
  const m = mark === null ? null : new Decimal(mark);
  const prices: Partial<Record<'buy' | 'sell', Decimal>> = {};
  for (const side of ['buy', 'sell'] as const) {
    const got = number(input[side], `${side} price`);
    if ('error' in got) {
      errors[side] = got.error;
      continue;
    }
    const rule = checkPrice(market, input[side]);
    if (rule) {
      errors[side] = rule.rule === 'price_off_tick' ? `Not on the tick of ${market.tick_size}: it is not rounded` : `At most ${market.px_decimals} decimal places`;
      continue;
    }
    prices[side] = got.value;
    if (m && side === 'buy' && got.value.gte(m)) errors.buy = `${OCO_LEG_WOULD_FILL}: the buy must be below the mark ${groupedDecimal(m.toFixed())}; at or above it, it fills at once`;
    if (m && side === 'sell' && got.value.lte(m)) errors.sell = `${OCO_LEG_WOULD_FILL}: the sell must be above the mark ${groupedDecimal(m.toFixed())}; at or below it, it fills at once`;
  }
  const size = number(input.size, 'size of each leg');
  let sized: Decimal | null = null;
  if ('error' in size) errors.size = size.error;
  else if (checkSize(market, input.size)) errors.size = `At most ${market.sz_decimals} decimal places`;
  else sized = size.value;
  const valueAt = (price: Decimal | undefined) => (sized && price ? sized.mul(price) : null);
  if (sized && !errors.size) {
    for (const side of ['buy', 'sell'] as const) {
      const p = prices[side];
      const rule = p ? checkNotional(market, input.size, input[side], false) : null;
      if (rule && !errors.size) errors.size = rule.rule === 'below_min_order_value' ? `The ${side} leg would be worth ${sized.mul(p!).toFixed()} USD, below the minimum ${market.min_order_value}` : `The ${side} leg would be worth more than the maximum ${market.max_notional}`;
    }
  }
  return { errors, buyValue: valueAt(prices.buy), sellValue: valueAt(prices.sell), ok: Object.keys(errors).length === 0 };
}
