/**
 * What the follower lets through of one followed market's upstream data (issue 26). Every value passes
 * the simulator's own rules first (src/shared/feed/priceSanity.ts): a value that fails is refused and
 * the market freezes until a valid one of the same kind arrives. A valid mark or book that moved more
 * than the band from the last accepted one is held (src/shared/feed/bandGate.ts) and the market freezes
 * until the info API the follower then asks confirms it, or a value back near the accepted one discards
 * it (issue 36: socket updates alone never confirm a hold). A frozen market
 * is paused like an outage (VenueMarketData.setFrozen): no trigger, liquidation, funding or new order on
 * it; the others keep following.
 */
import { Decimal } from '../../../shared/decimal/decimal.js';
import { BandGate, withinBand, type BandVerdict } from '../../../shared/feed/bandGate.js';
import { amountProblem, bookCentre, bookProblem, priceProblem, rateProblem, sizeProblem, type SaneLevel } from '../../../shared/feed/priceSanity.js';
import type { UpstreamAssetCtx } from './upstreamSchemas.js';

/** What an issue is about: the context (its mark), the book, a mid, or trades. */
export type GuardedKind = 'mark' | 'book' | 'mid' | 'trades';

export interface MarketIssue {
  kind: GuardedKind;
  /** held: a plausible-looking move waits for confirmation; frozen: a value failed the rules. */
  state: 'held' | 'frozen';
  reason: string;
  /** Wall-clock ms the issue began. */
  since: number;
}

export interface GuardOutcome {
  /** Apply the value (otherwise the market keeps what it had). */
  use: boolean;
  /** A line for the (rate-limited) log, with its kind for the limiter. */
  log: { kind: string; line: string } | null;
  /** A move is held: ask the info API, whose answer confirms or discards it. */
  confirm: boolean;
}

const USE: GuardOutcome = { use: true, log: null, confirm: false };
/**
 * How far a context's mid and oracle may be from its own mark. Not the band (a move between updates,
 * which a user may set to 1%): a real market's oracle strays a few percent from its mark at times, while
 * a context whose mark is 60 times its oracle is corrupt.
 */
const CONSISTENCY = new Decimal('0.5');

export class MarketGuard {
  private readonly markGate: BandGate;
  private readonly bookGate: BandGate;
  private readonly band: Decimal;
  private readonly issues = new Map<GuardedKind, MarketIssue>();

  constructor(
    readonly coin: string,
    private readonly tick: string,
    band: string,
  ) {
    this.band = new Decimal(band);
    this.markGate = new BandGate(band);
    this.bookGate = new BandGate(band);
  }

  /** Held or frozen on anything: the market pauses. */
  get paused(): boolean {
    return this.issues.size > 0;
  }

  status(): MarketIssue[] {
    return [...this.issues.values()].map((issue) => ({ ...issue }));
  }

  /**
   * What the info API can settle now: a held mark or book (its answer confirms or discards it), and a
   * refused one (its answer may be the valid value that ends the freeze, also while the socket is quiet).
   */
  unsettled(): ('ctx' | 'book')[] {
    const kinds = new Set<'ctx' | 'book'>();
    for (const issue of this.issues.values()) kinds.add(issue.kind === 'book' ? 'book' : 'ctx');
    return [...kinds];
  }

  /** `fromInfoApi`: the context came from the info API, the one source that may confirm a held mark. */
  ctx(ctx: UpstreamAssetCtx, now: number, fromInfoApi: boolean): GuardOutcome {
    const problem = this.ctxProblem(ctx);
    if (problem) return this.refuse('mark', `context refused: ${problem}`, now);
    const outcome = this.gated('mark', this.markGate.offer(new Decimal(ctx.markPx), now, fromInfoApi), ctx.markPx, now);
    // A used context carries a valid mid, and it is the freshest word on the market: a freeze over a
    // refused mid or refused trades ends with it (polling reads neither allMids nor trades).
    if (outcome.use) {
      this.issues.delete('mid');
      this.issues.delete('trades');
    }
    return outcome;
  }

  /** `fromInfoApi`: the book came from the info API, the one source that may confirm a held book. */
  book(bids: readonly SaneLevel[], asks: readonly SaneLevel[], now: number, fromInfoApi: boolean): GuardOutcome {
    const problem = bookProblem(bids, asks, this.tick);
    if (problem) return this.refuse('book', `book refused: ${problem}`, now);
    const centre = bookCentre(bids, asks);
    if (!centre) return this.clear('book');
    // The first book is measured against the mark; later ones against the last accepted book.
    if (this.bookGate.accepted === null && this.markGate.accepted !== null) this.bookGate.setAccepted(this.markGate.accepted);
    return this.gated('book', this.bookGate.offer(centre, now, fromInfoApi), centre.toFixed(), now);
  }

