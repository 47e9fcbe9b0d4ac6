/**
 * Preparing an order: from an intent (or legs given one by one) to a PreparedOrder, with nothing signed or
 * sent.
 *
 *  1. the intent is checked against its kind's schema, the market is read live and the strategy expands
 *     the intent into legs (an opening leg that names no leverage gets the user's default, never 0);
 *  2. each leg is parsed and built (a MARKET bound from the venue mark, a fire price from the trigger
 *     price), and every rule is checked against the live market records, the marks and the account's open
 *     orders (orderValidation);
 *  3. the fat-finger guard (src/shared/orders/priceGuard.ts): a limit price, or a MARKET order's explicit
 *     bound, that crosses the mark by more than the market's slippage_bps (FAR_PRICE), and an order whose
 *     notional is above the user's cap (LARGE_ORDER), are refused unless the caller allows them; an
 *     allowed one is listed in the review's `confirmations`, which the app makes the person confirm;
 *  3b. the trader's risk limits (src/main/services/risk/riskCheck.ts): an order that would break one, or
 *     that opens exposure during a lockout, is refused (RISK_LIMIT / RISK_LOCKOUT); one that only reduces
 *     exposure never is;
 *  4. what it costs (notional, fees, initial margin: src/shared/protocol/tradingMath.ts) is checked against
 *     the free balance: an order the account cannot pay for is refused here (INSUFFICIENT_BALANCE), as the
 *     app's ticket would, instead of being signed and rejected later;
 *  5. the trading key that will sign is resolved, one nonce per leg is reserved, and each leg's exact
 *     typed data, digest and plain-language summary make the review, with the position the order would
 *     leave (size, entry, margin, liquidation estimate: positionAfter.ts).
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import { orderTypedData } from '../../../shared/eip712/index.js';
import { OrderIntentSchema, type OrderIntent } from '../../../shared/orders/intents.js';
import { crossesBeyondBound, exceedsNotionalCap, farPriceBound } from '../../../shared/orders/priceGuard.js';
import type { OrderReview, ReviewConfirmation, ReviewLeg } from '../../../shared/orders/review.js';
import { describeLeg } from '../../../shared/orders/describeLeg.js';
import { orderCosts, type OrderCosts } from '../../../shared/orders/orderCosts.js';
import type { Market } from '../../../shared/protocol/index.js';
import { typedDataView } from '../../../shared/signingViews.js';
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import { ValidationError } from '../errors.js';
import { defaultLeverageFor, readPreferences } from '../settings/preferences.js';
import { stopToleranceBpsFor } from '../../../shared/orders/stopTolerance.js';
import { reserveNonces, signRequest, type PreparedBase } from '../signing/prepared.js';
import { buildLeg, needsMarkToBuild, parseLegInput, wireLeg, type LegInput, type ParsedLegInput } from './buildOrder.js';
import { readMarks, walletIds, type TradingContext } from './orderContext.js';
import { legCountsTowardCap, validateBatch, type UnsignedLeg } from './orderValidation.js';
import { reviewPositionAfter } from './positionAfter.js';
import { enforceRiskLimits } from '../risk/riskCheck.js';
import { strategyFor } from './strategies/registry.js';

/** Money is shown to 6 places (USDC); ratios keep more. */
const MONEY_PLACES = 6;

export interface PreparedOrder extends PreparedBase<'order'> {
  readonly accountId: string;
  /** Each leg exactly as it will be sent, minus nonce and signature. */
  readonly legs: readonly UnsignedLeg[];
  readonly labels: readonly string[];
  /** One reserved nonce per leg, as sent (Unix-ms text). */
  readonly nonces: readonly string[];
  readonly view: OrderReview;
}

/**
 * Which fat-finger guards the caller lets through (the command line's --allow-far-price and
 * --allow-large; the app's preview allows both and has the person confirm each in the review). A guard
 * not allowed refuses the order (ValidationError FAR_PRICE / LARGE_ORDER) before any nonce is taken.
 */
export interface GuardAllowance {
  farPrice?: boolean;
  large?: boolean;
}

export interface PrepareOrderInput {
  wallet: string;
  /** An order intent (src/shared/orders/intents.ts); checked here, whoever built it. */
  intent: unknown;
  allow?: GuardAllowance;
}

