/**
 * Persistent scheduled work on the SimClock.
 *
 * Every asynchronous step of the service (order progression, cancels, modifies, withdrawals, deposits,
 * margin requests, position publication, funding) is a job: a kind, a due time and a JSON payload.
 * Because jobs are data rather than closures, the whole schedule saves with the state file and resumes
 * after a restart exactly where it stopped.
 *
 * A failing job is a simulator bug: it is logged, kept in `errors` (GET /sim/state shows them and
 * POST /sim/advance answers 500 when one happened during the advance), and never silently dropped.
 */
import type { ScheduledTask, SimClock } from '../runtime/clock.js';
import { SnapshotError } from '../state/snapshotError.js';

export interface JobRecord<K extends string = string, P = unknown> {
  readonly id: number;
  readonly at: number;
  readonly kind: K;
  readonly payload: P;
}

export interface JobError {
  readonly at: number;
  readonly kind: string;
  readonly payload: unknown;
  readonly message: string;
}

type Handler = (payload: never, job: JobRecord) => void;

export class JobQueue<Payloads extends { [K in keyof Payloads]: unknown }> {
  private readonly handlers = new Map<string, Handler>();
  private readonly pending = new Map<number, { record: JobRecord; task: ScheduledTask }>();
  private nextId = 1;
  readonly errors: JobError[] = [];

  constructor(private readonly clock: SimClock) {}

  on<K extends keyof Payloads & string>(kind: K, handler: (payload: Payloads[K], job: JobRecord<K, Payloads[K]>) => void): void {
    if (this.handlers.has(kind)) throw new Error(`job handler for ${kind} registered twice`);
    this.handlers.set(kind, handler as unknown as Handler);
  }

  add<K extends keyof Payloads & string>(kind: K, delayMs: number, payload: Payloads[K]): JobRecord<K, Payloads[K]> {
    return this.addAt(kind, this.clock.now() + Math.max(0, delayMs), payload);
  }

  addAt<K extends keyof Payloads & string>(kind: K, at: number, payload: Payloads[K]): JobRecord<K, Payloads[K]> {
    const record: JobRecord<K, Payloads[K]> = { id: this.nextId++, at, kind, payload };
    this.arm(record);
    return record;
  }

  cancel(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.task.cancel();
    this.pending.delete(id);
  }

  size(): number {
    return this.pending.size;
  }

  /** Pending jobs in due order (for the state file). */
  snapshot(): { nextId: number; jobs: JobRecord[] } {
    const jobs = [...this.pending.values()].map((p) => p.record).sort((a, b) => a.at - b.at || a.id - b.id);
    return { nextId: this.nextId, jobs };
  }

  /** Replaces the schedule with saved jobs; ones already due run at the next clock step. */
  restore(saved: { nextId: number; jobs: JobRecord[] }): void {
    for (const id of [...this.pending.keys()]) this.cancel(id);
    this.nextId = saved.nextId;
    for (const job of [...saved.jobs].sort((a, b) => a.at - b.at || a.id - b.id)) {
      if (!this.handlers.has(job.kind)) throw new SnapshotError(`state file has a job of unknown kind ${job.kind}`);
      this.arm(job);
    }
  }

  clear(): void {
    for (const id of [...this.pending.keys()]) this.cancel(id);
  }

  private arm(record: JobRecord): void {
    if (!this.handlers.has(record.kind)) throw new Error(`no job handler for ${record.kind}`);
    const task = this.clock.scheduleAt(record.at, () => this.run(record));
    this.pending.set(record.id, { record, task });
  }

  /** Records a failure that happened outside a job (a mark listener) the same way as a job failure. */
  report(kind: string, payload: unknown, err: unknown): void {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.error(`[sim] ${kind} failed`, err);
    this.errors.push({ at: this.clock.now(), kind, payload, message });
  }

  private run(record: JobRecord): void {
    if (!this.pending.delete(record.id)) return;
    const handler = this.handlers.get(record.kind)!;
    try {
      handler(record.payload as never, record);
    } catch (err) {
      this.report(`job ${record.kind}`, record.payload, err);
    }
  }
}
