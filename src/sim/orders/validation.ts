/**
 * POST /orders checks, in the spec's stages:
 *
 * 1. Validation (400 INVALID_REQUEST for the whole request, message names the field): the shared
 *    PlaceOrdersBodySchema (1..20 legs, canonical decimals, client_order_id present, known enums;
 *    LIQUIDATION / ORPHAN_LIQUIDATION are refused as order_type), then the cross-field rules:
 *    time_in_force required on MARKET and LIMIT, `trigger` required on TRIGGER and refused elsewhere,
 *    client_order_id unique in the batch, parent_client_order_id naming another leg of the batch, and an
 *    attached leg being a reduce-only TRIGGER with size '0'.
 * 2. Signatures (403) and nonces (409): see place.ts.
 * 3. Business rules, per leg (200, leg REJECTED with a reason): legReason() below, then bracket groups
 *    and max_open_orders in place.ts.
 */
import type { z } from 'zod';
import { decimalPlaces, isMultipleOf } from '../../shared/decimal/index.js';
import { PlaceOrdersBodySchema, type OrderLeg } from '../../shared/protocol/index.js';
import { d, type Decimal } from '../core/numbers.js';
import { invalidRequest } from '../core/response.js';
import { parseOr400 } from '../core/validate.js';
import type { MarketInfo } from '../config/markets.js';
import type { SimContext } from '../context.js';
import { isArmedTrigger, triggerCrossed } from './model.js';

export type PlaceOrdersBody = z.infer<typeof PlaceOrdersBodySchema>;

export function validatePlaceOrders(raw: unknown): PlaceOrdersBody {
  const body = parseOr400(PlaceOrdersBodySchema, raw);
  const byCloid = new Map<string, number>();
  body.orders.forEach((leg, i) => {
    const at = `orders[${i}]`;
    const type = leg.order_type ?? 'MARKET';
    if ((type === 'MARKET' || type === 'LIMIT') && leg.time_in_force === undefined) {
      throw invalidRequest(`${at}.time_in_force: is required for ${type} orders`);
    }
    if (type === 'TRIGGER' && leg.trigger === undefined) throw invalidRequest(`${at}.trigger: is required for TRIGGER orders`);
    if (type !== 'TRIGGER' && leg.trigger !== undefined) throw invalidRequest(`${at}.trigger: only TRIGGER orders carry a trigger`);
    const dup = byCloid.get(leg.client_order_id);
    if (dup !== undefined) throw invalidRequest(`${at}.client_order_id: duplicates orders[${dup}].client_order_id (${JSON.stringify(leg.client_order_id)})`);
    byCloid.set(leg.client_order_id, i);
  });
  body.orders.forEach((leg, i) => {
    if (leg.parent_client_order_id === undefined) return;
    const at = `orders[${i}]`;
    const parent = byCloid.get(leg.parent_client_order_id);
    if (parent === undefined || parent === i) {
      throw invalidRequest(`${at}.parent_client_order_id: ${JSON.stringify(leg.parent_client_order_id)} names no other leg of this batch`);
    }
    if (body.orders[parent]!.parent_client_order_id !== undefined) {
      throw invalidRequest(`${at}.parent_client_order_id: ${JSON.stringify(leg.parent_client_order_id)} is itself an attached leg, not an entry`);
    }
    if (leg.order_type !== 'TRIGGER') throw invalidRequest(`${at}.order_type: an attached TP/SL leg must be a TRIGGER`);
    if (leg.reduce_only !== true) throw invalidRequest(`${at}.reduce_only: an attached TP/SL leg must be reduce-only`);
    if (leg.size !== '0') throw invalidRequest(`${at}.size: an attached TP/SL leg must have size "0" (whole position)`);
  });
  return body;
}

