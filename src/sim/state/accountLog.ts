/**
 * One account's append-only log of rows (order-history rows, fills, funding payments), oldest first,
 * with a per-market index over the same rows, so that a newest-first page costs what it returns and
 * not what the account has accumulated:
 *
 *  - `from`/`to` bound the rows by binary search (rows are appended as they happen, so their times never
 *    decrease; if one ever did, the log notices and falls back to scanning, which is always correct);
 *  - `total` is the length of that range, minus rows hidden from reads (orders still inside their
 *    persist lag), which can only be among the newest and are looked for only there;
 *  - `offset` is an index, not a walk.
 *
 * Rows leave only from the oldest end (the simulator's retention setting), never from the middle.
 */

/** A page of rows, newest first, and how many rows match in all. */
export interface LogPage<R> {
  rows: R[];
  total: number;
}

export interface LogQuery {
  market: string | null;
  /** Inclusive time bounds. */
  from: number | null;
  to: number | null;
  offset: number;
  /** null: every row from offset on. */
  limit: number | null;
}

/**
 * Rows reads must skip: only rows at or after `since` can be hidden, and `hides` says which. The order
 * history passes the newest persist lag's worth here, so the check never walks old rows.
 */
export interface HiddenRows<R> {
  since: number;
  hides(row: R): boolean;
}

interface Sequence<R> {
  rows: R[];
  /** Index of the oldest kept row; rows before it were dropped and await the next shift. */
  head: number;
}

export interface LogKeys<R> {
  market(row: R): string;
  time(row: R): number;
}

export class AccountLog<R> {
  private readonly all: Sequence<R> = { rows: [], head: 0 };
  private readonly markets = new Map<string, Sequence<R>>();
  /** True while times never decreased, so bounds can be found by binary search. */
  private ordered = true;
  private lastTime = Number.NEGATIVE_INFINITY;

  constructor(private readonly keys: LogKeys<R>) {}

  get size(): number {
    return this.all.rows.length - this.all.head;
  }

  append(row: R): void {
    const time = this.keys.time(row);
    if (time < this.lastTime) this.ordered = false;
    else this.lastTime = time;
    this.all.rows.push(row);
    const market = this.keys.market(row);
    let seq = this.markets.get(market);
    if (!seq) {
      seq = { rows: [], head: 0 };
      this.markets.set(market, seq);
    }
    seq.rows.push(row);
  }

  /** Every kept row, oldest first (the state file). */
  *rows(): Generator<R> {
    const { rows, head } = this.all;
    for (let i = head; i < rows.length; i++) yield rows[i]!;
  }

  /** Drops the oldest rows until at most `max` are kept; `dropped` sees each one leave. */
  trimTo(max: number, dropped?: (row: R) => void): void {
    while (this.size > max) {
      const row = this.all.rows[this.all.head]!;
      this.all.rows[this.all.head++] = undefined as unknown as R;
      // The market index holds the same rows in the same order: this one is its oldest too.
      const seq = this.markets.get(this.keys.market(row))!;
      seq.rows[seq.head++] = undefined as unknown as R;
      shrink(seq);
      dropped?.(row);
    }
    shrink(this.all);
  }

  /** The rows of `query`, newest first, skipping hidden ones; `total` counts every match. */
  page(query: LogQuery, hidden?: HiddenRows<R>): LogPage<R> {
    const seq = query.market === null ? this.all : this.markets.get(query.market);
    if (!seq) return { rows: [], total: 0 };
    if (!this.ordered) return this.scan(seq, query, hidden);
    const time = this.keys.time;
    let lo = seq.head;
    let hi = seq.rows.length;
    if (query.from !== null) lo = firstAtOrAfter(seq.rows, lo, hi, query.from, time);
    if (query.to !== null) hi = firstAtOrAfter(seq.rows, lo, hi, query.to + 1, time);
    // Only rows at or after `since` may be hidden: those are checked one by one, newest first.
    const zone = hidden ? firstAtOrAfter(seq.rows, lo, hi, hidden.since, time) : hi;
    const recent: R[] = [];
    for (let i = hi - 1; i >= zone; i--) {
      const row = seq.rows[i]!;
      if (!hidden!.hides(row)) recent.push(row);
    }
    const total = recent.length + (zone - lo);
    const limit = query.limit ?? total;
    const out: R[] = [];
    let at = query.offset;
    for (; at < recent.length && out.length < limit; at++) out.push(recent[at]!);
    // Past the recent rows, every row counts: the offset is an index from the zone down.
    for (let i = zone - 1 - Math.max(0, at - recent.length); i >= lo && out.length < limit; i--) out.push(seq.rows[i]!);
    return { rows: out, total };
  }

  /** Rows appended out of time order (never by the engine itself): filter everything. */
  private scan(seq: Sequence<R>, query: LogQuery, hidden?: HiddenRows<R>): LogPage<R> {
    const matching: R[] = [];
    for (let i = seq.rows.length - 1; i >= seq.head; i--) {
      const row = seq.rows[i]!;
      const t = this.keys.time(row);
      if (query.from !== null && t < query.from) continue;
      if (query.to !== null && t > query.to) continue;
      if (hidden && t >= hidden.since && hidden.hides(row)) continue;
      matching.push(row);
    }
    const end = query.limit === null ? matching.length : query.offset + query.limit;
    return { rows: matching.slice(query.offset, end), total: matching.length };
  }
}

/** First index in [lo, hi) whose time is at least `t` (hi when none): the rows' times never decrease. */
function firstAtOrAfter<R>(rows: readonly R[], lo: number, hi: number, t: number, time: (r: R) => number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time(rows[mid]!) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Releases dropped slots once they are half the array (amortised: each row is moved at most once per halving). */
function shrink<R>(seq: Sequence<R>): void {
  if (seq.head > 1024 && seq.head * 2 > seq.rows.length) {
    seq.rows = seq.rows.slice(seq.head);
    seq.head = 0;
  }
}
