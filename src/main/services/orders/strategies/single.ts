/** One MARKET, LIMIT or TRIGGER order. */
import { SingleIntentSchema, type SingleIntent } from '../../../../shared/orders/intents.js';
import type { LegInput } from '../buildOrder.js';
import { newClientOrderId } from '../buildOrder.js';
import type { OrderStrategy } from './strategy.js';

export const singleStrategy: OrderStrategy<SingleIntent> = {
  kind: 'single',
  schema: SingleIntentSchema,
  expand(intent, env) {
    const leg: LegInput = {
      market: intent.market,
      side: intent.side,
      size: intent.size,
      order_type: intent.order_type,
      reduce_only: intent.reduce_only ?? false,
      client_order_id: newClientOrderId(),
    };
    if (intent.limit_price !== undefined) leg.limit_price = intent.limit_price;
    if (intent.time_in_force !== undefined) leg.time_in_force = intent.time_in_force;
    // The market-order default does not bound a stop-loss: it fires with the stop tolerance (prepareLegs).
    const slippage = intent.slippage_bps ?? (intent.trigger?.tpsl === 'SL' ? null : env.defaultSlippageBps);
    if (slippage !== null) leg.slippage_bps = slippage;
    if (intent.trigger) leg.trigger = { trigger_price: intent.trigger.trigger_price, tpsl: intent.trigger.tpsl, is_market: true };
    // Leverage only matters where margin is posted; a reduce-only leg signs none (0) rather than a number
    // that would suggest it opens anything.
    const leverage = intent.leverage ?? (leg.reduce_only ? undefined : env.defaultLeverage);
    if (leverage !== undefined) leg.leverage = leverage;
    return { legs: [leg], labels: ['order'] };
  },
};
