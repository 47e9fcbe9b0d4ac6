/**
 * Closing and reversing positions, exactly as the spec's "Position lifecycle rules":
 *
 *  3. A position with an armed reduce-only trigger cannot be closed (close_trigger_coexistence).
 *  4. Exit: cancel every armed trigger on the market (order_type TRIGGER), poll position-triggers until
 *     they are gone, then send ONE reduce-only MARKET leg on the side opposite to the position, with the
 *     size taken from `closeable`.
 *  5. No atomic flip: reverse by exiting, waiting for flat, then entering the opposite way.
 *
 * A close can also take part of the position (a percentage of what will be closeable, or a size, rounded
 * DOWN to the market's sz_decimals, at least one size step, never more than is closeable) and can be a
 * reduce-only LIMIT GTC at a price instead of the MARKET leg. Every one of them follows rule 4: the armed
 * triggers go first (a reduce-only order of any type meets close_trigger_coexistence otherwise), and the
 * review and the result say which were cancelled. A limit close rests: its submit waits until it rests
 * (or fills at once), not until it fills.
 *
 * Bracket legs still awaiting a working entry do not block a close and are left alone; legs whose entry
 * has already filled are about to arm on this position and are cancelled with the armed triggers.
 *
 * Both are prepared first (every Cancel and the closing Order, typed data and nonces, for review) and
 * then submitted. The closing leg's size is what `closeable` will be once the triggers are gone: the
 * position less what resting reduce-only orders reserve. If the position changed between the two steps
 * (a fill elsewhere, a trigger that fired), submit stops after the cancels and says so: the reviewed
 * size would no longer be right, and nothing else is signed.
 */
import { Decimal, canonical, roundToPlaces } from '../../../shared/decimal/index.js';
import { decimalInput } from '../decimalInput.js';
import type { ReviewConfirmation } from '../../../shared/orders/review.js';
import type { ListedOrder, Position } from '../../../shared/protocol/index.js';
import type { Signer } from '../../signers/signer.js';
import { OperationError, ValidationError } from '../errors.js';
import { isArmedTriggerRow } from '../orders/brackets.js';
import { prepareCancelOrders, submitCancel, type CancelLegResult, type PreparedCancel } from '../orders/cancelOrders.js';
import { pollUntil, walletIds, WaitTimeoutError, type TradingContext } from '../orders/orderContext.js';
import { isFilled } from '../orders/orderTracker.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../shared/fieldSchemas.js';
import { prepareLegs, type GuardAllowance, type PreparedOrder } from '../orders/prepareOrder.js';
import { submitOrder, type PlacedLeg, type PlaceOrdersResult } from '../orders/submitOrder.js';
import { defaultLeverageFor, readPreferences } from '../settings/preferences.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { readPosition, waitForPosition } from './positionWaits.js';
import { levelsText, liftedLevels, noteCloseOrder, rearmFromRecord, writeRearmIntent, type RearmIntent, type RearmOutcome } from './rearm.js';
import type { LiftedLevel } from '../../../shared/orders/rearmRecord.js';

export interface CloseInput {
  wallet: string;
  market: string;
  /** Tolerance of the MARKET leg's bound; default the market's slippage_bps. */
  slippageBps?: number;
  /** Close this percentage (decimal text, 1 to 100) of what will be closeable. Not with `size`. */
  percent?: string;
  /** Close this size (decimal text, rounded down to sz_decimals; at most what will be closeable). Not with `percent`. */
  size?: string;
  /** A limit close: a reduce-only LIMIT GTC at this price (tick-checked) instead of the MARKET leg. */
  price?: string;
  /** Fat-finger guards let through (a limit close far past the mark is FAR_PRICE). */
  allow?: GuardAllowance;
}

export interface CloseOptions {
  timeoutMs?: number;
  onProgress?: (text: string) => void;
}

export interface ClosePositionResult {
  wallet: string;
  market: string;
  position_before: Position;
  /** Armed triggers cancelled first (rule 4). */
  cancelled_triggers: CancelLegResult[];
  /** The reduce-only leg: a MARKET one tracked to its terminal state, a LIMIT one until it rests or ends. */
  order: PlacedLeg;
  /** The position once /positions reflects the fill (as it is, for a resting limit); null when it is closed. */
  position_after: Position | null;
  closed: boolean;
  /** A limit close that rests on the book: the position closes as it fills. */
  resting: boolean;
  /** The whole-position TP/SL lifted for the close, re-armed on what remains (null: none was lifted). */
  rearm: RearmOutcome | null;
}