  /** A mid (allMids): refused when not a price; not used (only published) when far from the accepted mark. */
  mid(mid: string, now: number): GuardOutcome {
    const problem = priceProblem(mid, this.tick);
    if (problem) return this.refuse('mid', `mid refused: ${problem}`, now);
    const mark = this.markGate.accepted;
    if (mark && !withinBand(mark, new Decimal(mid), this.band)) {
      return { use: false, confirm: false, log: { kind: `mid ${this.coin}`, line: `[sim follow] ${this.coin}: mid ${mid} is more than the band from the accepted mark ${mark.toFixed()}; not used` } };
    }
    return this.clear('mid');
  }

  /** Upstream trades: a message with any bad trade is refused whole; trades far from the mark are left out. */
  trades<T extends { px: string; sz: string }>(trades: readonly T[], now: number): { outcome: GuardOutcome; kept: T[] } {
    for (const trade of trades) {
      const problem = priceProblem(trade.px, this.tick) ?? sizeProblem(trade.sz);
      if (problem) return { outcome: this.refuse('trades', `trades refused: ${problem}`, now), kept: [] };
    }
    const mark = this.markGate.accepted;
    const kept = mark ? trades.filter((trade) => withinBand(mark, new Decimal(trade.px), this.band)) : [...trades];
    const outcome = this.clear('trades');
    if (kept.length < trades.length) {
      return {
        kept,
        outcome: { ...outcome, log: { kind: `trades ${this.coin}`, line: `[sim follow] ${this.coin}: ${trades.length - kept.length} upstream trade(s) more than the band from the accepted mark ${mark!.toFixed()} left out` } },
      };
    }
    return { outcome, kept };
  }

  // ---- internals ------------------------------------------------------------------------------

  /** Every field the simulator publishes or uses must pass; mid and oracle must roughly agree with the mark. */
  private ctxProblem(ctx: UpstreamAssetCtx): string | null {
    const prices: [string, string | null][] = [
      ['markPx', ctx.markPx],
      ['oraclePx', ctx.oraclePx],
      ['prevDayPx', ctx.prevDayPx],
      ['midPx', ctx.midPx],
      ['impactPxs[0]', ctx.impactPxs?.[0] ?? null],
      ['impactPxs[1]', ctx.impactPxs?.[1] ?? null],
    ];
    for (const [field, value] of prices) {
      const problem = value === null ? null : priceProblem(value, this.tick);
      if (problem) return `${field}: ${problem}`;
    }
    const problem =
      rateProblem(ctx.funding, 'funding') ??
      (ctx.premium === null ? null : rateProblem(ctx.premium, 'premium')) ??
      amountProblem(ctx.openInterest, 'openInterest') ??
      amountProblem(ctx.dayNtlVlm, 'dayNtlVlm') ??
      amountProblem(ctx.dayBaseVlm, 'dayBaseVlm');
    if (problem) return problem;
    const mark = new Decimal(ctx.markPx);
    for (const [field, value] of [
      ['midPx', ctx.midPx],
      ['oraclePx', ctx.oraclePx],
    ] as const) {
      if (value !== null && !withinBand(mark, new Decimal(value), CONSISTENCY)) return `${field} ${value} is more than 50% from markPx ${ctx.markPx}`;
    }
    return null;
  }

  private refuse(kind: GuardedKind, reason: string, now: number): GuardOutcome {
    const since = this.issues.get(kind)?.since ?? now;
    this.issues.set(kind, { kind, state: 'frozen', reason, since });
    return { use: false, confirm: false, log: { kind: `refused ${this.coin} ${kind}`, line: `[sim follow] ${this.coin}: ${reason}; ${this.coin} is frozen until a valid ${kind} arrives` } };
  }

  private clear(kind: GuardedKind): GuardOutcome {
    this.issues.delete(kind);
    return USE;
  }

  private gated(kind: 'mark' | 'book', verdict: BandVerdict, value: string, now: number): GuardOutcome {
    const gate = kind === 'mark' ? this.markGate : this.bookGate;
    switch (verdict.kind) {
      case 'accept':
        return this.clear(kind);
      case 'confirm':
        this.issues.delete(kind);
        return { use: true, confirm: false, log: { kind: `confirmed ${this.coin} ${kind}`, line: `[sim follow] ${this.coin}: ${kind} ${value} confirmed after a hold of ${Math.round((now - verdict.heldSince) / 100) / 10} s; following it` } };
      case 'discard':
        this.issues.delete(kind);
        return { use: true, confirm: false, log: { kind: `discarded ${this.coin} ${kind}`, line: `[sim follow] ${this.coin}: held ${kind} ${verdict.spike} not confirmed (now ${value}); discarded, it never traded` } };
      case 'hold': {
        const percent = new Decimal(verdict.moveFraction).mul(100).toSignificantDigits(4).toFixed();
        const reason = `${kind} ${value} moved ${percent}% from the last accepted ${gate.accepted!.toFixed()} in one update; held until confirmed`;
        this.issues.set(kind, { kind, state: 'held', reason, since: verdict.since });
        return { use: false, confirm: true, log: { kind: `held ${this.coin} ${kind}`, line: `[sim follow] ${this.coin}: ${reason}; ${this.coin} is frozen meanwhile` } };
      }
    }
  }
}
