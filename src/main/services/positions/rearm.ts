/**
 * Protection kept through partial closes (issue 35, item 2). A reduce-only close must first cancel the
 * position's armed triggers (spec "Position lifecycle rules" 3 and 4); the levels it lifts are written to
 * a record in the data folder BEFORE the first Cancel (src/shared/orders/rearmRecord.ts), and re-armed at
 * the same levels (same trigger and fire prices, whole position) on what remains once the close has gone:
 * filled, failed, or resting as a limit. A limit close that fills in part leaves a position the
 * whole-position triggers still cover. A process killed in between leaves the record; the next start of
 * the app or the command line re-arms from it (restorePendingProtection).
 *
 * Exactly once: before placing a level, the service's own state decides. A trigger of that kind already
 * armed on the market (re-armed by a process that died before removing the record, or set by the trader)
 * means nothing is placed; so does one placed since the lift (it may have fired already). A lifted
 * trigger still armed means its cancel never took effect: it protects the position as it was.
 *
 * A level the mark has passed meanwhile is not re-armed (it would fire at once, or be refused): the
 * outcome says so, with the choice (close the rest at market, or set a new level), never silently.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { ListedOrder, Position } from '../../../shared/protocol/index.js';
import { checkRearmRecord, levelPastMark, type LiftedLevel, type RearmRecord } from '../../../shared/orders/rearmRecord.js';
import type { Signer } from '../../signers/signer.js';
import { AlgoStore } from '../algos/algoStore.js';
import { acquireRunLock, liveRunner, type AlgoNaming, type RunLock } from '../algos/runLock.js';
import { toAppError } from '../errors.js';
import { readMark, walletIds, type TradingContext } from '../orders/orderContext.js';
import { prepareLegs } from '../orders/prepareOrder.js';
import { submitOrder } from '../orders/submitOrder.js';
import { groupDigits } from './positionTpsl.js';
import { readPosition } from './positionWaits.js';

import { PROTECTION_FOLDER } from './protectionFolder.js';

export { PROTECTION_FOLDER, hasPendingProtection } from './protectionFolder.js';
const NAMING: AlgoNaming = { what: 'TP/SL re-arm', code: 'REARM', stopHint: () => 'Wait for the close that lifted them to finish' };
const NAME = { tp: 'TP', sl: 'SL' } as const;
/** How long a lifted trigger still listed is given for its cancel to land (it is asynchronous). */
const LIFT_SETTLE_MS = 5_000;

export interface RearmOutcome {
  market: string;
  /** What is left of the position, unsigned (null: nothing is left, so nothing needs protecting). */
  remaining: string | null;
  rearmed: { kind: 'tp' | 'sl'; trigger_price: string; limit_price: string; order_id: string | null }[];
  /** Levels the service already has armed (or placed since the lift): nothing was placed for them. */
  kept: { kind: 'tp' | 'sl'; order_id: string }[];
  /** Levels the mark has passed: not re-armed; the trader chooses. */
  past_mark: { kind: 'tp' | 'sl'; trigger_price: string; mark: string }[];
  /** Levels whose re-arm was refused or failed, with why. */
  failed: { kind: 'tp' | 'sl'; trigger_price: string; message: string }[];
  /** For people, one line each. */
  summary: string[];
}

function storeOf(ctx: Pick<TradingContext, 'profile'>): AlgoStore<RearmRecord, { profile: string | null }> {
  return new AlgoStore(ctx.profile.dataDir, {
    folder: PROTECTION_FOLDER,
    what: 'TP/SL re-arm',
    code: 'REARM',
    listCommand: 'perps positions',
    check: checkRearmRecord,
    summary: (raw) => ({ profile: typeof (raw as { profile?: unknown } | null)?.profile === 'string' ? (raw as { profile: string }).profile : null }),
    createdAt: (r) => r.created_at,
  });
}

/** The whole-position TP/SL among triggers a close is about to cancel: what it lifts (one per kind). */
export function liftedLevels(triggers: readonly ListedOrder[]): LiftedLevel[] {
  const out: LiftedLevel[] = [];
  for (const t of triggers) {
    if (t.order_type !== 'TRIGGER' || !t.reduce_only || !t.tpsl || !t.trigger_price || !new Decimal(t.size).isZero()) continue;
    if (out.some((l) => l.kind === t.tpsl)) continue;
    out.push({ order_id: t.order_id, kind: t.tpsl, trigger_price: canonical(new Decimal(t.trigger_price)), limit_price: canonical(new Decimal(t.limit_price)) });
  }
  // Said TP first, the way a trader reads a bracket.
  return out.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'tp' ? -1 : 1));
}

