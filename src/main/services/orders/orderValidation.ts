/**
 * Order rules checked against the LIVE market record (GET /markets), the venue mark and the account's
 * open orders BEFORE anything is signed. A violation is a ValidationError naming the field: no nonce is
 * taken, nothing is signed, nothing is sent. The service checks the same rules again (spec, "Orders"
 * rules 1-5, "Bracket orders", "Limits"); checking them here turns a rejected leg into a message the
 * user can act on, and keeps rejected legs (and spent nonces) out of the account's history.
 *
 * Every limit comes from the market record: tick_size, px_decimals, sz_decimals, min_order_value
 * (reduce-only exempt), max_notional ('0' = no ceiling), max_open_orders, max_leverage, is_active.
 */
import { Decimal, decimalPlaces, isMultipleOf } from '../../../shared/decimal/index.js';
import type { Market, Side, SubmittableOrderType, TimeInForce, Trigger, Tpsl } from '../../../shared/protocol/index.js';
import { MAX_LEGS_PER_BATCH } from '../../../shared/protocol/index.js';
import { ValidationError } from '../errors.js';

/** One leg exactly as it will be sent, minus nonce and signature. */
export interface UnsignedLeg {
  market: string;
  side: Side;
  size: string;
  limit_price: string;
  /** Always explicit: the signed orderType is MARKET when omitted, and explicit is unambiguous. */
  order_type: SubmittableOrderType;
  /** Omitted on TRIGGER (the signed value is IOC). */
  time_in_force?: TimeInForce;
  reduce_only: boolean;
  leverage?: number;
  client_order_id: string;
  trigger?: Trigger;
  parent_client_order_id?: string;
}

/** What the rules are checked against. */
export interface ValidationEnv {
  /** Every market the service lists, by symbol. */
  markets: ReadonlyMap<string, Market>;
  /** Venue marks of the markets that need one (MARKET entries as bracket references, armed triggers). */
  marks: ReadonlyMap<string, Decimal>;
  /** Orders already counting toward max_open_orders, per market (absent: not checked). */
  openOrderCounts?: ReadonlyMap<string, number>;
  /** Markets where the account has an armed reduce-only trigger (absent: not checked). */
  armedReduceOnlyTriggerMarkets?: ReadonlySet<string>;
}

export const CAP_COUNTED_TIF: readonly TimeInForce[] = ['GTC', 'ALO'];

/** Resting limits, triggers and bracket legs count toward max_open_orders; MARKET and IOC legs never rest. */
export function legCountsTowardCap(leg: Pick<UnsignedLeg, 'order_type' | 'time_in_force'>): boolean {
  return leg.order_type === 'TRIGGER' || (leg.order_type === 'LIMIT' && leg.time_in_force !== 'IOC');
}

/**
 * Which way the mark moves to fire a trigger: a SELL closes a long (TP fires as the mark rises, SL as it
 * falls); a BUY closes a short (TP as it falls, SL as it rises).
 */
export function triggerFiresUp(side: Side, tpsl: Tpsl): boolean {
  return side === 'SELL' ? tpsl === 'TP' : tpsl === 'SL';
}

/** True when the mark is at or past the trigger price on the fire side: it would fire at once. */
export function triggerAlreadyPast(side: Side, tpsl: Tpsl, triggerPrice: Decimal, mark: Decimal): boolean {
  return triggerFiresUp(side, tpsl) ? mark.gte(triggerPrice) : mark.lte(triggerPrice);
}

function fail(label: string, field: string, message: string, hint?: string): never {
  throw new ValidationError(message, { field: `${label}.${field}`, ...(hint ? { hint } : {}) });
}

