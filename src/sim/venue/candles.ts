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
import { decodeColumn, encodeColumn, type BarColumn } from './barColumns.js';
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

/** STEP_MIN_AGE_MS by position in BAR_STEPS_MS. */
const STEP_MIN_AGES = BAR_STEPS_MS.map((step) => STEP_MIN_AGE_MS.get(step)!);

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

/**
 * The state file's form of a series (BarSeries.toState): the compact bars as columns (barColumns.ts) of
 * whole ticks and lots of `tick` and `szDecimals`, widths and trade counts, starting at t0; the notionals
 * that are not the bar's mid, by start; then the plain bars as tuples, the newest always among them.
 */
export interface BarSeriesState {
  compact: { tick: string; szDecimals: number; t0: number; dur: BarColumn; o: BarColumn; h: BarColumn; l: BarColumn; c: BarColumn; v: BarColumn; n: BarColumn; ntl: [number, string][] } | null;
  bars: BarTuple[];
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
  /**
   * The same tick as the market's definition writes it, which the state file keeps with the compact bars
   * (BarSeriesState); without it, the tick's own text.
   */
  readonly tickText?: string;
  readonly volatilityBps: number;
  readonly tickIntervalMs: number;
  readonly depthPerLevel: Decimal;
  readonly szDecimals: number;
  readonly random: SeededRandom;
}

/**
 * A market as its bars' grid needs it: its tick as its definition writes it (decimal text) and its size
 * decimals.
 */
export interface MarketGrid {
  readonly tick: string;
  readonly szDecimals: number;
}

/** How a market's backfilled prices and volumes map to whole numbers: prices in ticks, volumes in lots. */
interface Grid {
  /** The tick as the market's definition writes it: what the state file keeps, never text printed back from `tick`. */
  readonly tickText: string;
  /** The tick as a double: only for the walk's whole-tick arithmetic and for finding a candidate tick count. */
  readonly tick: number;
  /** The tick and the lot (10^-szDecimals) as Decimals: a price is k ticks, a volume m lots, exactly. */
  readonly tickSize: Decimal;
  readonly lotSize: Decimal;
  readonly sizeScale: number;
  readonly szDecimals: number;
}

/**
 * The backfilled past before the first live bar, stored compactly: prices as whole ticks and volumes as
 * whole lots in typed arrays, about 64 bytes a bar where the Decimal form (an object and six Decimals)
 * took several hundred. At the venue's scale (200 markets of ~4,000 bars) the Decimal form held about a
 * gigabyte and building it was most of a 12 s start (issue 37). A bar's Decimals are built when the bar
 * is read: k ticks and m lots in decimal arithmetic, so every answer is the one its Decimals gave.
 * A bar that anything writes to (a late trade) leaves this form for a plain Bar (BarSeries.thawFrom).
 */
class FrozenBars {
  length: number;
  readonly t: Float64Array;
  readonly dur: Float64Array;
  readonly o: Float64Array;
  readonly h: Float64Array;
  readonly l: Float64Array;
  readonly c: Float64Array;
  readonly v: Float64Array;
  readonly n: Float64Array;
  /**
   * Notional of bars a compaction merged, by start time: a sum of the members' notionals, which the
   * merged prices and volume do not give back. Every other bar's notional is its volume at its mid.
   */
  readonly mergedNtl = new Map<number, Decimal>();

  constructor(
    capacity: number,
    readonly grid: Grid,
    columns?: Record<'t' | 'dur' | 'o' | 'h' | 'l' | 'c' | 'v' | 'n', Float64Array>,
  ) {
    this.length = capacity;
    this.t = columns?.t ?? new Float64Array(capacity);
    this.dur = columns?.dur ?? new Float64Array(capacity);
    this.o = columns?.o ?? new Float64Array(capacity);
    this.h = columns?.h ?? new Float64Array(capacity);
    this.l = columns?.l ?? new Float64Array(capacity);
    this.c = columns?.c ?? new Float64Array(capacity);
    this.v = columns?.v ?? new Float64Array(capacity);
    this.n = columns?.n ?? new Float64Array(capacity);
  }

