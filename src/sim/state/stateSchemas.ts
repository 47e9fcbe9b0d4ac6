/**
 * What the engine's restore validates before it uses any of it: the engine's part of a state file's head
 * (the store's head, the pending jobs, the chaos settings, the random state) whole, and each of the
 * store's records as it is read. A state file is outside input: what is wrong throws SnapshotError naming
 * the part (and a record's kind and id), which startSimulator reports as the file's refusal.
 *
 * Each schema is typed as the model type it must produce (z.ZodType<T>), so a field added to the model
 * without its schema does not compile. Decimal fields use the shared grammar (src/shared/fieldSchemas.ts):
 * unsigned where the model never has a sign (sizes, prices, amounts), signed where it may (a position's
 * size, fees, PnL, funding payments, a margin adjustment, a balance).
 */
import { z } from 'zod';
import { decimalIn, signedDecimalIn } from '../../shared/fieldSchemas.js';
import {
  DEPOSIT_STATUSES,
  LIST_STATUSES,
  MARGIN_REQUEST_STATUSES,
  ORDER_STATUSES,
  ORDER_TYPES,
  SIDES,
  TIME_IN_FORCE,
  TPSL,
  WITHDRAWAL_STATUSES,
} from '../../shared/protocol/index.js';
import { ChaosSchema } from '../config/schema.js';
import type { JobPayloads } from '../context.js';
import type { JobRecord } from '../core/jobs.js';
import type { EngineHead } from '../engine.js';
import type {
  Account,
  DepositRecord,
  FillRow,
  FundingRow,
  MarginRequestRecord,
  OrderTrigger,
  SimOrder,
  SimPosition,
  TradingKeyRecord,
  WithdrawalRecord,
} from './model.js';
import { SnapshotError } from './snapshotError.js';
import type { Counters, ForcedNext, HistoryTuple, StoreHead, StoreRecord } from './store.js';

const unsigned = decimalIn;
const signed = signedDecimalIn;
const ms = z.number().int().min(0);
const count = z.number().int().min(0);
const id = z.string().min(1);
const text = z.string();

const counters: z.ZodType<Counters> = z.object({ order: count, position: count, withdrawal: count, deposit: count, margin: count });

const account: z.ZodType<Account> = z.object({ wallet: id, free: signed });

const tradingKey: z.ZodType<TradingKeyRecord> = z.object({
  wallet: id,
  agent: id,
  created_at: ms,
  expires_at: ms,
  revoked_at: ms.nullable(),
  name: text.nullable(),
  key_hint: text.nullable(),
});

const position: z.ZodType<SimPosition> = z.object({
  id,
  market: id,
  size: signed,
  entry_price: unsigned,
  isolated_margin: unsigned,
  version: count,
  opened_at: ms,
  updated_at: ms,
});

const deposit: z.ZodType<DepositRecord> = z.object({
  id,
  wallet: id,
  tx_hash: text,
  amount: unsigned,
  source: z.enum(['send', 'spotTransfer', 'internalTransfer']),
  rail: text,
  status: z.enum(DEPOSIT_STATUSES),
  detected_at: ms,
  credited_at: ms.nullable(),
});

const withdrawalOutcome = z.enum(['REFUNDED', 'FAILED', 'REJECTED']);
const withdrawal: z.ZodType<WithdrawalRecord> = z.object({
  withdrawal_id: id,
  wallet: id,
  account_id: id,
  amount: unsigned,
  l1_send_amount: unsigned,
  new_wallet_fee: unsigned,
  destination: id,
  rail: z.enum(['hypercore', 'arbitrum']),
  destination_chain_id: z.number().int().nullable(),
  status: z.enum(WITHDRAWAL_STATUSES),
  failure_reason: text.nullable(),
  l1_tx_hash: text.nullable(),
  created_at: ms,
  updated_at: ms,
  completed_at: ms.nullable(),
  locked: z.boolean(),
  forced_outcome: withdrawalOutcome.nullable(),
});

