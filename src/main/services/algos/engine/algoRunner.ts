/**
 * The one runner of every long-running algorithm (TWAP, trailing stop, OCO pair, chase). The same for
 * the app (its algorithm host runs it in main) and the command line (which runs it in the foreground).
 *
 * It owns what every algorithm needs and none may get wrong on its own:
 *  - the lifecycle: `claim` takes the algorithm's run lock (one process runs it: `<CODE>_LOCKED` naming
 *    the other), `run` runs it once (memoized: a second call gets the same promise), `requestStop` asks
 *    it to stop (pause, cancel, or let go), and the lock is released however the run ends;
 *  - waits on the service clock (algos/algoClock.ts), cut short by a stop;
 *  - the record: read and written through the algorithm's store (checked as a whole, atomic, locked), with
 *    timestamped notes (engine/algoNotes.ts) and typed events (engine/algoEvents.ts) emitted after the write;
 *  - the one "find what was sent" loop after a lost answer (`settleLostAnswer`), on the service clock;
 *  - a read that got no answer (transient) is tried again on the next step: what rests at the service
 *    protects the position meanwhile. Anything else ends the run with `failed`.
 *
 * Each algorithm supplies only its step: `begin` (settle what a crash or a lost answer left in flight),
 * `step` (one look; it returns how long to wait before the next, or that the algorithm is over), and what
 * a stop does to its record. Whether a failed write may have landed is decided by the error's kind
 * (engine/mayHaveLanded.ts), never by its text.
 */
import type { TradingContext } from '../../orders/orderContext.js';
import { isTransientFailure } from '../../../api/errors.js';
import { OperationError, toAppError } from '../../errors.js';
import { serviceAlgoClock, type AlgoClock } from '../algoClock.js';
import { nextUpdatedAt, type AlgoStore, type HeldRecord } from '../algoStore.js';
import { acquireRunLock, type AlgoNaming, type RunLock } from '../runLock.js';
import type { AlgoEventListener, AlgoEventType, AlgoKind } from './algoEvents.js';
import { withAlgoNote } from './algoNotes.js';

/** What every algorithm record carries. */
export interface AlgoRecordBase {
  id: string;
  profile: string;
  updated_at: number;
  notes: string[];
}

/** How a stop was asked for: pause (resume later), cancel (end it), or let go (this process stops running it). */
export type StopKind = 'pause' | 'cancel' | 'interrupt';

const STOP_RANK: Record<StopKind, number> = { interrupt: 0, pause: 1, cancel: 2 };

/** One step's answer: wait this long (on the service clock) before the next, or the algorithm is over. */
export type AlgoStep<R> = { wait: number } | { done: R };

export interface AlgoRunnerOptions<R> {
  clock?: AlgoClock;
  /** The longest wait between two steps. Default 1 s. */
  pollMs?: number;
  /** How long after it was sent a write whose answer was lost is looked for before it counts as never sent. Default 10 s. */
  reconcileGraceMs?: number;
  /** Every change of the record, as written. */
  onUpdate?: (record: R) => void;
  /** Every event, typed, after what it says was written. */
  onAlgoEvent?: AlgoEventListener;
  /** The text of every event (the command line prints it). */
  onEvent?: (text: string) => void;
}

export abstract class AlgoRunner<R extends AlgoRecordBase, S extends { profile: string | null } = { profile: string | null }> {
  protected readonly clock: AlgoClock;
  protected readonly pollMs: number;
  protected readonly graceMs: number;
  private readonly abort = new AbortController();
  private stopKind: StopKind | null = null;
  private running: Promise<R> | null = null;
  /** The service-clock time of the latest read (0 before the first). */
  private lastAt = 0;
  /** The market the events name (set by the algorithm once it knows it). */
  protected eventMarket: string | undefined;
  /** The record as this runner last read or wrote it, when it holds it (`holdsRecord`). */
  private held: HeldRecord<R> | null = null;

