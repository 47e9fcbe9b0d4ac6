/**
 * The write-ahead record of a close that lifts a position's whole-position TP/SL (issue 35, item 2).
 * The service forces the lift (a reduce-only close cannot coexist with an armed reduce-only trigger:
 * "Position lifecycle rules" 3 and 4), not the loss of protection: the levels are written here BEFORE the
 * first Cancel goes out, and re-armed on what remains once the close has gone. A process killed between
 * the cancel and the re-arm leaves this record behind; the next start of the app or the command line
 * finds it and re-arms (exactly once: it first looks at what the service already has armed).
 *
 * Checked as a whole on every read: a record that fails is damaged, shown and never acted on.
 */
import { z } from 'zod';
import { Decimal } from '../decimal/decimal.js';

const decimal = z.string().regex(/^\d+(\.\d+)?$/);

export const LiftedLevelSchema = z.strictObject({
  /** The trigger the close cancels. */
  order_id: z.string().min(1).max(128),
  kind: z.enum(['tp', 'sl']),
  trigger_price: decimal,
  /** Its fire price (the worst fill), kept as it was. */
  limit_price: decimal,
});
export type LiftedLevel = z.infer<typeof LiftedLevelSchema>;

export const RearmRecordSchema = z
  .strictObject({
    version: z.literal(1),
    id: z.string().regex(/^[0-9a-f]{12}$/),
    profile: z.string().min(1).max(64),
    wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    market: z.string().min(1).max(32),
    /** The side of the position the levels protect; a position on the other side is not theirs. */
    side: z.enum(['LONG', 'SHORT']),
    lifted: z.array(LiftedLevelSchema).min(1).max(2),
    /** The closing order once it was placed (null: not placed yet, or the process died before). */
    close_order_id: z.string().min(1).max(128).nullable(),
    created_at: z.number().int().nonnegative(),
    updated_at: z.number().int().nonnegative(),
  })
  .refine((r) => new Set(r.lifted.map((l) => l.kind)).size === r.lifted.length, { message: 'one level per kind', path: ['lifted'] });
export type RearmRecord = z.infer<typeof RearmRecordSchema>;

export function checkRearmRecord(raw: unknown): { ok: true; record: RearmRecord } | { ok: false; problems: string[] } {
  const r = RearmRecordSchema.safeParse(raw);
  return r.success ? { ok: true, record: r.data } : { ok: false, problems: r.error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`) };
}

/** Whether a level is now past the mark on its fire side: re-armed, it would fire at once (or be refused). */
export function levelPastMark(kind: 'tp' | 'sl', side: 'LONG' | 'SHORT', triggerPrice: string, mark: Decimal): boolean {
  const trigger = new Decimal(triggerPrice);
  // A long's stop sits below the mark and its take-profit above; a short's the other way.
  if (side === 'LONG') return kind === 'sl' ? trigger.gte(mark) : trigger.lte(mark);
  return kind === 'sl' ? trigger.lte(mark) : trigger.gte(mark);
}
