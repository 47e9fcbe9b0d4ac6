/**
 * A bracket (spec, "Bracket orders"): an opening MARKET or LIMIT entry plus whole-position TP and/or SL
 * legs in the same batch, each a reduce-only TRIGGER of size 0 on the opposite side naming the entry's
 * client_order_id. The legs wait in PENDING_PARENT and arm once the entry's fill settles into a position.
 */
import { BracketIntentSchema, type BracketIntent } from '../../../../shared/orders/intents.js';
import { bracketLegInputs } from '../brackets.js';
import { newClientOrderId, type LegInput } from '../buildOrder.js';
import type { OrderStrategy } from './strategy.js';

export const bracketStrategy: OrderStrategy<BracketIntent> = {
  kind: 'bracket',
  schema: BracketIntentSchema,
  expand(intent, env) {
    const entry: LegInput = {
      market: intent.market,
      side: intent.side,
      size: intent.size,
      order_type: intent.order_type,
      reduce_only: false,
      leverage: intent.leverage ?? env.defaultLeverage,
      client_order_id: newClientOrderId(),
    };
    if (intent.limit_price !== undefined) entry.limit_price = intent.limit_price;
    if (intent.time_in_force !== undefined) entry.time_in_force = intent.time_in_force;
    const slippage = intent.slippage_bps ?? env.defaultSlippageBps;
    if (slippage !== null) entry.slippage_bps = slippage;
    const children = bracketLegInputs(
      { market: intent.market, side: intent.side, client_order_id: entry.client_order_id! },
      {
        ...(intent.tp ? { tp: intent.tp.trigger_price, ...(intent.tp.limit_price !== undefined ? { tpPrice: intent.tp.limit_price } : {}) } : {}),
        ...(intent.sl ? { sl: intent.sl.trigger_price, ...(intent.sl.limit_price !== undefined ? { slPrice: intent.sl.limit_price } : {}) } : {}),
        // An explicit --slippage-bps bounds every leg of this order; the market-order default does not
        // bound the stop-loss, which fires with the stop tolerance (prepareLegs).
        ...(intent.slippage_bps !== undefined ? { slippage_bps: intent.slippage_bps } : slippage !== null ? { tpSlippageBps: slippage } : {}),
      },
    );
    return { legs: [entry, ...children], labels: ['entry', ...children.map((c) => c.trigger!.tpsl.toLowerCase())] };
  },
};