export interface PreparedClose extends PreparedBase<'close'> {
  readonly market: string;
  readonly accountId: string;
  readonly position: Position;
  /** The armed triggers to cancel first (null when none is armed). */
  readonly cancel: PreparedCancel | null;
  /** The one reduce-only leg on the opposite side: MARKET, or LIMIT GTC for a limit close. */
  readonly order: PreparedOrder;
  /** What will be closeable once the triggers are gone, at review: submit stops if it differs then. */
  readonly closeable: string;
  /** The whole of what is closeable was asked for (no percent below 100, no size). */
  readonly whole: boolean;
  /** The whole-position TP/SL the cancels lift: written down before the first Cancel, re-armed after the close. */
  readonly lifted: LiftedLevel[];
  readonly view: {
    wallet: string;
    market: string;
    side: 'LONG' | 'SHORT';
    size: string;
    entry_price: string;
    /** What will be closeable once the triggers are gone (the position less what resting reduce-only orders reserve). */
    closeable: string;
    /** What the closing leg closes. */
    close_size: string;
    /** The percentage asked for (null: a size, or all that is closeable). */
    percent: string | null;
    order_type: 'MARKET' | 'LIMIT';
    /** The limit price of a limit close; the slippage bound of a market close. */
    limit_price: string;
    triggers_to_cancel: { order_id: string; tpsl: string | null; trigger_price: string | null }[];
    /** The whole-position levels lifted for the close and re-armed on what remains (null: none). */
    rearm: { levels: { kind: 'tp' | 'sl'; trigger_price: string; limit_price: string }[]; remaining: string; when: 'after_close' | 'once_resting' | 'if_not_filled' } | null;
    summary: string[];
    warnings: string[];
    /** Fat-finger guards the closing leg trips (allowed ones only: others refuse the close). */
    confirmations: ReviewConfirmation[];
  };
}

function noPosition(wallet: string, market: string): ValidationError {
  return new ValidationError(`${wallet} has no open ${market} position`, {
    field: 'market',
    code: 'NO_OPEN_POSITION',
    hint: 'Positions appear shortly after a fill (/positions lags); check `perps positions --wallet ADDR`.',
  });
}

/**
 * Triggers that block a close: position-triggers (armed reduce-only TP/SL), any other armed trigger listed
 * open, and bracket legs whose entry is no longer working. Those legs arm the moment the entry's fill
 * settles into the position, so a close started right after a fill would otherwise read "no armed
 * trigger" and then meet one (close_trigger_coexistence). Legs of an entry that is still working are
 * left alone: they belong to a future fill, not to this position.
 */
export async function armedTriggers(ctx: TradingContext, wallet: string, market: string): Promise<{ triggers: ListedOrder[]; open: ListedOrder[] }> {
  const fromTriggers = (await ctx.api.positionTriggers(wallet)).orders.filter((o) => o.market === market && o.order_type === 'TRIGGER');
  const open = await ctx.api.allOpenOrders({ wallet, market });
  const workingEntries = new Set(open.filter((o) => o.order_type !== 'TRIGGER').map((o) => o.order_id));
  const arming = open.filter((o) => o.order_type === 'TRIGGER' && o.parent_order_id && !workingEntries.has(o.parent_order_id));
  const byId = new Map<string, ListedOrder>();
  for (const o of [...fromTriggers, ...open.filter(isArmedTriggerRow), ...arming]) byId.set(o.order_id, o);
  return { triggers: [...byId.values()], open };
}

/** What `closeable` is once no trigger is armed: the size less the remainder of resting reduce-only limits. */
export function closeableWithoutTriggers(position: Position, open: readonly ListedOrder[]): Decimal {
  let reserved = new Decimal(0);
  for (const o of open) {
    if (o.market !== position.market || !o.reduce_only || o.order_type !== 'LIMIT' || o.status !== 'open') continue;
    reserved = reserved.plus(new Decimal(o.size).minus(o.filled_size));
  }
  return Decimal.max(new Decimal(position.size).abs().minus(reserved), 0);
}