/** Leg reasons (the spec names some; the rest are the sim's, documented in the report). */
export type LegReason =
  | 'unknown_market'
  | 'market_inactive'
  | 'market_order_must_be_ioc'
  | 'trigger_time_in_force_invalid'
  | 'trigger_limit_not_supported'
  | 'invalid_size'
  | 'size_too_many_decimals'
  | 'invalid_price'
  | 'price_off_tick'
  | 'price_too_many_decimals'
  | 'invalid_trigger_price'
  | 'trigger_price_too_many_decimals'
  | 'min_order_value'
  | 'max_notional'
  | 'trigger_past_mark'
  | 'close_trigger_coexistence'
  | 'max_open_orders';

/** Price and size rules shared by POST /orders and modify. */
export function priceSizeReason(
  market: MarketInfo,
  p: { size: string; limit_price: string; reduce_only: boolean; whole_position: boolean; trigger_price: string | null },
): LegReason | null {
  const size = d(p.size);
  if (size.isZero() && !p.whole_position) return 'invalid_size';
  if (decimalPlaces(size) > market.config.sz_decimals) return 'size_too_many_decimals';
  const price = d(p.limit_price);
  if (price.isZero()) return 'invalid_price';
  // tick_size binds harder than px_decimals: an off-tick price is price_off_tick even within px_decimals.
  if (!isMultipleOf(price, market.tick)) return 'price_off_tick';
  if (decimalPlaces(price) > market.config.px_decimals) return 'price_too_many_decimals';
  if (p.trigger_price !== null) {
    const tp = d(p.trigger_price);
    if (tp.isZero()) return 'invalid_trigger_price';
    if (decimalPlaces(tp) > market.config.px_decimals) return 'trigger_price_too_many_decimals';
  }
  if (!size.isZero()) {
    const notional = size.mul(price);
    // Values arrive already on the tick and size grids, so "after rounding" is the value as sent.
    if (!p.reduce_only && notional.lt(market.minOrderValue)) return 'min_order_value';
    if (market.maxNotional && notional.gt(market.maxNotional)) return 'max_notional';
  }
  return null;
}

/** True when the wallet has an armed reduce-only trigger on the market. */
export function hasArmedReduceOnlyTrigger(ctx: SimContext, wallet: string, market: string): boolean {
  for (const o of ctx.store.liveOf(wallet)) if (o.market === market && o.reduce_only && isArmedTrigger(o)) return true;
  return false;
}

export function currentMark(ctx: SimContext, market: MarketInfo): Decimal {
  return d(ctx.venue.getMark(market.venueSymbol));
}

/**
 * Per-leg business rules (everything but bracket groups and max_open_orders). `attached` legs wait for
 * their entry and are not armed, so the past-the-mark rule does not apply to them at submit.
 */
export function legReason(ctx: SimContext, wallet: string, leg: OrderLeg, attached: boolean): LegReason | null {
  const market = ctx.markets.get(leg.market);
  if (!market) return 'unknown_market';
  if (!market.config.is_active) return 'market_inactive';
  const type = leg.order_type ?? 'MARKET';
  if (type === 'MARKET' && leg.time_in_force !== 'IOC') return 'market_order_must_be_ioc';
  if (type === 'TRIGGER') {
    // A trigger's time in force derives from is_market (it signs IOC); it cannot be GTC or post-only.
    if (leg.time_in_force !== undefined && leg.time_in_force !== 'IOC') return 'trigger_time_in_force_invalid';
    if (!leg.trigger!.is_market) return 'trigger_limit_not_supported';
  }
  const reduceOnly = leg.reduce_only ?? false;
  const wholePosition = type === 'TRIGGER' && reduceOnly && leg.size === '0';
  const r = priceSizeReason(market, {
    size: leg.size,
    limit_price: leg.limit_price,
    reduce_only: reduceOnly,
    whole_position: wholePosition,
    trigger_price: leg.trigger?.trigger_price ?? null,
  });
  if (r) return r;
  if (type === 'TRIGGER' && !attached && triggerCrossed(leg.side, leg.trigger!, currentMark(ctx, market))) return 'trigger_past_mark';
  // Closing orders are blocked while an armed reduce-only trigger protects the position (exit: cancel triggers first).
  if (reduceOnly && type !== 'TRIGGER' && hasArmedReduceOnlyTrigger(ctx, wallet, market.symbol)) return 'close_trigger_coexistence';
  return null;
}