/** Price and size rules of the market grid, shared with modify. */
export function checkPriceAndSize(
  market: Market,
  p: { size: string; limit_price: string; reduce_only: boolean; wholePosition: boolean; trigger_price?: string },
  label: string,
): void {
  const size = new Decimal(p.size);
  if (size.isNeg()) fail(label, 'size', 'must not be negative');
  if (size.isZero() && !p.wholePosition) fail(label, 'size', 'must be greater than 0 ("0" is only for a reduce-only TP/SL trigger closing the whole position)');
  if (decimalPlaces(size) > market.sz_decimals) fail(label, 'size', `${p.size} has more than ${market.sz_decimals} decimal places (sz_decimals of ${market.symbol})`);
  const price = new Decimal(p.limit_price);
  if (price.lte(0)) fail(label, 'limit_price', 'must be greater than 0');
  // tick_size binds harder than px_decimals: an off-tick price is refused even within px_decimals.
  if (!isMultipleOf(price, market.tick_size)) fail(label, 'limit_price', `${p.limit_price} is not a multiple of ${market.symbol}'s tick_size ${market.tick_size}`);
  if (decimalPlaces(price) > market.px_decimals) fail(label, 'limit_price', `${p.limit_price} has more than ${market.px_decimals} decimal places (px_decimals of ${market.symbol})`);
  if (p.trigger_price !== undefined) {
    const tp = new Decimal(p.trigger_price);
    if (tp.lte(0)) fail(label, 'trigger_price', 'must be greater than 0');
    if (decimalPlaces(tp) > market.px_decimals) fail(label, 'trigger_price', `${p.trigger_price} has more than ${market.px_decimals} decimal places (px_decimals of ${market.symbol})`);
  }
  if (!size.isZero()) {
    // Values are already on the grids here, so this is the notional "after rounding" the spec means.
    const notional = size.mul(price);
    if (!p.reduce_only && notional.lt(market.min_order_value)) {
      fail(label, 'size', `order value ${notional.toFixed()} (size x limit_price) is below ${market.symbol}'s min_order_value ${market.min_order_value}`, 'Increase the size; only reduce-only orders are exempt.');
    }
    const max = new Decimal(market.max_notional);
    // '0' is the no-ceiling sentinel, never a zero cap.
    if (!max.isZero() && notional.gt(max)) fail(label, 'size', `order value ${notional.toFixed()} is above ${market.symbol}'s max_notional ${market.max_notional}`);
  }
}

/** A trigger's fire price must be on the executing side of its threshold (spec, Position lifecycle rule 6). */
function checkFireSide(leg: UnsignedLeg, label: string): void {
  if (!leg.trigger) return;
  const fire = new Decimal(leg.limit_price);
  const threshold = new Decimal(leg.trigger.trigger_price);
  if (leg.side === 'SELL' && fire.gt(threshold)) fail(label, 'limit_price', `a SELL trigger's fire price ${leg.limit_price} must not be above its trigger price ${leg.trigger.trigger_price}`, 'It would never execute once fired.');
  if (leg.side === 'BUY' && fire.lt(threshold)) fail(label, 'limit_price', `a BUY trigger's fire price ${leg.limit_price} must not be below its trigger price ${leg.trigger.trigger_price}`, 'It would never execute once fired.');
}

/**
 * Rules of one leg. `attached` legs (bracket TP/SL) wait for their entry and are not armed yet, so the
 * past-the-mark rule does not apply to them; their levels are checked against the entry's reference.
 */