const HUNDRED = new Decimal(100);

/** Decimal text given to a close (percent, size, price), refused naming its own field. */
function decimalField(value: unknown, field: string): Decimal {
  if (typeof value === 'string' && value.length > MAX_DECIMAL_INPUT_LENGTH) throw new ValidationError(`at most ${MAX_DECIMAL_INPUT_LENGTH} characters (got ${value.length})`, { field });
  return decimalInput(value, field);
}

/** The percentage asked for, as decimal text from 1 to 100. */
function parsePercent(value: string): Decimal {
  const p = decimalField(value, 'percent');
  if (p.lt(1) || p.gt(HUNDRED)) throw new ValidationError(`must be from 1 to 100, got ${value}`, { field: 'percent', code: 'INVALID_PERCENT' });
  return p;
}

/**
 * The size the closing leg closes: all of `closeable`, a percentage of it or a given size, rounded DOWN to
 * the market's sz_decimals (a close never takes more than was asked for), at least one size step and never
 * more than `closeable` (a reduce-only leg above it would be cut, or refused, by the service).
 */
function closeSizeOf(input: CloseInput, closeable: Decimal, szDecimals: number): { size: Decimal; percent: Decimal | null } {
  const step = new Decimal(1).div(new Decimal(10).pow(szDecimals));
  let size = closeable;
  let percent: Decimal | null = null;
  if (input.percent !== undefined) {
    percent = parsePercent(input.percent);
    size = roundToPlaces(closeable.mul(percent).div(HUNDRED), szDecimals, 'down');
    if (size.lt(step)) {
      throw new ValidationError(`${canonical(percent)}% of the closeable ${canonical(closeable)} is less than one size step (${canonical(step)})`, {
        field: 'percent',
        code: 'CLOSE_SIZE_TOO_SMALL',
        hint: 'Close a larger percentage, or a size of at least one step.',
      });
    }
  } else if (input.size !== undefined) {
    const asked = decimalField(input.size, 'size');
    if (asked.lte(0)) throw new ValidationError(`must be greater than 0, got ${input.size}`, { field: 'size' });
    size = roundToPlaces(asked, szDecimals, 'down');
    if (size.lt(step)) throw new ValidationError(`${canonical(asked)} is less than one size step (${canonical(step)}) once rounded down to ${szDecimals} decimals`, { field: 'size', code: 'CLOSE_SIZE_TOO_SMALL' });
    if (size.gt(closeable)) {
      throw new ValidationError(`${canonical(size)} is more than the closeable ${canonical(closeable)}`, {
        field: 'size',
        code: 'SIZE_ABOVE_CLOSEABLE',
        hint: `Close at most ${canonical(closeable)} (percent 100, or no size, closes all of it); resting reduce-only orders reserve the rest of the position.`,
      });
    }
  }
  return { size, percent };
}

