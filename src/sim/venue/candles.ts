/**
 * Price history of one simulated asset as a contiguous series of OHLCV bars, from which candles of
 * every venue interval are aggregated on demand.
 *
 * Bars are 1 minute wide near the present and coarser further back: a bar is only as fine as the
 * finest interval whose last CANDLE_WINDOW candles still reach that far back. Because every bar
 * width divides every interval that needs it, a 5m candle and the five 1m candles under it always
 * agree, and about 4,000 bars cover 500 daily candles instead of 720,000 one-minute bars.
 */
import Decimal from 'decimal.js';
import type { SeededRandom } from '../runtime/random.js';
import { fmt, toMark } from './priceWalk.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;

/** The venue's candle intervals and their widths in ms. */
export const CANDLE_INTERVALS = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
  '2h': 120 * MINUTE_MS,
  '4h': 240 * MINUTE_MS,
  '8h': 480 * MINUTE_MS,
  '12h': 720 * MINUTE_MS,
  '1d': DAY_MS,
} as const;

export type CandleInterval = keyof typeof CANDLE_INTERVALS;
export const CANDLE_INTERVAL_NAMES = Object.keys(CANDLE_INTERVALS) as [CandleInterval, ...CandleInterval[]];

/** How many candles of every interval the history keeps. */
export const CANDLE_WINDOW = 500;

/**
 * Bar widths, each dividing the next, so merged bars always nest. A width needs to divide every
 * interval still served at that age, which is why 3m forces 1m bars (gcd(3m, 5m) = 1m) and 8h
 * forces 4h bars (gcd(8h, 12h) = 4h).
 */
const BAR_STEPS_MS = [1, 5, 15, 30, 60, 120, 240, 720, 1440].map((m) => m * MINUTE_MS);

/**
 * Minimum age (now minus bar end) from which a bar may be `step` wide: beyond the oldest candle any
 * interval not divisible by the step still serves.
 */
const STEP_MIN_AGE_MS = new Map<number, number>(
  BAR_STEPS_MS.map((step) => {
    const blocking = Object.values(CANDLE_INTERVALS).filter((interval) => interval % step !== 0);
    return [step, CANDLE_WINDOW * Math.max(0, ...blocking)];
  }),
);

/** How often (in simulated time) aged bars are merged; see rollTo. */
const COMPACT_EVERY_MS = 60 * MINUTE_MS;

/** Start of the oldest daily candle kept; everything before it is dropped. */
export function historyStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - (CANDLE_WINDOW - 1) * DAY_MS;
}

/** Widest bar that may start at `start` and end no later than `limit` at time `now`. */
function widestStep(start: number, limit: number, now: number): number {
  let chosen = MINUTE_MS;
  for (const step of BAR_STEPS_MS) {
    if (start % step !== 0 || start + step > limit) continue;
    if (now - (start + step) < STEP_MIN_AGE_MS.get(step)!) continue;
    chosen = step;
  }
  return chosen;
}

export interface Bar {
  t: number;
  dur: number;
  o: Decimal;
  h: Decimal;
  l: Decimal;
  c: Decimal;
  /** Base volume. */
  v: Decimal;
  /** Quote (notional) volume, kept alongside so the 24h notional volume is exact for recorded trades. */
  ntl: Decimal;
  n: number;
}

/** JSON form of a bar: [t, dur, o, h, l, c, v, ntl, n]. */
export type BarTuple = [number, number, string, string, string, string, string, string, number];

/** Candle as the venue sends it. */
export interface Candle {
  t: number;
  T: number;
  s: string;
  i: CandleInterval;
  o: string;
  c: string;
  h: string;
  l: string;
  v: string;
  n: number;
}

/**
 * Running sums are exact: a sliding window adds each bar once and subtracts it once, so the default
 * 20 significant digits would let rounding drift build up over a long run.
 */
const ExactSum = Decimal.clone({ precision: 80 });

/**
 * The 24h volume window: the closed bars from `first` (inclusive) to `end` (exclusive) are summed, all
 * starting at or after `since`. The live (newest) bar is added when asked, since it still moves.
 */
interface VolumeWindow {
  since: number;
  first: number;
  end: number;
  base: Decimal;
  notional: Decimal;
}

export interface BackfillParams {
  readonly now: number;
  /** Price at `now`; the history walks backwards from it so it ends exactly at the current mark. */
  readonly price: Decimal;
  readonly tick: Decimal;
  readonly volatilityBps: number;
  readonly tickIntervalMs: number;
  readonly depthPerLevel: Decimal;
  readonly szDecimals: number;
  readonly random: SeededRandom;
}

export class BarSeries {
  /** The 24h figures, kept as bars close (see volumeSince); null until first asked, or after a compaction that touched them. */
  private window: VolumeWindow | null = null;

