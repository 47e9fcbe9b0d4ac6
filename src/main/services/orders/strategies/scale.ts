/**
 * A scale order: a ladder of LIMIT legs between two prices (src/shared/orders/scaleLadder.ts), sent as
 * one batch. The ladder math is shared with the renderer; this only turns its rungs into legs with the
 * order defaults (GTC, the user's leverage on an opening ladder).
 */
import { ScaleIntentSchema, type ScaleIntent } from '../../../../shared/orders/intents.js';
import { ScaleLadderError, scaleLadder } from '../../../../shared/orders/scaleLadder.js';
import { ValidationError } from '../../errors.js';
import { newClientOrderId, type LegInput } from '../buildOrder.js';
import type { OrderStrategy } from './strategy.js';

export const scaleStrategy: OrderStrategy<ScaleIntent> = {
  kind: 'scale',
  schema: ScaleIntentSchema,
  expand(intent, env) {
    let rungs;
    try {
      rungs = scaleLadder(env.market, {
        side: intent.side,
        from: intent.from_price,
        to: intent.to_price,
        count: intent.count,
        totalSize: intent.total_size,
        ...(intent.skew !== undefined ? { skew: intent.skew } : {}),
        reduceOnly: intent.reduce_only === true,
      });
    } catch (err) {
      if (err instanceof ScaleLadderError) throw new ValidationError(err.message, { field: err.field, code: err.errorCode, ...(err.errorHint ? { hint: err.errorHint } : {}), cause: err });
      throw err;
    }
    const reduceOnly = intent.reduce_only ?? false;
    // As on a single order: an opening ladder signs the user's default leverage, a reduce-only one none.
    const leverage = intent.leverage ?? (reduceOnly ? undefined : env.defaultLeverage);
    const legs: LegInput[] = rungs.map((r) => ({
      market: intent.market,
      side: intent.side,
      size: r.size,
      order_type: 'LIMIT',
      limit_price: r.price,
      time_in_force: intent.time_in_force ?? 'GTC',
      reduce_only: reduceOnly,
      client_order_id: newClientOrderId(),
      ...(leverage !== undefined ? { leverage } : {}),
    }));
    return { legs, labels: rungs.map((r) => `scale ${r.index + 1}/${rungs.length}`) };
  },
};