  /** Bars from decoded columns (the state file's), starting at t0 and contiguous by their widths. */
  static adopt(grid: Grid, columns: Record<'dur' | 'o' | 'h' | 'l' | 'c' | 'v' | 'n', Float64Array>, t0: number): FrozenBars {
    const count = columns.dur.length;
    const t = new Float64Array(count);
    let at = t0;
    for (let i = 0; i < count; i++) {
      t[i] = at;
      at += columns.dur[i]!;
    }
    return new FrozenBars(count, grid, { ...columns, t });
  }

  /** The price of `k` ticks, in decimal arithmetic (a double's k * tick drifts past about 16 digits). */
  price(k: number): Decimal {
    return this.grid.tickSize.mul(k);
  }

  /** The volume of `m` lots. */
  volume(m: number): Decimal {
    return this.grid.lotSize.mul(m);
  }

  ntl(i: number): Decimal {
    const merged = this.mergedNtl.get(this.t[i]!);
    if (merged) return merged;
    return this.volume(this.v[i]!).mul(this.price(this.o[i]!).plus(this.price(this.c[i]!)).div(2));
  }

  bar(i: number): Bar {
    return {
      t: this.t[i]!,
      dur: this.dur[i]!,
      o: this.price(this.o[i]!),
      h: this.price(this.h[i]!),
      l: this.price(this.l[i]!),
      c: this.price(this.c[i]!),
      v: this.volume(this.v[i]!),
      ntl: this.ntl(i),
      n: this.n[i]!,
    };
  }

  /** Moves bar `from` to slot `to` (to <= from: compaction writes behind where it reads). */
  move(from: number, to: number): void {
    if (from === to) return;
    this.t[to] = this.t[from]!;
    this.dur[to] = this.dur[from]!;
    this.o[to] = this.o[from]!;
    this.h[to] = this.h[from]!;
    this.l[to] = this.l[from]!;
    this.c[to] = this.c[from]!;
    this.v[to] = this.v[from]!;
    this.n[to] = this.n[from]!;
  }

  /**
   * Merges bars [from, end) into slot `to` (to <= from) as mergeBars does: the first open, the last
   * close, the range, and summed volume, notional and trade count. Whole ticks compare as the prices do,
   * and whole lots sum exactly as the Decimal volumes do.
   */
  merge(from: number, end: number, to: number, t: number, dur: number): void {
    let ntl = new Decimal(0);
    let h = this.h[from]!;
    let l = this.l[from]!;
    let v = 0;
    let n = 0;
    for (let k = from; k < end; k++) {
      if (this.h[k]! > h) h = this.h[k]!;
      if (this.l[k]! < l) l = this.l[k]!;
      v += this.v[k]!;
      n += this.n[k]!;
      ntl = ntl.plus(this.ntl(k));
      this.mergedNtl.delete(this.t[k]!);
    }
    this.put(to, { t, dur, o: this.o[from]!, h, l, c: this.c[end - 1]!, v, n });
    this.mergedNtl.set(t, ntl);
  }

  /** Writes bar `i`'s numbers (whole ticks and lots). */
  put(i: number, b: { t: number; dur: number; o: number; h: number; l: number; c: number; v: number; n: number }): void {
    this.t[i] = b.t;
    this.dur[i] = b.dur;
    this.o[i] = b.o;
    this.h[i] = b.h;
    this.l[i] = b.l;
    this.c[i] = b.c;
    this.v[i] = b.v;
    this.n[i] = b.n;
  }
}

export class BarSeries {
  /** The 24h figures, kept as bars close (see volumeSince); null until first asked, or after a compaction that touched them. */
  private window: VolumeWindow | null = null;

  /**
   * Bars in time order: the frozen (backfilled) ones first, indexes 0 .. frozen.length - 1, then the
   * plain ones. `bars` always holds at least the newest (live) bar.
   */
  private constructor(
    private frozen: FrozenBars | null,
    private bars: Bar[],
  ) {}