/** "TP 3,600 and SL 3,300". */
export function levelsText(levels: readonly Pick<LiftedLevel, 'kind' | 'trigger_price'>[]): string {
  return levels.map((l) => `${NAME[l.kind]} ${groupDigits(l.trigger_price)}`).join(' and ');
}

export interface RearmIntent {
  record: RearmRecord;
  lock: RunLock;
}

/**
 * Writes the record (fsynced) and holds it for this process: called before the first Cancel goes out.
 * Another process finding it while this one lives leaves it alone.
 */
export function writeRearmIntent(ctx: Pick<TradingContext, 'profile'>, input: { wallet: string; market: string; side: 'LONG' | 'SHORT'; lifted: LiftedLevel[] }): RearmIntent {
  const store = storeOf(ctx);
  const now = Date.now();
  const record: RearmRecord = { version: 1, id: randomBytes(6).toString('hex'), profile: ctx.profile.name, wallet: walletIds(input.wallet).wallet, market: input.market, side: input.side, lifted: input.lifted, close_order_id: null, created_at: now, updated_at: now };
  const lock = acquireRunLock(store.dir, record.id, NAMING);
  store.create(record);
  return { record, lock };
}

export function noteCloseOrder(ctx: Pick<TradingContext, 'profile'>, intent: RearmIntent, orderId: string): void {
  intent.record = storeOf(ctx).update(intent.record.id, (r) => ({ ...r, close_order_id: orderId }));
}

function removeRecord(ctx: Pick<TradingContext, 'profile'>, id: string): void {
  const store = storeOf(ctx);
  const file = store.fileOf(id);
  store.withLock(file, () => fs.rmSync(file, { force: true }));
}

/** The newest rows of the market's history, grouped by order: what was armed or placed since the lift. */
async function placedSince(ctx: TradingContext, record: RearmRecord, closing: 'buy' | 'sell'): Promise<Map<'tp' | 'sl', string>> {
  const rows = (await ctx.api.orderHistory({ wallet: record.wallet, market: record.market, limit: 200 })).orders;
  const liftedIds = new Set(record.lifted.map((l) => l.order_id));
  // The lift's moment on the service's own clock: the latest row of a lifted trigger.
  const liftedAt = Math.max(0, ...rows.filter((r) => liftedIds.has(r.order_id)).map((r) => r.status_at));
  const out = new Map<'tp' | 'sl', string>();
  for (const r of rows) {
    if (r.order_type !== 'TRIGGER' || !r.tpsl || liftedIds.has(r.order_id) || r.side !== closing || r.parent_order_id) continue;
    if (liftedAt > 0 && r.submitted_at >= liftedAt && !out.has(r.tpsl)) out.set(r.tpsl, r.order_id);
  }
  return out;
}

/**
 * Re-arms what the record lifted on what remains of the position, then removes the record. Reads first:
 * the position (none left, or one on the other side: nothing to protect), what is armed and what was
 * placed since the lift (kept as it is), and the mark (a level past it is reported, not placed).
 */