export interface PrepareLegsInput {
  wallet: string;
  legs: LegInput[];
  /** Names of the legs in the review and in error messages (default orders[i]). */
  labels?: string[];
  /** The order kind for the review (a strategy's kind, or 'batch'). */
  kind?: string;
  allow?: GuardAllowance;
}

/** How a composite action (close, reverse) prepares its legs. */
export interface PrepareLegsOptions {
  /**
   * The armed triggers of the legs' markets are cancelled before these legs are sent (a close, lifecycle
   * rule 4), so close_trigger_coexistence is not checked against the triggers armed now.
   */
  triggersCancelledFirst?: boolean;
  /** Margin released before these legs are sent (a reverse closes first), added to the free balance. */
  creditFree?: Decimal;
  /** Check margin and fees against the free balance (default true). */
  checkBalance?: boolean;
}

/** The intent checked against its kind's schema; a bad field is a ValidationError naming it. */
export function parseIntent(raw: unknown): OrderIntent {
  const parsed = OrderIntentSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || 'intent';
    throw new ValidationError(issue?.message ?? 'not an order intent', { field, code: 'INVALID_INTENT' });
  }
  return parsed.data;
}

export async function prepareOrder(ctx: TradingContext, input: PrepareOrderInput, options: PrepareLegsOptions = {}): Promise<PreparedOrder> {
  const intent = parseIntent(input.intent);
  walletIds(input.wallet);
  return prepareParsedIntent(ctx, input.wallet, intent, input.allow, options);
}

/** An intent already checked (parseIntent), expanded by its strategy and prepared. */
export async function prepareParsedIntent(ctx: TradingContext, wallet: string, intent: OrderIntent, allow: GuardAllowance | undefined, options: PrepareLegsOptions = {}): Promise<PreparedOrder> {
  const market = await ctx.config.market(intent.market);
  const strategy = strategyFor(intent.kind);
  const marks = await readMarks(ctx, [market]).catch(() => new Map<string, Decimal>());
  const prefs = readPreferences(ctx.settings);
  const expanded = strategy.expand(intent as never, { market, mark: marks.get(market.symbol) ?? null, defaultLeverage: defaultLeverageFor(prefs, market), defaultSlippageBps: prefs.default_slippage_bps });
  return prepareLegs(ctx, { wallet, legs: expanded.legs, labels: expanded.labels, kind: intent.kind, ...(allow ? { allow } : {}) }, options);
}

/**
 * A leg whose price the far-price guard checks: a LIMIT price, or a MARKET order's explicit bound. A
 * post-only (ALO) limit is not: crossing, it is rejected (post_only_would_take) instead of executing, and
 * the review already warns about that.
 */
function priceIsGuarded(p: ParsedLegInput): boolean {
  return (p.order_type === 'LIMIT' && p.time_in_force !== 'ALO') || (p.order_type === 'MARKET' && p.limit_price !== undefined);
}

/**
 * Markets whose mark the rules need: MARKET bounds, MARKET bracket references, armed triggers' sides, and
 * the prices the far-price guard checks (unless it is allowed: then the mark is read best effort, and a
 * price it cannot check is listed for confirmation instead).
 */
function marketsNeedingMarks(parsed: readonly ParsedLegInput[], allow: GuardAllowance): Set<string> {
  const need = new Set<string>();
  const entriesWithKids = new Set(parsed.map((p) => p.parent_client_order_id).filter((x): x is string => x !== undefined));
  for (const p of parsed) {
    if (needsMarkToBuild(p)) need.add(p.market);
    // A standalone trigger is armed at once: it must not already be past the mark.
    if (p.order_type === 'TRIGGER' && p.parent_client_order_id === undefined) need.add(p.market);
    // A MARKET entry's bracket legs are judged against the mark at submit.
    if (p.order_type === 'MARKET' && entriesWithKids.has(p.client_order_id)) need.add(p.market);
    if (priceIsGuarded(p) && allow.farPrice !== true) need.add(p.market);
  }
  return need;
}

