/**
 * A TWAP as it is persisted in the data folder (src/main/services/algos/twap/twapStore.ts), and the one check a
 * stored record passes before anything reads it: the schema AND the invariants a record this app wrote
 * always keeps. A record can be damaged by a disk fault, a bug or a hand edit; one that fails here is
 * shown as damaged and never run, resumed or cancelled, so damage can never make a TWAP send more than
 * its target (a negative fill read as room left, a slice whose index is not its position, a forged client
 * order id adopting an unrelated order, a slice counted twice). Pure: no clock, no files.
 *
 * A slice moves pending -> sending (written BEFORE its order is sent: its client order id, size, bound
 * and nonce) -> sent (the order id came back) -> an outcome (filled, partial, unfilled, rejected, failed).
 * A slice found `sending` after a restart is looked up by its client order id before anything else is
 * sent, so it is never sent twice; one found `sent` is followed to its outcome. `pending` slices whose
 * time passed while nothing ran become `missed`: reported, never sent late.
 */
import { z } from 'zod';
import { Decimal } from '../../decimal/index.js';
import { decimalOut } from '../../fieldSchemas.js';
import { TWAP_SLICE_STATUSES, TWAP_STOP_REASONS } from '../../ipc/twap.js';
import { SIDES } from '../../protocol/schemas/orders.js';

// Signed on purpose: a negative fill is damage the invariants below name, not a shape error.
const dec = decimalOut;
const ms = z.number().int().nonnegative();

/** What the record itself says; `interrupted` is derived (running, but no live process holds its lock). */
export const STORED_TWAP_STATUSES = ['running', 'paused', 'completed', 'cancelled', 'stopped', 'failed'] as const;
export type StoredTwapStatus = (typeof STORED_TWAP_STATUSES)[number];
export type SliceStatus = (typeof TWAP_SLICE_STATUSES)[number];
export type TwapStopReason = (typeof TWAP_STOP_REASONS)[number];

export const TWAP_ID = /^[0-9a-f]{12}$/;

export const TwapFillRecordSchema = z.object({ tid: z.string(), price: dec, size: dec, time: ms });

export const TwapSliceRecordSchema = z.object({
  index: z.number().int().nonnegative(),
  due_at: ms,
  size: dec,
  client_order_id: z.string().min(1),
  status: z.enum(TWAP_SLICE_STATUSES),
  sent_size: dec.nullable(),
  limit_price: dec.nullable(),
  nonce: z.string().nullable(),
  sent_at: ms.nullable(),
  order_id: z.string().nullable(),
  filled_size: dec,
  avg_fill_price: dec.nullable(),
  fills: z.array(TwapFillRecordSchema),
  reason: z.string().nullable(),
});
export type TwapSliceRecord = z.infer<typeof TwapSliceRecordSchema>;

export const TwapRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(TWAP_ID),
  profile: z.string(),
  wallet: z.string(),
  market: z.string(),
  side: z.enum(SIDES),
  total_size: dec,
  reduce_only: z.boolean(),
  slippage_bps: z.number().int(),
  leverage: z.number().int().nullable(),
  duration_ms: z.number().int(),
  interval_ms: z.number().int(),
  randomize_time_pct: z.number().int(),
  randomize_size_pct: z.number().int(),
  seed: z.number().int(),
  arrival_mark: dec,
  /** The person confirmed LARGE_ORDER for the whole TWAP: its slices may pass the notional cap. */
  allow_large: z.boolean(),
  created_at: ms,
  status: z.enum(STORED_TWAP_STATUSES),
  /** Asked by another process (or the app) while a runner holds the TWAP: acted on before the next slice. */
  requested: z.enum(['pause', 'cancel']).nullable(),
  stop_reason: z.enum(TWAP_STOP_REASONS).nullable(),
  stop_detail: z.string().nullable(),
  slices: z.array(TwapSliceRecordSchema).min(1),
  notes: z.array(z.string()),
  updated_at: ms,
});
export type TwapRecord = z.infer<typeof TwapRecordSchema>;

/** A slice's client order id: derived, so every process names the same slice the same way. */
export function sliceClientOrderId(twapId: string, index: number): string {
  return `twap-${twapId}-${index}`;
}

/** A slice as it is stored before anything was sent for it. */
export function pendingSliceRecord(twapId: string, index: number, dueAt: number, size: string): TwapSliceRecord {
  return {
    index,
    due_at: dueAt,
    size,
    client_order_id: sliceClientOrderId(twapId, index),
    status: 'pending',
    sent_size: null,
    limit_price: null,
    nonce: null,
    sent_at: null,
    order_id: null,
    filled_size: '0',
    avg_fill_price: null,
    fills: [],
    reason: null,
  };
}

/** The slice index a client order id of TWAP `twapId` names, or null when it is not one of its ids. */
export function sliceIndexOfClientOrderId(twapId: string, clientOrderId: string): number | null {
  const m = /^twap-([0-9a-f]{12})-(0|[1-9]\d{0,5})$/.exec(clientOrderId);
  return m && m[1] === twapId ? Number(m[2]) : null;
}