export async function rearmFromRecord(ctx: TradingContext, intent: RearmIntent, signer?: Signer): Promise<RearmOutcome> {
  const { record } = intent;
  const out: RearmOutcome = { market: record.market, remaining: null, rearmed: [], kept: [], past_mark: [], failed: [], summary: [] };
  try {
    const { accountId, wallet } = walletIds(record.wallet);
    const position: Position | undefined = await readPosition(ctx, accountId, record.market);
    const size = position ? new Decimal(position.size) : new Decimal(0);
    if (size.isZero() || (record.side === 'LONG') !== size.isPos()) {
      out.summary.push(`${levelsText(record.lifted)}: not re-armed, the ${record.market} ${record.side.toLowerCase()} is closed`);
      removeRecord(ctx, record.id);
      return out;
    }
    out.remaining = canonical(size.abs());
    const closing = record.side === 'LONG' ? 'sell' : 'buy';
    const armedNow = async () => (await ctx.api.positionTriggers(wallet)).orders.filter((o) => o.market === record.market && o.order_type === 'TRIGGER' && o.side === closing);
    let armed = await armedNow();
    // A cancel is asynchronous: one sent just before a crash may still be on its way. A lifted trigger
    // still listed is given a few seconds to go before it is taken to protect the position as it was.
    const liftedIds = new Set(record.lifted.map((l) => l.order_id));
    for (let waited = 0; armed.some((o) => liftedIds.has(o.order_id)) && waited < LIFT_SETTLE_MS; waited += 500) {
      await ctx.sleep(500);
      armed = await armedNow();
    }
    const since = await placedSince(ctx, record, closing);
    const market = await ctx.config.market(record.market);
    const mark = await readMark(ctx, market);
    const toPlace: LiftedLevel[] = [];
    for (const level of record.lifted) {
      const existing = armed.find((o) => o.tpsl === level.kind)?.order_id ?? since.get(level.kind);
      if (existing !== undefined) {
        out.kept.push({ kind: level.kind, order_id: existing });
        out.summary.push(`${NAME[level.kind]}: ${existing === level.order_id ? 'still armed (its cancel never took effect)' : `already armed on the ${record.market} position (${existing})`}`);
      } else if (levelPastMark(level.kind, record.side, level.trigger_price, mark)) {
        out.past_mark.push({ kind: level.kind, trigger_price: level.trigger_price, mark: canonical(mark) });
        out.summary.push(
          `${NAME[level.kind]} ${groupDigits(level.trigger_price)} was not re-armed: the mark ${groupDigits(canonical(mark))} is already past it. Close the remaining ${out.remaining} ${record.market} at market, or set a new ${level.kind === 'sl' ? 'stop' : 'take-profit'}`,
        );
      } else {
        toPlace.push(level);
      }
    }
    if (toPlace.length > 0) {
      try {
        const prepared = await prepareLegs(ctx, {
          wallet,
          legs: toPlace.map((l) => ({ market: record.market, side: closing.toUpperCase(), size: '0', order_type: 'TRIGGER', reduce_only: true, limit_price: l.limit_price, trigger: { trigger_price: l.trigger_price, tpsl: l.kind.toUpperCase(), is_market: true } })),
          labels: toPlace.map((l) => `rearm ${l.kind}`),
          kind: 'tpsl',
        });
        const placed = await submitOrder(ctx, prepared, signer ?? (await ctx.tradingSigner(wallet)), { wait: true });
        placed.legs.forEach((leg, i) => {
          const level = toPlace[i]!;
          if (leg.status === 'SUBMITTED' && leg.final?.armed !== false) {
            out.rearmed.push({ kind: level.kind, trigger_price: level.trigger_price, limit_price: level.limit_price, order_id: leg.order_id });
          } else {
            out.failed.push({ kind: level.kind, trigger_price: level.trigger_price, message: `${leg.final?.status ?? leg.status}${(leg.final?.reason ?? leg.reason) ? ` (${leg.final?.reason ?? leg.reason})` : ''}` });
          }
        });
      } catch (err) {
        const e = toAppError(err);
        // Refused before anything was sent (a validation): said, and the record is done. Anything else
        // (the service unreachable) keeps the record, so the next start tries again.
        if (e.kind !== 'validation') throw err;
        for (const l of toPlace) out.failed.push({ kind: l.kind, trigger_price: l.trigger_price, message: e.message });
      }
      if (out.rearmed.length > 0) out.summary.unshift(`${levelsText(out.rearmed)} re-armed on the remaining ${out.remaining} ${record.market}`);
      for (const f of out.failed) out.summary.push(`${NAME[f.kind]} ${groupDigits(f.trigger_price)} could not be re-armed: ${f.message}. Set it again with \`perps position tpsl\``);
    }
    removeRecord(ctx, record.id);
    return out;
  } finally {
    intent.lock.release();
  }
}

/**
 * On start (app or command line): re-arms every pending record of this profile (of `wallet` when given)
 * that no live process holds. Damaged records are reported, never acted on.
 */
export async function restorePendingProtection(ctx: TradingContext, options: { wallet?: string } = {}): Promise<{ outcomes: RearmOutcome[]; problems: string[] }> {
  const dir = path.join(ctx.profile.dataDir, PROTECTION_FOLDER);
  if (!fs.existsSync(dir)) return { outcomes: [], problems: [] };
  const store = storeOf(ctx);
  const { records, damaged } = store.list(ctx.profile.name);
  const problems = damaged.map((d) => `a TP/SL re-arm record is damaged (${d.reason}); it was not acted on: ${d.file}`);
  const outcomes: RearmOutcome[] = [];
  for (const record of records) {
    if (options.wallet !== undefined && record.wallet.toLowerCase() !== options.wallet.toLowerCase()) continue;
    if (liveRunner(store.dir, record.id)) continue;
    let lock: RunLock;
    try {
      lock = acquireRunLock(store.dir, record.id, NAMING);
    } catch {
      continue; // another process took it over just now
    }
    try {
      // Read again under the lock: the process that took it before us may have finished it.
      const current = store.get(record.id);
      if (!current) {
        lock.release();
        continue;
      }
      outcomes.push(await rearmFromRecord(ctx, { record: current, lock }));
    } catch (err) {
      lock.release();
      problems.push(`the ${levelsText(record.lifted)} lifted from ${record.market} could not be re-armed yet: ${(err as Error).message}`);
    }
  }
  return { outcomes, problems };
}

