/**
 * Evaluates a profile's stored alerts on what the venue's stream says (marks and funding per market) and
 * what the positions say (PnL, distance to the liquidation estimate): the app's alerts desk and
 * `perps alert watch` run the same evaluator with the same pure rules (src/shared/alerts).
 *
 * Each observation is first judged against this process's copy of the alerts (no file access on a quiet
 * tick). Only when that copy says something changes (a crossing fires, an alert re-arms, the first value
 * is seen) is the change committed, under the store's lock, against the alert as stored then: if another
 * evaluator (the app and a terminal's `perps alert watch` on the same data folder) already fired it, the
 * stored state says so and this one does not fire again. The firing is logged after that commit has
 * been written, outside the lock: a commit that fails (a full disk, a lost lock) logs nothing, so a
 * one-shot alert is logged at most once, by the process whose commit fired it; and the log's I/O never
 * holds the store's lock.
 *
 * Two evaluators read the same stream at different speeds, and the stream carries no sequence to order
 * their verdicts by. A threshold alert's state only moves forward (armed, fired, re-armed, fired again: each
 * (armed, fired_count) pair is passed once, in that order: statePosition), so each evaluator keeps the state
 * its own reading of the stream reached and commits a change only from that state: when the stored state is
 * another one, the other evaluator got elsewhere first, and this verdict is dropped while
 *  - the other changed it within OTHERS_LEAD_MS (it is ahead on the same stream: this one's mark is old
 *    news, and a late re-arm from a mark the other already passed would fire the same crossing twice), or
 *  - the stored state is further along than this one's reading and the evaluator that wrote it still runs
 *    (`state_by`): this one is behind, by a lag longer than the lead on a starved machine, or it missed
 *    messages; either way its own reading catches up with the stored state within a crossing, and the
 *    running evaluator has the alert meanwhile.
 * Otherwise the stored state is adopted (the other has stopped, the streams parted the other way, a person
 * moved the level) and the mark is judged from it.
 */
import { Decimal } from '../../../shared/decimal/index.js';
import { MoveWindow, firingMessage, describeRule, stepMove, stepThreshold } from '../../../shared/alerts/alertEvaluation.js';
import type { AlertFiring, AlertView, ThresholdRule } from '../../../shared/alerts/alertRule.js';
import { appendAlertLog } from './alertLog.js';
import { evaluatorRunning, thisEvaluator } from './evaluatorLiveness.js';
import { alertView, type AlertStore, type DamagedAlert, type StoredAlert } from './alertStore.js';

/** What the venue said about one market. */
export interface MarketObservation {
  market: string;
  at: number;
  mark?: string | undefined;
  /** The venue's hourly funding rate, a raw fraction. */
  funding?: string | undefined;
}

/** What one of the wallet's positions is worth now (null when unknown, e.g. no mark yet). */
export interface PositionObservation {
  market: string;
  wallet: string;
  at: number;
  unrealizedPnl: string | null;
  /** Distance from the mark to the liquidation estimate, as a fraction of the mark. */
  liquidationDistance: string | null;
}

/**
 * How long another evaluator's change of an alert's state outranks this one's different reading of the
 * stream: longer than one evaluator can lag another on the same machine's feed, shorter than a person
 * waits for an alert after its level was crossed again.
 */
export const OTHERS_LEAD_MS = 5_000;

/** Where this evaluator's own reading of the stream put a threshold alert. */
interface StreamState {
  rule: string;
  armed: boolean | null;
  fired_count: number;
}

/**
 * Where a threshold alert's (armed, fired_count) stands in the one order its states are passed in: unknown
 * (no value seen yet), then armed, fired (count + 1, disarmed), re-armed, fired again, ...
 */
export function statePosition(armed: boolean | null, firedCount: number): number {
  return 2 * firedCount + (armed === true ? 0 : armed === false ? -1 : -2);
}

export interface AlertEvaluatorOptions {
  store: AlertStore;
  profile: string;
  /** Called once per firing this process committed (after it is logged). */
  onFire(firing: AlertFiring): void;
  /** Called when the stored alerts changed (a firing, a re-arm, another process's edit): those evaluated, and apart those that are damaged. */
  onChange?(alerts: AlertView[], damaged: DamagedAlert[]): void;
  /**
   * The service's market symbols: a stored alert on another market is never evaluated (default: not
   * checked). A function is asked on every reload (null: not known yet, not checked).
   */
  marketSymbols?: readonly string[] | (() => readonly string[] | null);
  /** How often the store's file is looked at for other processes' edits (default 500 ms). */
  reloadEveryMs?: number;
  /**
   * This machine's clock (default Date.now), never a service's: it stamps state_at, which the other
   * evaluators on the same data folder compare with their own clock.
   */
  now?: () => number;
  /** This evaluator's identity, written as state_by (default: this host and process, evaluatorLiveness.ts). */
  id?: string;
  /** Whether the evaluator that wrote a state_by still runs (default: that process is alive on this host). */
  running?: (id: string) => boolean;
}

