/**
 * Follows a wallet's orders to a terminal state with as few requests as the spec allows.
 *
 * The source is order-history: it holds one row per status change, newest first, for every order of the
 * wallet, so ONE request per poll (the newest page, 200 rows) answers for every tracked order at once:
 * an order whose status changed since the last poll has a row near the top. An order with no row on the
 * page simply has not changed. Only when more than a page of rows arrived since the previous poll does
 * the tracker read further pages, back to where it was.
 *
 * Lists cannot tell everything (spec, "Status vocabulary of list reads"): EXECUTING, PENDING_MODIFY and
 * FAILED exist only on GET /orders/{id}, and a non-trigger order that is SUBMITTED but not yet live is
 * not listed. So an order that has not shown up in any list after a grace period is read singly, a few
 * per poll at most and with its own backoff; a 404 right after submit is normal (orders persist
 * asynchronously) and just means "not yet". Once an order has been seen in a list (or read singly in a
 * listable status), every later change of it writes a history row and no single read is needed.
 *
 * Polls back off (doubling up to maxIntervalMs) while nothing changes and return to minIntervalMs on any
 * change. Time is the larger of the time slept and the wall-clock time, so a test whose sleep advances a
 * simulated clock sees the same schedule as a person watching.
 */
import {
  countsAsFill,
  isTerminalOrderStatus,
  orderStatusOfListRow,
  type ListStatus,
  type ListedOrder,
  type OrderRecord,
  type OrderStatus,
} from '../../../shared/protocol/index.js';
import { isNotFound, isTransientFailure } from '../../api/errors.js';
import type { SleepFn } from '../../api/retry.js';
import type { TradingApiClient } from '../../api/tradingApiClient.js';
import { walletFromAccountId } from '../../../shared/identity/index.js';
import { pollUntil, walletIds, WaitTimeoutError, type TradingContext } from './orderContext.js';

/** UNKNOWN until the order has been seen anywhere (a 404 right after submit, or not yet listed). */
export type TrackedStatus = OrderStatus | 'UNKNOWN';

export interface TrackedOrder {
  order_id: string;
  /** Single-order vocabulary; a fired trigger (list status `triggered`) reads ACCEPTED. */
  status: TrackedStatus;
  /** The list vocabulary when the last news came from a list. */
  list_status: ListStatus | null;
  market: string | null;
  order_type: string | null;
  reason: string | null;
  avg_fill_price: string | null;
  filled_size: string | null;
  /** A TRIGGER that is armed (open, not waiting for its entry). */
  armed: boolean;
  terminal: boolean;
  /** Set when a modify replaced this order: the new id is tracked instead. */
  replaced_by: string | null;
  /** Where the last news came from. */
  source: 'submit' | 'list' | 'single';
}

export interface TrackHint {
  market?: string;
  order_type?: string;
  /** What the submit answer (or the caller) knows; default UNKNOWN. */
  status?: TrackedStatus;
  reason?: string | null;
  /** Just submitted (or just modified): a 404 and an absence from lists are expected for a while. */
  justSubmitted?: boolean;
}

export interface OrderTrackerOptions {
  api: TradingApiClient;
  wallet: string;
  sleep: SleepFn;
  /** First and longest wait between polls. */
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** How long a just-submitted order may stay out of the lists before it is read singly. */
  graceMs?: number;
  /** Single reads per poll at most (keeps the cost of a poll flat however many orders are tracked). */
  maxSingleReadsPerPoll?: number;
  /** Longest wait between two single reads of the same order. */
  maxSingleIntervalMs?: number;
  /** Consecutive failed polls tolerated before a wait gives up with the last error. */
  maxConsecutiveFailures?: number;
  /** Observes every request the tracker makes (tests, benchmarks). */
  onRequest?: (route: 'order-history' | 'order') => void;
}

export type UntilPredicate = (order: TrackedOrder) => boolean;

/** FILLED or PARTIALLY_FILLED_CANCELLED: both count as a fill. */
export function isFilled(o: Pick<TrackedOrder, 'status'>): boolean {
  return o.status !== 'UNKNOWN' && countsAsFill(o.status);
}