  private constructor(private bars: Bar[]) {}

  /**
   * Builds the past deterministically from the random source: a backwards random walk whose step
   * deviation grows with the square root of the bar width, so a 1d bar moves like 86,400 one-second
   * ticks, with wicks and a background volume of the same scale as the live walk produces.
   */
  static backfill(params: BackfillParams): BarSeries {
    const { now, tick, random } = params;
    const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const price = toMark(params.price, tick);
    const bars: Bar[] = [flatBar(current, MINUTE_MS, price)];
    const start = historyStart(now);
    const perTick = params.volatilityBps / 10_000;
    // The history is random inputs, so it is walked in floating point and only each bar's final prices
    // become Decimals (exactly on the tick grid): Decimal arithmetic on every step made a backfill take
    // a fifth of a second, which the real venue's 200 markets turned into most of a minute (issue 29).
    const tickNum = tick.toNumber();
    const places = tick.decimalPlaces();
    const onGrid = (x: number, round: (n: number) => number): Decimal => new Decimal((Math.max(1, round(x / tickNum)) * tickNum).toFixed(places));
    const sizeScale = 10 ** params.szDecimals;
    const depth = params.depthPerLevel.toNumber();
    let fairClose = params.price.toNumber();
    let end = current;
    while (end > start) {
      const dur = widestBackwardStep(end, start, now);
      const ticks = dur / params.tickIntervalMs;
      const sigma = perTick * Math.sqrt(ticks);
      const fairOpen = fairClose * Math.exp(-random.normal() * sigma);
      const oNum = Math.max(1, Math.round(fairOpen / tickNum)) * tickNum;
      const cNum = Math.max(1, Math.round(fairClose / tickNum)) * tickNum;
      const wickUp = Math.exp((Math.abs(random.normal()) * sigma) / 2);
      const wickDown = Math.exp((-Math.abs(random.normal()) * sigma) / 2);
      const o = onGrid(fairOpen, Math.round);
      const c = onGrid(fairClose, Math.round);
      const h = Decimal.max(o, c, onGrid(Math.max(oNum, cNum) * wickUp, Math.ceil));
      const l = Decimal.min(o, c, onGrid(Math.min(oNum, cNum) * wickDown, Math.floor));
      // Mean background volume per tick is a quarter of one book level, as in the live walk.
      const v = new Decimal((Math.floor(((depth * ticks * (random.next() + 0.5)) / 4) * sizeScale) / sizeScale).toFixed(params.szDecimals));
      bars.push({ t: end - dur, dur, o, h, l, c, v, ntl: v.mul(o.plus(c).div(2)), n: Math.ceil(ticks) });
      fairClose = fairOpen;
      end -= dur;
    }
    bars.reverse();
    return new BarSeries(bars);
  }

  static fromJSON(tuples: readonly BarTuple[]): BarSeries {
    if (tuples.length === 0) throw new Error('bar series needs at least one bar');
    const bars = tuples.map(([t, dur, o, h, l, c, v, ntl, n]) => ({
      t,
      dur,
      o: new Decimal(o),
      h: new Decimal(h),
      l: new Decimal(l),
      c: new Decimal(c),
      v: new Decimal(v),
      ntl: new Decimal(ntl),
      n,
    }));
    for (let i = 1; i < bars.length; i++) {
      const prev = bars[i - 1]!;
      if (bars[i]!.t !== prev.t + prev.dur) throw new Error(`bar series is not contiguous at ${bars[i]!.t}`);
    }
    return new BarSeries(bars);
  }

  toJSON(): BarTuple[] {
    return this.bars.map((b) => [b.t, b.dur, fmt(b.o), fmt(b.h), fmt(b.l), fmt(b.c), fmt(b.v), fmt(b.ntl), b.n]);
  }

  get length(): number {
    return this.bars.length;
  }

  /** Start of the newest (live) bar. */
  get lastStart(): number {
    return this.last.t;
  }

  private get last(): Bar {
    // The series is created with at least one bar and only ever grows at the end or merges bars.
    return this.bars[this.bars.length - 1]!;
  }

  /**
   * Adds a price (and optional volume) observed at `time`. The bar containing `time` takes it;
   * later times open new 1m bars first. Only the newest bar moves its close, so an out-of-order
   * trade stamped in the past widens that bar's range without breaking close-to-open continuity.
   */
  apply(time: number, px: Decimal, volume: Decimal, notional: Decimal, trades: number): void {
    if (time >= this.last.t + this.last.dur) this.rollTo(time);
    const index = this.indexOf(time);
    if (index < 0) throw new RangeError(`time ${time} is older than the kept price history`);
    const bar = this.bars[index]!;
    if (px.gt(bar.h)) bar.h = px;
    if (px.lt(bar.l)) bar.l = px;
    if (bar === this.last) bar.c = px;
    bar.v = bar.v.plus(volume);
    bar.ntl = bar.ntl.plus(notional);
    bar.n += trades;
    // A late trade stamped into a closed bar the window already counted moves the window's sums too.
    const w = this.window;
    if (w && index >= w.first && index < w.end) {
      w.base = w.base.plus(volume);
      w.notional = w.notional.plus(notional);
    }
  }

