/**
 * The order ticket as data: its fields, the checks run before anything is signed, and the order intent
 * sent to orders:preview. Pure functions over decimal strings: the market rules, the MARKET bound and the
 * costs (src/shared/orders/orderCosts.ts: notional, fee kind, fee, initial margin against the open
 * position), the position the order would leave with its liquidation estimate
 * (src/shared/protocol/riskMath.ts) and the fat-finger guard (src/shared/orders/priceGuard.ts) are the
 * shared ones main's prepare step uses, so the ticket and the review show the same numbers.
 */
import type { ConfirmationCode, MarketView, OrderIntent } from '../../../../shared/ipc';
import { checkNotional, checkPrice, checkPricePlaces, checkSize } from '../../../../shared/protocol/marketRules';
import { feeRateOf, orderNotional } from '../../../../shared/protocol/tradingMath';
import { orderCosts, type CostedLeg } from '../../../../shared/orders/orderCosts';
import { crossesBeyondBound, exceedsNotionalCap, farPriceBound } from '../../../../shared/orders/priceGuard';
import { slippageBoundOf } from '../../../../shared/orders/slippageBound';
import { DEFAULT_STOP_TOLERANCE_BPS } from '../../../../shared/orders/stopTolerance';
import { applyFill, liquidationPrice, type PositionState } from '../../../../shared/protocol/riskMath';
import { Decimal, dec, isDecimalText, typedDecimal, type DecimalValue } from '../../lib/decimal';

export type Side = 'BUY' | 'SELL';
/** SCALE, TWAP, OCO and CHASE have their own fields and checks (scaleTicket.ts, twapTicket.ts, shared/algos/ocoLegs.ts, chaseTicket.ts); size, side, leverage and reduce-only are shared. */
export type OrderType = 'MARKET' | 'LIMIT' | 'TRIGGER' | 'SCALE' | 'TWAP' | 'OCO' | 'CHASE';
export type Tif = 'GTC' | 'IOC' | 'ALO';
export type Tpsl = 'TP' | 'SL';

export interface TicketState {
  side: Side;
  type: OrderType;
  size: string;
  /** LIMIT: the limit price. TRIGGER: the fire price (optional; main derives it from the trigger price). */
  price: string;
  tif: Tif;
  reduceOnly: boolean;
  leverage: number;
  triggerPrice: string;
  tpsl: Tpsl;
  /** TRIGGER + reduce-only: size 0, close the whole position when it fires. */
  closeWhole: boolean;
  bracket: boolean;
  tp: string;
  sl: string;
}

export const initialTicket = (leverage: number): TicketState => ({
  side: 'BUY',
  type: 'LIMIT',
  size: '',
  price: '',
  tif: 'GTC',
  reduceOnly: false,
  leverage,
  triggerPrice: '',
  tpsl: 'SL',
  closeWhole: false,
  bracket: false,
  tp: '',
  sl: '',
});

/**
 * The ticket with `price` as its Limit price: a trigger ticket turns into a Limit one (as choosing Limit in
 * the ticket does: closeWhole off, reduce-only kept); everything else the user set stays.
 */
export function withLimitPrice(t: TicketState, price: string): TicketState {
  return { ...t, type: 'LIMIT', price, closeWhole: false };
}

/**
 * The ticket after an order from it was placed: size and the TP/SL levels cleared (a trigger ticket's
 * trigger price too, and the bracket switched off), so a second click cannot place the same order or
 * bracket again; market, side, type, time in force, reduce-only, leverage and a limit price stay for the
 * next order.
 */
export function afterPlaced(t: TicketState): TicketState {
  return { ...t, size: '', tp: '', sl: '', bracket: false, triggerPrice: '', ...(t.type === 'TRIGGER' ? { price: '' } : {}) };
}

export type FieldKey = 'size' | 'price' | 'triggerPrice' | 'tp' | 'sl' | 'leverage' | 'form';