/** Terminal: the order is done. */
export const untilTerminal: UntilPredicate = (o) => o.terminal;

/**
 * Terminal, or working in a stable live state: a limit resting at the venue, an armed trigger, a bracket
 * leg awaiting its entry. What `place --wait` waits for: orders that can rest are not waited to fill.
 */
export const untilSettled: UntilPredicate = (o) =>
  o.terminal || (o.source !== 'submit' && ((o.status === 'ACCEPTED' && o.order_type !== 'TRIGGER') || o.status === 'PENDING_PARENT' || o.armed));

const PAGE = 200;
/** Rows may appear up to this long after their status_at (persistence lag): read that far past the mark. */
const LAG_SLACK_MS = 60_000;

interface Entry {
  state: TrackedOrder;
  /** Tracker time the order started being tracked. */
  since: number;
  /** A list has shown it, or a single read returned a status lists will report the next change of. */
  listable: boolean;
  graceMs: number;
  nextSingleAt: number;
  singleDelay: number;
  /** status_at of the newest list row applied. */
  rowAt: number;
}

function listedStatus(row: ListedOrder): OrderStatus {
  // `triggered` (list only) is a fired trigger, which the single-order route calls ACCEPTED.
  return orderStatusOfListRow(row) ?? 'ACCEPTED';
}

/** Statuses after which every change of the order writes a history row. */
export function isListableStatus(status: OrderStatus, orderType: string | null): boolean {
  if (isTerminalOrderStatus(status)) return status !== 'FAILED';
  if (status === 'ACCEPTED' || status === 'PENDING_PARENT') return true;
  return status === 'SUBMITTED' && orderType === 'TRIGGER';
}

export class OrderTracker {
  readonly wallet: string;
  private readonly api: TradingApiClient;
  private readonly sleepFn: SleepFn;
  private readonly minInterval: number;
  private readonly maxInterval: number;
  private readonly graceMs: number;
  private readonly maxSingles: number;
  private readonly maxSingleInterval: number;
  private readonly maxFailures: number;
  private readonly onRequest: ((route: 'order-history' | 'order') => void) | undefined;
  private readonly entries = new Map<string, Entry>();
  private readonly createdAt = Date.now();
  private slept = 0;
  /** Newest status_at seen in history; null before the first poll. */
  private watermark: number | null = null;
  private inflight: Promise<TrackedOrder[]> | null = null;

  constructor(options: OrderTrackerOptions) {
    this.api = options.api;
    this.wallet = options.wallet;
    this.sleepFn = options.sleep;
    this.minInterval = options.minIntervalMs ?? 250;
    this.maxInterval = options.maxIntervalMs ?? 4_000;
    this.graceMs = options.graceMs ?? 1_500;
    this.maxSingles = options.maxSingleReadsPerPoll ?? 2;
    this.maxSingleInterval = options.maxSingleIntervalMs ?? 8_000;
    this.maxFailures = options.maxConsecutiveFailures ?? 5;
    this.onRequest = options.onRequest;
  }

  /** Tracker time: time slept or wall time, whichever is larger (see the module comment). */
  private now(): number {
    return Math.max(this.slept, Date.now() - this.createdAt);
  }

  track(orderId: string, hint: TrackHint = {}): TrackedOrder {
    const existing = this.entries.get(orderId);
    if (existing) {
      if (hint.market && !existing.state.market) existing.state.market = hint.market;
      if (hint.order_type && !existing.state.order_type) existing.state.order_type = hint.order_type;
      return { ...existing.state };
    }
    const status = hint.status ?? 'UNKNOWN';
    const state: TrackedOrder = {
      order_id: orderId,
      status,
      list_status: null,
      market: hint.market ?? null,
      order_type: hint.order_type ?? null,
      reason: hint.reason ?? null,
      avg_fill_price: null,
      filled_size: null,
      armed: false,
      terminal: status !== 'UNKNOWN' && isTerminalOrderStatus(status),
      replaced_by: null,
      source: 'submit',
    };
    const now = this.now();
    const graceMs = hint.justSubmitted === false ? 0 : this.graceMs;
    // A status known from a fresh read that lists report the next change of needs no single read.
    const listable = hint.justSubmitted === false && status !== 'UNKNOWN' && isListableStatus(status, state.order_type);
    this.entries.set(orderId, { state, since: now, listable, graceMs, nextSingleAt: now + graceMs, singleDelay: 500, rowAt: -1 });
    return { ...state };
  }