export async function prepareLegs(ctx: TradingContext, input: PrepareLegsInput, options: PrepareLegsOptions = {}): Promise<PreparedOrder> {
  const { wallet, accountId } = walletIds(input.wallet);
  if (!Array.isArray(input.legs) || input.legs.length === 0) throw new ValidationError('at least one leg is required', { field: 'orders' });
  const labels = input.legs.map((_, i) => input.labels?.[i] ?? `orders[${i}]`);
  const parsed = input.legs.map((leg, i) => parseLegInput(leg, labels[i]!));
  // The trading key that will sign: refused first (NO_TRADING_KEY, with what to do) when there is none.
  const signer = await ctx.tradingSigner(wallet);

  const markets = new Map((await ctx.config.markets()).map((m) => [m.symbol, m]));
  parsed.forEach((p, i) => marketOr(markets, p.market, labels[i]!));
  // No path signs leverage 0 by omission: the service reads a missing leverage as the market's maximum.
  // An opening leg that names none (an OCO, a batch file, a reverse's entry, a TWAP slice) gets the
  // user's default for its market, the same one the ticket and `order place` use.
  const prefs = readPreferences(ctx.settings);
  for (const p of parsed) if (!p.reduce_only && p.leverage === undefined) p.leverage = defaultLeverageFor(prefs, markets.get(p.market)!);
  const allow = input.allow ?? {};
  const need = [...marketsNeedingMarks(parsed, allow)].map((s) => markets.get(s)!);
  // The review shows every leg's market mark and prices fees with it; a mark the rules do not need is
  // read too, best effort.
  const reviewed = [...new Set(parsed.map((p) => p.market))].filter((s) => !need.some((m) => m.symbol === s)).map((s) => markets.get(s)!);
  const marks = await readMarks(ctx, need);
  const warnings: string[] = [];
  if (reviewed.length > 0) {
    try {
      for (const [k, v] of await readMarks(ctx, reviewed)) marks.set(k, v);
    } catch (err) {
      warnings.push(`no venue mark (${(err as Error).message}): fees assume resting limit orders pay the maker rate`);
    }
  }
  // A stop-loss that names no tolerance of its own fires with the stop tolerance (default 10%), not a
  // market order's slippage: a stop must still fill when the mark gaps through its level.
  for (const p of parsed) {
    if (p.order_type === 'TRIGGER' && p.trigger?.tpsl === 'SL' && p.limit_price === undefined && p.slippage_bps === undefined) p.slippage_bps = stopToleranceBpsFor(prefs, p.market);
  }
  const legs = parsed.map((p, i) => buildLeg(p, markets.get(p.market)!, marks.get(p.market), labels[i]!));

  // Reads the rules need: open-order counts where a leg would rest, armed reduce-only triggers where a
  // reduce-only order would meet them (close_trigger_coexistence), and what the account can pay.
  const capMarkets = [...new Set(legs.filter(legCountsTowardCap).map((l) => l.market))];
  const opens = legs.some((l) => !l.reduce_only) && options.checkBalance !== false;
  const [counts, triggers, balance, positions] = await Promise.all([
    // open-orders lists live resting orders plus every trigger, armed or awaiting its entry: exactly what
    // max_open_orders counts. `total` is all that is needed.
    Promise.all(capMarkets.map(async (symbol) => [symbol, (await ctx.api.openOrders({ wallet, market: symbol, limit: 1 })).total] as const)),
    legs.some((l) => l.reduce_only && l.order_type !== 'TRIGGER') && !options.triggersCancelledFirst ? ctx.api.positionTriggers(wallet) : Promise.resolve(null),
    opens ? ctx.api.balance(accountId) : Promise.resolve(null),
    // Always: costs net legs against the open position, and the review shows the position it leaves.
    ctx.api.positions(accountId),
  ]);
  const armedReduceOnlyTriggerMarkets = triggers ? new Set(triggers.orders.filter((o) => o.reduce_only && o.order_type === 'TRIGGER' && !o.parent_order_id).map((o) => o.market)) : undefined;
  validateBatch(legs, { markets, marks, openOrderCounts: new Map(counts), ...(armedReduceOnlyTriggerMarkets ? { armedReduceOnlyTriggerMarkets } : {}) }, labels);

  const costs = orderCosts(legs, markets, marks, positions.positions);
  // The trader's own risk limits (issue 39): refused here, before a nonce or a signature, whoever asked.
  await enforceRiskLimits(ctx, { wallet, legs, notionals: costs.legs.map((c) => c.notional), positions: positions.positions, marks });
  const confirmations = guardFindings(legs, parsed, labels, markets, marks, costs, readPreferences(ctx.settings).max_order_notional);
  refuseUnallowed(confirmations, allow);
  const free = balance ? new Decimal(balance.free_balance) : null;
  if (free !== null && costs.required.gt(free.plus(options.creditFree ?? 0))) {
    throw new ValidationError(
      `the order needs ${fixed(costs.margin)} USDC of initial margin and ${fixed(costs.openingFees)} USDC of fees, more than the free balance of ${canonical(free)} USDC`,
      {
        field: 'size',
        code: 'INSUFFICIENT_BALANCE',
        hint: 'Lower the size or raise the leverage (within max_leverage), or deposit first. The free balance excludes margin already posted to positions.',
      },
    );
  }

  const nonces = (await reserveNonces(ctx.nonces, wallet, legs.length)).map(String);
  const requests = legs.map((leg, i) => signRequest(labels[i]!, orderTypedData(accountId, wireLeg(leg, nonces[i]!), ctx.profile.network)));
  const firstMarket = legs[0]!.market;
  const mark = marks.get(firstMarket) ?? null;
  warnings.push(...crossingWarnings(legs, labels, marks));
  if (legs.every((l) => l.reduce_only)) warnings.push('reduce-only: it can only shrink an open position');

  const reviewLegs: ReviewLeg[] = legs.map((leg, i) => ({
    label: labels[i]!,
    client_order_id: leg.client_order_id,
    market: leg.market,
    side: leg.side,
    order_type: leg.order_type,
    size: leg.size,
    limit_price: leg.limit_price,
    time_in_force: leg.time_in_force ?? null,
    reduce_only: leg.reduce_only,
    leverage: leg.leverage ?? null,
    trigger: leg.trigger ? { trigger_price: leg.trigger.trigger_price, tpsl: leg.trigger.tpsl, is_market: leg.trigger.is_market } : null,
    parent_client_order_id: leg.parent_client_order_id ?? null,
    notional: fixed(costs.legs[i]!.notional),
    fee_kind: costs.legs[i]!.feeKind,
    fee_rate: canonical(costs.legs[i]!.feeRate),
    fee_estimate: fixed(costs.legs[i]!.fee),
    description: describeLeg(leg, markets.get(leg.market)!),
    summary: summarizeTypedData(requests[i]!.typedData),
    digest: requests[i]!.digest,
    typed_data: typedDataView(requests[i]!.typedData),
  }));
  return {
    action: 'order',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'trading-key', address: signer.address },
    requests,
    accountId,
    legs,
    labels,
    nonces,
    view: {
      kind: input.kind ?? 'batch',
      wallet,
      signer: signer.address,
      market: firstMarket,
      mark: mark ? canonical(mark) : null,
      legs: reviewLegs,
      total_notional: fixed(costs.notional),
      total_fee_estimate: fixed(costs.fees),
      margin_required: fixed(costs.margin),
      free_balance: free ? canonical(free) : null,
      position_after: reviewPositionAfter(legs, markets.get(firstMarket)!, marks.get(firstMarket), positions.positions.find((p) => p.market === firstMarket)),
      warnings,
      confirmations,
    },
  };
}