export async function prepareClose(ctx: TradingContext, input: CloseInput): Promise<PreparedClose> {
  const { wallet, accountId } = walletIds(input.wallet);
  const market = await ctx.config.market(input.market);
  // The input is checked before anything is read or reserved.
  if (input.percent !== undefined && input.size !== undefined) throw new ValidationError('give a percentage or a size, not both', { field: 'percent', code: 'USAGE' });
  if (input.percent !== undefined) parsePercent(input.percent);
  const price = input.price === undefined ? undefined : canonical(decimalField(input.price, 'price'));
  const position = await readPosition(ctx, accountId, input.market);
  if (!position || new Decimal(position.size).isZero()) throw noPosition(wallet, input.market);
  const { triggers, open } = await armedTriggers(ctx, wallet, input.market);
  const closeable = triggers.length > 0 ? closeableWithoutTriggers(position, open) : new Decimal(position.closeable);
  if (closeable.isZero()) {
    throw new ValidationError(`the ${input.market} position has nothing closeable: resting reduce-only orders reserve all of it`, {
      field: 'market',
      code: 'NOTHING_CLOSEABLE',
      hint: 'Cancel the resting reduce-only orders (`perps order cancel-all --market ...`) and try again.',
    });
  }
  const { size, percent } = closeSizeOf(input, closeable, market.sz_decimals);
  const long = new Decimal(position.size).isPos();
  // The closing leg is prepared (and so checked: tick, the far-price guard) before any Cancel takes a
  // nonce, so a refused close reserves none. Its nonce is then below the cancels' although it is sent
  // after them: the spec asks only that a nonce be used once per wallet, not that they arrive in order.
  const order = await prepareLegs(
    ctx,
    {
      wallet,
      legs: [
        price !== undefined
          ? { market: input.market, side: long ? 'SELL' : 'BUY', size: canonical(size), order_type: 'LIMIT', time_in_force: 'GTC', limit_price: price, reduce_only: true }
          : { market: input.market, side: long ? 'SELL' : 'BUY', size: canonical(size), order_type: 'MARKET', reduce_only: true, ...(input.slippageBps !== undefined ? { slippage_bps: input.slippageBps } : {}) },
      ],
      labels: ['close'],
      kind: 'close',
      ...(input.allow ? { allow: input.allow } : {}),
    },
    { triggersCancelledFirst: true },
  );
  const cancel = triggers.length > 0 ? await prepareCancelOrders(ctx, { wallet, targets: triggers.map((t) => ({ order_id: t.order_id, order_type: 'TRIGGER' as const })) }) : null;
  const leg = order.legs[0]!;
  const part = percent !== null && !percent.eq(HUNDRED) ? `${canonical(size)} (${canonical(percent)}% of ${canonical(closeable)})` : canonical(size);
  const summary = [
    ...(cancel ? triggers.map((t) => `Cancel the ${t.tpsl === 'tp' ? 'take-profit' : t.tpsl === 'sl' ? 'stop-loss' : 'trigger'} ${t.order_id}${t.trigger_price ? ` at ${t.trigger_price}` : ''} first (a reduce-only close cannot coexist with an armed trigger)`) : []),
    price !== undefined
      ? `Close ${part} ${input.market} of the ${long ? 'long' : 'short'} with a reduce-only limit ${leg.side.toLowerCase()} at ${leg.limit_price} (GTC: it rests until filled or cancelled)`
      : `Close ${part} ${input.market} of the ${long ? 'long' : 'short'} at market (reduce-only, bound ${leg.limit_price})`,
  ];
  const whole = size.eq(closeable);
  const warnings = order.view.warnings.filter((w) => !w.startsWith('reduce-only:'));
  // The service forces the lift (rules 3 and 4), not the loss of protection: whole-position levels are
  // re-armed on what remains. Sized triggers (a part of the position) are not: they are said.
  const lifted = cancel ? liftedLevels(triggers) : [];
  const remaining = Decimal.max(new Decimal(position.size).abs().minus(size), 0);
  const entire = price === undefined && remaining.isZero();
  const rearm = lifted.length === 0 ? null : { levels: lifted.map((l) => ({ kind: l.kind, trigger_price: l.trigger_price, limit_price: l.limit_price })), remaining: canonical(remaining), when: entire ? ('if_not_filled' as const) : price !== undefined ? ('once_resting' as const) : ('after_close' as const) };
  if (rearm) {
    const are = lifted.length === 1 ? 'is' : 'are';
    summary.push(
      rearm.when === 'after_close'
        ? `${levelsText(lifted)} ${are} lifted for the close and re-armed on the remaining ${canonical(remaining)}`
        : rearm.when === 'once_resting'
          ? `${levelsText(lifted)} ${are} lifted for the close and re-armed once the limit close rests: they cover what is left as it fills`
          : `${levelsText(lifted)} ${are} lifted for the close; if it does not fill, ${lifted.length === 1 ? 'it is' : 'they are'} re-armed`,
    );
  }
  const sized = cancel ? triggers.filter((t) => !lifted.some((l) => l.order_id === t.order_id)) : [];
  if (sized.length > 0 && !entire) {
    warnings.push(`${sized.map((t) => `${t.tpsl === 'tp' ? 'the take-profit' : t.tpsl === 'sl' ? 'the stop-loss' : 'the trigger'} ${t.order_id}${t.trigger_price ? ` at ${t.trigger_price}` : ''}`).join(', ')} ${sized.length === 1 ? 'covers' : 'cover'} a set size, not the whole position: cancelled and not re-armed; set ${sized.length === 1 ? 'it' : 'them'} again if you still want ${sized.length === 1 ? 'it' : 'them'}`);
  }
  return {
    action: 'close',
    profile: ctx.profile.name,
    wallet,
    signer: order.signer,
    requests: [...(cancel?.requests ?? []), ...order.requests],
    market: input.market,
    accountId,
    position,
    cancel,
    order,
    closeable: canonical(closeable),
    whole,
    lifted,
    view: {
      wallet,
      market: input.market,
      side: long ? 'LONG' : 'SHORT',
      size: position.size,
      entry_price: position.entry_price,
      closeable: canonical(closeable),
      close_size: canonical(size),
      percent: percent === null ? null : canonical(percent),
      order_type: leg.order_type === 'LIMIT' ? 'LIMIT' : 'MARKET',
      limit_price: leg.limit_price,
      triggers_to_cancel: triggers.map((t) => ({ order_id: t.order_id, tpsl: t.tpsl ?? null, trigger_price: t.trigger_price ?? null })),
      rearm,
      summary,
      warnings,
      confirmations: order.view.confirmations,
    },
  };
}