export function validateLeg(leg: UnsignedLeg, env: ValidationEnv, label: string, attached: boolean): Market {
  const market = env.markets.get(leg.market);
  if (!market) fail(label, 'market', `unknown market '${leg.market}'`, `Markets: ${[...env.markets.values()].filter((m) => m.is_active).map((m) => m.symbol).join(', ')}.`);
  if (!market.is_active) fail(label, 'market', `market '${leg.market}' is not active`, 'The service has disabled this market.');
  if (leg.order_type === 'MARKET' && leg.time_in_force !== 'IOC') {
    fail(label, 'time_in_force', `a MARKET order must be IOC (market_order_must_be_ioc), got ${leg.time_in_force ?? 'none'}`, leg.time_in_force === 'ALO' ? 'Post-only (ALO) exists only on LIMIT orders.' : undefined);
  }
  if (leg.time_in_force === 'ALO' && leg.order_type !== 'LIMIT') fail(label, 'time_in_force', 'post-only (ALO) is allowed only on LIMIT orders');
  if (leg.order_type === 'LIMIT' && leg.time_in_force === undefined) fail(label, 'time_in_force', 'is required on a LIMIT order (GTC, IOC or ALO)');
  if (leg.order_type === 'TRIGGER') {
    if (!leg.trigger) fail(label, 'trigger', 'a TRIGGER order needs trigger_price and tpsl');
    if (leg.time_in_force !== undefined) fail(label, 'time_in_force', "is omitted on a TRIGGER order (its time in force derives from is_market; it can't be post-only)");
    if (leg.trigger.is_market !== true) fail(label, 'trigger.is_market', 'only market triggers (is_market: true) are supported');
  } else if (leg.trigger) {
    fail(label, 'trigger', 'only TRIGGER orders carry a trigger');
  }
  if (leg.leverage !== undefined) {
    if (!Number.isInteger(leg.leverage) || leg.leverage < 1 || leg.leverage > market.max_leverage) {
      fail(label, 'leverage', `must be an integer from 1 to ${market.max_leverage} (max_leverage of ${market.symbol}), got ${String(leg.leverage)}`);
    }
  }
  const wholePosition = leg.order_type === 'TRIGGER' && leg.reduce_only && leg.size === '0';
  checkPriceAndSize(
    market,
    { size: leg.size, limit_price: leg.limit_price, reduce_only: leg.reduce_only, wholePosition, ...(leg.trigger ? { trigger_price: leg.trigger.trigger_price } : {}) },
    label,
  );
  checkFireSide(leg, label);
  if (leg.trigger && !attached) {
    const mark = env.marks.get(market.symbol);
    if (!mark) throw new Error(`internal: no mark read for ${market.symbol}`);
    if (triggerAlreadyPast(leg.side, leg.trigger.tpsl, new Decimal(leg.trigger.trigger_price), mark)) {
      const up = triggerFiresUp(leg.side, leg.trigger.tpsl);
      fail(label, 'trigger_price', `${leg.trigger.trigger_price} is already ${up ? 'at or below' : 'at or above'} the mark ${mark.toFixed()}: this ${leg.side} ${leg.trigger.tpsl} fires as the mark ${up ? 'rises to' : 'falls to'} it`, `Set a trigger price ${up ? 'above' : 'below'} the current mark.`);
    }
  }
  if (leg.reduce_only && leg.order_type !== 'TRIGGER' && env.armedReduceOnlyTriggerMarkets?.has(market.symbol)) {
    fail(label, 'reduce_only', `${market.symbol} has an armed reduce-only trigger; a reduce-only order would be rejected (close_trigger_coexistence)`, 'Cancel the TP/SL triggers first, or use `perps position close`, which does it for you.');
  }
  return market;
}

/** Long TP above / SL below the reference; short the other way (spec, "Bracket orders"). */
export function bracketWrongSide(entrySide: Side, reference: Decimal, tpsl: Tpsl, triggerPrice: Decimal): boolean {
  const long = entrySide === 'BUY';
  if (tpsl === 'TP') return !(long ? triggerPrice.gt(reference) : triggerPrice.lt(reference));
  return !(long ? triggerPrice.lt(reference) : triggerPrice.gt(reference));
}

