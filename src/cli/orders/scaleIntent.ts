/**
 * `perps order scale` flags as a scale intent (src/shared/orders/intents.ts). Only the shape is checked
 * here (exit 2, the flag named); the ladder itself (ticks, sizes, min_order_value) is built and checked by
 * the scale strategy against the live market, exactly as for the app's ticket.
 */
import type { ScaleIntent } from '../../shared/orders/intents.js';
import { ValidationError } from '../../main/services/errors.js';
import { parseDecimalOption, parseIntegerOption } from '../parse.js';

export interface ScaleFlags {
  market: string;
  side: string;
  from: string;
  to: string;
  count: string;
  totalSize: string;
  skew?: string;
  tif?: string;
  reduceOnly?: boolean;
  leverage?: string;
}

export function scaleIntent(opts: ScaleFlags): ScaleIntent {
  const side = opts.side.toUpperCase();
  if (side !== 'BUY' && side !== 'SELL') throw new ValidationError(`'${opts.side}' is not one of buy, sell`, { field: 'side' });
  const tif = opts.tif?.toUpperCase();
  if (tif !== undefined && tif !== 'GTC' && tif !== 'ALO') throw new ValidationError(`'${opts.tif}' is not one of gtc, alo (a ladder rests: ioc would not)`, { field: 'tif' });
  // The one decimal grammar, naming the flag: "1.", ".5" or "5 " is refused, never completed or trimmed.
  parseDecimalOption(opts.from, 'from');
  parseDecimalOption(opts.to, 'to');
  parseDecimalOption(opts.totalSize, 'total-size');
  if (opts.skew !== undefined) parseDecimalOption(opts.skew, 'skew');
  const count = parseIntegerOption(opts.count, 'count')!;
  const leverage = parseIntegerOption(opts.leverage, 'leverage');
  return {
    kind: 'scale',
    market: opts.market,
    side,
    from_price: opts.from,
    to_price: opts.to,
    count,
    total_size: opts.totalSize,
    ...(opts.skew !== undefined ? { skew: opts.skew } : {}),
    ...(tif !== undefined ? { time_in_force: tif } : {}),
    ...(opts.reduceOnly === true ? { reduce_only: true } : {}),
    ...(leverage !== undefined ? { leverage } : {}),
  };
}