/** Prepares and submits with the wallet's trading key, in one go. */
export async function closePosition(ctx: TradingContext, input: CloseInput, options: CloseOptions = {}): Promise<ClosePositionResult> {
  const prepared = await prepareClose(ctx, input);
  return submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

export async function submitClose(ctx: TradingContext, prepared: PreparedClose, signer: Signer, options: CloseOptions = {}): Promise<ClosePositionResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  // Intent before the cancel: a crash from here on leaves the levels written down for the next start.
  const intent = prepared.cancel && prepared.lifted.length > 0 ? writeRearmIntent(ctx, { wallet: prepared.wallet, market: prepared.market, side: prepared.view.side, lifted: prepared.lifted }) : null;
  let result: Omit<ClosePositionResult, 'rearm'>;
  try {
    result = await closeSteps(ctx, prepared, signer, options, intent);
  } catch (err) {
    // The close failed after (or while) lifting the levels: they go back on the position before the
    // error is reported, so a failed close never leaves it less protected than it was.
    if (intent) await rearmAfterFailure(ctx, intent, signer, err, options);
    throw err;
  }
  if (!intent) return { ...result, rearm: null };
  options.onProgress?.(`re-arming ${levelsText(intent.record.lifted)} on what remains`);
  return { ...result, rearm: await rearmFromRecord(ctx, intent, signer) };
}

export async function rearmAfterFailure(ctx: TradingContext, intent: RearmIntent, signer: Signer, err: unknown, options: CloseOptions): Promise<void> {
  const target = typeof err === 'object' && err !== null ? (err as { details?: unknown; hint?: string }) : null;
  try {
    options.onProgress?.(`the close failed: re-arming ${levelsText(intent.record.lifted)}`);
    const rearm = await rearmFromRecord(ctx, intent, signer);
    if (target) target.details = { ...(typeof target.details === 'object' && target.details !== null ? target.details : {}), rearm };
    if (target && rearm.summary.length > 0) target.hint = [target.hint, ...rearm.summary].filter(Boolean).join(' ');
  } catch (again) {
    // The record stays: the next start of the app or the command line re-arms from it.
    if (target) target.hint = [target.hint, `The lifted ${levelsText(intent.record.lifted)} could not be re-armed now (${(again as Error).message}); the next start of Perps Desk or \`perps\` re-arms them.`].filter(Boolean).join(' ');
  }
}

