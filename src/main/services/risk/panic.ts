/**
 * Panic (issue 39 item 6): one action that stops every algorithm of the wallet, cancels every resting
 * order and trigger, closes every position at market, then reports what it did and what failed.
 *
 * It runs exactly once and is persisted: <data folder>/panic/<profile>-<wallet>.json (0600) is written
 * before the first step and after each one, under a run lock (algos/runLock.ts), so a second process
 * asked to panic meanwhile is told it is running, and a process killed mid-way leaves a record that the
 * next start (the app's, or `perps panic` again) finishes from the step it was in. Each step reads the
 * service afresh, so repeating the interrupted one never does twice what was done: an order cancelled
 * is no longer listed, a position closed is no longer held, and every close is reduce-only.
 *
 * It passes during a lockout and with no limits set: everything it sends only reduces exposure.
 *
 * Positions close at market with the stop tolerance (Settings › Risk, `perps config stop-tolerance`,
 * default 10%, per market where set), as a stop-loss fires: a panic must close even when the book has
 * gapped, not be cancelled unfilled at a market order's usual 0.5%.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import { readJsonFileIfPresent } from '../../files/recordFiles.js';
import { acquireRunLock, type AlgoNaming, type RunLock } from '../algos/runLock.js';
import { listOcos, ocoStoreOf } from '../algos/oco/ocoRunner.js';
import { listTrails, turnOffTrail } from '../algos/trailing/armTrail.js';
import { describeFailure, OperationError } from '../errors.js';
import { cancelAll } from '../orders/cancelOrders.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { prepareCloseAll, submitCloseAll } from '../positions/closeAll.js';
import { readPreferences } from '../settings/preferences.js';
import { stopToleranceBpsFor } from '../../../shared/orders/stopTolerance.js';
import { cancelTwap } from '../algos/twap/twapControl.js';
import { isTerminalTwap } from '../algos/twap/twapRecord.js';
import { twapStoreOf } from '../algos/twap/twapRunner.js';

export const PANIC_FOLDER = 'panic';
const STEPS = ['algos', 'cancel', 'close', 'done'] as const;
export type PanicStep = (typeof STEPS)[number];

const Failure = z.strictObject({ what: z.string().max(200), code: z.string().max(80), message: z.string().max(2000) });
export const PanicRecordSchema = z.strictObject({
  version: z.literal(1),
  profile: z.string().max(64),
  wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  started_at: z.number().int().nonnegative(),
  finished_at: z.number().int().nonnegative().nullable(),
  /** The step in progress (done: finished). */
  step: z.enum(STEPS),
  /** How many times a start found it unfinished and carried on. */
  resumed: z.number().int().nonnegative(),
  stopped_algos: z.array(z.string().max(200)),
  cancelled_orders: z.array(z.string().max(100)),
  closed: z.array(z.strictObject({ market: z.string().max(32), outcome: z.string().max(40) })),
  failures: z.array(Failure).max(1000),
  /** What was still open at the end (read back from the service). */
  remaining_orders: z.number().int().nonnegative().nullable(),
  remaining_positions: z.array(z.string().max(32)).nullable(),
});
export type PanicRecord = z.infer<typeof PanicRecordSchema>;

const PANIC_NAMING: AlgoNaming = { what: 'panic', code: 'PANIC', stopHint: () => 'Wait for it to finish' };

function folderOf(ctx: Pick<TradingContext, 'profile'>): string {
  const dir = path.join(ctx.profile.dataDir, PANIC_FOLDER);
  ensurePrivateFolder(dir);
  return dir;
}

function idOf(profile: string, wallet: string): string {
  return `${profile}-${wallet.toLowerCase()}`;
}

function fileOf(dir: string, id: string): string {
  return path.join(dir, `${id}.json`);
}

function readRecord(file: string): PanicRecord | undefined {
  const raw = readJsonFileIfPresent(file, () => new OperationError('PANIC_RECORD_DAMAGED', `the panic record ${file} is not JSON`));
  if (raw === undefined) return undefined;
  const parsed = PanicRecordSchema.safeParse(raw);
  if (!parsed.success) throw new OperationError('PANIC_RECORD_DAMAGED', `the panic record ${file} is damaged (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`, { hint: 'Move it aside and run the panic again.' });
  return parsed.data;
}

