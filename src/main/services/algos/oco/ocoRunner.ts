/**
 * One-cancels-the-other entries: two resting LIMIT GTC legs on one market, and a runner that cancels the
 * other leg at once when either fills (any fill, even partial: the filled leg keeps resting for the rest),
 * client-side and exactly once. The same runner for the app and the command line (`perps order oco` runs
 * it in the foreground); one process runs a pair at a time (the algorithms' run lock).
 *
 * It runs on the algorithms' one engine (algos/engine/algoRunner.ts): this file is only its step.
 *
 * Exactly once, like a TWAP slice (src/shared/algos/ocoRecord.ts): both legs are written `sending` before
 * the batch goes out and looked up in order-history after a crash (algos/sentOrderLookup.ts); the cancel
 * of the other leg is written before it is sent, and after a crash the other leg's status is read first:
 * already cancelled or filled, nothing is sent again. Legs are read from order-history, which carries
 * every status change, so a fill that happened while nothing ran is seen at the next start.
 *
 * A leg's order id is held to what the service lists before the pair acts on it: the order must be in the
 * pair's market's order history as a LIMIT on the leg's side, price and size, sent no earlier than the
 * pair (and carry the leg's client order id where the row carries one). A record that disagrees (an order
 * id edited to another order, on any market) is damaged: marked so, listed, refused, and nothing is
 * cancelled. So a stored record never cancels an order that is not its leg.
 *
 * Two resting legs are what the service offers for entries: its triggers are reduce-only TP/SL of a
 * position, so a stop entry (a breakout buy above the mark) cannot rest there. A leg on the wrong side of
 * the mark would fill at once; it is refused before anything is sent.
 */
import { randomBytes } from 'node:crypto';
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../../shared/decimal/display.js';
import { checkOcoRecord, ocoClientOrderId, damagedOcoSummary, type OcoLeg, type OcoRecord } from '../../../../shared/algos/ocoRecord.js';
import type { ListedOrder } from '../../../../shared/protocol/index.js';
import type { Signer } from '../../../signers/signer.js';
import { OperationError, ValidationError, toAppError } from '../../errors.js';
import { submitCancel, prepareCancelOrders } from '../../orders/cancelOrders.js';
import { decimalInput } from '../../orders/buildOrder.js';
import { readMark, walletIds, type TradingContext } from '../../orders/orderContext.js';
import { prepareLegs, type PreparedOrder } from '../../orders/prepareOrder.js';
import { submitOrder } from '../../orders/submitOrder.js';
import { assertPreparedFor, type PreparedBase } from '../../signing/prepared.js';
import { serviceAlgoClock } from '../algoClock.js';
import { AlgoStore, type AlgoRecordKind, type DamagedRecord } from '../algoStore.js';
import { AlgoRunner, type AlgoRunnerOptions, type AlgoStep } from '../engine/algoRunner.js';
import { writeOutcome } from '../engine/mayHaveLanded.js';
import { acquireRunLock, type AlgoNaming, type RunLock } from '../runLock.js';
import { SENT_SLACK_MS, findSentOrder, latestHistoryRow } from '../sentOrderLookup.js';

type OcoSummary = ReturnType<typeof damagedOcoSummary>;

const OCO_KIND: AlgoRecordKind<OcoRecord, OcoSummary> = {
  folder: 'oco',
  what: 'OCO pair',
  code: 'OCO',
  listCommand: 'perps order oco --list',
  check: (raw) => checkOcoRecord(raw),
  summary: (raw) => damagedOcoSummary(raw),
  createdAt: (r) => r.created_at,
};

const OCO_NAMING: AlgoNaming = { what: 'OCO pair', code: 'OCO', stopHint: (id) => `Cancel its legs with \`perps order cancel\`, or let it run (\`perps order oco --resume ${id}\`)` };

export class OcoStore extends AlgoStore<OcoRecord, OcoSummary> {
  constructor(dataDir: string) {
    super(dataDir, OCO_KIND);
  }
}

export function ocoStoreOf(ctx: Pick<TradingContext, 'profile'>): OcoStore {
  return new OcoStore(ctx.profile.dataDir);
}

export interface OcoInput {
  wallet: string;
  market: string;
  /** The buy leg's limit price (below the mark). */
  buy: string;
  /** The sell leg's limit price (above the mark). */
  sell: string;
  size: string;
  leverage?: number;
}

