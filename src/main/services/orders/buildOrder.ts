/**
 * From what a person (or a batch file) asks for to the leg that is sent and signed.
 *
 * Input values stay text end to end: a size or price given as a JSON number is refused (it has already
 * been through a float), decimal text is re-spelled canonically (the signed string must equal the sent
 * string byte for byte), and every omitted value that the service would default is made explicit. A
 * MARKET leg without a price gets the slippage bound from the venue mark; a TRIGGER leg without a fire
 * price gets one from its trigger price. Signing builds the typed data from the leg exactly as it will be
 * sent, with the nonce reserved for it at prepare time (prepareOrder.ts).
 */
import { randomBytes } from 'node:crypto';
import { Decimal, canonical, decimalTextProblem, parseDecimalText, DecimalError } from '../../../shared/decimal/index.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../shared/fieldSchemas.js';
import {
  SIDES,
  SUBMITTABLE_ORDER_TYPES,
  TIME_IN_FORCE,
  TPSL,
  type Market,
  type OrderLeg,
  type Side,
  type SubmittableOrderType,
  type TimeInForce,
  type Tpsl,
} from '../../../shared/protocol/index.js';
import { ValidationError } from '../errors.js';
import type { UnsignedLeg } from './orderValidation.js';
import { slippageBound, slippageBpsFor } from './slippage.js';

/** A leg as asked for: wire field names, text values, anything the app can fill in left out. */
export interface LegInput {
  market: string;
  /** BUY or SELL, any case. */
  side: string;
  size: string;
  /** MARKET (default), LIMIT or TRIGGER, any case. */
  order_type?: string;
  /** LIMIT: the limit price. MARKET: an explicit slippage bound. TRIGGER: the fire price. */
  limit_price?: string;
  /** GTC, IOC or ALO; defaults to IOC on MARKET and GTC on LIMIT; omitted on TRIGGER. */
  time_in_force?: string;
  reduce_only?: boolean;
  leverage?: number;
  client_order_id?: string;
  trigger?: { trigger_price: string; tpsl: string; is_market?: boolean };
  parent_client_order_id?: string;
  /** Local only (never sent): the tolerance for a computed bound, default the market's slippage_bps. */
  slippage_bps?: number;
}