const marginOutcome = z.enum(['TRANSFER_DECLINED', 'DECLINED']);
const marginRequest: z.ZodType<MarginRequestRecord> = z.object({
  request_id: id,
  wallet: id,
  account_id: id,
  market: id,
  amount: signed,
  status: z.enum(MARGIN_REQUEST_STATUSES),
  reason: text.nullable(),
  created_at: ms,
  resolved_at: ms.nullable(),
  visible_at: ms,
  forced_outcome: marginOutcome.nullable(),
});

const forcedNext: z.ZodType<ForcedNext> = z.object({ withdrawal: withdrawalOutcome.nullable(), margin: marginOutcome.nullable(), orderFailed: z.boolean() });

const storeHead: z.ZodType<StoreHead> = z.object({
  counters,
  accounts: z.array(account),
  keys: z.array(tradingKey),
  positions: z.record(z.string(), z.array(position)),
  published: z.record(z.string(), z.array(position)),
  deposits: z.array(deposit),
  withdrawals: z.array(withdrawal),
  withdrawalRequests: z.record(z.string(), z.array(ms)),
  margin: z.array(marginRequest),
  forcedNext,
});

/** The payload of each job kind, as the engine schedules it. */
const orderRef = z.object({ order_id: id });
const byId = z.object({ id });
const jobPayloads: { [K in keyof JobPayloads]: z.ZodType<JobPayloads[K]> } = {
  'order.accept': orderRef,
  'order.execute': orderRef,
  'order.settle': orderRef,
  'order.cancel': orderRef,
  'order.modify': z.object({ old_id: id, new_id: id }),
  'bracket.arm': z.object({ entry_id: id }),
  'position.publish': z.object({ wallet: id, market: id, view: position.nullable() }),
  'deposit.confirm': byId,
  'withdrawal.step': byId,
  'margin.apply': byId,
  'funding.settle': z.object({ epoch: ms }),
};

const job: z.ZodType<JobRecord> = z
  .object({ id: z.number().int().min(1), at: ms, kind: z.string(), payload: z.unknown() })
  .superRefine((j, ctx) => {
    const payload = Object.hasOwn(jobPayloads, j.kind) ? jobPayloads[j.kind as keyof JobPayloads] : undefined;
    if (!payload) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `a job of unknown kind ${j.kind}` });
      return;
    }
    const parsed = payload.safeParse(j.payload);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['payload', ...issue.path] } as never);
  });

const engineHead: z.ZodType<EngineHead> = z.object({
  store: storeHead,
  jobs: z.object({ nextId: z.number().int().min(1), jobs: z.array(job) }),
  chaos: ChaosSchema,
  random: z.number().int().min(0).max(0xffffffff),
});

declare const validated: unique symbol;

/** An engine head that passed its schema whole (parseEngineHead): the only form SimEngine restores. */
export type ValidEngineHead = EngineHead & { readonly [validated]: true };

/** `data` (a state file's engine part) checked whole; a SnapshotError says what is wrong and where. */
export function parseEngineHead(data: unknown): ValidEngineHead {
  const parsed = engineHead.safeParse(data);
  if (!parsed.success) throw new SnapshotError(`invalid engine snapshot: ${z.prettifyError(parsed.error)}`);
  return parsed.data as ValidEngineHead;
}

const trigger: z.ZodType<OrderTrigger> = z.object({ trigger_price: unsigned, is_market: z.boolean(), tpsl: z.enum(TPSL) });

const order: z.ZodType<SimOrder> = z.object({
  order_id: id,
  wallet: id,
  account_id: id,
  client_order_id: text,
  market: id,
  side: z.enum(SIDES),
  order_type: z.enum(ORDER_TYPES),
  size: unsigned,
  whole_position: z.boolean(),
  filled_size: unsigned,
  filled_notional: unsigned,
  fees: signed,
  limit_price: unsigned,
  time_in_force: z.enum(TIME_IN_FORCE),
  reduce_only: z.boolean(),
  leverage: count,
  trigger: trigger.nullable(),
  status: z.enum(ORDER_STATUSES),
  reason: text.nullable(),
  submitted_at: ms,
  status_at: ms,
  visible_at: ms,
  avg_fill_price: unsigned.nullable(),
  parent_order_id: id.nullable(),
  bracket_entry_id: id.nullable(),
  bracket_legs: z.array(id),
  is_modifying: z.boolean(),
  replaced_by: id.nullable(),
  replaces: id.nullable(),
  fired_at: ms.nullable(),
  mark_at_submit: unsigned.nullable(),
  forced_failure: z.boolean(),
});

