/**
 * A chase as it is persisted in the data folder (src/main/services/algos/chase), and the one check a
 * stored record passes before anything reads it. One that fails is damaged: listed, never run, never
 * resumed (so damage never moves or sends an order).
 *
 * Exactly one live order at a time, and exactly once, by the order of writes:
 *  - a new order (the first, or the next after a post-only rejection or when crossing) is written as
 *    `order` with no order id yet (its client order id, price, size) BEFORE it is sent; after a crash or a
 *    lost answer it is looked up in order-history before anything else is sent;
 *  - a re-price is written as `moving` (its new client order id, the order it modifies, the new price)
 *    BEFORE the Modify is sent, and settled from the service (applied, dropped, rejected, or never sent)
 *    before anything else is sent;
 *  - a cancel (the limit or the timeout with `--on-limit cancel`, or before crossing) is written
 *    (`cancel_sent_at`) before it is sent.
 */
import { z } from 'zod';
import { Decimal, isDecimalString } from '../../decimal/index.js';
import { addressSchema, decimalOut, marketSymbol } from '../../fieldSchemas.js';
import { ON_LIMIT_CHOICES } from './chaseFlags.js';

const ms = z.number().int().nonnegative();
// A text that is no decimal is refused by decimalOut; the refinements never read it as a number.
const positive = decimalOut.refine((v) => isDecimalString(v) && new Decimal(v).gt(0), 'must be greater than 0');
const nonNegative = decimalOut.refine((v) => isDecimalString(v) && new Decimal(v).gte(0), 'must not be negative');
const orderId = z.string().min(1).max(100);
const cloid = z.string().min(1).max(100);

export const CHASE_STATUSES = ['working', 'done'] as const;
/**
 * Why a chase is over: it filled; the best price went --max-distance away; --timeout passed; the trader
 * stopped it; its order ended at the service without this chase (cancelled by hand); crossing found
 * nothing to take; a send was refused.
 */
export const CHASE_END_REASONS = ['filled', 'max_distance', 'timeout', 'stopped', 'order_gone', 'taker_unfilled', 'refused'] as const;
export type ChaseEndReason = (typeof CHASE_END_REASONS)[number];

export const ChaseMaxDistanceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), value: positive.refine((v) => isDecimalString(v) && new Decimal(v).lt(100), 'a percent must be below 100') }),
  z.object({ kind: z.literal('price'), value: positive }),
]);

export const ChaseOrderSchema = z.object({
  /** null while its answer is not known (written before it is sent). */
  order_id: orderId.nullable(),
  client_order_id: cloid,
  price: positive,
  size: positive,
  /** post: a resting post-only (ALO) limit; taker: a marketable IOC limit for the remainder. */
  kind: z.enum(['post', 'taker']),
  filled_size: nonNegative,
  sent_at: ms,
});
export type ChaseOrder = z.infer<typeof ChaseOrderSchema>;

export const ChaseMovingSchema = z.object({
  client_order_id: cloid,
  from_order_id: orderId,
  to_price: positive,
  size: positive,
  sent_at: ms,
  /** The new order's id once the service answered (or order-history showed it). */
  new_order_id: orderId.nullable(),
});
export type ChaseMoving = z.infer<typeof ChaseMovingSchema>;

export const ChaseRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{12}$/),
  profile: z.string().min(1).max(100),
  wallet: addressSchema,
  market: marketSymbol,
  /** The market's venue symbol: the l2Book feed it follows. */
  coin: z.string().min(1).max(32),
  side: z.enum(['BUY', 'SELL']),
  size: positive,
  leverage: z.number().int().positive(),
  offset_ticks: z.number().int().nonnegative().max(1_000),
  max_distance: ChaseMaxDistanceSchema.nullable(),
  timeout_ms: ms.nullable(),
  interval_ms: z.number().int().positive(),
  taker_after_ms: ms.nullable(),
  on_limit: z.enum(ON_LIMIT_CHOICES),
  status: z.enum(CHASE_STATUSES),
  end_reason: z.enum(CHASE_END_REASONS).nullable(),
  /** The followed best price (bid for a buy, ask for a sell) when it started: the max distance is measured from it. */
  start_best: positive,
  started_at: ms,
  order: ChaseOrderSchema.nullable(),
  moving: ChaseMovingSchema.nullable(),
  /** Filled by orders of this chase that are over. */
  filled_before: nonNegative,
  /** Orders and modifies sent so far: the next client order id is chase-<id>-<sends + 1>. */
  sends: z.number().int().nonnegative(),
  moves: z.number().int().nonnegative(),
  last_move_at: ms.nullable(),
  /** When the cancel of the live order was sent (written before it goes out). */
  cancel_sent_at: ms.nullable(),
  notes: z.array(z.string().max(2_000)).max(100),
  created_at: ms,
  updated_at: ms,
});
export type ChaseRecord = z.infer<typeof ChaseRecordSchema>;

export type ChaseRecordCheck = { ok: true; record: ChaseRecord } | { ok: false; problems: string[] };

/** The client order id of send `n` (1-based) of chase `id`: new to the account, the same in every process. */
export function chaseClientOrderId(id: string, n: number): string {
  return `chase-${id}-${n}`;
}

function sendNumber(id: string, cloid: string): number | null {
  const m = /^chase-([0-9a-f]{12})-([1-9]\d{0,8})$/.exec(cloid);
  return m && m[1] === id ? Number(m[2]) : null;
}

/** What has filled across the chase's orders. */
export function chaseFilled(r: Pick<ChaseRecord, 'filled_before' | 'order'>): Decimal {
  return new Decimal(r.filled_before).plus(r.order?.filled_size ?? '0');
}

/** The schema, then the invariants a record this app wrote always keeps. */
export function checkChaseRecord(raw: unknown): ChaseRecordCheck {
  const parsed = ChaseRecordSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`) };
  const r = parsed.data;
  const problems: string[] = [];
  const filled = chaseFilled(r);
  if (filled.gt(r.size)) problems.push(`filled ${filled.toFixed()} of ${r.size}`);
  if (r.order) {
    const n = sendNumber(r.id, r.order.client_order_id);
    if (n === null || n > r.sends) problems.push("order: its client order id is not one of this chase's sends");
    if (new Decimal(r.order.filled_size).gt(r.order.size)) problems.push(`order: filled ${r.order.filled_size} of ${r.order.size}`);
  }
  if (r.moving) {
    const n = sendNumber(r.id, r.moving.client_order_id);
    if (n === null || n > r.sends) problems.push("moving: its client order id is not one of this chase's sends");
    // A move is written from the live order, and the order changes only when the move is settled.
    if (!r.order || r.order.order_id !== r.moving.from_order_id) problems.push('moving: it does not modify the live order');
    if (r.order && r.order.kind !== 'post') problems.push('moving: only a resting post-only order is moved');
  }
  if (r.timeout_ms !== null && r.taker_after_ms !== null && r.taker_after_ms >= r.timeout_ms) problems.push('taker_after_ms is not before timeout_ms');
  if (r.status === 'done' && r.end_reason === null) problems.push('done without a reason');
  if (r.status !== 'done' && r.end_reason !== null) problems.push(`${r.status} with an end reason`);
  if (r.status === 'done' && r.moving !== null) problems.push('done with a move in flight');
  return problems.length === 0 ? { ok: true, record: r } : { ok: false, problems };
}

export { damagedAlgoSummary as damagedChaseSummary } from '../damagedSummary.js';
