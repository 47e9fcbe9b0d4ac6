/**
 * The one host of the long-running algorithms in the app (TWAP, trailing stop, OCO pair, and what comes
 * next): main runs them, so they keep going while the page reloads, moves to another view or is closed
 * into the tray. Everything every kind needs lives here, once; each kind is one entry of its config
 * (`register`, called by the kind's desk), and its desk keeps only what is its own (a TWAP's preview and pause, a trailing
 * stop's start and off, an OCO pair's preview and start).
 *
 *  - it keeps the runners this app runs, with the profile and wallet each belongs to;
 *  - it registers them as background work: the tray lists them, the quit dialog names them, and the app
 *    stays in the tray while one runs;
 *  - after a restart or when a wallet opens, it takes up what no process runs, for the kinds that resume
 *    on their own (a trailing stop, an OCO pair). A TWAP never does: one that was running when its
 *    process ended reads `interrupted` and waits for the person;
 *  - on a wallet or profile change it lets go of what belongs to the other one; on quit, of everything;
 *  - it logs every typed event the runners emit, and notifies from them: which event types notify, per
 *    kind, is the config's table. Never from the text: the text is what the person reads, not a signal.
 *    An event that follows a stop this app asked for (the person pressed Pause, the app let go) is the
 *    answer to that request and is not notified.
 */
import type { AlgoEvent, AlgoEventListener, AlgoEventType, AlgoKind, StopKind } from '../../services/algos/engine/index.js';
import type { ServiceContext } from '../../services/serviceContext.js';
import { toAppError } from '../../services/errors.js';
import { liveRunner } from '../../services/algos/runLock.js';
import type { BackgroundWorkKind, WorkRegistration } from '../backgroundWork.js';
import type { DeskContext } from '../deskContext.js';
import type { DomainEvent } from '../domainEvents.js';
import type { NotificationKind } from '../pumps/pump.js';
import { Throttle } from '../throttle.js';

/** What the host needs of a runner: every AlgoRunner (and the runners not yet ported) has it. */
export interface HostedRunner {
  readonly id: string;
  run(): Promise<unknown>;
  requestStop(kind?: StopKind): void;
}

/** A notification a typed event raises. */
export interface NotifyRule {
  category: NotificationKind;
  title(event: AlgoEvent, market: string): string;
  /** Default: the event's text. */
  body?(event: AlgoEvent): string;
  /** Only events this holds for (decided on the event's typed fields, such as `reason`, never its text). Default: all. */
  when?(event: AlgoEvent): boolean;
}

/** One running algorithm, as the host keeps it. */
export interface HostedItem {
  kind: AlgoKind;
  id: string;
  market: string;
  wallet: string;
  profile: string;
}

export interface AlgoKindConfig {
  kind: AlgoKind;
  /** Its kind of background work (the tray's list, the quit dialog's text). */
  work: BackgroundWorkKind;
  /** The log's tag: "[twap]". */
  tag: string;
  /** Its line in the tray's menu. */
  label(item: HostedItem): string;
  /** Which typed events notify, and how. */
  notify: Partial<Record<AlgoEventType, NotifyRule>>;
  /** Which typed events tell the other streams to look again (a moved stop changes the position row). */
  raise?: Partial<Record<AlgoEventType, readonly DomainEvent[]>>;
  /** On a wallet change, let go of the other wallet's too (not only the other profile's). */
  perWallet: boolean;
  /**
   * Taken up after a restart or a wallet opening: what of this wallet asks to run, and how to open a runner
   * for one (without claiming: run() claims it). Absent: never resumed on its own.
   */
  resume?: {
    candidates(ctx: ServiceContext, wallet: string): { id: string; market: string }[];
    open(ctx: ServiceContext, id: string, onAlgoEvent: AlgoEventListener): HostedRunner;
  };
  /** How a run that ended on an error is written down (beside the log); the error's failed event notifies. */
  onError?(runner: HostedRunner, error: ReturnType<typeof toAppError>): void;
  /** The stop quitting asks of a runner (default `interrupt`: let go, what rests stays, taken up again later). */
  quitStop?(item: HostedItem): StopKind;
  /** Every end of a run, however it ended (after the runner leaves the host). */
  onEnded?(item: HostedItem): void;
}