/** Slice states that have (or may have) an order id at the service once they are reached. */
const WITH_ORDER: ReadonlySet<SliceStatus> = new Set(['sent', 'filled', 'partial', 'unfilled']);

export type TwapRecordCheck = { ok: true; record: TwapRecord } | { ok: false; problems: string[] };

/** At most this many problems are named (a record broken everywhere needs no list of 2,000 lines). */
const MAX_PROBLEMS = 5;

/** Text from the file, cut short: a problem names it, it never fills the screen. */
function quoted(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function sliceProblems(s: TwapSliceRecord, position: number, twapId: string, out: string[]): void {
  const name = `slice ${position + 1}`;
  if (s.index !== position) out.push(`${name} says it is index ${s.index}, but it is at position ${position} (slices must be in index order, each once)`);
  if (s.client_order_id !== sliceClientOrderId(twapId, position)) out.push(`${name} carries client order id '${quoted(s.client_order_id)}', not '${sliceClientOrderId(twapId, position)}' (the only one this app gives it)`);
  const size = new Decimal(s.size);
  if (size.lte(0)) out.push(`${name} has size ${quoted(s.size)} (must be above 0)`);
  const filled = new Decimal(s.filled_size);
  if (filled.isNeg()) out.push(`${name} has filled_size ${quoted(s.filled_size)} (must not be negative)`);
  if (s.sent_size !== null) {
    const sent = new Decimal(s.sent_size);
    if (sent.lte(0) || sent.gt(size)) out.push(`${name} has sent_size ${quoted(s.sent_size)} (must be above 0 and at most its size ${quoted(s.size)})`);
    if (filled.gt(sent)) out.push(`${name} has filled ${quoted(s.filled_size)} of the ${quoted(s.sent_size)} it sent`);
  } else if (filled.gt(0)) out.push(`${name} has filled ${quoted(s.filled_size)} but records no size sent`);
  for (const [field, v] of [['limit_price', s.limit_price], ['avg_fill_price', s.avg_fill_price]] as const) {
    if (v !== null && new Decimal(v).lte(0)) out.push(`${name} has ${field} ${quoted(v)} (must be above 0)`);
  }
  if (s.fills.some((f) => new Decimal(f.size).lte(0) || new Decimal(f.price).lte(0))) out.push(`${name} has a fill whose size or price is not above 0`);
  // (A negative fill is named once, above.)
  if (s.status === 'pending' && (s.order_id !== null || s.sent_size !== null || filled.gt(0) || s.fills.length > 0)) out.push(`${name} is pending but records an order, a size sent or fills`);
  if (s.status === 'sending' && (s.sent_size === null || s.limit_price === null || s.sent_at === null)) out.push(`${name} is sending but lacks the size, bound or time it was sent with`);
  if (WITH_ORDER.has(s.status) && s.order_id === null) out.push(`${name} is ${s.status} but records no order id`);
}

/**
 * The record `raw` (parsed JSON) if it passes the schema and every invariant; otherwise the problems
 * found (the first few), in words a person can act on.
 */
export function checkTwapRecord(raw: unknown): TwapRecordCheck {
  const parsed = TwapRecordSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.slice(0, MAX_PROBLEMS).map((i) => `${i.path.join('.') || 'record'}: ${i.message}`) };
  }
  const r = parsed.data;
  const problems: string[] = [];
  const total = new Decimal(r.total_size);
  if (total.lte(0)) problems.push(`total_size is ${quoted(r.total_size)} (must be above 0)`);
  r.slices.forEach((s, i) => sliceProblems(s, i, r.id, problems));
  const sum = r.slices.reduce((a, s) => a.plus(s.size), new Decimal(0));
  if (!sum.eq(total)) problems.push(`the slice sizes add up to ${quoted(sum.toFixed())}, not the target ${quoted(r.total_size)}`);
  const orderIds = r.slices.map((s) => s.order_id).filter((x): x is string => x !== null);
  const repeated = orderIds.find((id, i) => orderIds.indexOf(id) !== i);
  if (repeated !== undefined) problems.push(`order ${quoted(repeated)} is claimed by more than one slice (its fills would count twice)`);
  return problems.length === 0 ? { ok: true, record: r } : { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
}

/** What a person reads of a damaged record: its problems in one line. */
export function damageReason(problems: readonly string[]): string {
  return problems.join('; ');
}

/**
 * What can still be read of a damaged record to tell which TWAP it was: each field only if it passes its
 * own schema, else null. Never used to run anything.
 */
export function damagedRecordSummary(raw: unknown): {
  profile: string | null;
  wallet: string | null;
  market: string | null;
  side: (typeof SIDES)[number] | null;
  total_size: string | null;
  created_at: number | null;
} {
  const o = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const field = <T>(schema: z.ZodType<T>, key: string): T | null => {
    const r = schema.safeParse(o[key]);
    return r.success ? r.data : null;
  };
  return {
    profile: field(z.string().max(200), 'profile'),
    wallet: field(z.string().max(200), 'wallet'),
    market: field(z.string().max(32), 'market'),
    side: field(z.enum(SIDES), 'side'),
    total_size: field(dec.max(40), 'total_size'),
    created_at: field(ms, 'created_at'),
  };
}
