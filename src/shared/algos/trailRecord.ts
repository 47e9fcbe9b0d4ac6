/**
 * A trailing stop as it is persisted in the data folder (src/main/services/algos/trailing), and the one
 * check a stored record passes before anything reads it: the schema and the invariants a record this app
 * wrote always keeps. One that fails is damaged: shown, never run (so damage never moves a stop).
 *
 * A move of the stop is written as `moving` (its client order id, the order it modifies, the new trigger
 * and fire price, when) BEFORE the Modify is sent; after a crash it is looked up in order-history before
 * anything else is sent, so a move is never sent twice and one that landed is never lost.
 *
 * Its id is derived from the profile, wallet and market (trailId), so one position has one trailing stop
 * and its run lock makes sure two processes never trail it.
 */
import { z } from 'zod';
import { Decimal, isDecimalString } from '../decimal/index.js';
import { addressSchema, decimalOut, marketSymbol } from '../fieldSchemas.js';

const ms = z.number().int().nonnegative();
// A text that is no decimal is refused by decimalOut; the refinements never read it as a number (zod runs them anyway).
const positive = decimalOut.refine((v) => isDecimalString(v) && new Decimal(v).gt(0), 'must be greater than 0');

export const TRAIL_STATUSES = ['trailing', 'off', 'ended'] as const;
export type TrailStatus = (typeof TRAIL_STATUSES)[number];

/**
 * Why trailing ended: the position closed (the stop fired, or it was closed), its stop was removed, or
 * its stop fired and could not fill (the position is still open and no longer protected).
 */
export const TRAIL_END_REASONS = ['position_closed', 'stop_removed', 'stop_failed'] as const;

export const TrailDistanceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), value: positive.refine((v) => isDecimalString(v) && new Decimal(v).lt(100), 'a percentage must be below 100') }),
  z.object({ kind: z.literal('price'), value: positive }),
]);

export const TrailStopSchema = z.object({ order_id: z.string().min(1).max(100), trigger_price: positive, fire_price: positive });

export const TrailMovingSchema = z.object({
  client_order_id: z.string().min(1).max(100),
  from_order_id: z.string().min(1).max(100),
  from_trigger: positive,
  to_trigger: positive,
  fire_price: positive,
  nonce: z.string().max(40),
  sent_at: ms,
});

export const TrailRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{12}$/),
  profile: z.string().min(1).max(100),
  wallet: addressSchema,
  market: marketSymbol,
  side: z.enum(['LONG', 'SHORT']),
  distance: TrailDistanceSchema,
  activate: positive.nullable(),
  /** A random key per arming: the moves' client order ids are new to the account each time. */
  run_key: z.string().regex(/^[0-9a-f]{8}$/),
  status: z.enum(TRAIL_STATUSES),
  end_reason: z.enum(TRAIL_END_REASONS).nullable(),
  high_water: positive.nullable(),
  stop: TrailStopSchema.nullable(),
  /** When the stop last moved (ms). */
  last_move_at: ms.nullable(),
  /** When the runner last looked at the mark (ms): the candles after it are what the desk missed. */
  last_seen_at: ms,
  moves: z.number().int().nonnegative(),
  moving: TrailMovingSchema.nullable(),
  /** The 1m candle the stop was armed in, as it stood then (its earlier extremes are not the stop's). */
  armed_candle: z.object({ t: ms, T: ms, h: positive, l: positive }).nullable(),
  /** What happened while nothing trailed it, said once at the next start (null when nothing to say). */
  away: z.string().max(2_000).nullable(),
  notes: z.array(z.string().max(2_000)).max(100),
  created_at: ms,
  updated_at: ms,
});
export type TrailRecord = z.infer<typeof TrailRecordSchema>;
export type TrailMoving = z.infer<typeof TrailMovingSchema>;

export type TrailRecordCheck = { ok: true; record: TrailRecord } | { ok: false; problems: string[] };

function better(side: 'LONG' | 'SHORT', a: string, b: string): boolean {
  return side === 'LONG' ? new Decimal(a).gt(b) : new Decimal(a).lt(b);
}

/**
 * The schema, then the invariants (a move in flight is a gain from the stop as stored and carries this
 * stop's client order id, an end has a reason). The stop is not checked against the high-water mark here:
 * a stop set by hand since the last look is adopted as it is. What only the service can say is checked
 * by the runner against the service (trailRunner.ts): the stop it ratchets from is the level the service
 * lists as armed, a stored stop that disagrees with that order marks the record damaged, and a stored
 * high-water mark beyond any price the venue shows since arming is brought back to what it shows.
 */
export function checkTrailRecord(raw: unknown): TrailRecordCheck {
  const parsed = TrailRecordSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`) };
  const r = parsed.data;
  const problems: string[] = [];
  if (r.moving) {
    if (!better(r.side, r.moving.to_trigger, r.moving.from_trigger)) problems.push(`moving: ${r.moving.from_trigger} -> ${r.moving.to_trigger} is not in the trader's favour`);
    // A move is written from the stop as it stands, and the stop changes only when the move is settled.
    if (r.stop && (r.moving.from_order_id !== r.stop.order_id || !new Decimal(r.moving.from_trigger).eq(r.stop.trigger_price))) problems.push(`moving: it moves from ${r.moving.from_trigger} (order ${r.moving.from_order_id}), not from the stop ${r.stop.trigger_price} (order ${r.stop.order_id})`);
    if (!r.moving.client_order_id.startsWith(`trail-${r.run_key}-`)) problems.push("moving: its client order id is not this trailing stop's");
  }
  if (r.status === 'ended' && r.end_reason === null) problems.push('ended without a reason');
  if (r.status !== 'ended' && r.end_reason !== null) problems.push(`${r.status} with an end reason`);
  return problems.length === 0 ? { ok: true, record: r } : { ok: false, problems };
}

export { damagedAlgoSummary as damagedTrailSummary } from './damagedSummary.js';

/** The client order id of move `n` of a trailing stop armed with `runKey`. */
export function moveClientOrderId(runKey: string, n: number): string {
  return `trail-${runKey}-${n}`;
}