export interface PreparedOco extends PreparedBase<'oco'> {
  readonly id: string;
  readonly order: PreparedOrder;
  readonly input: OcoInput;
  /** Each leg's leverage is the one signed (the user's default when none was given, never a silent 0). */
  readonly view: { market: string; mark: string; leverage: number; legs: { side: 'BUY' | 'SELL'; price: string; size: string; leverage: number }[]; summary: string[] };
}

/** Both legs prepared as one batch (every order rule, the balance, nonces); refused when a leg would fill at once. */
export async function prepareOco(ctx: TradingContext, input: OcoInput): Promise<PreparedOco> {
  const { wallet } = walletIds(input.wallet);
  const market = await ctx.config.market(input.market);
  const mark = await readMark(ctx, market);
  const id = randomBytes(6).toString('hex');
  const legs = [
    { side: 'BUY' as const, price: input.buy },
    { side: 'SELL' as const, price: input.sell },
  ];
  const buy = new Decimal(decimalInput(input.buy, 'oco', 'buy'));
  const sell = new Decimal(decimalInput(input.sell, 'oco', 'sell'));
  if (buy.gte(mark) || sell.lte(mark)) {
    throw new ValidationError(`both legs must rest: the buy below the ${market.symbol} mark ${groupedDecimal(canonical(mark))} and the sell above it (got buy ${groupedDecimal(canonical(buy))}, sell ${groupedDecimal(canonical(sell))}); a leg past the mark would fill at once`, {
      field: buy.gte(mark) ? 'buy' : 'sell',
      code: 'OCO_LEG_WOULD_FILL',
      hint: 'The service has no stop entries (its triggers are reduce-only TP/SL), so a breakout leg cannot rest past the mark.',
    });
  }
  const order = await prepareLegs(ctx, {
    wallet,
    legs: legs.map((l, i) => ({ market: market.symbol, side: l.side, size: input.size, order_type: 'LIMIT', limit_price: l.price, time_in_force: 'GTC', client_order_id: ocoClientOrderId(id, i as 0 | 1), ...(input.leverage !== undefined ? { leverage: input.leverage } : {}) })),
    labels: ['buy leg', 'sell leg'],
    kind: 'oco',
  });
  const size = order.legs[0]!.size;
  // prepareLegs gives an opening leg without one the user's default for the market.
  const leverage = order.legs[0]!.leverage!;
  return {
    action: 'oco',
    profile: ctx.profile.name,
    wallet,
    signer: order.signer,
    requests: order.requests,
    id,
    order,
    input: { ...input, wallet, leverage },
    view: {
      market: market.symbol,
      mark: canonical(mark),
      leverage,
      legs: order.legs.map((l) => ({ side: l.side as 'BUY' | 'SELL', price: l.limit_price, size: l.size, leverage: l.leverage! })),
      summary: [
        `Buy ${size} ${market.symbol} at ${groupedDecimal(canonical(buy))} or sell ${size} at ${groupedDecimal(canonical(sell))}, whichever fills first, each at ${leverage}x${input.leverage === undefined ? ' (your default for the market)' : ''}; the fill of one cancels the other at once`,
        'Perps Desk sends that cancel while it watches the pair (the app, or `perps order oco --resume ID` in a terminal); while nothing watches it, both legs keep resting at the service',
      ],
    },
  };
}

export type OcoRunnerOptions = AlgoRunnerOptions<OcoRecord>;

