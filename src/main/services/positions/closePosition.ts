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
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { ListedOrder, Position } from '../../../shared/protocol/index.js';
import { OperationError, ValidationError } from '../errors.js';
import { isArmedTriggerRow } from '../orders/brackets.js';
import { cancelOrders, type CancelLegResult } from '../orders/cancelOrders.js';
import { pollUntil, walletIds, WaitTimeoutError, type TradingContext } from '../orders/orderContext.js';
import { isFilled } from '../orders/orderTracker.js';
import { placeOrders, type PlacedLeg, type PlaceOrdersResult } from '../orders/placeOrders.js';
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
async function armedTriggers(ctx: TradingContext, wallet: string, market: string): Promise<ListedOrder[]> {
  const fromTriggers = (await ctx.api.positionTriggers(wallet)).orders.filter((o) => o.market === market && o.order_type === 'TRIGGER');
  const open = await ctx.api.allOpenOrders({ wallet, market });
  const workingEntries = new Set(open.filter((o) => o.order_type !== 'TRIGGER').map((o) => o.order_id));
  const arming = open.filter((o) => o.order_type === 'TRIGGER' && o.parent_order_id && !workingEntries.has(o.parent_order_id));
  const byId = new Map<string, ListedOrder>();
  for (const o of [...fromTriggers, ...open.filter(isArmedTriggerRow), ...arming]) byId.set(o.order_id, o);
  return [...byId.values()];
}

export async function closePosition(ctx: TradingContext, input: CloseInput, options: CloseOptions = {}): Promise<ClosePositionResult> {
  const { wallet, accountId } = walletIds(input.wallet);
  await ctx.config.market(input.market);
  const before = await readPosition(ctx, accountId, input.market);
  if (!before || new Decimal(before.size).isZero()) throw noPosition(wallet, input.market);

  // Rule 4, first half: cancel every armed trigger on the market and wait until none is listed.
  const triggers = await armedTriggers(ctx, wallet, input.market);
  let cancelled: CancelLegResult[] = [];
  if (triggers.length > 0) {
    options.onProgress?.(`cancelling ${triggers.length} armed trigger${triggers.length === 1 ? '' : 's'} on ${input.market}`);
    cancelled = (await cancelOrders(ctx, { wallet, targets: triggers.map((t) => ({ order_id: t.order_id, order_type: 'TRIGGER' as const })) }, { confirm: false })).results;
    options.onProgress?.('waiting for position-triggers to clear');
    await pollUntil(
      ctx.sleep,
      `waiting for the ${input.market} triggers to be cancelled`,
      async () => ((await armedTriggers(ctx, wallet, input.market)).length === 0 ? true : undefined),
      { minIntervalMs: 150, maxIntervalMs: 1_000, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
    );
  }

  // Size comes from `closeable`, read after the triggers are gone (it is zero while one is armed). A
  // trigger that fired meanwhile may have closed the position already.
  const current = await waitForPosition(
    ctx,
    accountId,
    input.market,
    (p) => p === undefined || new Decimal(p.closeable).gt(0),
    `waiting for the ${input.market} position to become closeable`,
    { timeoutMs: 15_000 },
  ).catch((err: unknown) => {
    if (!(err instanceof WaitTimeoutError)) throw err;
    throw new OperationError('NOTHING_CLOSEABLE', `the ${input.market} position has nothing closeable (${(err as Error).message})`, {
      hint: 'Resting reduce-only orders reserve part of a position; cancel them (`perps order cancel-all --market ...`) and try again.',
      cause: err,
    });
  });
  if (!current) throw noPosition(wallet, input.market);

  const long = new Decimal(current.size).isPos();
  options.onProgress?.(`closing ${canonical(current.closeable)} ${input.market}`);
  const placed: PlaceOrdersResult = await placeOrders(
    ctx,
    {
      wallet,
      legs: [{ market: input.market, side: long ? 'SELL' : 'BUY', size: canonical(current.closeable), order_type: 'MARKET', reduce_only: true, ...(input.slippageBps !== undefined ? { slippage_bps: input.slippageBps } : {}) }],
      labels: ['close'],
    },
    { wait: true, ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
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
  const after = await waitForPosition(ctx, accountId, input.market, (p) => p === undefined || p.version > current.version, `waiting for the ${input.market} position to reflect the close`, {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { wallet, market: input.market, position_before: before, cancelled_triggers: cancelled, order, position_after: after ?? null, closed: after === undefined };
}

export interface ReverseInput extends CloseInput {
  /** Size of the new, opposite position; default the size of the old one. */
  size?: string;
  leverage?: number;
}

export interface ReversePositionResult {
  wallet: string;
  market: string;
  close: ClosePositionResult;
  entry: PlaceOrdersResult;
  position_after: Position;
}

/** Rule 5: exit, wait for flat, then enter the opposite way. */
export async function reversePosition(ctx: TradingContext, input: ReverseInput, options: CloseOptions = {}): Promise<ReversePositionResult> {
  const { wallet, accountId } = walletIds(input.wallet);
  const before = await readPosition(ctx, accountId, input.market);
  if (!before || new Decimal(before.size).isZero()) throw noPosition(wallet, input.market);
  const long = new Decimal(before.size).isPos();
  const size = input.size ?? canonical(new Decimal(before.size).abs());
  const close = await closePosition(ctx, input, options);
  if (!close.closed) {
    throw new OperationError('NOT_FLAT', `the ${input.market} position is not flat after the close (size ${close.position_after?.size ?? '?'}); not entering the opposite way`, {
      hint: 'Close the rest with `perps position close`, then place the new order.',
      details: { close },
    });
  }
  options.onProgress?.(`entering ${long ? 'short' : 'long'} ${size} ${input.market}`);
  const entry = await placeOrders(
    ctx,
    {
      wallet,
      legs: [
        {
          market: input.market,
          side: long ? 'SELL' : 'BUY',
          size,
          order_type: 'MARKET',
          ...(input.leverage !== undefined ? { leverage: input.leverage } : {}),
          ...(input.slippageBps !== undefined ? { slippage_bps: input.slippageBps } : {}),
        },
      ],
      labels: ['entry'],
    },
    { wait: true, ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}) },
  );
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
    input.market,
    (p) => p !== undefined && (long ? new Decimal(p.size).isNeg() : new Decimal(p.size).isPos()),
    `waiting for the reversed ${input.market} position`,
    { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
  );
  return { wallet, market: input.market, close, entry, position_after: after! };
}