  /** A modify answered a new id: the old one stops being followed, the new one is tracked in its place. */
  replace(oldId: string, newId: string, hint: TrackHint = {}): TrackedOrder {
    const old = this.entries.get(oldId);
    if (old) old.state.replaced_by = newId;
    return this.track(newId, {
      status: 'PENDING_MODIFY',
      justSubmitted: true,
      ...(old?.state.market ? { market: old.state.market } : {}),
      ...(old?.state.order_type ? { order_type: old.state.order_type } : {}),
      ...hint,
    });
  }

  /** Follow a replaced order again (a modify that was dropped leaves the original live). */
  restore(orderId: string): void {
    const e = this.entries.get(orderId);
    if (e) e.state.replaced_by = null;
  }

  untrack(orderId: string): void {
    this.entries.delete(orderId);
  }

  get(orderId: string): TrackedOrder | undefined {
    const e = this.entries.get(orderId);
    return e ? { ...e.state } : undefined;
  }

  all(): TrackedOrder[] {
    return [...this.entries.values()].map((e) => ({ ...e.state }));
  }

  private active(): Entry[] {
    return [...this.entries.values()].filter((e) => !e.state.terminal && e.state.replaced_by === null);
  }

  /** One poll (shared by concurrent callers). Returns the orders whose state changed. */
  pollOnce(): Promise<TrackedOrder[]> {
    this.inflight ??= this.poll().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async poll(): Promise<TrackedOrder[]> {
    const active = this.active();
    if (active.length === 0) return [];
    const changed = new Map<string, TrackedOrder>();
    const markets = new Set(active.map((e) => e.state.market));
    const market = markets.size === 1 ? [...markets][0] : null;
    const rows = await this.readHistory(market ?? undefined);
    // Newest first: the first row of an order is its current state, except that a terminal row wins
    // (rows at the same instant may be in either order, and nothing follows a terminal status).
    const latest = new Map<string, ListedOrder>();
    for (const row of rows) {
      if (!this.entries.has(row.order_id)) continue;
      const cur = latest.get(row.order_id);
      if (!cur) latest.set(row.order_id, row);
      else if (!isTerminalOrderStatus(listedStatus(cur)) && isTerminalOrderStatus(listedStatus(row)) && row.status_at >= cur.status_at) latest.set(row.order_id, row);
    }
    for (const [id, row] of latest) {
      const e = this.entries.get(id)!;
      if (this.applyRow(e, row)) changed.set(id, { ...e.state });
    }
    const now = this.now();
    const due = this.active()
      .filter((e) => !e.listable && now >= e.nextSingleAt)
      .sort((a, b) => a.nextSingleAt - b.nextSingleAt)
      .slice(0, this.maxSingles);
    for (const e of due) {
      e.nextSingleAt = now + e.singleDelay;
      e.singleDelay = Math.min(this.maxSingleInterval, e.singleDelay * 2);
      this.onRequest?.('order');
      let record: OrderRecord;
      try {
        // The tracker does its own waiting: a 404 is "not persisted yet", not an error to retry here.
        record = await this.api.order(e.state.order_id, { retryNotFound: false });
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      if (this.applyRecord(e, record)) changed.set(e.state.order_id, { ...e.state });
    }
    return [...changed.values()];
  }

  private async readHistory(market: string | undefined): Promise<ListedOrder[]> {
    const out: ListedOrder[] = [];
    let offset = 0;
    let newest: number | null = null;
    for (;;) {
      this.onRequest?.('order-history');
      const page = await this.api.orderHistory({ wallet: this.wallet, limit: PAGE, offset, ...(market ? { market } : {}) });
      out.push(...page.orders);
      for (const r of page.orders) newest = newest === null ? r.status_at : Math.max(newest, r.status_at);
      const oldest = page.orders[page.orders.length - 1]?.status_at;
      offset += page.orders.length;
      // One page is the normal case. Read on only when the page is full, more rows exist, and the page
      // does not yet reach back past the previous poll (with slack for rows that persisted late).
      const more = page.orders.length === PAGE && offset < page.total;
      if (!more || this.watermark === null || oldest === undefined || oldest < this.watermark - LAG_SLACK_MS) break;
    }
    if (newest !== null) this.watermark = this.watermark === null ? newest : Math.max(this.watermark, newest);
    return out;
  }

  private applyRow(e: Entry, row: ListedOrder): boolean {
    const s = e.state;
    if (s.terminal) return false;
    if (row.status_at < e.rowAt) return false;
    e.rowAt = row.status_at;
    e.listable = true;
    const status = listedStatus(row);
    const next: TrackedOrder = {
      ...s,
      status,
      list_status: row.status,
      market: row.market,
      order_type: row.order_type,
      reason: row.reason ?? (isTerminalOrderStatus(status) ? null : s.reason),
      avg_fill_price: row.avg_fill_price ?? s.avg_fill_price,
      filled_size: row.filled_size,
      armed: row.order_type === 'TRIGGER' && row.status === 'open' && !row.parent_order_id,
      terminal: isTerminalOrderStatus(status),
      source: 'list',
    };
    return this.commit(e, next);
  }

  private applyRecord(e: Entry, record: OrderRecord): boolean {
    const s = e.state;
    if (s.terminal) return false;
    const orderType = typeof record['order_type'] === 'string' ? record['order_type'] : s.order_type;
    const market = typeof record['market'] === 'string' ? record['market'] : s.market;
    const filled = typeof record['filled_size'] === 'string' ? record['filled_size'] : s.filled_size;
    if (isListableStatus(record.status, orderType)) e.listable = true;
    const next: TrackedOrder = {
      ...s,
      status: record.status,
      list_status: null,
      market,
      order_type: orderType,
      reason: record.reason ?? null,
      avg_fill_price: record.avg_fill_price ?? s.avg_fill_price,
      filled_size: filled,
      armed: orderType === 'TRIGGER' && record.status === 'SUBMITTED',
      terminal: isTerminalOrderStatus(record.status),
      source: 'single',
    };
    return this.commit(e, next);
  }

  private commit(e: Entry, next: TrackedOrder): boolean {
    const s = e.state;
    const changed =
      s.status !== next.status ||
      s.list_status !== next.list_status ||
      s.armed !== next.armed ||
      s.reason !== next.reason ||
      s.filled_size !== next.filled_size ||
      s.avg_fill_price !== next.avg_fill_price ||
      s.source !== next.source;
    e.state = next;
    return changed;
  }

  private async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.slept += ms;
    await this.sleepFn(ms, signal);
  }

  /**
   * Polls until every order in `ids` satisfies `until` (default: terminal), calling onChange with each
   * poll's changes. Throws WaitTimeoutError (with the last known states) when timeoutMs runs out.
   */
  async waitFor(
    ids: readonly string[],
    options: { until?: UntilPredicate; timeoutMs?: number; onChange?: (changed: TrackedOrder[], all: TrackedOrder[]) => void; signal?: AbortSignal } = {},
  ): Promise<TrackedOrder[]> {
    const until = options.until ?? untilTerminal;
    const timeoutMs = options.timeoutMs ?? 120_000;
    const startedAt = this.now();
    const current = (): TrackedOrder[] => ids.map((id) => this.followed(id));
    const done = (): boolean => current().every((o) => until(o));
    let interval = this.minInterval;
    let failures = 0;
    for (;;) {
      if (done()) return current();
      let changed: TrackedOrder[] = [];
      try {
        changed = await this.pollOnce();
        failures = 0;
      } catch (err) {
        // A failed poll (after the client's own retries) is not fatal: the orders did not go anywhere.
        // Several in a row are: the service is unreachable and waiting longer would only hide it.
        if (!isTransientFailure(err) || ++failures >= this.maxFailures) throw err;
      }
      if (changed.length > 0) options.onChange?.(changed, current());
      if (done()) return current();
      if (this.now() - startedAt >= timeoutMs) {
        throw new WaitTimeoutError(`waiting for order${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`, timeoutMs, { orders: current() });
      }
      interval = changed.length > 0 ? this.minInterval : Math.min(this.maxInterval, interval * 2);
      await this.sleep(Math.min(interval, Math.max(1, timeoutMs - (this.now() - startedAt))), options.signal);
    }
  }

  /**
   * Polls for a fixed span of tracker time regardless of outcome (benchmarks, background watching).
   * Returns the number of polls.
   */
  async watchFor(spanMs: number): Promise<number> {
    const startedAt = this.now();
    let interval = this.minInterval;
    let polls = 0;
    while (this.now() - startedAt < spanMs) {
      const changed = await this.pollOnce();
      polls++;
      interval = changed.length > 0 ? this.minInterval : Math.min(this.maxInterval, interval * 2);
      await this.sleep(Math.min(interval, spanMs - (this.now() - startedAt)));
    }
    return polls;
  }

  /** The order an id has become (following modifies to the newest replacement). */
  private followed(id: string): TrackedOrder {
    let e = this.entries.get(id);
    const seen = new Set<string>();
    while (e && e.state.replaced_by && !seen.has(e.state.order_id)) {
      seen.add(e.state.order_id);
      const next = this.entries.get(e.state.replaced_by);
      if (!next) break;
      e = next;
    }
    if (!e) throw new Error(`order ${id} is not tracked`);
    return { ...e.state };
  }
}

function stateOfRecord(record: OrderRecord): TrackedOrder {
  const orderType = typeof record['order_type'] === 'string' ? record['order_type'] : null;
  return {
    order_id: record.order_id,
    status: record.status,
    list_status: null,
    market: typeof record['market'] === 'string' ? record['market'] : null,
    order_type: orderType,
    reason: record.reason ?? null,
    avg_fill_price: record.avg_fill_price ?? null,
    filled_size: typeof record['filled_size'] === 'string' ? record['filled_size'] : null,
    armed: orderType === 'TRIGGER' && record.status === 'SUBMITTED',
    terminal: isTerminalOrderStatus(record.status),
    replaced_by: typeof record['replaced_by'] === 'string' ? record['replaced_by'] : null,
    source: 'single',
  };
}

/**
 * One order by id (GET /orders/{id}, retrying the 404 of a just-submitted order), optionally followed to a
 * terminal status. With the owning wallet known (given, or named by the record's account_id where the
 * service includes it) the wait goes through the tracker's one-request list polls; otherwise the single
 * route is polled with backoff.
 */
export async function followOrder(
  ctx: Pick<TradingContext, 'api' | 'sleep'>,
  orderId: string,
  options: { wait?: boolean; wallet?: string; timeoutMs?: number; onChange?: (o: TrackedOrder) => void } = {},
): Promise<TrackedOrder> {
  const record = await ctx.api.order(orderId);
  const first = stateOfRecord(record);
  if (!options.wait || first.terminal) return first;
  let wallet = options.wallet !== undefined ? walletIds(options.wallet).wallet : undefined;
  if (wallet === undefined && typeof record['account_id'] === 'string') {
    try {
      wallet = walletFromAccountId(record['account_id']);
    } catch {
      // Not an account id this client understands: follow the single route instead.
      wallet = undefined;
    }
  }
  if (wallet !== undefined) {
    const tracker = new OrderTracker({ api: ctx.api, wallet, sleep: ctx.sleep });
    tracker.track(orderId, {
      status: first.status,
      reason: first.reason,
      justSubmitted: false,
      ...(first.market ? { market: first.market } : {}),
      ...(first.order_type ? { order_type: first.order_type } : {}),
    });
    const [done] = await tracker.waitFor([orderId], { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), onChange: (changed) => changed.forEach((c) => options.onChange?.(c)) });
    return done!;
  }
  let last = first;
  return pollUntil(
    ctx.sleep,
    `waiting for order ${orderId}`,
    async () => {
      const s = stateOfRecord(await ctx.api.order(orderId));
      if (s.status !== last.status) options.onChange?.(s);
      last = s;
      return s.terminal ? s : undefined;
    },
    { minIntervalMs: 250, maxIntervalMs: 4_000, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
  );
}
