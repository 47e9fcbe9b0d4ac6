/**
 * Closing and reversing positions, exactly as the spec's "Position lifecycle rules":
 *
 *  3. A position with an armed reduce-only trigger cannot be closed (close_trigger_coexistence).
 *  4. Exit: cancel every armed trigger on the market (order_type TRIGGER), poll position-triggers until
 *     they are gone, then send ONE reduce-only MARKET leg on the side opposite to the position, with the
 *     size taken from `closeable`.
 *  5. No atomic flip: reverse by exiting, waiting for flat, then entering the opposite way.
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
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { ListedOrder, Position } from '../../../shared/protocol/index.js';
import type { Signer } from '../../signers/signer.js';
import { OperationError, ValidationError } from '../errors.js';
import { isArmedTriggerRow } from '../orders/brackets.js';
import { prepareCancelOrders, submitCancel, type CancelLegResult, type PreparedCancel } from '../orders/cancelOrders.js';
import { pollUntil, walletIds, WaitTimeoutError, type TradingContext } from '../orders/orderContext.js';
import { isFilled } from '../orders/orderTracker.js';
import { prepareLegs, type PreparedOrder } from '../orders/prepareOrder.js';
import { submitOrder, type PlacedLeg, type PlaceOrdersResult } from '../orders/submitOrder.js';
import { defaultLeverageFor, readPreferences } from '../settings/preferences.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { readPosition, waitForPosition } from './positionWaits.js';

export interface CloseInput {
  wallet: string;
  market: string;
  /** Tolerance of the MARKET leg's bound; default the market's slippage_bps. */
  slippageBps?: number;
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
  /** The reduce-only MARKET leg, tracked to its terminal state. */
  order: PlacedLeg;
  /** The position once /positions reflects the fill; null when it is closed. */
  position_after: Position | null;
  closed: boolean;
}