export interface TicketCheck {
  errors: Partial<Record<FieldKey, string>>;
  warnings: Partial<Record<FieldKey, string>>;
  /** The price the notional and the bracket sides are judged against. */
  reference: DecimalValue | null;
  referenceLabel: string;
  notional: DecimalValue | null;
  /** The price the leg is sent with: the limit price, a MARKET leg's bound (its worst price), a trigger's fire price. */
  sentPrice: DecimalValue | null;
  feeKind: 'maker' | 'taker';
  feeRate: DecimalValue | null;
  fee: DecimalValue | null;
  margin: DecimalValue | null;
  /**
   * The position the order would leave once it fills (an estimate, as the review's position_after): size,
   * entry, margin and liquidation estimate; null when it leaves the market flat; undefined when the
   * ticket cannot tell yet (no size or price).
   */
  positionAfter: TicketPositionAfter | null | undefined;
  /**
   * The fat-finger guards the order will trip (the review then asks the person to confirm each), worded
   * for the ticket: a price far past the mark, a notional above the user's cap.
   */
  guards: { code: ConfirmationCode; message: string }[];
  /** Nothing blocks a preview. */
  ok: boolean;
}

export interface TicketPositionAfter extends PositionState {
  liquidation_price: DecimalValue | null;
}

/** A typed price or size by the one decimal grammar (src/shared), above 0; null otherwise. */
function positive(s: string): DecimalValue | null {
  const d = typedDecimal(s);
  return d && d.gt(0) ? d : null;
}

/**
 * A limit (or fire) price takes the tick rule; a trigger threshold or bracket level only px_decimals, as
 * the spec puts the tick on limit_price alone (the checks main and the service make).
 */
function priceRule(market: MarketView, value: string, field: 'limit_price' | 'trigger_price'): string | undefined {
  const v = field === 'limit_price' ? checkPrice(market, value.trim(), field) : checkPricePlaces(market, value.trim(), field);
  if (!v) return undefined;
  return v.rule === 'price_off_tick' ? `Not a multiple of the tick size ${market.tick_size}` : `At most ${market.px_decimals} decimal places`;
}

/** An open position as the ticket knows it: its signed size, and its entry and margin when known. */
export interface TicketPosition {
  market: string;
  size: string;
  entry_price?: string;
  isolated_margin?: string;
}

export interface TicketContext {
  /**
   * The open positions (signed sizes): an order against one first closes it and posts no margin for that
   * part. With their entry and isolated margin, the ticket also shows the position the order leaves.
   */
  positions?: readonly TicketPosition[];
  /** The slippage tolerance main will use (the user's default); null or absent: the market's slippage_bps. */
  slippageBps?: number | null;
  /** The user's fat-finger cap on an order's notional (setting max_order_notional); null or absent: off. */
  maxOrderNotional?: string | null;
  /** The stop tolerance of this market (settings; default 10%): a stop-loss trigger's fire price. */
  stopToleranceBps?: number;
}

/**
 * The position after this order fills, as main's review estimates it (services/orders/positionAfter.ts): a
 * LIMIT at its price, a MARKET at the mark, a trigger at its fire price (size 0 closes what is open).
 * Attached TP/SL legs act later and are left out. Undefined when the current position is known only by
 * size (its entry and margin are needed).
 */
function positionAfterOrder(
  current: TicketPosition | undefined,
  fill: { side: Side; size: DecimalValue; price: DecimalValue; leverage: number; reduceOnly: boolean },
  market: MarketView,
): TicketPositionAfter | null | undefined {
  let state: PositionState | null = null;
  if (current && !new Decimal(current.size).isZero()) {
    if (current.entry_price === undefined || current.isolated_margin === undefined) return undefined;
    state = { size: new Decimal(current.size), entry_price: new Decimal(current.entry_price), isolated_margin: new Decimal(current.isolated_margin) };
  }
  const size = fill.size.isZero() ? (state?.size.abs() ?? new Decimal(0)) : fill.size;
  if (!size.isZero()) state = applyFill(state, { side: fill.side, size, price: fill.price, leverage: fill.leverage, reduce_only: fill.reduceOnly }, market);
  if (state === null) return null;
  return { ...state, liquidation_price: liquidationPrice(state, market.maintenance_margin_ratio) };
}

/** The MARKET bound (or default fire price) main will compute; an inexpressible one is a form error, as main refuses it. */
function boundOr(side: Side, reference: DecimalValue, bps: number, market: MarketView, errors: TicketCheck['errors']): DecimalValue | null {
  const r = slippageBoundOf(side, reference, bps, market.tick_size);
  if (r.ok) return r.bound;
  errors.form = `A ${bps} bps slippage bound around ${reference.toFixed()} does not fit the tick ${market.tick_size}; set a larger default slippage in Settings${side === 'BUY' ? '' : ' or give a fire price'}.`;
  return null;
}