export class AlertEvaluator {
  private alerts: StoredAlert[] = [];
  private readonly windows = new Map<string, MoveWindow>();
  /** Each threshold alert's state as this process's reading of the stream left it. */
  private readonly stream = new Map<string, StreamState>();
  /** When this process last fired each move alert (to tell its own firings from another process's). */
  private readonly ownFiredAt = new Map<string, number>();
  private seenVersion = '';
  private lastReloadCheck = 0;

  /** Written as state_by with each change this evaluator makes. */
  private readonly id: string;

  /** Nothing is read yet: call reload() (it throws for a damaged store), or let the first observation read. */
  constructor(private readonly o: AlertEvaluatorOptions) {
    this.id = o.id ?? thisEvaluator();
  }

  /** The active alerts as this process last read them. */
  active(): AlertView[] {
    return this.alerts.map(alertView);
  }

  /** Re-reads the store (throws ALERT_STORE_DAMAGED for a damaged file: the caller reports it). */
  reload(): void {
    this.seenVersion = this.o.store.version();
    // Only alerts that pass the rules of a new one are evaluated (a hand-edited move of 0 % never fires).
    const symbols = typeof this.o.marketSymbols === 'function' ? this.o.marketSymbols() : (this.o.marketSymbols ?? null);
    const { alerts: all, damaged } = this.o.store.checked(this.o.profile, symbols);
    this.alerts = all.filter((a) => a.status === 'active').map((a) => ({ ...a, profile: this.o.profile }));
    for (const id of [...this.windows.keys()]) if (!this.alerts.some((a) => a.id === id && a.rule.kind === 'move')) this.windows.delete(id);
    // A removed alert, or one whose rule a person changed, starts again from what is stored.
    for (const [id, st] of [...this.stream]) if (!this.alerts.some((a) => a.id === id && JSON.stringify(a.rule) === st.rule)) this.stream.delete(id);
    this.o.onChange?.(all, damaged);
  }

  /** Reloads when another process (or this one's desk) changed the file; at most every reloadEveryMs. */
  reloadIfChanged(): void {
    const now = this.now();
    if (now - this.lastReloadCheck < (this.o.reloadEveryMs ?? 500)) return;
    this.lastReloadCheck = now;
    if (this.o.store.version() !== this.seenVersion) this.reload();
  }

  observeMarket(obs: MarketObservation): void {
    this.reloadIfChanged();
    for (const a of this.alerts.filter((x) => x.market === obs.market && x.wallet === null)) {
      if (a.rule.kind === 'move') {
        if (obs.mark !== undefined) this.observeMove(a, obs.at, obs.mark);
      } else if (a.rule.kind === 'price_above' || a.rule.kind === 'price_below') {
        if (obs.mark !== undefined) this.observeThreshold(a, a.rule, obs.mark, obs.at);
      } else if (a.rule.kind === 'funding_above' || a.rule.kind === 'funding_below') {
        if (obs.funding !== undefined) this.observeThreshold(a, a.rule, obs.funding, obs.at);
      }
    }
  }

  observePosition(obs: PositionObservation): void {
    this.reloadIfChanged();
    for (const a of this.alerts.filter((x) => x.market === obs.market && x.wallet === obs.wallet.toLowerCase())) {
      if (a.rule.kind === 'pnl_above' || a.rule.kind === 'pnl_below') {
        if (obs.unrealizedPnl !== null) this.observeThreshold(a, a.rule, obs.unrealizedPnl, obs.at);
      } else if (a.rule.kind === 'liq_distance_below' && obs.liquidationDistance !== null) {
        // The rule's level is a percentage of the mark; the position says a fraction.
        this.observeThreshold(a, a.rule, new Decimal(obs.liquidationDistance).mul(100).toDecimalPlaces(4, Decimal.ROUND_DOWN).toFixed(), obs.at);
      }
    }
  }

  private observeThreshold(cached: StoredAlert, rule: ThresholdRule, value: string, at: number): void {
    const v = new Decimal(value);
    const ruleKey = JSON.stringify(cached.rule);
    const known = this.stream.get(cached.id);
    // This evaluator's first reading of the alert (or of its new rule) starts from the state as stored.
    const fresh = known?.rule !== ruleKey;
    const prior: StreamState = fresh ? { rule: ruleKey, armed: cached.armed, fired_count: cached.fired_count } : known;
    const guess = stepThreshold(rule, prior.armed, v);
    if (!guess.fired && guess.armed === prior.armed) {
      this.stream.set(cached.id, prior);
      return;
    }
    const now = this.now();
    let settled: StreamState | null = null;
    void this.commit(cached.id, (stored) => {
      if (stored.rule.kind === 'move' || JSON.stringify(stored.rule) !== ruleKey) return null;
      const same = stored.armed === prior.armed && stored.fired_count === prior.fired_count;
      if ((!same || fresh) && this.othersStands(stored, prior, now, fresh)) {
        // A first reading that another running evaluator's state outranks starts from that state, not from
        // this mark (which may be older than the one that state was judged on).
        if (fresh) settled = { rule: ruleKey, armed: stored.armed, fired_count: stored.fired_count };
        return null;
      }
      // From the stored state (this stream's, or an older one adopted).
      const step = stepThreshold(stored.rule as ThresholdRule, stored.armed, v);
      settled = { rule: ruleKey, armed: step.armed, fired_count: stored.fired_count + (step.fired ? 1 : 0) };
      const by = { state_at: now, state_by: this.id };
      if (!step.fired) return step.armed === stored.armed ? null : { alert: { ...stored, armed: step.armed, ...by }, firing: null };
      return this.fired({ ...stored, armed: step.armed, ...by }, at, value, firingMessage(stored.market, stored.rule, value));
    });
    // Once committed (a write that failed throws above and leaves the reading where it was, to try again):
    // where the stored state took it, or, when another evaluator's stands, this stream's own next state.
    this.stream.set(cached.id, settled ?? { rule: ruleKey, armed: guess.armed, fired_count: prior.fired_count + (guess.fired ? 1 : 0) });
  }