interface Entry extends HostedItem {
  runner: HostedRunner;
  done: Promise<void>;
  /** The stop this app asked for: the events that answer it are not news. */
  asked: StopKind | null;
}

/** How long quitting waits for the runners to let go (a TWAP's market IOC settles in well under that). */
const CLOSE_WAIT_MS = 10_000;

export class AlgoHost {
  private readonly configs = new Map<AlgoKind, AlgoKindConfig>();
  private readonly work = new Map<AlgoKind, WorkRegistration>();
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly session: DeskContext) {
    session.onReset(() => {
      this.letGoOthers();
      // After the switch: what the new wallet left running is taken up once it is open.
      setTimeout(() => this.resumeAll(), 0);
    });
  }

  /** Adds a kind: its desk calls this once, with the kind's config. */
  register(c: AlgoKindConfig): void {
    if (this.configs.has(c.kind)) throw new Error(`the algorithm host already hosts ${c.kind}`);
    this.configs.set(c.kind, c);
    // What runs here is background work: closing the window keeps the app (and it) running in the tray.
    this.work.set(c.kind, this.session.backgroundWork.register({ kind: c.work, list: () => this.of(c.kind).map((e) => ({ id: e.id, label: c.label(e) })) }));
  }

  private config(kind: AlgoKind): AlgoKindConfig {
    const c = this.configs.get(kind);
    if (!c) throw new Error(`no algorithm host config for ${kind}`);
    return c;
  }

  private key(kind: AlgoKind, id: string): string {
    return `${kind}:${id}`;
  }

  /** The runners of a kind this app runs now. */
  of(kind: AlgoKind): HostedItem[] {
    return [...this.entries.values()].filter((e) => e.kind === kind).map(({ kind: k, id, market, wallet, profile }) => ({ kind: k, id, market, wallet, profile }));
  }

  isRunning(kind: AlgoKind, id: string): boolean {
    return this.entries.has(this.key(kind, id));
  }

  /** The listener a runner of `kind` is built with: every typed event it emits comes here. */
  listener(kind: AlgoKind): AlgoEventListener {
    return (event) => this.onEvent(kind, event);
  }

  /** Runs a runner in the background and keeps it until its run ends. */
  keep(kind: AlgoKind, runner: HostedRunner, item: { market: string; wallet: string }): void {
    const c = this.config(kind);
    const key = this.key(kind, runner.id);
    const entry: Entry = { kind, id: runner.id, market: item.market, wallet: item.wallet, profile: this.session.requireProfile().name, runner, asked: null, done: Promise.resolve() };
    entry.done = runner
      .run()
      .then(() => undefined)
      .catch((err: unknown) => {
        const e = toAppError(err);
        this.session.logger.error(`${c.tag} ${c.kind} ${runner.id} (${item.market}) stopped on an error: ${e.code}: ${e.message}`);
        try {
          c.onError?.(runner, e);
        } catch (noteErr) {
          this.session.logger.error(`${c.tag} writing down the error of ${runner.id} failed: ${(noteErr as Error).message}`);
        }
      })
      .finally(() => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        this.work.get(kind)?.changed();
        c.onEnded?.(entry);
      });
    this.entries.set(key, entry);
    this.work.get(kind)?.changed();
  }

  /** Tells the other streams the list of a kind changed (a TWAP's tray label moved on). */
  changed(kind: AlgoKind): void {
    this.work.get(kind)?.changed();
  }

  /**
   * Asks a runner this app runs to stop (`pause`, `cancel`, or `interrupt`: let go) and waits for its run
   * to end. False when this app does not run it.
   */
  async stop(kind: AlgoKind, id: string, how: StopKind): Promise<boolean> {
    const e = this.entries.get(this.key(kind, id));
    if (!e) return false;
    e.asked = how;
    e.runner.requestStop(how);
    await e.done;
    return true;
  }

  /** Takes up, for each kind that resumes on its own, what this wallet left running and no process runs. */
  resumeAll(): void {
    const wallet = this.session.wallet.address();
    if (!wallet || !this.session.profile) return;
    let ctx: ServiceContext;
    try {
      ctx = this.session.ctx();
    } catch {
      // Switching profiles or shutting down: the next reset takes them up.
      return;
    }
    for (const c of this.configs.values()) {
      if (!c.resume) continue;
      let candidates: { id: string; market: string }[];
      try {
        candidates = c.resume.candidates(ctx, wallet);
      } catch (err) {
        this.session.logger.error(`${c.tag} listing what to take up failed: ${toAppError(err).message}`);
        continue;
      }
      for (const { id, market } of candidates) {
        if (this.isRunning(c.kind, id)) continue;
        try {
          this.keep(c.kind, c.resume.open(ctx, id, this.listener(c.kind)), { market, wallet });
        } catch (err) {
          const e = toAppError(err);
          this.session.logger.error(`${c.tag} taking up ${c.kind} ${id} failed: ${e.code}: ${e.message}`);
        }
      }
    }
  }

  /** Lets go of what belongs to another profile (and, for per-wallet kinds, another wallet) than the open one. */
  private letGoOthers(): void {
    const profile = this.session.profile?.name ?? null;
    const wallet = this.session.wallet.address()?.toLowerCase() ?? null;
    for (const e of this.entries.values()) {
      const other = e.profile !== profile || (this.config(e.kind).perWallet && e.wallet.toLowerCase() !== wallet);
      if (other) this.letGo(e);
    }
  }

  private letGo(e: Entry): void {
    e.asked ??= 'interrupt';
    e.runner.requestStop('interrupt');
  }

  /** Quitting: every runner is let go (what rests at the service stays); waits a while for them to end. */
  async close(): Promise<void> {
    const all = [...this.entries.values()];
    for (const e of all) {
      const how = this.config(e.kind).quitStop?.(e) ?? 'interrupt';
      if (how === 'interrupt') this.letGo(e);
      else {
        e.asked ??= how;
        e.runner.requestStop(how);
      }
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(all.map((e) => e.done)), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private onEvent(kind: AlgoKind, event: AlgoEvent): void {
    const c = this.config(kind);
    const entry = this.entries.get(this.key(kind, event.id));
    const market = event.market ?? entry?.market ?? '';
    const log = event.type === 'failed' ? 'error' : event.type === 'attention' ? 'warn' : 'info';
    this.session.logger[log](`${c.tag} ${kind} ${event.id}${market ? ` (${market})` : ''} ${event.type}: ${event.text}`);
    for (const raised of c.raise?.[event.type] ?? []) this.session.raise(raised);
    const rule = c.notify[event.type];
    // The answer to a stop this app asked for is not news (a failure always is).
    const answersAsked = entry?.asked != null && event.type !== 'failed' && event.type !== 'attention';
    if (rule && !answersAsked && (rule.when?.(event) ?? true)) this.session.notify(rule.category, rule.title(event, market), rule.body ? rule.body(event) : event.text);
  }
}

/**
 * What a restart or a wallet opening takes up for a kind: the wallet's stored records that ask to run
 * (`active`) and that no process runs now (no live run lock). One filter for every kind's `candidates`.
 */
export function recordsToTakeUp<T extends { id: string; wallet: string }>(store: { readonly dir: string; list(profile: string): { records: T[] } }, profile: string, wallet: string, active: (r: T) => boolean): T[] {
  return store.list(profile).records.filter((r) => active(r) && r.wallet.toLowerCase() === wallet.toLowerCase() && !liveRunner(store.dir, r.id));
}

/**
 * A kind's views on their way to the page: keyed by id, the latest of each delivered at most once per the
 * session's throttle interval, a delivery that fails logged under the kind's tag.
 */
export function algoViewStream<V extends { id: string }>(session: Pick<DeskContext, 'timings' | 'logger'>, tag: string, what: string, emit: (views: V[]) => void): Throttle<V> {
  return new Throttle<V>({
    intervalMs: session.timings.throttleMs,
    key: (v) => v.id,
    emit,
    onError: (err) => session.logger.error(`${tag} delivering ${what} failed: ${(err as Error).message}`),
  });
}
