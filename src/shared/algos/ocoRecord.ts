/**
 * A one-cancels-the-other pair as it is persisted in the data folder (src/main/services/algos/oco), and
 * the one check a stored record passes before anything reads it. One that fails is damaged: shown, never
 * acted on.
 *
 * Two resting LIMIT GTC entry legs on one market; the first fill of either (any fill, even partial)
 * cancels the other at once, client-side, exactly once. Exactly once rests on the order of writes:
 *  - both legs are written as `sending` (their client order ids) before the batch is sent; after a crash
 *    they are looked up in order-history before anything else;
 *  - the cancel of the other leg is written (`cancel_sent_at`) before it is sent; after a crash the other
 *    leg's status is read first, and the cancel is sent again only if it is still open and none was sent.
 */
import { z } from 'zod';
import { Decimal, isDecimalString } from '../decimal/index.js';
import { addressSchema, decimalOut, marketSymbol } from '../fieldSchemas.js';

const ms = z.number().int().nonnegative();
// A text that is no decimal is refused by decimalOut; the refinements never read it as a number (zod runs them anyway).
const positive = decimalOut.refine((v) => isDecimalString(v) && new Decimal(v).gt(0), 'must be greater than 0');

export const OCO_LEG_STATUSES = ['pending', 'sending', 'open', 'filled', 'partial', 'cancelled', 'rejected', 'unsent'] as const;
export const OCO_STATUSES = ['working', 'done', 'cancelled', 'failed'] as const;

export const OcoLegSchema = z.object({
  side: z.enum(['BUY', 'SELL']),
  price: positive,
  size: positive,
  client_order_id: z.string().min(1).max(100),
  status: z.enum(OCO_LEG_STATUSES),
  order_id: z.string().min(1).max(100).nullable(),
  filled_size: decimalOut,
  reason: z.string().max(500).nullable(),
});
export type OcoLeg = z.infer<typeof OcoLegSchema>;

export const OcoRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{12}$/),
  profile: z.string().min(1).max(100),
  wallet: addressSchema,
  market: marketSymbol,
  leverage: z.number().int().positive().nullable(),
  legs: z.tuple([OcoLegSchema, OcoLegSchema]),
  status: z.enum(OCO_STATUSES),
  /** The leg that filled first (0 or 1): the other is cancelled. */
  winner: z.union([z.literal(0), z.literal(1)]).nullable(),
  /** When the cancel of the other leg was sent (written before it goes out). */
  cancel_sent_at: ms.nullable(),
  sent_at: ms.nullable(),
  notes: z.array(z.string().max(2_000)).max(100),
  created_at: ms,
  updated_at: ms,
});
export type OcoRecord = z.infer<typeof OcoRecordSchema>;

export type OcoRecordCheck = { ok: true; record: OcoRecord } | { ok: false; problems: string[] };

/** The client order id of leg `i` of OCO `id`: the same in every process. */
export function ocoClientOrderId(id: string, i: 0 | 1): string {
  return `oco-${id}-${i}`;
}

export function checkOcoRecord(raw: unknown): OcoRecordCheck {
  const parsed = OcoRecordSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`) };
  const r = parsed.data;
  const problems: string[] = [];
  r.legs.forEach((l, i) => {
    if (l.client_order_id !== ocoClientOrderId(r.id, i as 0 | 1)) problems.push(`legs.${i}: its client order id is not this pair's`);
    if (new Decimal(l.filled_size).lt(0) || new Decimal(l.filled_size).gt(l.size)) problems.push(`legs.${i}: filled ${l.filled_size} of ${l.size}`);
  });
  if (r.cancel_sent_at !== null && r.winner === null) problems.push('a cancel was sent with no leg filled');
  return problems.length === 0 ? { ok: true, record: r } : { ok: false, problems };
}

export { damagedAlgoSummary as damagedOcoSummary } from './damagedSummary.js';