  /**
   * Builds the past deterministically from the random source: a backwards random walk whose step
   * deviation grows with the square root of the bar width, so a 1d bar moves like 86,400 one-second
   * ticks, with wicks and a background volume of the same scale as the live walk produces.
   */
  static backfill(params: BackfillParams): BarSeries {
    const { now, tick, random } = params;
    const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const price = toMark(params.price, tick);
    const start = historyStart(now);
    let count = 0;
    for (let end = current; end > start; end -= widestBackwardStep(end, start, now)) count++;
    // The history is random inputs, so it is walked in floating point and each bar's prices are whole
    // ticks (its volume whole lots): Decimal arithmetic on every step made a backfill take a fifth of a
    // second (issue 29), and a Decimal per price made 200 markets hold a gigabyte (issue 37).
    const grid = gridOf({ tick: params.tickText ?? fmt(tick), szDecimals: params.szDecimals });
    const { tick: tickNum, sizeScale } = grid;
    const frozen = new FrozenBars(count, grid);
    const perTick = params.volatilityBps / 10_000;
    const depth = params.depthPerLevel.toNumber();
    const ticksOf = (x: number, round: (n: number) => number): number => Math.max(1, round(x / tickNum));
    let fairClose = params.price.toNumber();
    let end = current;
    for (let i = count - 1; i >= 0; i--) {
      const dur = widestBackwardStep(end, start, now);
      const ticks = dur / params.tickIntervalMs;
      const sigma = perTick * Math.sqrt(ticks);
      const fairOpen = fairClose * Math.exp(-random.normal() * sigma);
      const o = ticksOf(fairOpen, Math.round);
      const c = ticksOf(fairClose, Math.round);
      const oNum = o * tickNum;
      const cNum = c * tickNum;
      const wickUp = Math.exp((Math.abs(random.normal()) * sigma) / 2);
      const wickDown = Math.exp((-Math.abs(random.normal()) * sigma) / 2);
      frozen.t[i] = end - dur;
      frozen.dur[i] = dur;
      frozen.o[i] = o;
      frozen.c[i] = c;
      frozen.h[i] = Math.max(o, c, ticksOf(Math.max(oNum, cNum) * wickUp, Math.ceil));
      frozen.l[i] = Math.min(o, c, ticksOf(Math.min(oNum, cNum) * wickDown, Math.floor));
      // Mean background volume per tick is a quarter of one book level, as in the live walk.
      frozen.v[i] = Math.floor(((depth * ticks * (random.next() + 0.5)) / 4) * sizeScale);
      frozen.n[i] = Math.ceil(ticks);
      fairClose = fairOpen;
      end -= dur;
    }
    return new BarSeries(count > 0 ? frozen : null, [flatBar(current, MINUTE_MS, price)]);
  }