function marketOr(markets: ReadonlyMap<string, Market>, symbol: string, label: string): Market {
  const m = markets.get(symbol);
  if (!m) {
    throw new ValidationError(`unknown market '${symbol}'`, {
      field: `${label}.market`,
      code: 'UNKNOWN_MARKET',
      hint: `Markets: ${[...markets.values()].filter((x) => x.is_active).map((x) => x.symbol).join(', ')}.`,
    });
  }
  if (!m.is_active) throw new ValidationError(`market '${symbol}' is not active`, { field: `${label}.market`, code: 'MARKET_INACTIVE', hint: 'The service has disabled this market.' });
  return m;
}

/**
 * What the fat-finger guard finds (one entry per code; a code's message names every leg it concerns):
 *  - FAR_PRICE: a guarded price beyond mark x (1 +/- slippage_bps), or one that could not be checked
 *    because no mark was read (only when the guard was allowed, see marketsNeedingMarks);
 *  - LARGE_ORDER: the notional of the legs that open or add exposure above the user's cap. Reduce-only legs
 *    only shrink a position (a close of a large position is not a fat finger) and attached TP/SL legs close
 *    what their entry opens, so neither counts. Notional is the review's: a MARKET leg at the worse of the
 *    mark and its bound.
 */
function guardFindings(
  legs: readonly UnsignedLeg[],
  parsed: readonly ParsedLegInput[],
  labels: readonly string[],
  markets: ReadonlyMap<string, Market>,
  marks: ReadonlyMap<string, Decimal>,
  costs: OrderCosts,
  cap: string | null,
): ReviewConfirmation[] {
  const far: string[] = [];
  legs.forEach((leg, i) => {
    if (!priceIsGuarded(parsed[i]!)) return;
    const market = markets.get(leg.market)!;
    const mark = marks.get(leg.market);
    const what = leg.order_type === 'LIMIT' ? 'limit price' : 'explicit price bound';
    if (!mark) {
      far.push(`${labels[i]}: the ${leg.side} ${what} ${leg.limit_price} could not be checked against the mark (no venue mark was read)`);
      return;
    }
    const price = new Decimal(leg.limit_price);
    if (!crossesBeyondBound(leg.side, price, mark, market.slippage_bps)) return;
    const bound = farPriceBound(leg.side, mark, market.slippage_bps).toDecimalPlaces(market.px_decimals, leg.side === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
    far.push(
      `${labels[i]}: the ${leg.side} ${what} ${leg.limit_price} crosses the mark ${canonical(mark)} by more than ${market.symbol}'s slippage bound of ${market.slippage_bps} bps (${leg.side === 'BUY' ? 'above' : 'below'} ${canonical(bound)}): it would execute at once at the book's prices, not at ${leg.limit_price}`,
    );
  });
  const out: ReviewConfirmation[] = [];
  if (far.length > 0) out.push({ code: 'FAR_PRICE', message: far.join('; ') });
  let exposure = new Decimal(0);
  legs.forEach((leg, i) => {
    if (!leg.reduce_only && leg.parent_client_order_id === undefined) exposure = exposure.plus(costs.legs[i]!.notional);
  });
  if (exceedsNotionalCap(exposure, cap)) {
    out.push({ code: 'LARGE_ORDER', message: `the order's notional ${fixed(exposure)} USDC is above your cap of ${cap} USDC (setting max_order_notional)` });
  }
  return out;
}

const GUARD_FLAGS = { FAR_PRICE: { allowed: (a: GuardAllowance) => a.farPrice === true, flag: '--allow-far-price' }, LARGE_ORDER: { allowed: (a: GuardAllowance) => a.large === true, flag: '--allow-large' } } as const;

/** A finding the caller did not allow refuses the order here, before any nonce is reserved or anything signed. */
function refuseUnallowed(findings: readonly ReviewConfirmation[], allow: GuardAllowance): void {
  for (const f of findings) {
    const g = GUARD_FLAGS[f.code];
    if (g.allowed(allow)) continue;
    throw new ValidationError(f.message, {
      field: f.code === 'FAR_PRICE' ? 'limit_price' : 'size',
      code: f.code,
      hint:
        f.code === 'FAR_PRICE'
          ? `Check the price. To send it anyway: ${g.flag} on the command line, or confirm it in the app's review.`
          : `Lower the size. To send it anyway: ${g.flag} on the command line, or confirm it in the app's review. The cap is yours to change: \`perps config max-notional\` or Settings.`,
    });
  }
}

function crossingWarnings(legs: readonly UnsignedLeg[], labels: readonly string[], marks: ReadonlyMap<string, Decimal>): string[] {
  const out: string[] = [];
  legs.forEach((leg, i) => {
    const mark = marks.get(leg.market);
    if (!mark || leg.order_type !== 'LIMIT') return;
    const price = new Decimal(leg.limit_price);
    const crosses = leg.side === 'BUY' ? price.gte(mark) : price.lte(mark);
    if (!crosses) return;
    if (leg.time_in_force === 'ALO') out.push(`${labels[i]}: a post-only order at ${leg.limit_price} crosses the mark ${mark.toFixed()} and will likely be rejected (post_only_would_take)`);
    else out.push(`${labels[i]}: the limit price ${leg.limit_price} crosses the mark ${mark.toFixed()}: it will likely execute at once and pay the taker fee`);
  });
  return out;
}

function fixed(value: Decimal): string {
  return canonical(value.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_HALF_UP));
}
