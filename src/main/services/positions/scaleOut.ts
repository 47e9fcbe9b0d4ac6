/**
 * A scale-out: a reduce-only ladder (`perps order scale --reduce-only`, the app's Scale ticket with
 * Reduce-only) on a position whose TP/SL is armed. The service refuses any reduce-only order beside an
 * armed reduce-only trigger (spec "Position lifecycle rules" 3, order rule 5: close_trigger_coexistence),
 * so, as a partial close does (closePosition.ts, rearm.ts):
 *
 *  1. every armed trigger on the market is cancelled first (rule 4) and position-triggers polled until
 *     none is listed; the whole-position TP/SL among them are written to protection/<id>.json (fsynced)
 *     BEFORE the first Cancel, so a process killed from then on leaves them for the next start to re-arm;
 *  2. the ladder is placed and followed until its legs rest (or end);
 *  3. the lifted levels are re-armed at the same trigger and fire prices, whole position: while the ladder
 *     rests the position is still open, and as rungs fill they cover what is left. A level the mark has
 *     passed, or a re-arm the service refuses, is reported loudly, never dropped in silence.
 *
 * A failure after the lift (a cancel or the ladder refused) puts the levels back before the error is
 * reported. A sized trigger (a set part of the position) is cancelled and said, not re-armed, as a close
 * does. Every other order (and a ladder with nothing armed beside it) prepares and submits as usual, so
 * the app and the command line both call prepareOrderIntent and submitOrderIntent for every intent.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { OrderReview } from '../../../shared/orders/review.js';
import type { LiftedLevel } from '../../../shared/orders/rearmRecord.js';
import type { Signer } from '../../signers/signer.js';
import { OperationError, ValidationError } from '../errors.js';
import { prepareCancelOrders, submitCancel, type CancelLegResult, type PreparedCancel } from '../orders/cancelOrders.js';
import { pollUntil, walletIds, type TradingContext } from '../orders/orderContext.js';
import { parseIntent, prepareParsedIntent, type PrepareOrderInput, type PreparedOrder } from '../orders/prepareOrder.js';
import { submitOrder, type PlaceOptions, type PlaceOrdersResult } from '../orders/submitOrder.js';
import { assertPreparedFor } from '../signing/prepared.js';
import { armedTriggers, closeableWithoutTriggers, rearmAfterFailure } from './closePosition.js';
import { groupDigits } from './positionTpsl.js';
import { readPosition } from './positionWaits.js';
import { levelsText, liftedLevels, rearmFromRecord, writeRearmIntent, type RearmOutcome } from './rearm.js';

/** What a scale-out lifts before its ladder goes out. */
export interface PreparedLift {
  readonly market: string;
  readonly side: 'LONG' | 'SHORT';
  /** Every armed trigger on the market (rule 4); null never: a lift exists only when one is armed. */
  readonly cancel: PreparedCancel;
  /** The whole-position TP/SL among them: written down before the first Cancel, re-armed after the ladder. */
  readonly lifted: LiftedLevel[];
}

/** A prepared order; a scale-out on a protected position carries what it lifts. */
export type PreparedIntentOrder = PreparedOrder & { readonly lift?: PreparedLift };

export interface IntentPlaceResult extends PlaceOrdersResult {
  /** The triggers a scale-out cancelled first (empty for any other order). */
  cancelled_triggers: CancelLegResult[];
  /** What became of the lifted TP/SL (null: nothing was lifted). */
  rearm: RearmOutcome | null;
}

/**
 * Prepares an order intent. A reduce-only scale ladder on the side that reduces a position whose triggers
 * are armed is prepared as a scale-out (see the module comment); anything else exactly as prepareOrder.
 */
export async function prepareOrderIntent(ctx: TradingContext, input: PrepareOrderInput): Promise<PreparedIntentOrder> {
  const intent = parseIntent(input.intent);
  const { wallet, accountId } = walletIds(input.wallet);
  if (intent.kind !== 'scale' || intent.reduce_only !== true) return prepareParsedIntent(ctx, wallet, intent, input.allow);
  const market = await ctx.config.market(intent.market);
  const [position, { triggers, open }] = await Promise.all([readPosition(ctx, accountId, market.symbol), armedTriggers(ctx, wallet, market.symbol)]);
  const size = position ? new Decimal(position.size) : new Decimal(0);
  const reduces = !size.isZero() && (size.isPos() ? intent.side === 'SELL' : intent.side === 'BUY');
  // Nothing armed, no position, or a ladder on the side that would add: the usual path (and its refusals).
  if (triggers.length === 0 || !reduces || !position) return prepareParsedIntent(ctx, wallet, intent, input.allow);

  const closeable = closeableWithoutTriggers(position, open);
  if (new Decimal(intent.total_size).gt(closeable)) {
    throw new ValidationError(`the ladder's ${canonical(new Decimal(intent.total_size))} is more than the closeable ${canonical(closeable)} ${market.symbol}`, {
      field: 'total_size',
      code: 'SIZE_ABOVE_CLOSEABLE',
      hint: `Scale out at most ${canonical(closeable)}; resting reduce-only orders reserve the rest of the position.`,
    });
  }
  // The ladder is prepared (and so checked) before any Cancel takes a nonce: a refused one reserves none.
  const order = await prepareParsedIntent(ctx, wallet, intent, input.allow, { triggersCancelledFirst: true });
  const cancel = await prepareCancelOrders(ctx, { wallet, targets: triggers.map((t) => ({ order_id: t.order_id, order_type: 'TRIGGER' as const })) });
  const lifted = liftedLevels(triggers);
  const sized = triggers.filter((t) => !lifted.some((l) => l.order_id === t.order_id));
  const side = size.isPos() ? 'LONG' : 'SHORT';
  const positionSize = canonical(size.abs());
  const name = (t: { tpsl?: string | null | undefined }) => (t.tpsl === 'tp' ? 'take-profit' : t.tpsl === 'sl' ? 'stop-loss' : 'trigger');
  const summary = [
    ...triggers.map((t) => `Cancel the ${name(t)} ${t.order_id}${t.trigger_price ? ` at ${groupDigits(t.trigger_price)}` : ''} first (a reduce-only order cannot coexist with an armed trigger)`),
    ...(lifted.length > 0
      ? [`${levelsText(lifted)} ${lifted.length === 1 ? 'is' : 'are'} lifted for the ladder and re-armed once it rests, on the whole position (${positionSize} ${market.symbol} now): ${lifted.length === 1 ? 'it covers' : 'they cover'} what is left as it fills`]
      : []),
  ];
  const warnings = [...order.view.warnings];
  if (sized.length > 0) {
    warnings.push(`${sized.map((t) => `the ${name(t)} ${t.order_id}${t.trigger_price ? ` at ${t.trigger_price}` : ''}`).join(', ')} ${sized.length === 1 ? 'covers' : 'cover'} a set size, not the whole position: cancelled and not re-armed; set ${sized.length === 1 ? 'it' : 'them'} again if you still want ${sized.length === 1 ? 'it' : 'them'}`);
  }
  const view: OrderReview = {
    ...order.view,
    warnings,
    protection: {
      triggers_to_cancel: triggers.map((t) => ({ order_id: t.order_id, tpsl: t.tpsl === 'tp' || t.tpsl === 'sl' ? t.tpsl : null, trigger_price: t.trigger_price ?? null })),
      rearm: lifted.map((l) => ({ kind: l.kind, trigger_price: l.trigger_price, limit_price: l.limit_price })),
      position_size: positionSize,
      summary,
    },
  };
  return { ...order, view, lift: { market: market.symbol, side, cancel, lifted } };
}

