/**
 * The portfolio's time ranges and the candle interval each is drawn at. A bar's close gives the mark for
 * the unrealized PnL at that time, so the interval is the curve's resolution: fine enough to show a day's
 * swings, coarse enough that the venue's candle window (the last few hundred bars of an interval) still
 * covers the range.
 *
 *   1d  -> 5m bars (288 points)     1w  -> 1h bars (168 points)
 *   1m  -> 4h bars (180 points)     all -> from the first record, at the bars of the shortest range
 *                                          covering the account's life (1d bars past a month)
 */
export const PORTFOLIO_RANGES = ['1d', '1w', '1m', 'all'] as const;
export type PortfolioRange = (typeof PORTFOLIO_RANGES)[number];

export type PortfolioInterval = '5m' | '1h' | '4h' | '1d';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY_MS = 24 * HOUR;

/**
 * The span a record of the service can plausibly be dated in (issue 36: a fill dated in year 275,000 was
 * taken as is, and would stretch "all" to span it): not before 2015-01-01 (before any perpetual-futures
 * venue of this kind) and not more than a day after now (clock skew). A record outside it is flagged and
 * left out of the curves, never placed.
 */
export const EARLIEST_RECORD_MS = Date.UTC(2015, 0, 1);
export const FUTURE_SLACK_MS = DAY_MS;

export function plausibleRecordTime(time: number, now: number): boolean {
  return Number.isSafeInteger(time) && time >= EARLIEST_RECORD_MS && time <= now + FUTURE_SLACK_MS;
}

/** A record's time as people read it, also when it is absurd (beyond what Date can show). */
export function shownRecordTime(time: number): string {
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? `${time} (not a date)` : d.toISOString();
}

export const RANGE_INTERVAL: Readonly<Record<PortfolioRange, { interval: PortfolioInterval; intervalMs: number; spanMs: number | null }>> = {
  '1d': { interval: '5m', intervalMs: 5 * MINUTE, spanMs: DAY_MS },
  '1w': { interval: '1h', intervalMs: HOUR, spanMs: 7 * DAY_MS },
  '1m': { interval: '4h', intervalMs: 4 * HOUR, spanMs: 30 * DAY_MS },
  all: { interval: '1d', intervalMs: DAY_MS, spanMs: null },
};

export function isPortfolioRange(value: unknown): value is PortfolioRange {
  return typeof value === 'string' && (PORTFOLIO_RANGES as readonly string[]).includes(value);
}

export interface RangeWindow {
  range: PortfolioRange;
  interval: PortfolioInterval;
  intervalMs: number;
  /** Start of the first bar (aligned to the interval, so bars line up with the venue's candles). */
  start: number;
  now: number;
}

/**
 * The bars of a range ending now. `firstRecordAt` (the oldest record of the account) starts "all" and
 * bounds the others; with no record at all, "all" is the current bar only.
 */
export function rangeWindow(range: PortfolioRange, now: number, firstRecordAt: number | null): RangeWindow {
  // "All" of a young account is drawn at the finer bars of the shortest range that covers it.
  const life = firstRecordAt === null ? 0 : now - firstRecordAt;
  const fit = range === 'all' ? (['1d', '1w', '1m'] as const).find((r) => life <= RANGE_INTERVAL[r].spanMs!) : undefined;
  const { interval, intervalMs } = RANGE_INTERVAL[fit ?? range];
  const { spanMs } = RANGE_INTERVAL[range];
  // A range reaching back before the account's first record starts at that record: the bars before it
  // would only draw an empty account.
  const from = spanMs !== null ? Math.max(now - spanMs, firstRecordAt ?? Number.NEGATIVE_INFINITY) : (firstRecordAt ?? now);
  const start = Math.floor(Math.min(from, now) / intervalMs) * intervalMs;
  return { range, interval, intervalMs, start, now };
}

/** Bar closes inside the window (each bar's end, up to now), oldest first. */
export function barCloses(w: RangeWindow): number[] {
  const out: number[] = [];
  for (let t = w.start + w.intervalMs; t <= w.now; t += w.intervalMs) out.push(t);
  return out;
}

/** The report's tables, each exportable as CSV: the equity curve, PnL per day, the per-market figures. */
export const PORTFOLIO_TABLES = ['points', 'days', 'markets'] as const;
export type PortfolioTable = (typeof PORTFOLIO_TABLES)[number];
