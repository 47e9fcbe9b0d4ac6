/**
 * `perps order place` flags as an order intent (src/shared/orders/intents.ts): a single MARKET, LIMIT or
 * TRIGGER order, or a bracket when --tp/--sl are given. Flag combinations that cannot mean anything are
 * refused here (exit 2) with the flag named (--price on a market order is PRICE_NEEDS_LIMIT: a typed price
 * is never sent as a market order's bound); the values themselves are checked by the prepare step against
 * the live market, exactly as for the app's ticket. A missing --leverage is left out on purpose: the
 * prepare step fills in the user's default (settings), the same one the app's ticket uses.
 */
import type { OrderIntent } from '../../shared/orders/intents.js';
import { ValidationError } from '../../main/services/errors.js';
import { parseIntegerOption } from '../parse.js';

export interface PlaceFlags {
  market: string;
  side: string;
  size: string;
  /** Size in USD instead of --size (resolved against the live market before the intent is built). */
  usd?: string;
  type?: string;
  price?: string;
  tif?: string;
  reduceOnly?: boolean;
  leverage?: string;
  triggerPrice?: string;
  tpsl?: string;
  tp?: string;
  sl?: string;
  slippageBps?: string;
}

function upperEnum<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const v = value.toUpperCase();
  if (!(allowed as readonly string[]).includes(v)) throw new ValidationError(`'${value}' is not one of ${allowed.map((a) => a.toLowerCase()).join(', ')}`, { field: flag });
  return v as T;
}

export function placeIntent(opts: PlaceFlags): OrderIntent {
  // Without --type: a trigger when a trigger price is given, else the spec's default, MARKET.
  const type = upperEnum(opts.type ?? (opts.triggerPrice !== undefined ? 'trigger' : 'market'), ['MARKET', 'LIMIT', 'TRIGGER'] as const, 'type');
  const side = upperEnum(opts.side, ['BUY', 'SELL'] as const, 'side');
  if (type === 'TRIGGER') {
    if (opts.triggerPrice === undefined) throw new ValidationError('a trigger order needs --trigger-price', { field: 'trigger-price' });
    if (opts.tpsl === undefined) throw new ValidationError('a trigger order needs --tpsl tp|sl', { field: 'tpsl' });
    if (opts.tif !== undefined) throw new ValidationError("a trigger order takes no --tif (its time in force derives from is_market; it can't be post-only)", { field: 'tif' });
  } else if (opts.triggerPrice !== undefined || opts.tpsl !== undefined) {
    throw new ValidationError('--trigger-price and --tpsl belong to --type trigger', { field: opts.triggerPrice !== undefined ? 'trigger-price' : 'tpsl' });
  }
  if (type === 'LIMIT' && opts.price === undefined) throw new ValidationError('a limit order needs --price', { field: 'price' });
  // A typed price is never sent as a market order's bound: "--price 90000" without --type meant a limit
  // order far more often than a bound, and as a MARKET IOC it was cancelled unfilled.
  if (type === 'MARKET' && opts.price !== undefined) {
    throw new ValidationError(`a market order takes no --price (${opts.type === undefined ? 'market is the default --type' : '--type market'})`, {
      field: 'price',
      code: 'PRICE_NEEDS_LIMIT',
      hint: "Add --type limit to rest at that price, or leave --price out and set a market order's bound with --slippage-bps.",
    });
  }
  const bracket = opts.tp !== undefined || opts.sl !== undefined;
  if (bracket && type === 'TRIGGER') throw new ValidationError('--tp/--sl attach to a market or limit entry, not to a trigger', { field: opts.tp !== undefined ? 'tp' : 'sl' });
  if (bracket && opts.reduceOnly === true) throw new ValidationError('--tp/--sl attach to an opening entry, not to a reduce-only order', { field: 'reduce-only' });
  const leverage = parseIntegerOption(opts.leverage, 'leverage');
  const slippage = parseIntegerOption(opts.slippageBps, 'slippage-bps');
  const tif = opts.tif === undefined ? undefined : upperEnum(opts.tif, ['GTC', 'IOC', 'ALO'] as const, 'tif');
  const common = {
    market: opts.market,
    side,
    size: opts.size,
    ...(opts.price !== undefined ? { limit_price: opts.price } : {}),
    ...(tif !== undefined ? { time_in_force: tif } : {}),
    ...(leverage !== undefined ? { leverage } : {}),
    ...(slippage !== undefined ? { slippage_bps: slippage } : {}),
  };
  if (bracket) {
    return {
      kind: 'bracket',
      ...common,
      order_type: type === 'LIMIT' ? 'LIMIT' : 'MARKET',
      ...(opts.tp !== undefined ? { tp: { trigger_price: opts.tp } } : {}),
      ...(opts.sl !== undefined ? { sl: { trigger_price: opts.sl } } : {}),
    };
  }
  return {
    kind: 'single',
    ...common,
    order_type: type,
    ...(opts.reduceOnly === true ? { reduce_only: true } : {}),
    ...(type === 'TRIGGER' ? { trigger: { trigger_price: opts.triggerPrice!, tpsl: upperEnum(opts.tpsl!, ['TP', 'SL'] as const, 'tpsl') } } : {}),
  };
}