/**
 * Every check the ticket can make before signing. `mark` is the live mark (null when unknown); `options`
 * what else main's prepare step takes into account (open positions, the slippage tolerance).
 */
export function checkTicket(t: TicketState, market: MarketView, mark: string | null, options: TicketContext = {}): TicketCheck {
  const errors: TicketCheck['errors'] = {};
  const warnings: TicketCheck['warnings'] = {};
  const m = dec(mark);
  const isTrigger = t.type === 'TRIGGER';
  const reduceOnly = t.reduceOnly || isTrigger;
  const sizeZeroOk = isTrigger && reduceOnly && t.closeWhole;

  // Size.
  let size: DecimalValue | null = null;
  if (sizeZeroOk) size = new Decimal(0);
  else if (t.size.trim() === '') errors.size = 'Enter a size';
  else if (!isDecimalText(t.size)) errors.size = 'Not a number (digits with one optional “.” between them, no spaces)';
  else if (!positive(t.size)) errors.size = 'Size must be greater than 0';
  else {
    const rule = checkSize(market, t.size.trim());
    if (rule) errors.size = `At most ${market.sz_decimals} decimal places`;
    else size = dec(t.size);
  }

  // Prices.
  let limit: DecimalValue | null = null;
  if (t.type === 'LIMIT') {
    if (t.price.trim() === '') errors.price = 'Enter a limit price';
    else if (!positive(t.price)) errors.price = 'Price must be greater than 0';
    else {
      const r = priceRule(market, t.price, 'limit_price');
      if (r) errors.price = r;
      else limit = dec(t.price);
    }
  }
  let trigger: DecimalValue | null = null;
  if (isTrigger) {
    if (t.triggerPrice.trim() === '') errors.triggerPrice = 'Enter a trigger price';
    else if (!positive(t.triggerPrice)) errors.triggerPrice = 'Trigger price must be greater than 0';
    else {
      const r = priceRule(market, t.triggerPrice, 'trigger_price');
      if (r) errors.triggerPrice = r;
      else trigger = dec(t.triggerPrice);
    }
    if (t.price.trim() !== '') {
      if (!positive(t.price)) errors.price = 'Fire price must be greater than 0';
      else {
        const r = priceRule(market, t.price, 'limit_price');
        if (r) errors.price = r;
      }
    }
    // A SELL trigger closes a long: TP fires above the mark, SL below. A BUY trigger closes a short: the reverse.
    if (trigger && m) {
      const tpAbove = t.side === 'SELL';
      const above = trigger.gt(m);
      const wantAbove = t.tpsl === 'TP' ? tpAbove : !tpAbove;
      if (trigger.eq(m) || above !== wantAbove) {
        warnings.triggerPrice = `A ${t.tpsl === 'TP' ? 'take-profit' : 'stop-loss'} ${t.side === 'SELL' ? 'sell' : 'buy'} trigger must be ${wantAbove ? 'above' : 'below'} the mark (${mark}); it would be rejected as already past the mark.`;
      }
    }
  }

  // Reference price for the bracket sides: the limit price for LIMIT, the mark for MARKET, the trigger for TRIGGER.
  const reference = t.type === 'LIMIT' ? limit : t.type === 'MARKET' ? m : trigger;
  const referenceLabel = t.type === 'LIMIT' ? 'limit price' : t.type === 'MARKET' ? 'mark' : 'trigger price';
  if (t.type === 'MARKET' && !m) errors.form = 'No mark price for this market yet; a market order needs one for its slippage bound.';

  // The leg as main will build it (a MARKET bound from the mark, a fire price from the trigger), costed by
  // the same function the review is: the ticket and the review show the same notional, fee and margin.
  // A stop-loss's fire price: the stop tolerance (default 10%), as main signs it; anything else the slippage.
  const bps = isTrigger && t.tpsl === 'SL' ? (options.stopToleranceBps ?? DEFAULT_STOP_TOLERANCE_BPS) : (options.slippageBps ?? market.slippage_bps);
  let legPrice: DecimalValue | null = null;
  if (t.type === 'LIMIT') legPrice = limit;
  else if (t.type === 'MARKET' && m) legPrice = boundOr(t.side, m, bps, market, errors);
  else if (isTrigger && trigger) legPrice = errors.price === undefined && t.price.trim() !== '' ? dec(t.price) : boundOr(t.side, trigger, bps, market, errors);

  let notional: DecimalValue | null = null;
  let fee: DecimalValue | null = null;
  let margin: DecimalValue | null = null;
  let positionAfter: TicketPositionAfter | null | undefined = undefined;
  const guards: TicketCheck['guards'] = [];
  let feeKind: 'maker' | 'taker' = t.type === 'LIMIT' ? 'maker' : 'taker';
  let feeRate: DecimalValue | null = feeRateOf(market, feeKind);
  if (size && legPrice) {
    const leg: CostedLeg = {
      market: market.symbol,
      side: t.side,
      size: size.toFixed(),
      limit_price: legPrice.toFixed(),
      order_type: t.type === 'TRIGGER' ? 'TRIGGER' : t.type === 'LIMIT' ? 'LIMIT' : 'MARKET',
      time_in_force: t.type === 'LIMIT' ? t.tif : t.type === 'MARKET' ? 'IOC' : undefined,
      reduce_only: reduceOnly,
      leverage: reduceOnly ? undefined : t.leverage,
      client_order_id: 'ticket',
    };
    const costs = orderCosts([leg], new Map([[market.symbol, market]]), m ? new Map([[market.symbol, m]]) : new Map(), options.positions ?? []);
    const cost = costs.legs[0]!;
    feeKind = cost.feeKind;
    feeRate = cost.feeRate;
    if (!cost.notional.isZero()) {
      notional = costs.notional;
      fee = costs.fees;
      margin = costs.margin;
    }
    const current = options.positions?.find((p) => p.market === market.symbol);
    const fillPrice = t.type === 'MARKET' && m ? m : legPrice;
    positionAfter = positionAfterOrder(current, { side: t.side, size, price: fillPrice, leverage: reduceOnly ? 0 : t.leverage, reduceOnly }, market);
    // The guards main's prepare step applies: the review will ask for each to be confirmed.
    // (A post-only limit is exempt: crossing, it is rejected rather than executed. The ticket sends no
    // explicit MARKET bound, and triggers are not guarded.)
    const guardedPrice = t.type === 'LIMIT' && t.tif !== 'ALO' ? limit : null;
    if (guardedPrice && m && crossesBeyondBound(t.side, guardedPrice, m, market.slippage_bps)) {
      const bound = farPriceBound(t.side, m, market.slippage_bps).toDecimalPlaces(market.px_decimals, t.side === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
      guards.push({ code: 'FAR_PRICE', message: `Far from the mark: a ${t.side === 'BUY' ? 'buy above' : 'sell below'} ${bound.toFixed()} executes at once at the book’s prices. The review asks you to confirm it.` });
    }
    const exposure = !reduceOnly ? costs.legs[0]!.notional : new Decimal(0);
    if (exceedsNotionalCap(exposure, options.maxOrderNotional ?? null)) {
      guards.push({ code: 'LARGE_ORDER', message: `Above your order-size cap of ${options.maxOrderNotional} USDC. The review asks you to confirm it.` });
    }
    // The market's order-value limits, at the price the leg is sent with (a MARKET leg's bound), as main checks them.
    if (!size.isZero()) {
      const rule = checkNotional(market, size.toFixed(), legPrice.toFixed(), reduceOnly);
      const value = orderNotional(size, legPrice);
      if (rule?.rule === 'below_min_order_value') errors.size = `Order value ${value.toFixed(2)} is below the minimum ${market.min_order_value}`;
      else if (rule?.rule === 'above_max_notional') errors.size = `Order value exceeds the maximum ${market.max_notional}`;
    }
  }

  if (t.type === 'LIMIT' && t.tif === 'ALO' && limit && m && (t.side === 'BUY' ? limit.gte(m) : limit.lte(m))) {
    warnings.price = `Post-only: this price crosses the mark (${mark}); the venue will reject it as post_only_would_take.`;
  }
  if (t.leverage < 1 || t.leverage > market.max_leverage) errors.leverage = `Leverage 1–${market.max_leverage}x`;

  // Bracket legs: opening MARKET or LIMIT entries only.
  if (t.bracket && !isTrigger && !t.reduceOnly) {
    if (t.tp.trim() === '' && t.sl.trim() === '') errors.tp = 'Enter a take-profit or a stop-loss price (or turn off TP/SL)';
    const long = t.side === 'BUY';
    for (const [key, kind] of [
      ['tp', 'TP'],
      ['sl', 'SL'],
    ] as const) {
      const raw = t[key].trim();
      if (raw === '') continue;
      const v = positive(t[key]);
      if (!v) {
        errors[key] = 'Must be a price greater than 0';
        continue;
      }
      const r = priceRule(market, raw, 'trigger_price');
      if (r) {
        errors[key] = r;
        continue;
      }
      if (!reference) continue;
      // Long: TP above the reference, SL below. Short: the reverse.
      const wantAbove = kind === 'TP' ? long : !long;
      if (v.eq(reference) || v.gt(reference) !== wantAbove) {
        warnings[key] = `Wrong side: a ${kind === 'TP' ? 'take-profit' : 'stop-loss'} for a ${long ? 'long' : 'short'} must be ${wantAbove ? 'above' : 'below'} the ${referenceLabel} (${reference.toFixed()}). The service rejects it as bracket_${kind.toLowerCase()}_wrong_side.`;
      }
    }
  }

  const ok = Object.values(errors).every((e) => !e);
  return { errors, warnings, reference, referenceLabel, notional, sentPrice: legPrice, feeKind, feeRate, fee, margin, positionAfter, guards, ok };
}

/** The order intent (orders:preview) for a checked ticket: a bracket when TP/SL levels are set, else a single order. */
export function toIntent(t: TicketState, market: MarketView, slippageBps: number | null): OrderIntent {
  const isTrigger = t.type === 'TRIGGER';
  const slippage = slippageBps !== null ? { slippage_bps: slippageBps } : {};
  if (t.bracket && !isTrigger && !t.reduceOnly && (t.tp.trim() || t.sl.trim())) {
    return {
      kind: 'bracket',
      market: market.symbol,
      side: t.side,
      order_type: t.type === 'LIMIT' ? 'LIMIT' : 'MARKET',
      size: t.size.trim(),
      leverage: t.leverage,
      // No slippage_bps: it would bind the stop-loss leg too. Main bounds the entry and the TP with the same
      // default, and the SL with the stop tolerance (issue 35).
      ...(t.type === 'LIMIT' ? { limit_price: t.price.trim(), time_in_force: t.tif } : { time_in_force: 'IOC' as const }),
      ...(t.tp.trim() ? { tp: { trigger_price: t.tp.trim() } } : {}),
      ...(t.sl.trim() ? { sl: { trigger_price: t.sl.trim() } } : {}),
    };
  }
  if (isTrigger) {
    return {
      kind: 'single',
      market: market.symbol,
      side: t.side,
      order_type: 'TRIGGER',
      size: t.closeWhole ? '0' : t.size.trim(),
      reduce_only: true,
      trigger: { trigger_price: t.triggerPrice.trim(), tpsl: t.tpsl },
      ...(t.price.trim() !== '' ? { limit_price: t.price.trim() } : {}),
      // A stop-loss fires with the stop tolerance main reads from the settings, not the market-order default.
      ...(t.tpsl === 'SL' ? {} : slippage),
    };
  }
  return {
    kind: 'single',
    market: market.symbol,
    side: t.side,
    // SCALE and TWAP tickets build their own intents (scaleTicket.ts, twapTicket.ts).
    order_type: t.type === 'LIMIT' ? 'LIMIT' : 'MARKET',
    size: t.size.trim(),
    leverage: t.leverage,
    ...(t.reduceOnly ? { reduce_only: true } : {}),
    ...(t.type === 'LIMIT' ? { limit_price: t.price.trim(), time_in_force: t.tif } : { time_in_force: 'IOC' as const, ...slippage }),
  };
}

/** The largest size the free balance supports at this leverage and price, rounded down to sz_decimals. */
export function maxSize(freeBalance: string | null | undefined, leverage: number, price: DecimalValue | null, market: MarketView): DecimalValue | null {
  const bal = dec(freeBalance ?? null);
  if (!bal || !price || price.lte(0) || leverage <= 0) return null;
  return bal.mul(leverage).div(price).toDecimalPlaces(market.sz_decimals, Decimal.ROUND_DOWN);
}