/** Prepares and submits with the wallet's trading key, in one go. */
export async function placeOrderIntent(ctx: TradingContext, input: PrepareOrderInput, options: PlaceOptions = {}): Promise<IntentPlaceResult> {
  const prepared = await prepareOrderIntent(ctx, input);
  return submitOrderIntent(ctx, prepared, await ctx.tradingSigner(prepared.wallet), options);
}

/**
 * Submits what prepareOrderIntent prepared. A scale-out lifts, places the ladder (followed until its legs
 * rest, whatever `options.wait` says: the re-arm comes after) and re-arms; anything else is submitOrder.
 */
export async function submitOrderIntent(ctx: TradingContext, prepared: PreparedIntentOrder, signer: Signer, options: PlaceOptions = {}): Promise<IntentPlaceResult> {
  const lift = prepared.lift;
  if (!lift) return { ...(await submitOrder(ctx, prepared, signer, options)), cancelled_triggers: [], rearm: null };
  assertPreparedFor(prepared, ctx.profile.name);
  // Intent before the cancel: a crash from here on leaves the levels written down for the next start.
  const intent = lift.lifted.length > 0 ? writeRearmIntent(ctx, { wallet: prepared.wallet, market: lift.market, side: lift.side, lifted: lift.lifted }) : null;
  let cancelled: CancelLegResult[] = [];
  let placed: PlaceOrdersResult;
  try {
    options.onProgress?.(`cancelling ${lift.cancel.targets.length} armed trigger${lift.cancel.targets.length === 1 ? '' : 's'} on ${lift.market}`);
    cancelled = (await submitCancel(ctx, lift.cancel, signer, { confirm: false })).results;
    options.onProgress?.('waiting for position-triggers to clear');
    await pollUntil(ctx.sleep, `waiting for the ${lift.market} triggers to be cancelled`, async () => ((await armedTriggers(ctx, prepared.wallet, lift.market)).triggers.length === 0 ? true : undefined), {
      minIntervalMs: 150,
      maxIntervalMs: 1_000,
      ...(options.waitTimeoutMs !== undefined ? { timeoutMs: options.waitTimeoutMs } : {}),
    });
    placed = await submitOrder(ctx, prepared, signer, { ...options, wait: true });
  } catch (err) {
    // Lifted and then failed: the levels go back on the position before the error is reported.
    if (intent) await rearmAfterFailure(ctx, intent, signer, err, options.onProgress ? { onProgress: options.onProgress } : {});
    throw err;
  }
  if (!intent) return { ...placed, cancelled_triggers: cancelled, rearm: null };
  options.onProgress?.(`re-arming ${levelsText(intent.record.lifted)} on the ${lift.market} position`);
  try {
    return { ...placed, cancelled_triggers: cancelled, rearm: await rearmFromRecord(ctx, intent, signer) };
  } catch (err) {
    // The ladder is out and the levels are not back (the service unreachable, say): the record stays, so
    // the next start re-arms them; the trader hears it now, not only then.
    throw new OperationError('PROTECTION_NOT_RESTORED', `the ${lift.market} ladder was placed, but the lifted ${levelsText(intent.record.lifted)} could not be re-armed now: ${(err as Error).message}`, {
      hint: 'The next start of Perps Desk or of any `perps` command re-arms them from the record written before the cancels; or set them again with `perps position tpsl`.',
      cause: err,
      details: { legs: placed.legs.map((l) => ({ order_id: l.order_id, status: l.status, reason: l.reason })), cancelled_triggers: cancelled.map((c) => c.order_id) },
    });
  }
}

/** A re-arm that left the position less protected than the trader set it (a level not back). */
export function protectionLost(rearm: RearmOutcome | null): boolean {
  return rearm !== null && rearm.remaining !== null && rearm.past_mark.length + rearm.failed.length > 0;
}