  protected constructor(
    protected readonly ctx: TradingContext,
    readonly store: AlgoStore<R, S>,
    readonly id: string,
    readonly kind: AlgoKind,
    private readonly naming: AlgoNaming,
    protected readonly options: AlgoRunnerOptions<R>,
    private lock: RunLock | null,
  ) {
    const clock = options.clock ?? serviceAlgoClock(ctx);
    // Every read of the service clock is remembered: an event raised without a fresh read (a refusal, a
    // failure) is stamped with the service's time of the last read, never this machine's clock.
    this.clock = { now: async () => (this.lastAt = Math.max(this.lastAt, await clock.now())), sleep: (ms, signal) => clock.sleep(ms, signal) };
    this.pollMs = options.pollMs ?? 1_000;
    this.graceMs = options.reconcileGraceMs ?? 10_000;
  }

  // ---- what each algorithm supplies ------------------------------------------------------------------

  /**
   * True for a kind whose record no other process writes while a run holds its run lock (the chase): the
   * runner then reads its record from disk once and holds it in memory, and writes it without the record
   * lock (AlgoStore.writeHeld; a change made from outside meanwhile is refused as a conflict, never
   * overwritten). False (TWAP, trailing, OCO): every step reads the record again, because a pause or a
   * cancel asked from another terminal arrives through it.
   */
  protected get holdsRecord(): boolean {
    return false;
  }

  /** True while the record asks for the algorithm to run (not finished, not paused). */
  protected abstract isActive(record: R): boolean;

  /** Before the first step: settle what a crash or a lost answer left in flight. Default: nothing. */
  protected begin(record: R): Promise<{ record: R } | { done: R }> {
    return Promise.resolve({ record });
  }

  /** One look, maybe one action. */
  protected abstract step(record: R): Promise<AlgoStep<R>>;

  /** What a stop asked in this process does to the record. Default: nothing (what rests stays). */
  protected onStop(_kind: StopKind, record: R): R | Promise<R> {
    return record;
  }

  /** The stop asked from another process through the record (a `perps twap pause` elsewhere), if any. */
  protected requestedInRecord(_record: R): StopKind | null {
    return null;
  }

  // ---- the lifecycle ---------------------------------------------------------------------------------

  /** Takes the run lock now (`<CODE>_LOCKED` when another process runs it); run() does it otherwise. */
  claim(): void {
    this.lock ??= acquireRunLock(this.store.dir, this.id, this.naming);
  }

  /** Asks the run to stop after the step in progress; a cancel outranks a pause, which outranks letting go. */
  requestStop(kind: StopKind = 'interrupt'): void {
    if (this.stopKind === null || STOP_RANK[kind] > STOP_RANK[this.stopKind]) this.stopKind = kind;
    this.abort.abort(new OperationError(`${this.naming.code}_STOPPING`, `${this.naming.what} ${this.id} is stopping (${kind})`, { kind: 'transient' }));
  }

  /** The stop asked in this process, if any. */
  protected get stopRequested(): StopKind | null {
    return this.stopKind;
  }

  /** Runs until the algorithm is over or stopped; resolves with the record as left. Once per runner. */
  run(): Promise<R> {
    this.running ??= this.runLocked();
    return this.running;
  }

  private async runLocked(): Promise<R> {
    this.claim();
    try {
      const begun = await this.begin(this.record());
      if ('done' in begun) return begun.done;
      this.lifecycle('started', `${this.naming.what} ${this.id} is running`, await this.clock.now());
      for (;;) {
        if (this.stopKind) return await this.onStop(this.stopKind, this.record());
        const r = this.record();
        const asked = this.requestedInRecord(r);
        if (asked) return await this.onStop(asked, r);
        if (!this.isActive(r)) return r;
        let next: AlgoStep<R>;
        try {
          next = await this.step(r);
        } catch (err) {
          // No answer from the service for a moment: what rests there stays; the next step looks again.
          if (!isTransientFailure(err) && toAppError(err).kind !== 'transient') throw err;
          next = { wait: this.pollMs };
        }
        if ('done' in next) return next.done;
        await this.wait(next.wait);
      }
    } catch (err) {
      this.lifecycle('failed', `${this.naming.what} ${this.id} stopped: ${toAppError(err).message}`, this.lastAt);
      throw err;
    } finally {
      this.lock!.release();
    }
  }

  // ---- what each step may use ------------------------------------------------------------------------

  /** Waits `ms` on the service clock; a stop cuts it short. */
  protected async wait(ms: number): Promise<void> {
    if (this.abort.signal.aborted) return;
    try {
      await this.clock.sleep(Math.max(0, ms), this.abort.signal);
    } catch (err) {
      if (!this.abort.signal.aborted) throw err;
    }
  }

