/**
 * Portfolio figures of one account over one range, rebuilt from the service's records (ledger.ts) and the
 * venue's candles: nothing is sampled locally, so the same records give the same figures on any machine.
 *
 * - cash(t): the ledger's cash events up to t; positions(t): the fills up to t;
 * - equity(t) = cash(t) + unrealized PnL at the close of the bar ending at t (the first point, at the
 *   range's start, uses that bar's open; the last point, "now", uses the live marks);
 * - pnl(t) = equity(t) - net deposits(t), measured from the range's start (a deposit moves equity, not PnL);
 * - maximum drawdown: the largest fall of that PnL curve from an earlier peak (a withdrawal is no drawdown);
 * - realized PnL, fees, funding, volume, wins and losses count the records inside the range. A closing
 *   order is one trade: its fills' closed_pnl summed is its win or loss.
 *
 * The ledger check compares "now" with the service: reconstructed cash against free balance + posted
 * isolated margin, reconstructed equity against the live equity (account:health), to the cent. Any
 * mismatch and every record that could not be placed (a missing page, a fill without a candle) is in
 * `ledger.issues`.
 */
import { Decimal, canonical } from '../decimal/index.js';
import type { Deposit, Withdrawal } from '../protocol/index.js';
import { applyFill, cashEffect, flowEffect, ledgerEvents, unrealized, type HeldPosition, type LedgerEvent, type MarketFill, type MarketFunding } from './ledger.js';
import { DAY_MS, barCloses, type RangeWindow } from './ranges.js';

export interface PortfolioCandle {
  /** Open time of the bar (Unix ms). */
  t: number;
  o: string;
  c: string;
}

export interface PortfolioInput {
  window: RangeWindow;
  fills: readonly MarketFill[];
  funding: readonly MarketFunding[];
  deposits: readonly Deposit[];
  withdrawals: readonly Withdrawal[];
  /** Candles of `window.interval` per market symbol, covering the range. */
  candles: ReadonlyMap<string, readonly PortfolioCandle[]>;
  /** Live marks per market symbol, for "now". */
  marks: ReadonlyMap<string, string>;
  /** Per market: the fee rates that tell a maker fill from a taker fill. */
  feeRates: ReadonlyMap<string, { maker_fee_rate: string; taker_fee_rate: string }>;
  /** The service's view now: free balance, open positions (posted margin), live equity (null when unpriced). */
  service: { free_balance: string; positions: readonly { market: string; size: string; isolated_margin: string }[]; equity: string | null };
  /** Problems met while reading (a missing page): reported with the ledger. */
  readIssues?: readonly string[];
}

export interface PortfolioPoint {
  time: number;
  equity: string;
  pnl: string;
}

export interface DayRow {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  realized_pnl: string;
  fees: string;
  funding: string;
  /** realized - fees + funding. */
  net: string;
}

export interface MarketRow {
  market: string;
  realized_pnl: string;
  fees: string;
  funding: string;
  volume: string;
  trades: number;
  wins: number;
  losses: number;
}

export interface PortfolioLedger {
  reconstructed_cash: string;
  service_cash: string;
  difference: string;
  reconstructed_equity: string | null;
  service_equity: string | null;
  equity_difference: string | null;
  /** True when cash and equity agree to the cent and nothing was left unplaced. */
  balanced: boolean;
  issues: string[];
}

export interface PortfolioReport {
  range: RangeWindow['range'];
  interval: RangeWindow['interval'];
  start: number;
  now: number;
  equity: string;
  cash: string;
  unrealized_pnl: string;
  /** Change of equity over the range net of deposits and withdrawals. */
  pnl: string;
  realized_pnl: string;
  fees_paid: string;
  maker_fees: string;
  taker_fees: string;
  funding: string;
  funding_paid: string;
  funding_received: string;
  volume: string;
  net_deposits: string;
  trades: number;
  wins: number;
  losses: number;
  /** wins / (wins + losses) as a fraction; null without a closed trade. */
  win_rate: string | null;
  largest_win: string;
  largest_loss: string;
  max_drawdown: string;
  points: PortfolioPoint[];
  per_day: DayRow[];
  per_market: MarketRow[];
  ledger: PortfolioLedger;
}