  /** Opens flat bars up to the 1m bar containing `time`, then merges and drops bars that aged. */
  rollTo(time: number): void {
    const target = Math.floor(time / MINUTE_MS) * MINUTE_MS;
    const lastEnd = this.last.t + this.last.dur;
    if (target < lastEnd) return;
    const close = this.last.c;
    // A long gap (a state file restored days later) is filled with bars already as wide as their
    // age allows, so the series never holds more than a few thousand bars.
    let cursor = lastEnd;
    while (cursor < target) {
      const dur = widestStep(cursor, target, time);
      this.bars.push(flatBar(cursor, dur, close));
      cursor += dur;
    }
    this.bars.push(flatBar(target, MINUTE_MS, close));
    // Finer bars than necessary are still valid for every interval (1m divides them all), so merging
    // can wait: once an hour, or after a gap, keeps the series small without scanning it every minute.
    if (target % COMPACT_EVERY_MS === 0 || target > lastEnd) this.compact(time);
  }

  /** Merges bars into the widest slot their age allows and drops bars older than the history. */
  compact(now: number): void {
    const before = this.bars;
    const start = historyStart(now);
    const out: Bar[] = [];
    let i = 0;
    while (i < this.bars.length) {
      const bar = this.bars[i]!;
      if (bar.t < start) {
        i++;
        continue;
      }
      const step = widestStep(bar.t, Number.POSITIVE_INFINITY, now);
      if (step <= bar.dur) {
        out.push(bar);
        i++;
        continue;
      }
      const group: Bar[] = [];
      while (i < this.bars.length && this.bars[i]!.t < bar.t + step) group.push(this.bars[i++]!);
      const end = group[group.length - 1]!;
      // Nested aligned widths cannot straddle a slot; if they ever did, merging would corrupt candles.
      if (end.t + end.dur !== bar.t + step) throw new Error(`bar ${end.t}+${end.dur} straddles slot ${bar.t}+${step}`);
      out.push(mergeBars(bar.t, step, group));
    }
    this.bars = out;
    this.rebaseWindow(before);
  }

  /** Opening price of the bar containing `time`, or the oldest price when `time` is older still. */
  priceAt(time: number): Decimal {
    return (this.find(time) ?? this.bars[0]!).o;
  }

  /**
   * Base and notional volume of bars starting at or after `since` (the venue asks for now - 24h, so
   * `since` only moves forward). Kept incrementally: bars that closed since the last call are added,
   * bars that left the window are subtracted, and only the live bar is read afresh, so a request costs
   * the same with a day of one-minute bars behind it as with none. A `since` earlier than the last one
   * (or a window a compaction merged into) is summed once from scratch.
   */
  volumeSince(since: number): { base: Decimal; notional: Decimal } {
    const closedEnd = this.bars.length - 1;
    let w = this.window;
    if (!w || since < w.since) {
      let first = closedEnd;
      while (first > 0 && this.bars[first - 1]!.t >= since) first--;
      w = { since, first, end: first, base: new ExactSum(0), notional: new ExactSum(0) };
      this.window = w;
    }
    for (; w.first < w.end && this.bars[w.first]!.t < since; w.first++) {
      const bar = this.bars[w.first]!;
      w.base = w.base.minus(bar.v);
      w.notional = w.notional.minus(bar.ntl);
    }
    for (; w.end < closedEnd; w.end++) {
      const bar = this.bars[w.end]!;
      if (bar.t < since) {
        // Bars are in time order, so the window is empty here: this one closed already out of it.
        w.first = w.end + 1;
        continue;
      }
      w.base = w.base.plus(bar.v);
      w.notional = w.notional.plus(bar.ntl);
    }
    w.since = since;
    const live = this.last;
    if (live.t < since) return { base: new Decimal(w.base), notional: new Decimal(w.notional) };
    return { base: new Decimal(w.base.plus(live.v)), notional: new Decimal(w.notional.plus(live.ntl)) };
  }