  /**
   * Whether another evaluator's stored state, which this one's reading (`mine`) disagrees with, stands: it
   * changed moments ago, or it is further along and its evaluator still runs (see the file's comment). On
   * this evaluator's first reading of the alert (`fresh`) there is no reading of its own to compare: a state
   * another running evaluator wrote stands, since this first mark may be older than the one it was judged on.
   */
  private othersStands(stored: StoredAlert, mine: StreamState, now: number, fresh: boolean): boolean {
    // state_at 0 or absent: set by a person (or a file from before it), never a recent reading.
    const at = stored.state_at ?? 0;
    if (at > 0 && now - at < OTHERS_LEAD_MS) return true;
    const by = stored.state_by;
    if (by === undefined || by === this.id) return false;
    if (!fresh && statePosition(stored.armed, stored.fired_count) <= statePosition(mine.armed, mine.fired_count)) return false;
    return this.running(by);
  }

  private observeMove(cached: StoredAlert, at: number, mark: string): void {
    if (cached.rule.kind !== 'move') return;
    let window = this.windows.get(cached.id);
    if (!window) {
      window = new MoveWindow(cached.rule.window_ms);
      this.windows.set(cached.id, window);
    }
    const step = stepMove(cached.rule, window, at, new Decimal(mark));
    if (!step.fired) return;
    const pct = step.movePct.toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const value = (pct.isZero() ? new Decimal(0) : pct).toFixed();
    const windowMs = cached.rule.window_ms;
    const committed = this.commit(cached.id, (stored) => {
      // Another evaluator fired this alert within the window (the same move, seen there first): not again.
      const last = stored.last_fired_at;
      if (last !== null && last !== this.ownFiredAt.get(stored.id) && at - last < windowMs) return null;
      return this.fired(stored, at, value, firingMessage(stored.market, stored.rule, value, step.from.toFixed()));
    });
    if (committed) this.ownFiredAt.set(cached.id, at);
  }

  private fired(stored: StoredAlert, at: number, value: string, message: string): { alert: StoredAlert; firing: AlertFiring } {
    const done = !stored.repeat;
    const alert: StoredAlert = { ...stored, status: done ? 'done' : 'active', fired_count: stored.fired_count + 1, last_fired_at: at, last_fired_value: value };
    const firing: AlertFiring = { at, profile: stored.profile, id: stored.id, market: stored.market, kind: stored.rule.kind, value, title: `Alert: ${describeRule(stored.market, stored.rule)}`, message, note: stored.note, done };
    return { alert, firing };
  }

  /**
   * Applies `change` to the alert as stored now, under the lock; once that is written, logs and reports
   * the firing (once). A log that cannot be written is the caller's to report, after the firing is.
   */
  private commit(id: string, change: (stored: StoredAlert) => { alert: StoredAlert; firing: AlertFiring | null } | null): boolean {
    let firing: AlertFiring | null = null;
    let found = true;
    try {
      firing = this.o.store.update(this.o.profile, id, (stored) => {
        if (stored.status !== 'active') return { alert: stored, result: null };
        const next = change(stored);
        if (!next) return { alert: stored, result: null };
        return { alert: next.alert, result: next.firing };
      });
    } catch (err) {
      // Removed meanwhile (by another process): forget it; anything else is the caller's to report.
      if ((err as { code?: string }).code !== 'ALERT_NOT_FOUND') throw err;
      found = false;
    }
    let logError: unknown = null;
    if (found && firing) {
      // Committed: the store says it fired. Only now is it logged (never for a commit that failed).
      try {
        appendAlertLog(this.o.store.dataDir, firing);
      } catch (err) {
        logError = err;
      }
    }
    this.reload();
    if (found && firing) this.o.onFire(firing);
    if (logError) throw logError;
    return found && firing !== null;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  private running(id: string): boolean {
    return (this.o.running ?? evaluatorRunning)(id);
  }
}