const historyTuple: z.ZodType<HistoryTuple> = z.tuple([
  id,
  z.enum(LIST_STATUSES),
  count,
  unsigned,
  unsigned,
  unsigned.nullable(),
  text.nullable(),
  z.boolean(),
  id.nullable(),
]);

const fill: z.ZodType<FillRow> = z.object({
  tid: count,
  order_id: id,
  market: id,
  side: z.enum(['buy', 'sell']),
  price: unsigned,
  size: unsigned,
  fee: signed,
  closed_pnl: signed.nullable(),
  dir: z.enum(['Open Long', 'Open Short', 'Close Long', 'Close Short']),
  is_liquidation: z.boolean(),
  filled_at: ms,
  liquidity: z.enum(['maker', 'taker']),
});

const funding: z.ZodType<FundingRow> = z.object({
  market: id,
  direction: z.enum(['LONG', 'SHORT']),
  size: unsigned,
  payment: signed,
  funding_rate: signed,
  epoch_time: ms,
  settled_at: ms,
});

/** Each record kind: its schema, and how to name a record of it in a refusal (read before validation). */
const records: { [K in StoreRecord[0]]: { schema: z.ZodType<Extract<StoreRecord, [K, ...unknown[]]>>; name: (r: unknown[]) => unknown } } = {
  order: { schema: z.tuple([z.literal('order'), order]), name: (r) => (r[1] as { order_id?: unknown } | null)?.order_id },
  history: { schema: z.tuple([z.literal('history'), id, historyTuple]), name: (r) => (Array.isArray(r[2]) ? r[2][0] : undefined) },
  fill: { schema: z.tuple([z.literal('fill'), id, fill]), name: (r) => (r[2] as { order_id?: unknown } | null)?.order_id },
  funding: { schema: z.tuple([z.literal('funding'), id, funding]), name: (r) => r[1] },
  cloids: { schema: z.tuple([z.literal('cloids'), id, z.array(text)]), name: (r) => r[1] },
  nonces: { schema: z.tuple([z.literal('nonces'), id, z.array(text)]), name: (r) => r[1] },
};

/**
 * One record of the store as read from a state file (an array whose first item is a string), checked
 * against its kind's schema; a SnapshotError names the kind, the record's id (an order's, a row's order,
 * a wallet) when it has one, and what is wrong.
 */
export function parseStoreRecord(record: readonly unknown[]): StoreRecord {
  const kind = record[0];
  const known = typeof kind === 'string' && Object.hasOwn(records, kind) ? records[kind as StoreRecord[0]] : undefined;
  if (!known) throw new SnapshotError(`unknown state record ${JSON.stringify(kind)}`);
  const parsed = known.schema.safeParse(record);
  if (parsed.success) return parsed.data;
  const name = known.name(record as unknown[]);
  throw new SnapshotError(`invalid ${kind} record${typeof name === 'string' ? ` ${name}` : ''}: ${z.prettifyError(parsed.error)}`);
}

const rowsByAccount = z.record(z.string(), z.array(z.unknown()));
/** A version 1 store's collections (LegacyStoreSnapshot) as deep as legacyRecords reads them. */
const legacyCollections = z.object({
  orders: z.array(z.object({ order_id: z.unknown() })),
  history: z.record(z.string(), z.array(z.object({}))),
  fills: rowsByAccount,
  funding: rowsByAccount,
  nonces: rowsByAccount,
});

/**
 * Checks that a version 1 store's collections are what legacyRecords walks (the records it makes of them
 * are then validated each, parseStoreRecord); a SnapshotError says what is wrong.
 */
export function checkLegacyCollections(store: unknown): void {
  const parsed = legacyCollections.safeParse(store);
  if (!parsed.success) throw new SnapshotError(`invalid engine snapshot (version 1 store): ${z.prettifyError(parsed.error)}`);
}