export interface PreparedClose extends PreparedBase<'close'> {
  readonly market: string;
  readonly accountId: string;
  readonly position: Position;
  /** The armed triggers to cancel first (null when none is armed). */
  readonly cancel: PreparedCancel | null;
  /** The one reduce-only MARKET leg on the opposite side, sized to what will be closeable. */
  readonly order: PreparedOrder;
  readonly view: {
    wallet: string;
    market: string;
    side: 'LONG' | 'SHORT';
    size: string;
    entry_price: string;
    /** What the closing leg closes (the position less what resting reduce-only orders reserve). */
    close_size: string;
    triggers_to_cancel: { order_id: string; tpsl: string | null; trigger_price: string | null }[];
    summary: string[];
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
async function armedTriggers(ctx: TradingContext, wallet: string, market: string): Promise<{ triggers: ListedOrder[]; open: ListedOrder[] }> {
  const fromTriggers = (await ctx.api.positionTriggers(wallet)).orders.filter((o) => o.market === market && o.order_type === 'TRIGGER');
  const open = await ctx.api.allOpenOrders({ wallet, market });
  const workingEntries = new Set(open.filter((o) => o.order_type !== 'TRIGGER').map((o) => o.order_id));
  const arming = open.filter((o) => o.order_type === 'TRIGGER' && o.parent_order_id && !workingEntries.has(o.parent_order_id));
  const byId = new Map<string, ListedOrder>();
  for (const o of [...fromTriggers, ...open.filter(isArmedTriggerRow), ...arming]) byId.set(o.order_id, o);
  return { triggers: [...byId.values()], open };
}

/** What `closeable` is once no trigger is armed: the size less the remainder of resting reduce-only limits. */
function closeableWithoutTriggers(position: Position, open: readonly ListedOrder[]): Decimal {
  let reserved = new Decimal(0);
  for (const o of open) {
    if (o.market !== position.market || !o.reduce_only || o.order_type !== 'LIMIT' || o.status !== 'open') continue;
    reserved = reserved.plus(new Decimal(o.size).minus(o.filled_size));
  }
  return Decimal.max(new Decimal(position.size).abs().minus(reserved), 0);
}

export async function prepareClose(ctx: TradingContext, input: CloseInput): Promise<PreparedClose> {
  const { wallet, accountId } = walletIds(input.wallet);
  await ctx.config.market(input.market);
  const position = await readPosition(ctx, accountId, input.market);
  if (!position || new Decimal(position.size).isZero()) throw noPosition(wallet, input.market);
  const { triggers, open } = await armedTriggers(ctx, wallet, input.market);
  const size = triggers.length > 0 ? closeableWithoutTriggers(position, open) : new Decimal(position.closeable);
  if (size.isZero()) {
    throw new ValidationError(`the ${input.market} position has nothing closeable: resting reduce-only orders reserve all of it`, {
      field: 'market',
      code: 'NOTHING_CLOSEABLE',
      hint: 'Cancel the resting reduce-only orders (`perps order cancel-all --market ...`) and try again.',
    });
  }
  const cancel = triggers.length > 0 ? await prepareCancelOrders(ctx, { wallet, targets: triggers.map((t) => ({ order_id: t.order_id, order_type: 'TRIGGER' as const })) }) : null;
  const long = new Decimal(position.size).isPos();
  const order = await prepareLegs(
    ctx,
    {
      wallet,
      legs: [{ market: input.market, side: long ? 'SELL' : 'BUY', size: canonical(size), order_type: 'MARKET', reduce_only: true, ...(input.slippageBps !== undefined ? { slippage_bps: input.slippageBps } : {}) }],
      labels: ['close'],
      kind: 'close',
    },
    { triggersCancelledFirst: true },
  );
  const summary = [
    ...(cancel ? cancel.view.summary : []),
    `Close ${canonical(size)} ${input.market} of the ${long ? 'long' : 'short'} at market (reduce-only, bound ${order.legs[0]!.limit_price})`,
  ];
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
    view: {
      wallet,
      market: input.market,
      side: long ? 'LONG' : 'SHORT',
      size: position.size,
      entry_price: position.entry_price,
      close_size: canonical(size),
      triggers_to_cancel: triggers.map((t) => ({ order_id: t.order_id, tpsl: t.tpsl ?? null, trigger_price: t.trigger_price ?? null })),
      summary,
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
  if (!new Decimal(current.closeable).eq(reviewed)) {
    throw new OperationError('POSITION_CHANGED', `the ${market} position changed since the close was reviewed: ${canonical(current.closeable)} is closeable now, the review closes ${reviewed}; nothing more was signed`, {
      hint: 'Review the close again.',
      details: { cancelled_triggers: cancelled.map((c) => c.order_id), closeable: current.closeable },
    });
  }

  options.onProgress?.(`closing ${reviewed} ${market}`);
  const placed: PlaceOrdersResult = await submitOrder(ctx, prepared.order, signer, {
    wait: true,
    ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const order = placed.legs[0]!;
  if (order.status !== 'SUBMITTED') {
    throw new OperationError(order.reason ?? 'CLOSE_REJECTED', `the closing order was ${order.status}${order.reason ? ` (${order.reason})` : ''}`, { details: { order } });
  }
  const final = order.final;
  if (!final || !isFilled(final)) {
    throw new OperationError('CLOSE_NOT_FILLED', `the closing order ${order.order_id} ended ${final?.status ?? 'unknown'}${final?.reason ? ` (${final.reason})` : ''}`, {
      hint: 'No liquidity within the slippage bound; retry with a larger --slippage-bps.',
      details: { order },
    });
  }
  options.onProgress?.('waiting for /positions to reflect the fill');
  const after = await waitForPosition(ctx, accountId, market, (p) => p === undefined || p.version > current.version, `waiting for the ${market} position to reflect the close`, {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { wallet, market, position_before: prepared.position, cancelled_triggers: cancelled, order, position_after: after ?? null, closed: after === undefined };
}

export interface ReverseInput extends CloseInput {
  /** Size of the new, opposite position; default the size of the old one. */
  size?: string;
  /** Leverage of the new position; default the user's default for the market. */
  leverage?: number;
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
  const close = await prepareClose(ctx, input);
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