  /**
   * A series from its state-file form. Given the market's grid, the bars before the newest that lie on it
   * (prices whole ticks, volumes whole lots, each printing back as it was saved) are restored compact, as
   * backfill builds them, with a saved notional that is not the bar's mid kept beside them; the rest, and
   * every bar without a grid, are plain Decimal bars. Before this a restart built a Decimal per number:
   * a 200-market state file took 27 s and 1.8 GB to start from where a fresh start took 2 s and 160 MB.
   */
  static fromJSON(tuples: readonly BarTuple[], grid?: MarketGrid): BarSeries {
    if (tuples.length === 0) throw new Error('bar series needs at least one bar');
    for (let i = 1; i < tuples.length; i++) {
      const prev = tuples[i - 1]!;
      if (tuples[i]![0] !== prev[0] + prev[1]) throw new Error(`bar series is not contiguous at ${tuples[i]![0]}`);
    }
    const frozen = grid ? freezeLeading(tuples, gridOf(grid)) : null;
    const bars = tuples.slice(frozen?.length ?? 0).map(([t, dur, o, h, l, c, v, ntl, n]) => ({
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
    return new BarSeries(frozen, bars);
  }

  /**
   * The series as the state file keeps it: the compact bars as columns of whole numbers on their own
   * grid, then the plain bars as tuples. A 200-market file in tuples (a text per number) took 27 s and
   * 1.8 GB to start from, and 13 s to write.
   */
  toState(): BarSeriesState {
    const frozen = this.frozen;
    const plain = this.bars.map(tupleOf);
    if (!frozen || frozen.length === 0) return { compact: null, bars: plain };
    const f = frozen.length;
    const column = (a: Float64Array) => encodeColumn(a.subarray(0, f));
    const ntl: [number, string][] = [];
    for (let i = 0; i < f; i++) {
      const merged = frozen.mergedNtl.get(frozen.t[i]!);
      if (merged) ntl.push([frozen.t[i]!, fmt(merged)]);
    }
    const { grid } = frozen;
    return {
      compact: { tick: grid.tickText, szDecimals: grid.szDecimals, t0: frozen.t[0]!, dur: column(frozen.dur), o: column(frozen.o), h: column(frozen.h), l: column(frozen.l), c: column(frozen.c), v: column(frozen.v), n: column(frozen.n), ntl },
      bars: plain,
    };
  }

  /**
   * A series from the state file's form (toState), its shape validated by venueSchemas first: every
   * column decoded and checked (whole numbers, one a bar), the compact bars contiguous from t0 on the grid
   * they were saved on, followed by the plain bars from where they end. Anything wrong throws.
   */
  static fromState(state: BarSeriesState): BarSeries {
    const plain = BarSeries.fromJSON(state.bars);
    const compact = state.compact;
    if (!compact) return plain;
    const column = (name: string, c: BarColumn, count: number | null, min: number): Float64Array => {
      try {
        return decodeColumn(c, count, min);
      } catch (err) {
        throw new Error(`compact bars: column ${name} ${(err as Error).message}`);
      }
    };
    // The widths say how many bars there are; every other column must hold as many.
    const dur = column('dur', compact.dur, null, 1);
    const count = dur.length;
    if (count < 1) throw new Error('compact bars: column dur holds no bar');
    const frozen = FrozenBars.adopt(
      gridOf(compact),
      {
        dur,
        o: column('o', compact.o, count, 1),
        h: column('h', compact.h, count, 1),
        l: column('l', compact.l, count, 1),
        c: column('c', compact.c, count, 1),
        v: column('v', compact.v, count, 0),
        n: column('n', compact.n, count, 0),
      },
      compact.t0,
    );
    const end = frozen.t[count - 1]! + frozen.dur[count - 1]!;
    if (plain.tAt(0) !== end) throw new Error(`bar series is not contiguous at ${plain.tAt(0)}: the compact bars end at ${end}`);
    const starts = new Set(frozen.t);
    for (const [at, text] of compact.ntl) {
      if (!starts.has(at)) throw new Error(`compact bars: a notional for ${at}, where no bar starts`);
      frozen.mergedNtl.set(at, new Decimal(text));
    }
    return new BarSeries(frozen, plain.bars);
  }

  /** Every bar as a tuple, its Decimals printed as the venue prints them (tests, and the form of version 1 state files). */
  toJSON(): BarTuple[] {
    const out: BarTuple[] = [];
    for (let i = 0; i < this.length; i++) out.push(tupleOf(this.barAt(i)));
    return out;
  }

  get length(): number {
    return this.frozenCount + this.bars.length;
  }

  /** Bars held compact (whole ticks and lots): what a restore from the state file kept small. */
  get compactLength(): number {
    return this.frozenCount;
  }

  /** Start of the newest (live) bar. */
  get lastStart(): number {
    return this.last.t;
  }

  private get last(): Bar {
    // The series always holds its newest bar as a plain Bar: it only ever grows at the end or merges bars.
    return this.bars[this.bars.length - 1]!;
  }

  private get frozenCount(): number {
    return this.frozen?.length ?? 0;
  }

  private tAt(i: number): number {
    const f = this.frozenCount;
    return i < f ? this.frozen!.t[i]! : this.bars[i - f]!.t;
  }

  private endAt(i: number): number {
    const f = this.frozenCount;
    return i < f ? this.frozen!.t[i]! + this.frozen!.dur[i]! : this.bars[i - f]!.t + this.bars[i - f]!.dur;
  }

  /** Bar `i` as a Bar: the bar itself when plain, a fresh copy of a frozen one (writes to it go nowhere). */
  private barAt(i: number): Bar {
    const f = this.frozenCount;
    return i < f ? this.frozen!.bar(i) : this.bars[i - f]!;
  }

  private volumeAt(i: number): { v: Decimal; ntl: Decimal } {
    const f = this.frozenCount;
    if (i >= f) return this.bars[i - f]!;
    return { v: this.frozen!.volume(this.frozen!.v[i]!), ntl: this.frozen!.ntl(i) };
  }

  /** Turns frozen bars from `index` on into plain ones, so they can be written to (a late trade). */
  private thawFrom(index: number): void {
    const frozen = this.frozen;
    if (!frozen || index >= frozen.length) return;
    const thawed: Bar[] = [];
    for (let i = index; i < frozen.length; i++) {
      thawed.push(frozen.bar(i));
      frozen.mergedNtl.delete(frozen.t[i]!);
    }
    frozen.length = index;
    if (index === 0) this.frozen = null;
    this.bars = thawed.concat(this.bars);
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
    this.thawFrom(index);
    const bar = this.bars[index - this.frozenCount]!;
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

  /**
   * Merges bars into the widest slot their age allows and drops bars older than the history. Frozen
   * bars merge among themselves in place (they stay frozen); a slot holding both kinds becomes plain.
   */
  compact(now: number): void {
    const counted = this.countedBars();
    const start = historyStart(now);
    const frozen = this.frozen;
    const f = this.frozenCount;
    const total = this.length;
    const out: Bar[] = [];
    let kept = 0;
    let i = 0;
    while (i < total) {
      const t = this.tAt(i);
      if (t < start) {
        if (i < f) frozen!.mergedNtl.delete(t);
        i++;
        continue;
      }
      const step = widestStep(t, Number.POSITIVE_INFINITY, now);
      if (step <= this.endAt(i) - t) {
        if (i < f) frozen!.move(i, kept++);
        else out.push(this.bars[i - f]!);
        i++;
        continue;
      }
      let j = i;
      while (j < total && this.tAt(j) < t + step) j++;
      // Nested aligned widths cannot straddle a slot; if they ever did, merging would corrupt candles.
      if (this.endAt(j - 1) !== t + step) throw new Error(`bar ${this.tAt(j - 1)}+${this.endAt(j - 1) - this.tAt(j - 1)} straddles slot ${t}+${step}`);
      if (j <= f) frozen!.merge(i, j, kept++, t, step);
      else {
        const group: Bar[] = [];
        for (let k = i; k < j; k++) {
          group.push(this.barAt(k));
          if (k < f) frozen!.mergedNtl.delete(this.tAt(k));
        }
        out.push(mergeBars(t, step, group));
      }
      i = j;
    }
    if (frozen) frozen.length = kept;
    if (kept === 0) this.frozen = null;
    this.bars = out;
    this.rebaseWindow(counted);
  }

  /** Opening price of the bar containing `time`, or the oldest price when `time` is older still. */
  priceAt(time: number): Decimal {
    const index = this.indexOf(time);
    const i = index < 0 ? 0 : index;
    const f = this.frozenCount;
    return i < f ? this.frozen!.price(this.frozen!.o[i]!) : this.bars[i - f]!.o;
  }

  /**
   * Base and notional volume of bars starting at or after `since` (the venue asks for now - 24h, so
   * `since` only moves forward). Kept incrementally: bars that closed since the last call are added,
   * bars that left the window are subtracted, and only the live bar is read afresh, so a request costs
   * the same with a day of one-minute bars behind it as with none. A `since` earlier than the last one
   * (or a window a compaction merged into) is summed once from scratch.
   */
  volumeSince(since: number): { base: Decimal; notional: Decimal } {
    const closedEnd = this.length - 1;
    let w = this.window;
    if (!w || since < w.since) {
      let first = closedEnd;
      while (first > 0 && this.tAt(first - 1) >= since) first--;
      w = { since, first, end: first, base: new ExactSum(0), notional: new ExactSum(0) };
      this.window = w;
    }
    for (; w.first < w.end && this.tAt(w.first) < since; w.first++) {
      const bar = this.volumeAt(w.first);
      w.base = w.base.minus(bar.v);
      w.notional = w.notional.minus(bar.ntl);
    }
    for (; w.end < closedEnd; w.end++) {
      if (this.tAt(w.end) < since) {
        // Bars are in time order, so the window is empty here: this one closed already out of it.
        w.first = w.end + 1;
        continue;
      }
      const bar = this.volumeAt(w.end);
      w.base = w.base.plus(bar.v);
      w.notional = w.notional.plus(bar.ntl);
    }
    w.since = since;
    const live = this.last;
    if (live.t < since) return { base: new Decimal(w.base), notional: new Decimal(w.notional) };
    return { base: new Decimal(w.base.plus(live.v)), notional: new Decimal(w.notional.plus(live.ntl)) };
  }

  /** The first and last bar the window counts (start and end times), before a compaction. */
  private countedBars(): { first: number; firstEnd: number; last: number; lastEnd: number; count: number } | null {
    const w = this.window;
    if (!w || w.first === w.end) return null;
    return { first: this.tAt(w.first), firstEnd: this.endAt(w.first), last: this.tAt(w.end - 1), lastEnd: this.endAt(w.end - 1), count: w.end - w.first };
  }

  /**
   * After a compaction: the window keeps its sums when the bars it counted are still there unmerged
   * (the same start and end, in the same number); then only their positions moved. Otherwise it is
   * dropped and summed afresh on the next request (a window older than 25 h, which merging can reach).
   */
  private rebaseWindow(counted: ReturnType<BarSeries['countedBars']>): void {
    const w = this.window;
    if (!w) return;
    if (!counted) {
      // Nothing counted: summing afresh costs only the bars closed since.
      this.window = null;
      return;
    }
    const first = this.indexOf(counted.first);
    const last = first + counted.count - 1;
    const same =
      first >= 0 &&
      last < this.length &&
      this.tAt(first) === counted.first &&
      this.endAt(first) === counted.firstEnd &&
      this.tAt(last) === counted.last &&
      this.endAt(last) === counted.lastEnd;
    this.window = same ? { ...w, first, end: first + counted.count } : null;
  }

  /**
   * Candles of `interval` overlapping [startTime, endTime], oldest first. Slots whose bars are
   * wider than the interval lie beyond its window and are left out, so the result is contiguous.
   */
  candles(coin: string, interval: CandleInterval, startTime: number, endTime: number): Candle[] {
    const width = CANDLE_INTERVALS[interval];
    const out: Candle[] = [];
    const total = this.length;
    // The first bar ending after startTime - width (bars are contiguous, so their ends increase).
    let lo = 0;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.endAt(mid) <= startTime - width) lo = mid + 1;
      else hi = mid;
    }
    let from = lo;
    let slot = Number.NaN;
    const flush = (to: number): void => {
      const candle = this.candleOf(coin, interval, slot, from, to);
      if (candle && candle.T >= startTime && candle.t <= endTime) out.push(candle);
    };
    let i = lo;
    for (; i < total; i++) {
      const barSlot = Math.floor(this.tAt(i) / width) * width;
      // Stop at the first slot past the range, not the first bar, so the last candle keeps all its bars.
      if (barSlot > endTime) break;
      if (barSlot !== slot) {
        if (i > from) flush(i);
        from = i;
        slot = barSlot;
      }
    }
    if (i > from) flush(i);
    return out;
  }

  /** The candle of `interval` that contains the newest bar (the one live updates change). */
  currentCandle(coin: string, interval: CandleInterval): Candle | null {
    const width = CANDLE_INTERVALS[interval];
    const slot = Math.floor(this.last.t / width) * width;
    let first = this.length - 1;
    while (first > 0 && this.tAt(first - 1) >= slot) first--;
    return this.candleOf(coin, interval, slot, first, this.length);
  }

  /** The candle of bars [from, to) in `slot`, or null when they do not make one whole candle. */
  private candleOf(coin: string, interval: CandleInterval, slot: number, from: number, to: number): Candle | null {
    const width = CANDLE_INTERVALS[interval];
    if (from >= to || this.tAt(from) !== slot) return null;
    for (let i = from; i < to; i++) if (this.endAt(i) > slot + width) return null;
    // Only the live candle may be short of its full width: the rest of its slot has not happened yet.
    if (this.endAt(to - 1) !== slot + width && to !== this.length) return null;
    let h: Decimal | null = null;
    let l: Decimal | null = null;
    let v = new Decimal(0);
    let n = 0;
    const f = this.frozenCount;
    if (from < f) {
      // Frozen bars in whole ticks and lots: they compare and sum exactly as their Decimals would.
      const frozen = this.frozen!;
      const end = Math.min(to, f);
      let hk = frozen.h[from]!;
      let lk = frozen.l[from]!;
      let lots = 0;
      for (let i = from; i < end; i++) {
        if (frozen.h[i]! > hk) hk = frozen.h[i]!;
        if (frozen.l[i]! < lk) lk = frozen.l[i]!;
        lots += frozen.v[i]!;
        n += frozen.n[i]!;
      }
      h = frozen.price(hk);
      l = frozen.price(lk);
      v = v.plus(frozen.volume(lots));
    }
    for (let i = Math.max(from, f); i < to; i++) {
      const bar = this.bars[i - f]!;
      if (h === null || bar.h.gt(h)) h = bar.h;
      if (l === null || bar.l.lt(l)) l = bar.l;
      v = v.plus(bar.v);
      n += bar.n;
    }
    const o = this.priceAt(slot);
    const c = to - 1 < f ? this.frozen!.price(this.frozen!.c[to - 1]!) : this.bars[to - 1 - f]!.c;
    return { t: slot, T: slot + width - 1, s: coin, i: interval, o: fmt(o), c: fmt(c), h: fmt(h!), l: fmt(l!), v: fmt(v), n };
  }

  /** Index of the bar containing `time`, or -1 outside the history. */
  private indexOf(time: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (time < this.tAt(mid)) hi = mid - 1;
      else if (time >= this.endAt(mid)) lo = mid + 1;
      else return mid;
    }
    return -1;
  }
}

/**
 * Widest bar ending at `end` (going backwards) that the age rules allow, never reaching before `start`.
 * Called once a bar for every market's backfill (800,000 times at the venue's scale), so it reads the
 * ages from an array rather than the map.
 */
function widestBackwardStep(end: number, start: number, now: number): number {
  let chosen = MINUTE_MS;
  for (let k = 0; k < BAR_STEPS_MS.length; k++) {
    const step = BAR_STEPS_MS[k]!;
    if (end % step !== 0 || end - step < start) continue;
    if (now - end < STEP_MIN_AGES[k]!) continue;
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

/** The grid of a market (or of compact bars as saved): its tick's text kept as written. */
function gridOf(market: MarketGrid): Grid {
  const tick = new Decimal(market.tick);
  return { tickText: market.tick, tick: tick.toNumber(), tickSize: tick, lotSize: new Decimal(10).pow(-market.szDecimals), sizeScale: 10 ** market.szDecimals, szDecimals: market.szDecimals };
}

/** A bar in the state file's form: its Decimals printed as the venue prints them. */
function tupleOf(b: Bar): BarTuple {
  return [b.t, b.dur, fmt(b.o), fmt(b.h), fmt(b.l), fmt(b.c), fmt(b.v), fmt(b.ntl), b.n];
}

/**
 * The longest run of bars from the first (never the newest, which stays plain) that lie on the grid, as
 * FrozenBars; null when the first does not. A value is on the grid when it equals a whole number of ticks
 * (lots), and a notional is kept beside the bar when it does not equal the bar's volume at its mid: the
 * compact form then answers and prints exactly what the saved text does as a plain bar, and anything else
 * (a hand-edited price between ticks, a volume finer than a lot) stays a plain bar.
 */
function freezeLeading(tuples: readonly BarTuple[], grid: Grid): FrozenBars | null {
  const { tick } = grid;
  const frozen = new FrozenBars(tuples.length - 1, grid);
  // The nearest whole number of ticks (lots) is the only candidate; Decimal equality says whether it is the value.
  const ticksOf = (text: string): number | null => {
    const k = Math.round(Number(text) / tick);
    return Number.isSafeInteger(k) && k >= 1 && new Decimal(text).eq(frozen.price(k)) ? k : null;
  };
  const lotsOf = (text: string): number | null => {
    const m = Math.round(Number(text) * grid.sizeScale);
    return Number.isSafeInteger(m) && m >= 0 && new Decimal(text).eq(frozen.volume(m)) ? m : null;
  };
  let count = 0;
  for (; count < tuples.length - 1; count++) {
    const [t, dur, oText, hText, lText, cText, vText, ntlText, n] = tuples[count]!;
    const o = ticksOf(oText);
    const h = ticksOf(hText);
    const l = ticksOf(lText);
    const c = ticksOf(cText);
    const v = lotsOf(vText);
    if (o === null || h === null || l === null || c === null || v === null || !Number.isSafeInteger(n)) break;
    frozen.put(count, { t, dur, o, h, l, c, v, n });
    // The notional of a bar nothing merged is its volume at its mid; a merged bar's (or an edited one's) is kept as saved.
    const ntl = new Decimal(ntlText);
    if (!ntl.eq(frozen.ntl(count))) frozen.mergedNtl.set(t, ntl);
  }
  if (count === 0) return null;
  frozen.length = count;
  return frozen;
}