/** Every rule of a batch: size, uniqueness, bracket shape and sides, each leg, then max_open_orders. */
export function validateBatch(legs: readonly UnsignedLeg[], env: ValidationEnv, labels?: readonly string[]): void {
  const labelOf = (i: number): string => labels?.[i] ?? `orders[${i}]`;
  if (legs.length < 1 || legs.length > MAX_LEGS_PER_BATCH) {
    throw new ValidationError(`a batch holds 1 to ${MAX_LEGS_PER_BATCH} legs, got ${legs.length}`, { field: 'orders', hint: 'Split larger batches.' });
  }
  const byCloid = new Map<string, number>();
  legs.forEach((leg, i) => {
    if (leg.client_order_id.length === 0) fail(labelOf(i), 'client_order_id', 'must not be empty');
    const dup = byCloid.get(leg.client_order_id);
    if (dup !== undefined) fail(labelOf(i), 'client_order_id', `'${leg.client_order_id}' is also used by ${labelOf(dup)}; ids must be unique in a batch`);
    byCloid.set(leg.client_order_id, i);
  });

  // Bracket groups: entry index -> attached leg indexes.
  const children = new Map<number, number[]>();
  legs.forEach((leg, i) => {
    if (leg.parent_client_order_id === undefined) return;
    const label = labelOf(i);
    const p = byCloid.get(leg.parent_client_order_id);
    if (p === undefined || p === i) fail(label, 'parent_client_order_id', `'${leg.parent_client_order_id}' names no other leg of this batch`);
    const entry = legs[p]!;
    if (entry.parent_client_order_id !== undefined) fail(label, 'parent_client_order_id', `'${leg.parent_client_order_id}' is itself an attached leg, not an entry`);
    if (leg.order_type !== 'TRIGGER' || !leg.trigger) fail(label, 'order_type', 'an attached TP/SL leg must be a TRIGGER');
    if (!leg.reduce_only) fail(label, 'reduce_only', 'an attached TP/SL leg must be reduce-only');
    if (leg.size !== '0') fail(label, 'size', 'an attached TP/SL leg must have size "0" (it closes the whole position)');
    const list = children.get(p) ?? [];
    list.push(i);
    children.set(p, list);
  });
  for (const [p, kids] of children) {
    const entry = legs[p]!;
    const entryLabel = labelOf(p);
    if (entry.reduce_only) fail(entryLabel, 'reduce_only', 'a bracket entry must open a position (not reduce-only)');
    if (entry.order_type !== 'MARKET' && entry.order_type !== 'LIMIT') fail(entryLabel, 'order_type', 'a bracket entry must be a MARKET or LIMIT order');
    const seen = new Set<Tpsl>();
    const reference = entry.order_type === 'LIMIT' ? new Decimal(entry.limit_price) : env.marks.get(entry.market);
    if (!reference) throw new Error(`internal: no mark read for ${entry.market}`);
    for (const k of kids) {
      const leg = legs[k]!;
      const label = labelOf(k);
      const tpsl = leg.trigger!.tpsl;
      if (seen.has(tpsl)) fail(label, 'trigger.tpsl', `an entry takes at most one ${tpsl} leg`);
      seen.add(tpsl);
      if (leg.market !== entry.market) fail(label, 'market', `must be the entry's market ${entry.market}`);
      if (leg.side === entry.side) fail(label, 'side', `must be opposite to the entry's side ${entry.side}`);
      if (bracketWrongSide(entry.side, reference, tpsl, new Decimal(leg.trigger!.trigger_price))) {
        const long = entry.side === 'BUY';
        const above = (tpsl === 'TP') === long;
        const what = entry.order_type === 'LIMIT' ? `the entry's limit price ${entry.limit_price}` : `the current mark ${reference.toFixed()}`;
        fail(label, 'trigger_price', `a ${long ? 'long' : 'short'} bracket's ${tpsl} at ${leg.trigger!.trigger_price} must be ${above ? 'above' : 'below'} ${what} (bracket_${tpsl.toLowerCase()}_wrong_side)`);
      }
    }
  }

  const attached = new Set<number>([...children.values()].flat());
  const markets = new Map<string, Market>();
  legs.forEach((leg, i) => markets.set(leg.market, validateLeg(leg, env, labelOf(i), attached.has(i))));

  if (env.openOrderCounts) {
    const adding = new Map<string, number>();
    for (const leg of legs) if (legCountsTowardCap(leg)) adding.set(leg.market, (adding.get(leg.market) ?? 0) + 1);
    for (const [symbol, n] of adding) {
      const market = markets.get(symbol)!;
      const existing = env.openOrderCounts.get(symbol) ?? 0;
      if (existing + n > market.max_open_orders) {
        throw new ValidationError(
          `${symbol} allows ${market.max_open_orders} open orders per account (resting orders, armed triggers and TP/SL legs awaiting their entry); ${existing} are open and this adds ${n}`,
          { field: 'max_open_orders', hint: `Cancel some open orders on ${symbol} first (\`perps orders open --market ${symbol}\`).` },
        );
      }
    }
  }
}