/** A fresh client order id: unique in a batch and, for modify, new to the account. */
export function newClientOrderId(prefix = 'pd'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

/**
 * Whether a client order id has the form newClientOrderId makes (a time and 48 random bits): such an id
 * is new to the account. One the caller chose (the command line's batch file) may have been used before.
 */
export function isGeneratedClientOrderId(id: string): boolean {
  return /^[a-z]{1,4}-[0-9a-z]{6,12}-[0-9a-f]{12}$/.test(id);
}

function bad(label: string, field: string, message: string): never {
  throw new ValidationError(message, { field: `${label}.${field}` });
}

/** Decimal text to its canonical spelling; a number or junk is a ValidationError naming the field. */
export function decimalInput(value: unknown, label: string, field: string): string {
  if (typeof value === 'number') bad(label, field, `must be a decimal string such as "0.5", not a JSON number (a float may already have changed it)`);
  // The bound every input door applies (IPC, intents): nothing longer is a price or a size, and a huge
  // string would otherwise be signed and posted.
  if (typeof value === 'string' && value.length > MAX_DECIMAL_INPUT_LENGTH) bad(label, field, `at most ${MAX_DECIMAL_INPUT_LENGTH} characters (got ${value.length})`);
  try {
    return canonical(parseDecimalText(value, field));
  } catch (err) {
    if (err instanceof DecimalError) bad(label, field, decimalTextProblem(value) ?? err.message);
    throw err;
  }
}

function enumInput<T extends string>(value: unknown, allowed: readonly T[], label: string, field: string): T {
  if (typeof value !== 'string') bad(label, field, `must be one of ${allowed.join(', ')}`);
  const upper = value.toUpperCase();
  if (!(allowed as readonly string[]).includes(upper)) bad(label, field, `'${value}' is not one of ${allowed.join(', ')}`);
  return upper as T;
}

export function parseSide(value: unknown, label = 'order'): Side {
  return enumInput(value, SIDES, label, 'side');
}

export function oppositeSide(side: Side): Side {
  return side === 'BUY' ? 'SELL' : 'BUY';
}

/**
 * The fields of a leg that need no market data, parsed and made explicit. Shared by buildLeg and by the
 * batch loader (which must know which markets need a mark before reading any).
 */
export interface ParsedLegInput {
  market: string;
  side: Side;
  size: string;
  order_type: SubmittableOrderType;
  limit_price: string | undefined;
  time_in_force: TimeInForce | undefined;
  reduce_only: boolean;
  leverage: number | undefined;
  client_order_id: string;
  trigger: { trigger_price: string; tpsl: Tpsl; is_market: boolean } | undefined;
  parent_client_order_id: string | undefined;
  slippage_bps: number | undefined;
}

export function parseLegInput(input: LegInput, label: string): ParsedLegInput {
  if (typeof input !== 'object' || input === null) bad(label, '(leg)', 'must be an object');
  if (typeof input.market !== 'string' || input.market.length === 0) bad(label, 'market', 'is required');
  const side = parseSide(input.side, label);
  const orderType = input.order_type === undefined ? 'MARKET' : enumInput(input.order_type, SUBMITTABLE_ORDER_TYPES, label, 'order_type');
  const size = decimalInput(input.size, label, 'size');
  if (size.startsWith('-')) bad(label, 'size', 'must not be negative');
  const tif = input.time_in_force === undefined ? undefined : enumInput(input.time_in_force, TIME_IN_FORCE, label, 'time_in_force');
  if (input.reduce_only !== undefined && typeof input.reduce_only !== 'boolean') bad(label, 'reduce_only', 'must be true or false');
  if (input.leverage !== undefined && (typeof input.leverage !== 'number' || !Number.isInteger(input.leverage))) bad(label, 'leverage', 'must be an integer');
  if (input.client_order_id !== undefined && (typeof input.client_order_id !== 'string' || input.client_order_id.length === 0)) bad(label, 'client_order_id', 'must be a non-empty string');
  if (input.parent_client_order_id !== undefined && (typeof input.parent_client_order_id !== 'string' || input.parent_client_order_id.length === 0)) {
    bad(label, 'parent_client_order_id', 'must be a non-empty string');
  }
  let trigger: ParsedLegInput['trigger'];
  if (input.trigger !== undefined) {
    if (typeof input.trigger !== 'object' || input.trigger === null) bad(label, 'trigger', 'must be an object { trigger_price, tpsl }');
    const tp = decimalInput(input.trigger.trigger_price, label, 'trigger.trigger_price');
    const tpsl = enumInput(input.trigger.tpsl, TPSL, label, 'trigger.tpsl');
    const isMarket = input.trigger.is_market ?? true;
    if (typeof isMarket !== 'boolean') bad(label, 'trigger.is_market', 'must be true or false');
    trigger = { trigger_price: tp, tpsl, is_market: isMarket };
  }
  return {
    market: input.market,
    side,
    size,
    order_type: orderType,
    limit_price: input.limit_price === undefined ? undefined : decimalInput(input.limit_price, label, 'limit_price'),
    time_in_force: tif,
    reduce_only: input.reduce_only ?? false,
    leverage: input.leverage,
    client_order_id: input.client_order_id ?? newClientOrderId(),
    trigger,
    parent_client_order_id: input.parent_client_order_id,
    slippage_bps: input.slippage_bps,
  };
}

/** True when building this leg needs the venue mark of its market (a computed MARKET bound). */
export function needsMarkToBuild(p: ParsedLegInput): boolean {
  return p.order_type === 'MARKET' && p.limit_price === undefined;
}

/**
 * The leg as it will be sent. `mark` is needed only for a MARKET leg without an explicit bound. Defaults
 * the service would apply are written out (time in force per type), and defaults the service does not
 * have (a computed bound, a fire price) come from the live market record.
 */
export function buildLeg(p: ParsedLegInput, market: Market, mark: Decimal | undefined, label: string): UnsignedLeg {
  let tif = p.time_in_force;
  if (tif === undefined && p.order_type === 'MARKET') tif = 'IOC';
  if (tif === undefined && p.order_type === 'LIMIT') tif = 'GTC';
  let limitPrice = p.limit_price;
  if (limitPrice === undefined) {
    if (p.order_type === 'LIMIT') bad(label, 'limit_price', 'a LIMIT order needs a price');
    const bps = slippageBpsFor(market, p.slippage_bps);
    if (p.order_type === 'MARKET') {
      if (!mark) throw new Error(`internal: no mark for the MARKET bound of ${market.symbol}`);
      limitPrice = canonical(slippageBound(p.side, mark, bps, market, `${label}.limit_price`));
    } else {
      if (!p.trigger) bad(label, 'trigger', 'a TRIGGER order needs trigger_price and tpsl');
      // A market trigger executes as an IOC order bounded by its fire price: the tolerance around the threshold.
      limitPrice = canonical(slippageBound(p.side, new Decimal(p.trigger.trigger_price), bps, market, `${label}.limit_price`));
    }
  }
  const leg: UnsignedLeg = {
    market: p.market,
    side: p.side,
    size: p.size,
    limit_price: limitPrice,
    order_type: p.order_type,
    reduce_only: p.reduce_only,
    client_order_id: p.client_order_id,
  };
  if (tif !== undefined) leg.time_in_force = tif;
  if (p.leverage !== undefined) leg.leverage = p.leverage;
  if (p.trigger) leg.trigger = { ...p.trigger };
  if (p.parent_client_order_id !== undefined) leg.parent_client_order_id = p.parent_client_order_id;
  return leg;
}

/** The body of one leg in wire field order, with its nonce; the signature is added when it is signed. */
export function wireLeg(leg: UnsignedLeg, nonce: string): Omit<OrderLeg, 'signature'> {
  const out: Omit<OrderLeg, 'signature'> = {
    market: leg.market,
    side: leg.side,
    size: leg.size,
    limit_price: leg.limit_price,
    order_type: leg.order_type,
    reduce_only: leg.reduce_only,
    client_order_id: leg.client_order_id,
    nonce,
  };
  if (leg.time_in_force !== undefined) out.time_in_force = leg.time_in_force;
  if (leg.leverage !== undefined) out.leverage = leg.leverage;
  if (leg.trigger) out.trigger = { ...leg.trigger };
  if (leg.parent_client_order_id !== undefined) out.parent_client_order_id = leg.parent_client_order_id;
  return out;
}