/** Writes the pair with both legs `sending`, then sends the batch once; returns its runner (lock held). */
export async function startOco(ctx: TradingContext, prepared: PreparedOco, signer: Signer, options: OcoRunnerOptions & { store?: OcoStore } = {}): Promise<OcoRunner> {
  assertPreparedFor(prepared, ctx.profile.name);
  const store = options.store ?? ocoStoreOf(ctx);
  const clock = options.clock ?? serviceAlgoClock(ctx);
  const lock = acquireRunLock(store.dir, prepared.id, OCO_NAMING);
  try {
    const now = await clock.now();
    const legs = prepared.order.legs.map(
      (l, i): OcoLeg => ({ side: l.side as 'BUY' | 'SELL', price: l.limit_price, size: l.size, client_order_id: ocoClientOrderId(prepared.id, i as 0 | 1), status: 'sending', order_id: null, filled_size: '0', reason: null }),
    ) as [OcoLeg, OcoLeg];
    // Written (and fsynced) before the batch goes out: a crash from here on is reconciled, never resent.
    store.create({ version: 1, id: prepared.id, profile: ctx.profile.name, wallet: prepared.wallet, market: prepared.view.market, leverage: prepared.input.leverage ?? null, legs, status: 'working', winner: null, cancel_sent_at: null, sent_at: now, notes: [], created_at: now, updated_at: now });
    const runner = new OcoRunner(ctx, store, prepared.id, { ...options, clock }, lock);
    let placed;
    try {
      placed = await submitOrder(ctx, prepared.order, signer, { wait: false });
    } catch (err) {
      const outcome = writeOutcome(err);
      if (outcome === 'refused') {
        const e = toAppError(err);
        await runner.finish('failed', `the pair was refused: ${e.message}`, (x) => x.legs.map((l) => ({ ...l, status: 'rejected', reason: e.code })) as [OcoLeg, OcoLeg]);
        throw err;
      }
      if (outcome === 'bug') throw err;
      // No usable answer: the runner looks the legs up in order-history before anything else.
      return runner;
    }
    runner.recordPlaced(placed.legs.map((p) => ({ order_id: p.order_id, status: p.status, reason: p.reason })));
    return runner;
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** A runner for a pair already stored (a resume after a crash or a restart). */
export function openOcoRunner(ctx: TradingContext, id: string, options: OcoRunnerOptions & { store?: OcoStore } = {}): OcoRunner {
  const store = options.store ?? ocoStoreOf(ctx);
  const r = store.require(id, ctx.profile.name);
  if (r.status !== 'working') throw new OperationError('OCO_FINISHED', `OCO pair ${id} is ${r.status}; there is nothing left to watch`);
  return new OcoRunner(ctx, store, id, options, null);
}

const FILLED = new Set<ListedOrder['status']>(['filled', 'partially_filled_cancelled']);

/** How the order the service lists under a leg's order id differs from the leg (null: it is the leg). */
export function legDisagreement(r: Pick<OcoRecord, 'market' | 'sent_at' | 'created_at'>, leg: OcoLeg, row: ListedOrder): string | null {
  const what = `order ${row.order_id}`;
  if (row.market !== r.market) return `${what} is on ${row.market}, not ${r.market}`;
  if (row.client_order_id !== undefined && row.client_order_id !== leg.client_order_id) return `${what} carries the client order id ${row.client_order_id.slice(0, 100)}, not ${leg.client_order_id}`;
  if (row.order_type !== 'LIMIT') return `${what} is a ${row.order_type} order, not a limit`;
  if (row.side !== leg.side.toLowerCase()) return `${what} is a ${row.side}, not a ${leg.side.toLowerCase()}`;
  if (!new Decimal(row.limit_price).eq(leg.price)) return `${what} is at ${row.limit_price}, not ${leg.price}`;
  if (!new Decimal(row.size).eq(leg.size)) return `${what} is for ${row.size}, not ${leg.size}`;
  if (row.submitted_at < (r.sent_at ?? r.created_at) - SENT_SLACK_MS) return `${what} was submitted before the pair was`;
  return null;
}

const legsWith = (x: OcoRecord, i: number, patch: Partial<OcoLeg>): [OcoLeg, OcoLeg] => x.legs.map((y, j) => (j === i ? { ...y, ...patch } : y)) as [OcoLeg, OcoLeg];

/** The OCO step on the algorithms' engine: a stop leaves both legs (or what is left) resting. */
export class OcoRunner extends AlgoRunner<OcoRecord, OcoSummary> {
  constructor(ctx: TradingContext, store: OcoStore, id: string, options: OcoRunnerOptions, lock: RunLock | null) {
    super(ctx, store, id, 'oco', OCO_NAMING, options, lock);
    this.eventMarket = store.require(id, ctx.profile.name).market;
  }

  protected isActive(r: OcoRecord): boolean {
    return r.status === 'working';
  }

  protected async step(r: OcoRecord): Promise<AlgoStep<OcoRecord>> {
    const ended = await this.look(r);
    return ended ? { done: ended } : { wait: this.pollMs };
  }

  /** The batch's answer: each leg's order id, or its rejection. */
  recordPlaced(placed: { order_id: string | null; status: string; reason: string | null }[]): void {
    this.update((x) => ({
      ...x,
      legs: x.legs.map((l, i) => {
        const p = placed[i];
        if (!p || p.status === 'UNKNOWN' || p.order_id === null) return l;
        return p.status === 'REJECTED' ? { ...l, status: 'rejected', order_id: p.order_id, reason: p.reason } : { ...l, status: 'open', order_id: p.order_id };
      }) as [OcoLeg, OcoLeg],
    }));
  }

  /** Ends the pair with `status`, at the service clock's time (written, then said). */
  async finish(status: 'done' | 'cancelled' | 'failed', text: string, legs?: (x: OcoRecord) => [OcoLeg, OcoLeg]): Promise<OcoRecord> {
    return this.note(text, (x) => ({ ...x, status, ...(legs ? { legs: legs(x) } : {}) }), status === 'failed' ? 'failed' : 'stopped');
  }

  /** Settles legs whose order id is not known (sent before a crash or with a lost answer): the engine's one lookup. */
  private async settleSending(start: OcoRecord): Promise<OcoRecord> {
    let r = start;
    const sentAt = r.sent_at ?? r.created_at;
    for (const [i, l] of r.legs.entries()) {
      if (l.status !== 'sending') continue;
      const hit = await this.settleLostAnswer(sentAt + this.graceMs, () =>
        findSentOrder(this.ctx, {
          wallet: r.wallet,
          market: r.market,
          clientOrderId: l.client_order_id,
          sentAt,
          claimed: new Set(r.legs.map((x) => x.order_id).filter((x): x is string => x !== null)),
          matches: (row) => row.order_type === 'LIMIT' && row.side === l.side.toLowerCase() && new Decimal(row.limit_price).eq(l.price) && new Decimal(row.size).eq(l.size),
        }),
      );
      if (hit && 'ambiguous' in hit) {
        return this.finish('failed', `leg ${i + 1} cannot be told from ${hit.ambiguous.length} identical orders in order-history; nothing more is sent for this pair. Check the account's open orders.`);
      }
      if (hit) {
        r = await this.note(`leg ${i + 1} (${l.side.toLowerCase()} at ${groupedDecimal(l.price)}) is order ${hit.order_id}, found in order-history`, (x) => ({ ...x, legs: legsWith(x, i, { status: 'open', order_id: hit.order_id }) }));
      } else {
        r = await this.note(`leg ${i + 1} is not in order-history ${Math.round(this.graceMs / 1000)} s after it was sent: it never reached the service`, (x) => ({ ...x, legs: legsWith(x, i, { status: 'unsent', reason: 'not_found' }) }), 'attention');
      }
    }
    return r;
  }

  /** One look at both legs: a fill cancels the other (once); returns the record when the pair is over. */
  private async look(start: OcoRecord): Promise<OcoRecord | null> {
    let r = await this.settleSending(start);
    if (r.status !== 'working') return r;
    // Each leg's latest state from order-history (every status change is a row there).
    const rows = await Promise.all(r.legs.map((l) => (l.order_id ? latestHistoryRow(this.ctx, r.wallet, r.market, l.order_id, r.created_at) : Promise.resolve(null))));
    const now = await this.now();
    // Every order id the record holds must be its leg at the service before anything is read from it or sent.
    for (const [i, l] of r.legs.entries()) {
      if (l.order_id === null || l.status === 'rejected' || l.status === 'unsent') continue;
      const row = rows[i];
      if (row) {
        const why = legDisagreement(r, l, row);
        if (why) throw this.refuse(`leg ${i + 1} (${l.side.toLowerCase()} ${l.size} at ${l.price}): ${why}`);
      } else if (now >= (r.sent_at ?? r.created_at) + this.graceMs) {
        throw this.refuse(`leg ${i + 1} (${l.side.toLowerCase()} ${l.size} at ${l.price}): order ${l.order_id} is not in the ${r.market} order history of ${r.wallet} ${Math.round(this.graceMs / 1000)} s after the pair was sent`);
      } else {
        // Orders persist asynchronously: not listed yet, so nothing is decided from it on this look.
        return null;
      }
    }
    r = this.update((x) => ({
      ...x,
      legs: x.legs.map((l, i) => {
        const row = rows[i];
        if (!row) return l;
        const filled = canonical(new Decimal(row.filled_size));
        const status: OcoLeg['status'] = row.status === 'filled' ? 'filled' : row.status === 'partially_filled_cancelled' || (row.status === 'open' && new Decimal(filled).gt(0)) ? 'partial' : row.status === 'cancelled' ? 'cancelled' : row.status === 'rejected' ? 'rejected' : l.status;
        return { ...l, status, filled_size: filled, reason: row.reason ?? l.reason };
      }) as [OcoLeg, OcoLeg],
    }));
    const fillOf = (i: number): boolean => new Decimal(r.legs[i]!.filled_size).gt(0) || FILLED.has(rows[i]?.status ?? 'open');
    if (r.winner === null) {
      const filled = [0, 1].filter(fillOf);
      if (filled.length === 0) {
        const dead = r.legs.filter((l) => l.status === 'cancelled' || l.status === 'rejected' || l.status === 'unsent');
        if (dead.length === 2) return this.finish('cancelled', 'neither leg rests any more and neither filled; the pair is over');
        if (dead.length === 1) {
          const i = r.legs.findIndex((l) => l.status === 'cancelled' || l.status === 'rejected' || l.status === 'unsent');
          return this.finish('cancelled', `leg ${i + 1} is ${r.legs[i]!.status} without a fill (not by this pair); the other leg is left resting as it is and no longer watched`);
        }
        return null;
      }
      if (filled.length === 2) return this.finish('done', 'both legs filled before either could be cancelled; check the position', (x) => x.legs);
      const winner = filled[0] as 0 | 1;
      const w = r.legs[winner]!;
      r = this.noteAt(now, `leg ${winner + 1} (${w.side.toLowerCase()} at ${groupedDecimal(w.price)}) filled ${w.filled_size}; cancelling the other`, (x) => ({ ...x, winner }));
    }
    return this.cancelOther(r, rows);
  }

  /** Marks the pair damaged (it disagrees with the service) and returns the error that refuses it: nothing is sent. */
  private refuse(reason: string): Error {
    this.store.markDamaged(this.id, reason);
    this.emit('attention', `OCO pair ${this.id} disagrees with the service: ${reason}; nothing is sent for it`);
    const s = this.store.inspect(this.id, this.ctx.profile.name);
    if (s && 'damaged' in s) return this.store.damagedError(s.damaged);
    return new ValidationError(`OCO pair ${this.id} disagrees with the service: ${reason}; nothing was sent`, { code: 'OCO_RECORD_DAMAGED' });
  }

  /**
   * The other leg is cancelled: its status is read first, and the cancel written before it is sent. A cancel
   * already sent is waited for (never sent again while it may still land); if the service still lists the
   * leg resting once the grace period is over, that cancel did not land (refused, or lost before it reached
   * the service), so it is sent again and the notes say so. A second cancel cannot cancel anything twice:
   * the service refuses a cancel of an order that no longer rests.
   */
  private async cancelOther(r: OcoRecord, rows: (ListedOrder | null)[]): Promise<OcoRecord | null> {
    const i = r.winner === 0 ? 1 : 0;
    const other = r.legs[i]!;
    const row = rows[i];
    const now = await this.now();
    if (other.status === 'cancelled' || other.status === 'rejected' || other.status === 'unsent') {
      return this.finish('done', `leg ${r.winner! + 1} filled; the other leg is ${other.status}; the pair is done`);
    }
    if (other.status === 'filled' || (row && FILLED.has(row.status))) return this.finish('done', 'the other leg filled too before its cancel landed; check the position');
    if (r.cancel_sent_at !== null) {
      // Sent already (before a crash, or moments ago): it may still land; wait for it to show.
      if (now - r.cancel_sent_at < this.graceMs) return null;
      this.noteAt(now, `the cancel of leg ${i + 1} sent ${Math.round((now - r.cancel_sent_at) / 1000)} s ago has not landed: the service still lists order ${other.order_id} resting; sending the cancel again`, (x) => x, 'attention');
    }
    const prepared = await prepareCancelOrders(this.ctx, { wallet: r.wallet, targets: [{ order_id: other.order_id!, order_type: 'LIMIT' }] });
    const signer = await this.ctx.tradingSigner(r.wallet);
    this.update((x) => ({ ...x, cancel_sent_at: now }));
    const res = await submitCancel(this.ctx, prepared, signer, { confirm: true });
    const leg = res.results[0];
    if (leg?.confirmed && leg.final_status !== 'FILLED') {
      return this.finish('done', `leg ${i + 1} (${other.side.toLowerCase()} at ${groupedDecimal(other.price)}) cancelled; the pair is done`, (x) => legsWith(x, i, { status: 'cancelled' }));
    }
    return null;
  }
}

/** This profile's pairs, newest first, and beside them the damaged ones (never hidden). */
export function listOcos(ctx: Pick<TradingContext, 'profile'>): { pairs: OcoRecord[]; damaged: DamagedRecord<OcoSummary>[] } {
  const listed = ocoStoreOf(ctx).list(ctx.profile.name);
  return { pairs: listed.records, damaged: listed.damaged };
}