const ZERO = new Decimal(0);
const MONEY_PLACES = 6;
/**
 * Money to the micro-dollar, a half rounded toward +infinity: then adding an amount of whole micro-dollars
 * (a deposit) moves the rounded figure by exactly that amount, whatever its sign. Half away from zero
 * did not across zero: equity -913.6512875 showed -913.651288 and, after a 913.66 deposit, 0.0087125
 * showed 0.008713, a move of 913.660001 (found by the deposit property of test/unit/portfolio/portfolio.test.ts, seed 1545346370).
 */
const money = (v: Decimal): string => canonical(v.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_HALF_CEIL));
const CENT = new Decimal('0.005');

interface Tally {
  realized: Decimal;
  fees: Decimal;
  funding: Decimal;
  volume: Decimal;
}
const tally = (): Tally => ({ realized: ZERO, fees: ZERO, funding: ZERO, volume: ZERO });

function utcDay(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Marks per market at one time, from candles by bar: the bar's close, or its open at the range's start. */
class CandleMarks {
  private readonly byMarket = new Map<string, { times: number[]; candles: readonly PortfolioCandle[] }>();
  readonly missing = new Map<string, number>();

  constructor(candles: ReadonlyMap<string, readonly PortfolioCandle[]>, private readonly intervalMs: number) {
    for (const [market, list] of candles) {
      const sorted = [...list].sort((a, b) => a.t - b.t);
      this.byMarket.set(market, { times: sorted.map((c) => c.t), candles: sorted });
    }
  }

  /**
   * Close of the bar ending at `close` (or open of the bar starting there). A bar with no candle is a bar
   * without trades: the latest earlier close is still the price. With no earlier candle at all the
   * position cannot be priced: counted and reported.
   */
  mark(market: string, at: number, side: 'open' | 'close'): Decimal | null {
    const series = this.byMarket.get(market);
    const barStart = side === 'close' ? at - this.intervalMs : at;
    const i = series ? lowerBound(series.times, barStart) : -1;
    const c = series && i < series.times.length && series.times[i] === barStart ? series.candles[i] : undefined;
    if (c) return new Decimal(side === 'close' ? c.c : c.o);
    if (series && i > 0) return new Decimal(series.candles[i - 1]!.c);
    this.missing.set(market, (this.missing.get(market) ?? 0) + 1);
    return null;
  }

  /** True when the bar holding `at` has a candle: a fill without one means the venue's candles are incomplete. */
  covers(market: string, at: number): boolean {
    const series = this.byMarket.get(market);
    if (!series) return false;
    const barStart = Math.floor(at / this.intervalMs) * this.intervalMs;
    const i = lowerBound(series.times, barStart);
    return i < series.times.length && series.times[i] === barStart;
  }
}

function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildPortfolio(input: PortfolioInput): PortfolioReport {
  const w = input.window;
  const { events, issues: recordIssues } = ledgerEvents(input, w.now);
  const issues = [...(input.readIssues ?? []), ...recordIssues];
  const marks = new CandleMarks(input.candles, w.intervalMs);
  const positions = new Map<string, HeldPosition>();
  let cash = ZERO;
  let flows = ZERO;

  const unrealizedAt = (at: number, side: 'open' | 'close' | 'live'): Decimal => {
    let sum = ZERO;
    for (const [market, pos] of positions) {
      const mark = side === 'live' ? liveMark(market) : marks.mark(market, at, side);
      if (mark !== null) sum = sum.plus(unrealized(pos, mark));
    }
    return sum;
  };
  const unpricedNow = new Set<string>();
  const liveMark = (market: string): Decimal | null => {
    const m = input.marks.get(market);
    if (m === undefined) unpricedNow.add(market);
    return m === undefined ? null : new Decimal(m);
  };

  // Range tallies.
  const byDay = new Map<number, Tally>();
  const byMarket = new Map<string, Tally & { trades: number; wins: number; losses: number }>();
  const closing = new Map<string, { market: string; pnl: Decimal }>();
  let makerFees = ZERO;
  let takerFees = ZERO;
  let fundingPaid = ZERO;
  let fundingReceived = ZERO;
  const marketTally = (m: string): Tally & { trades: number; wins: number; losses: number } => {
    let t = byMarket.get(m);
    if (!t) byMarket.set(m, (t = { ...tally(), trades: 0, wins: 0, losses: 0 }));
    return t;
  };
  const cells = new Map<string, { day: number; market: string; t: Tally }>();
  const cellTally = (ms: number, market: string): Tally => {
    const day = Math.floor(ms / DAY_MS);
    const k = `${day} ${market}`;
    let c = cells.get(k);
    if (!c) cells.set(k, (c = { day, market, t: tally() }));
    return c.t;
  };

  const points: PortfolioPoint[] = [];
  let baseline: Decimal | null = null;
  const addPoint = (time: number, equity: Decimal): void => {
    const net = equity.minus(flows);
    if (baseline === null) baseline = net;
    points.push({ time, equity: money(equity), pnl: money(net.minus(baseline)) });
  };

  let next = 0;
  const applyUntil = (t: number, inclusive: boolean): void => {
    while (next < events.length && (inclusive ? events[next]!.time <= t : events[next]!.time < t)) {
      const e = events[next++]!;
      cash = cash.plus(cashEffect(e));
      const flow = flowEffect(e);
      if (flow) flows = flows.plus(flow);
      if (e.kind === 'fill' && e.delta !== null) {
        const pos = applyFill(positions.get(e.fill.market), e.delta, e.price);
        if (pos) positions.set(e.fill.market, pos);
        else positions.delete(e.fill.market);
      }
      if (e.time < w.start) continue;
      if (e.kind === 'fill') countFill(e);
      else if (e.kind === 'funding') {
        const t = cellTally(e.time, e.market);
        t.funding = t.funding.plus(e.payment);
        if (e.payment.isNegative()) fundingPaid = fundingPaid.minus(e.payment);
        else fundingReceived = fundingReceived.plus(e.payment);
      }
    }
  };
  const uncovered = new Map<string, number>();
  const rates = new Map([...input.feeRates].map(([m, r]) => [m, { maker: Number(r.maker_fee_rate), taker: Number(r.taker_fee_rate) }]));
  const countFill = (e: Extract<LedgerEvent, { kind: 'fill' }>): void => {
    const { fill: f, fee, pnl } = e;
    if (f.filled_at <= w.now && !marks.covers(f.market, f.filled_at)) uncovered.set(f.market, (uncovered.get(f.market) ?? 0) + 1);
    // Summed per (day, market) only: the days, the markets and the range's totals are folded from those.
    const t = cellTally(f.filled_at, f.market);
    t.realized = t.realized.plus(pnl);
    t.fees = t.fees.plus(fee);
    t.volume = t.volume.plus(e.price.mul(e.size));
    if (isMakerFee(f, rates.get(f.market))) makerFees = makerFees.plus(fee);
    else takerFees = takerFees.plus(fee);
    if (f.closed_pnl != null) {
      const c = closing.get(f.order_id) ?? { market: f.market, pnl: ZERO };
      c.pnl = c.pnl.plus(pnl);
      closing.set(f.order_id, c);
    }
  };

  // Baseline at the range's start (records before it build the opening state), then every bar close.
  applyUntil(w.start, false);
  addPoint(w.start, cash.plus(unrealizedAt(w.start, 'open')));
  for (const close of barCloses(w)) {
    if (close === w.now) break;
    applyUntil(close, false);
    addPoint(close, cash.plus(unrealizedAt(close, 'close')));
  }
  applyUntil(Number.POSITIVE_INFINITY, true);
  const upnlNow = unrealizedAt(w.now, 'live');
  const equityNow = cash.plus(upnlNow);
  addPoint(w.now, equityNow);

  // Trades: closing orders in the range.
  let wins = 0;
  let losses = 0;
  let largestWin = ZERO;
  let largestLoss = ZERO;
  for (const c of closing.values()) {
    const m = marketTally(c.market);
    m.trades++;
    if (c.pnl.isPositive() && !c.pnl.isZero()) {
      wins++;
      m.wins++;
      largestWin = Decimal.max(largestWin, c.pnl);
    } else if (c.pnl.isNegative() && !c.pnl.isZero()) {
      losses++;
      m.losses++;
      largestLoss = Decimal.min(largestLoss, c.pnl);
    }
  }

  let peak = new Decimal(-Infinity);
  let drawdown = ZERO;
  for (const p of points) {
    const v = new Decimal(p.pnl);
    peak = Decimal.max(peak, v);
    drawdown = Decimal.max(drawdown, peak.minus(v));
  }

  // The ledger check against the service, now.
  for (const [market, n] of uncovered) issues.push(`${n} fill(s) on ${market} fall in a bar the venue has no candle for`);
  for (const [market, n] of marks.missing) issues.push(`${n} bar(s) of ${market} could not be priced (no candle at or before them): that position's unrealized PnL is left out there`);
  const serviceCash = input.service.positions.reduce((s, p) => s.plus(p.isolated_margin), new Decimal(input.service.free_balance));
  const cashDiff = cash.minus(serviceCash);
  if (cashDiff.abs().gte(CENT)) issues.push(`reconstructed cash ${money(cash)} differs from free balance + posted margin ${money(serviceCash)} by ${money(cashDiff)}`);
  const heldNow = new Map(input.service.positions.map((p) => [p.market, new Decimal(p.size)]));
  for (const market of new Set([...heldNow.keys(), ...positions.keys()])) {
    const mine = positions.get(market)?.size ?? ZERO;
    const theirs = heldNow.get(market) ?? ZERO;
    if (!mine.eq(theirs)) issues.push(`${market}: the fills add up to a position of ${canonical(mine)}, the service holds ${canonical(theirs)}`);
  }
  for (const market of unpricedNow) issues.push(`${market}: no live mark, its unrealized PnL is left out`);
  const reconstructedEquity = unpricedNow.size > 0 ? null : equityNow;
  const serviceEquity = input.service.equity === null ? null : new Decimal(input.service.equity);
  const equityDiff = reconstructedEquity && serviceEquity ? reconstructedEquity.minus(serviceEquity) : null;
  if (equityDiff && equityDiff.abs().gte(CENT)) issues.push(`reconstructed equity ${money(reconstructedEquity!)} differs from the live equity ${money(serviceEquity!)} by ${money(equityDiff)}`);
  if (equityDiff === null) issues.push('equity could not be compared: a held market has no live mark');

  const last = points[points.length - 1]!;
  const add = (into: Tally, t: Tally): void => {
    into.realized = into.realized.plus(t.realized);
    into.fees = into.fees.plus(t.fees);
    into.funding = into.funding.plus(t.funding);
    into.volume = into.volume.plus(t.volume);
  };
  const total = tally();
  for (const c of cells.values()) {
    add(total, c.t);
    add(marketTally(c.market), c.t);
    let day = byDay.get(c.day);
    if (!day) byDay.set(c.day, (day = tally()));
    add(day, c.t);
  }
  return {
    range: w.range,
    interval: w.interval,
    start: w.start,
    now: w.now,
    equity: money(equityNow),
    cash: money(cash),
    unrealized_pnl: money(upnlNow),
    pnl: last.pnl,
    realized_pnl: money(total.realized),
    fees_paid: money(total.fees),
    maker_fees: money(makerFees),
    taker_fees: money(takerFees),
    funding: money(total.funding),
    funding_paid: money(fundingPaid),
    funding_received: money(fundingReceived),
    volume: money(total.volume),
    net_deposits: money(flows),
    trades: closing.size,
    wins,
    losses,
    win_rate: wins + losses === 0 ? null : canonical(new Decimal(wins).div(wins + losses).toDecimalPlaces(4, Decimal.ROUND_HALF_UP)),
    largest_win: money(largestWin),
    largest_loss: money(largestLoss),
    max_drawdown: money(drawdown),
    points,
    per_day: [...byDay.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, t]) => ({ day: utcDay(day), realized_pnl: money(t.realized), fees: money(t.fees), funding: money(t.funding), net: money(t.realized.minus(t.fees).plus(t.funding)) })),
    per_market: [...byMarket.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([market, t]) => ({ market, realized_pnl: money(t.realized), fees: money(t.fees), funding: money(t.funding), volume: money(t.volume), trades: t.trades, wins: t.wins, losses: t.losses })),
    ledger: {
      reconstructed_cash: money(cash),
      service_cash: money(serviceCash),
      difference: money(cashDiff),
      reconstructed_equity: reconstructedEquity ? money(reconstructedEquity) : null,
      service_equity: serviceEquity ? money(serviceEquity) : null,
      equity_difference: equityDiff ? money(equityDiff) : null,
      balanced: issues.length === 0,
      issues,
    },
  };
}

/**
 * A fill's fee kind from its rate: the fill has no maker/taker field, so its fee / notional is compared
 * with the market's two rates and the nearer one names it (a market no longer listed counts as taker).
 */
export function isMakerFee(fill: Pick<MarketFill, 'fee' | 'price' | 'size'>, rates: { maker: number; taker: number } | undefined): boolean {
  const notional = Number(fill.price) * Number(fill.size);
  if (!rates || !(notional > 0)) return false;
  // A classification, not an amount: binary floating point is plenty to tell two rates apart (the fee
  // itself is summed as a decimal).
  const rate = Number(fill.fee) / notional;
  return Math.abs(rate - rates.maker) < Math.abs(rate - rates.taker);
}