  protected now(): Promise<number> {
    return this.clock.now();
  }

  /** The record as stored (checked as a whole; `<CODE>_RECORD_DAMAGED` when it fails); held in memory when `holdsRecord`. */
  protected record(): R {
    if (!this.holdsRecord) return this.store.require(this.id, this.ctx.profile.name);
    this.held ??= this.store.readHeld(this.id, this.ctx.profile.name);
    return this.held.record;
  }

  /** Writes a change of the record (through the held copy when `holdsRecord`) and reports it. */
  protected update(change: (r: R) => R): R {
    let next: R;
    if (this.holdsRecord) {
      const held = this.held ?? this.store.readHeld(this.id, this.ctx.profile.name);
      try {
        this.held = this.store.writeHeld(held, { ...change(held.record), updated_at: nextUpdatedAt(held.record.updated_at) });
      } catch (err) {
        // Read again from disk at the next look (checked as a whole there): the file is the truth.
        this.held = null;
        throw err;
      }
      next = this.held.record;
    } else next = this.store.update(this.id, change);
    this.options.onUpdate?.(next);
    return next;
  }

  /**
   * `update` (held record only) whose file work, fsyncs included, runs on the thread pool while the event
   * loop goes on (an order in flight): returns the record as it will be stored and the write, which the
   * caller awaits before it acts on anything that depends on it. Nothing else may write meanwhile.
   */
  protected updateBeside(change: (r: R) => R): { next: R; written: Promise<void> } {
    const held = this.held ?? this.store.readHeld(this.id, this.ctx.profile.name);
    const { out, written } = this.store.writeHeldAsync(held, { ...change(held.record), updated_at: nextUpdatedAt(held.record.updated_at) });
    this.held = out;
    const settled = written.then(
      () => this.options.onUpdate?.(out.record),
      (err: unknown) => {
        // The file is the truth: read again (checked as a whole) at the next look.
        this.held = null;
        throw err;
      },
    );
    return { next: out.record, written: settled };
  }

  /** Emits an event (its text is already in the notes, or needs none). */
  protected emit(type: AlgoEventType, text: string, at = this.lastAt, reason?: string): void {
    this.options.onEvent?.(text);
    this.options.onAlgoEvent?.({ kind: this.kind, id: this.id, type, text, at, ...(this.eventMarket !== undefined ? { market: this.eventMarket } : {}), ...(reason !== undefined ? { reason } : {}) });
  }

  /** A lifecycle event the runner itself raises: typed listeners only (the command line prints the error itself). */
  private lifecycle(type: 'started' | 'failed', text: string, at: number): void {
    this.options.onAlgoEvent?.({ kind: this.kind, id: this.id, type, text, at, ...(this.eventMarket !== undefined ? { market: this.eventMarket } : {}) });
  }

  /** Writes `text` as a note (with `change` in the same write), then emits it as an event of `type`. */
  protected async note(text: string, change: (r: R) => R = (x) => x, type: AlgoEventType = 'acted', reason?: string): Promise<R> {
    const at = await this.clock.now();
    return this.noteAt(at, text, change, type, reason);
  }

  /** `note` at a time already read from the service clock. */
  protected noteAt(at: number, text: string, change: (r: R) => R = (x) => x, type: AlgoEventType = 'acted', reason?: string): R {
    const next = this.update((x) => ({ ...change(x), notes: withAlgoNote(x.notes, at, text) }));
    this.emit(type, text, at, reason);
    return next;
  }

  /**
   * The one "find what was sent" loop after a lost answer: `look` is asked until it finds the write, or
   * until `deadline` (service clock) passes, with 250 ms to 2 s between looks. A look that gets no answer
   * counts as not found yet. The grace period runs to its end even while stopping: a write must be settled,
   * never guessed. Returns what `look` found, or null (not sent).
   */
  protected async settleLostAnswer<T>(deadline: number, look: () => Promise<T | null>): Promise<T | null> {
    let interval = 250;
    for (;;) {
      let hit: T | null = null;
      try {
        hit = await look();
      } catch (err) {
        if (!isTransientFailure(err)) throw err;
      }
      if (hit !== null) return hit;
      if ((await this.clock.now()) >= deadline) return null;
      await this.clock.sleep(interval);
      interval = Math.min(2_000, interval * 2);
    }
  }
}