  /**
   * After a compaction: the window keeps its sums when the bars it counted are still there unmerged
   * (the same objects, in the same number); then only their positions moved. Otherwise it is dropped
   * and summed afresh on the next request (a window older than 25 h, which merging can reach).
   */
  private rebaseWindow(before: readonly Bar[]): void {
    const w = this.window;
    if (!w) return;
    if (w.first === w.end) {
      // Nothing counted: summing afresh costs only the bars closed since.
      this.window = null;
      return;
    }
    const oldest = before[w.first]!;
    const first = this.indexOf(oldest.t);
    const count = w.end - w.first;
    if (first < 0 || this.bars[first] !== oldest || this.bars[first + count - 1] !== before[w.end - 1]) {
      this.window = null;
      return;
    }
    this.window = { ...w, first, end: first + count };
  }

  /**
   * Candles of `interval` overlapping [startTime, endTime], oldest first. Slots whose bars are
   * wider than the interval lie beyond its window and are left out, so the result is contiguous.
   */
  candles(coin: string, interval: CandleInterval, startTime: number, endTime: number): Candle[] {
    const width = CANDLE_INTERVALS[interval];
    const out: Candle[] = [];
    let group: Bar[] = [];
    let slot = Number.NaN;
    const flush = (): void => {
      const candle = this.candleOf(coin, interval, slot, group);
      if (candle && candle.T >= startTime && candle.t <= endTime) out.push(candle);
    };
    for (const bar of this.bars) {
      if (bar.t + bar.dur <= startTime - width) continue;
      const barSlot = Math.floor(bar.t / width) * width;
      // Stop at the first slot past the range, not the first bar, so the last candle keeps all its bars.
      if (barSlot > endTime) break;
      if (barSlot !== slot) {
        if (group.length > 0) flush();
        group = [];
        slot = barSlot;
      }
      group.push(bar);
    }
    if (group.length > 0) flush();
    return out;
  }

  /** The candle of `interval` that contains the newest bar (the one live updates change). */
  currentCandle(coin: string, interval: CandleInterval): Candle | null {
    const width = CANDLE_INTERVALS[interval];
    const slot = Math.floor(this.last.t / width) * width;
    let first = this.bars.length - 1;
    while (first > 0 && this.bars[first - 1]!.t >= slot) first--;
    return this.candleOf(coin, interval, slot, this.bars.slice(first));
  }

  private candleOf(coin: string, interval: CandleInterval, slot: number, group: readonly Bar[]): Candle | null {
    const width = CANDLE_INTERVALS[interval];
    const first = group[0];
    const last = group[group.length - 1];
    if (!first || !last || first.t !== slot) return null;
    if (group.some((bar) => bar.t + bar.dur > slot + width)) return null;
    // Only the live candle may be short of its full width: the rest of its slot has not happened yet.
    if (last.t + last.dur !== slot + width && last !== this.last) return null;
    let h = first.h;
    let l = first.l;
    let v = new Decimal(0);
    let n = 0;
    for (const bar of group) {
      if (bar.h.gt(h)) h = bar.h;
      if (bar.l.lt(l)) l = bar.l;
      v = v.plus(bar.v);
      n += bar.n;
    }
    return { t: slot, T: slot + width - 1, s: coin, i: interval, o: fmt(first.o), c: fmt(last.c), h: fmt(h), l: fmt(l), v: fmt(v), n };
  }

  private find(time: number): Bar | undefined {
    const index = this.indexOf(time);
    return index < 0 ? undefined : this.bars[index];
  }

  /** Index of the bar containing `time`, or -1 outside the history. */
  private indexOf(time: number): number {
    let lo = 0;
    let hi = this.bars.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const bar = this.bars[mid]!;
      if (time < bar.t) hi = mid - 1;
      else if (time >= bar.t + bar.dur) lo = mid + 1;
      else return mid;
    }
    return -1;
  }
}

/** Widest bar ending at `end` (going backwards) that the age rules allow, never reaching before `start`. */
function widestBackwardStep(end: number, start: number, now: number): number {
  let chosen = MINUTE_MS;
  for (const step of BAR_STEPS_MS) {
    if (end % step !== 0 || end - step < start) continue;
    if (now - end < STEP_MIN_AGE_MS.get(step)!) continue;
    chosen = step;
  }
  return chosen;
}

function flatBar(t: number, dur: number, price: Decimal): Bar {
  return { t, dur, o: price, h: price, l: price, c: price, v: new Decimal(0), ntl: new Decimal(0), n: 0 };
}

function mergeBars(t: number, dur: number, group: readonly Bar[]): Bar {
  const first = group[0]!;
  const merged: Bar = { ...first, t, dur, v: new Decimal(0), ntl: new Decimal(0), n: 0 };
  for (const bar of group) {
    if (bar.h.gt(merged.h)) merged.h = bar.h;
    if (bar.l.lt(merged.l)) merged.l = bar.l;
    merged.c = bar.c;
    merged.v = merged.v.plus(bar.v);
    merged.ntl = merged.ntl.plus(bar.ntl);
    merged.n += bar.n;
  }
  return merged;
}