async function closeSteps(ctx: TradingContext, prepared: PreparedClose, signer: Signer, options: CloseOptions, intent: RearmIntent | null): Promise<Omit<ClosePositionResult, 'rearm'>> {
  const { wallet, accountId, market } = prepared;
  // Rule 4, first half: cancel every armed trigger on the market and wait until none is listed.
  let cancelled: CancelLegResult[] = [];
  if (prepared.cancel) {
    options.onProgress?.(`cancelling ${prepared.cancel.targets.length} armed trigger${prepared.cancel.targets.length === 1 ? '' : 's'} on ${market}`);
    cancelled = (await submitCancel(ctx, prepared.cancel, signer, { confirm: false })).results;
    options.onProgress?.('waiting for position-triggers to clear');
    await pollUntil(ctx.sleep, `waiting for the ${market} triggers to be cancelled`, async () => ((await armedTriggers(ctx, wallet, market)).triggers.length === 0 ? true : undefined), {
      minIntervalMs: 150,
      maxIntervalMs: 1_000,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  // `closeable` is zero while a trigger is armed; read it once they are gone. A trigger that fired
  // meanwhile may have closed the position already.
  const current = await waitForPosition(ctx, accountId, market, (p) => p === undefined || new Decimal(p.closeable).gt(0), `waiting for the ${market} position to become closeable`, { timeoutMs: 15_000 }).catch(
    (err: unknown) => {
      if (!(err instanceof WaitTimeoutError)) throw err;
      throw new OperationError('NOTHING_CLOSEABLE', `the ${market} position has nothing closeable (${(err as Error).message})`, {
        hint: 'Resting reduce-only orders reserve part of a position; cancel them (`perps order cancel-all --market ...`) and try again.',
        cause: err,
        details: { cancelled_triggers: cancelled.map((c) => c.order_id) },
      });
    },
  );
  if (!current) throw noPosition(wallet, market);
  const reviewed = prepared.order.legs[0]!.size;
  // The size was reviewed against what would be closeable: if that changed (a fill elsewhere, a trigger
  // that fired), the reviewed size (or percentage) no longer means what the person agreed to.
  if (!new Decimal(current.closeable).eq(prepared.closeable)) {
    throw new OperationError('POSITION_CHANGED', `the ${market} position changed since the close was reviewed: ${canonical(current.closeable)} is closeable now, the review was for ${prepared.closeable} (closing ${reviewed}); nothing more was signed`, {
      hint: 'Review the close again.',
      details: { cancelled_triggers: cancelled.map((c) => c.order_id), closeable: current.closeable },
    });
  }

  const limit = prepared.order.legs[0]!.order_type === 'LIMIT';
  options.onProgress?.(limit ? `placing the limit close of ${reviewed} ${market} at ${prepared.order.legs[0]!.limit_price}` : `closing ${reviewed} ${market}`);
  // A MARKET leg is followed to its end; a resting limit until it rests (or ends at once).
  const placed: PlaceOrdersResult = await submitOrder(ctx, prepared.order, signer, {
    wait: true,
    ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const order = placed.legs[0]!;
  if (intent && order.order_id) noteCloseOrder(ctx, intent, order.order_id);
  if (order.status !== 'SUBMITTED') {
    throw new OperationError(order.reason ?? 'CLOSE_REJECTED', `the closing order was ${order.status}${order.reason ? ` (${order.reason})` : ''}`, {
      details: { order, cancelled_triggers: cancelled.map((c) => c.order_id) },
    });
  }
  const final = order.final;
  const filled = final !== undefined && isFilled(final);
  if (limit && final && !final.terminal) {
    // Resting on the book: the position closes as it fills, which the positions stream shows.
    return { wallet, market, position_before: prepared.position, cancelled_triggers: cancelled, order, position_after: current, closed: false, resting: true };
  }
  if (!filled) {
    throw new OperationError('CLOSE_NOT_FILLED', `the closing order ${order.order_id} ended ${final?.status ?? 'unknown'}${final?.reason ? ` (${final.reason})` : ''}`, {
      hint: limit ? 'The limit close did not rest; check its reason and place it again.' : 'No liquidity within the slippage bound; retry with a larger --slippage-bps.',
      details: { order, cancelled_triggers: cancelled.map((c) => c.order_id) },
    });
  }
  options.onProgress?.('waiting for /positions to reflect the fill');
  const after = await waitForPosition(ctx, accountId, market, (p) => p === undefined || p.version > current.version, `waiting for the ${market} position to reflect the close`, {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { wallet, market, position_before: prepared.position, cancelled_triggers: cancelled, order, position_after: after ?? null, closed: after === undefined, resting: false };
}

export interface ReverseInput {
  wallet: string;
  market: string;
  /** Tolerance of both MARKET legs' bounds; default the market's slippage_bps. */
  slippageBps?: number;
  /** Size of the new, opposite position; default the size of the old one. */
  size?: string;
  /** Leverage of the new position; default the user's default for the market. */
  leverage?: number;
  /** Fat-finger guards the new entry may pass (LARGE_ORDER: the new position is above the cap). */
  allow?: GuardAllowance;
}

export interface ReversePositionResult {
  wallet: string;
  market: string;
  close: ClosePositionResult;
  entry: PlaceOrdersResult;
  position_after: Position;
}

export interface PreparedReverse extends PreparedBase<'reverse'> {
  readonly close: PreparedClose;
  /** The opposite entry, sent once the position is flat. */
  readonly entry: PreparedOrder;
  readonly view: { wallet: string; market: string; close: PreparedClose['view']; entry: PreparedOrder['view']; summary: string[] };
}

/** Rule 5 prepared: the close, then an opposite MARKET entry, each with its typed data. */
export async function prepareReverse(ctx: TradingContext, input: ReverseInput): Promise<PreparedReverse> {
  // The whole position is closed at market: `size` is the new position's, not the close's.
  const close = await prepareClose(ctx, { wallet: input.wallet, market: input.market, ...(input.slippageBps !== undefined ? { slippageBps: input.slippageBps } : {}) });
  const market = await ctx.config.market(input.market);
  const long = new Decimal(close.position.size).isPos();
  const size = input.size ?? canonical(new Decimal(close.position.size).abs());
  const entry = await prepareLegs(
    ctx,
    {
      wallet: close.wallet,
      legs: [
        {
          market: input.market,
          side: long ? 'SELL' : 'BUY',
          size,
          order_type: 'MARKET',
          leverage: input.leverage ?? defaultLeverageFor(readPreferences(ctx.settings), market),
          ...(input.slippageBps !== undefined ? { slippage_bps: input.slippageBps } : {}),
        },
      ],
      labels: ['entry'],
      kind: 'reverse',
      ...(input.allow ? { allow: input.allow } : {}),
    },
    // The close releases the position's margin before the entry is sent.
    { creditFree: new Decimal(close.position.isolated_margin) },
  );
  return {
    action: 'reverse',
    profile: ctx.profile.name,
    wallet: close.wallet,
    signer: close.signer,
    requests: [...close.requests, ...entry.requests],
    close,
    entry,
    view: {
      wallet: close.wallet,
      market: input.market,
      close: close.view,
      entry: entry.view,
      summary: [...close.view.summary, `Then open a ${long ? 'short' : 'long'} of ${size} ${input.market} at market, ${entry.legs[0]!.leverage}x`],
    },
  };
}

/** Rule 5: exit, wait for flat, then enter the opposite way. */
export async function reversePosition(ctx: TradingContext, input: ReverseInput, options: CloseOptions = {}): Promise<ReversePositionResult> {
  const prepared = await prepareReverse(ctx, input);
  return submitReverse(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

export async function submitReverse(ctx: TradingContext, prepared: PreparedReverse, signer: Signer, options: CloseOptions = {}): Promise<ReversePositionResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const { wallet } = prepared;
  const { market, accountId } = prepared.close;
  const long = new Decimal(prepared.close.position.size).isPos();
  const close = await submitClose(ctx, prepared.close, signer, options);
  if (!close.closed) {
    throw new OperationError('NOT_FLAT', `the ${market} position is not flat after the close (size ${close.position_after?.size ?? '?'}); not entering the opposite way`, {
      hint: 'Close the rest with `perps position close`, then place the new order.',
      details: { close },
    });
  }
  options.onProgress?.(`entering ${long ? 'short' : 'long'} ${prepared.entry.legs[0]!.size} ${market}`);
  const entry = await submitOrder(ctx, prepared.entry, signer, { wait: true, ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}) });
  const leg = entry.legs[0]!;
  if (leg.status !== 'SUBMITTED' || !leg.final || !isFilled(leg.final)) {
    throw new OperationError('REVERSE_ENTRY_FAILED', `the position was closed but the opposite entry ended ${leg.final?.status ?? leg.status}${(leg.final?.reason ?? leg.reason) ? ` (${leg.final?.reason ?? leg.reason})` : ''}`, {
      hint: 'The account is flat now; place the new order again if you still want it.',
      details: { close, entry },
    });
  }
  const after = await waitForPosition(
    ctx,
    accountId,
    market,
    (p) => p !== undefined && (long ? new Decimal(p.size).isNeg() : new Decimal(p.size).isPos()),
    `waiting for the reversed ${market} position`,
    { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
  );
  return { wallet, market, close, entry, position_after: after! };
}