/** The wallet's last panic (finished or not), if any. */
export function lastPanic(ctx: Pick<TradingContext, 'profile'>, wallet: string): PanicRecord | undefined {
  return readRecord(fileOf(folderOf(ctx), idOf(ctx.profile.name, walletIds(wallet).wallet)));
}

/** Wallets of this profile whose panic was cut short (the app finishes them at its start). */
export function unfinishedPanics(ctx: Pick<TradingContext, 'profile'>): PanicRecord[] {
  const dir = folderOf(ctx);
  const out: PanicRecord[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.json') || !name.startsWith(`${ctx.profile.name}-`)) continue;
    const r = readRecord(path.join(dir, name));
    if (r && r.step !== 'done' && r.profile === ctx.profile.name) out.push(r);
  }
  return out;
}

export interface PanicOptions {
  now?: () => number;
  onProgress?: (text: string) => void;
  /** Called after each step is written (tests stop the process there to prove a restart finishes it). */
  afterStep?: (step: PanicStep) => void;
}

/**
 * Panics the wallet, or finishes its unfinished panic. Returns the record as left (step 'done'), which is
 * the report: what was stopped, cancelled and closed, and every failure with its reason.
 */
export async function panic(ctx: TradingContext, wallet: string, options: PanicOptions = {}): Promise<PanicRecord> {
  const { wallet: w } = walletIds(wallet);
  const now = options.now ?? Date.now;
  const dir = folderOf(ctx);
  const id = idOf(ctx.profile.name, w);
  const file = fileOf(dir, id);
  const lock: RunLock = acquireRunLock(dir, id, PANIC_NAMING, now);
  try {
    const found = readRecord(file);
    let r: PanicRecord =
      found && found.step !== 'done'
        ? { ...found, resumed: found.resumed + 1 }
        : { version: 1, profile: ctx.profile.name, wallet: w, started_at: now(), finished_at: null, step: 'algos', resumed: 0, stopped_algos: [], cancelled_orders: [], closed: [], failures: [], remaining_orders: null, remaining_positions: null };
    const save = (next: PanicRecord): PanicRecord => {
      writeFileAtomicSync(file, JSON.stringify(PanicRecordSchema.parse(next), null, 2) + '\n');
      return next;
    };
    r = save(r);
    if (r.resumed > 0) options.onProgress?.(`finishing the panic started at ${new Date(r.started_at).toISOString()} (it was cut short in step '${r.step}')`);
    const fail = (what: string, err: unknown) => {
      const f = describeFailure(err);
      r = { ...r, failures: [...r.failures, { what, code: f.code, message: f.message.slice(0, 2000) }] };
    };

    if (r.step === 'algos') {
      options.onProgress?.('stopping every algorithm');
      r = await stopAlgorithms(ctx, w, r, fail);
      r = save({ ...r, step: 'cancel' });
      options.afterStep?.('algos');
    }
    if (r.step === 'cancel') {
      options.onProgress?.('cancelling every resting order and trigger');
      try {
        const res = await cancelAll(ctx, { wallet: w });
        const ok = res.results.filter((x) => x.status === 'SUBMITTED').map((x) => x.order_id);
        r = { ...r, cancelled_orders: [...new Set([...r.cancelled_orders, ...ok])] };
        for (const x of res.results.filter((y) => y.status !== 'SUBMITTED')) fail(`cancel ${x.order_id}`, new OperationError('CANCEL_FAILED', x.reason ?? 'not cancelled'));
      } catch (err) {
        fail('cancel every order', err);
      }
      r = save({ ...r, step: 'close' });
      options.afterStep?.('cancel');
    }
    if (r.step === 'close') {
      options.onProgress?.('closing every position at market');
      try {
        const prefs = readPreferences(ctx.settings);
        const prepared = await prepareCloseAll(ctx, { wallet: w, slippageBpsFor: (market) => stopToleranceBpsFor(prefs, market) });
        const res = await submitCloseAll(ctx, prepared, await ctx.tradingSigner(w), { ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
        r = { ...r, closed: [...r.closed, ...res.results.filter((x) => x.outcome !== 'failed').map((x) => ({ market: x.market, outcome: x.outcome }))] };
        for (const x of res.results.filter((y) => y.outcome === 'failed')) fail(`close ${x.market}`, new OperationError(x.error?.code ?? 'CLOSE_FAILED', x.error?.message ?? 'not closed'));
        for (const s of res.skipped) fail(`close ${s.market}`, new OperationError(s.code, s.message));
      } catch (err) {
        fail('close every position', err);
      }
      r = save(r);
      options.afterStep?.('close');
    }
    // What is left, read back from the service: the report says it plainly.
    try {
      const { accountId } = walletIds(w);
      const [orders, positions] = await Promise.all([ctx.api.allOpenOrders({ wallet: w }), ctx.api.positions(accountId)]);
      r = { ...r, remaining_orders: orders.length, remaining_positions: positions.positions.map((p) => p.market) };
    } catch (err) {
      fail('read what is left', err);
    }
    return save({ ...r, step: 'done', finished_at: now() });
  } finally {
    lock.release();
  }
}

async function stopAlgorithms(ctx: TradingContext, wallet: string, r: PanicRecord, fail: (what: string, err: unknown) => void): Promise<PanicRecord> {
  const stopped: string[] = [];
  const mine = (x: { wallet: string }) => x.wallet.toLowerCase() === wallet.toLowerCase();
  for (const t of twapStoreOf(ctx).list(ctx.profile.name).twaps.filter((x) => mine(x) && !isTerminalTwap(x.status))) {
    try {
      await cancelTwap(ctx, t.id);
      stopped.push(`TWAP ${t.id} (${t.market})`);
    } catch (err) {
      fail(`stop TWAP ${t.id}`, err);
    }
  }
  for (const { record } of listTrails(ctx).trails.filter((x) => mine(x.record) && x.record.status === 'trailing')) {
    try {
      turnOffTrail(ctx, { market: record.market, wallet });
      stopped.push(`trailing stop ${record.market}`);
    } catch (err) {
      fail(`stop trailing ${record.market}`, err);
    }
  }
  const ocos = ocoStoreOf(ctx);
  for (const o of listOcos(ctx).pairs.filter((x) => mine(x) && x.status === 'working')) {
    try {
      ocos.update(o.id, (x) => ({ ...x, status: 'cancelled', notes: [...x.notes, `${new Date().toISOString()} stopped by panic; its orders are cancelled next`].slice(-100) }));
      stopped.push(`OCO ${o.id} (${o.market})`);
    } catch (err) {
      fail(`stop OCO ${o.id}`, err);
    }
  }
  return { ...r, stopped_algos: [...new Set([...r.stopped_algos, ...stopped])] };
}

/** The report in lines (the command line prints it; the app shows it). */
export function panicReport(r: PanicRecord): string[] {
  const lines = [`Panic ${r.step === 'done' ? 'finished' : `stopped in step '${r.step}'`} for ${r.wallet}${r.resumed > 0 ? ` (finished after a restart)` : ''}`];
  lines.push(`Algorithms stopped: ${r.stopped_algos.length === 0 ? 'none running' : r.stopped_algos.join(', ')}`);
  lines.push(`Orders and triggers cancelled: ${r.cancelled_orders.length}`);
  lines.push(`Positions closed: ${r.closed.length === 0 ? 'none' : r.closed.map((c) => `${c.market} (${c.outcome.replace('_', ' ')})`).join(', ')}`);
  if (r.remaining_orders !== null) lines.push(`Still open: ${r.remaining_orders} order(s); positions: ${r.remaining_positions!.length === 0 ? 'none' : r.remaining_positions!.join(', ')}`);
  for (const f of r.failures) lines.push(`FAILED ${f.what}: ${f.code}: ${f.message}`);
  return lines;
}
