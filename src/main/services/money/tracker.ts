/**
 * Following withdrawals to a terminal status, economically: one withdrawal-history read per account per
 * poll covers every tracked withdrawal of that account (never one request per withdrawal), and the poll
 * interval backs off while nothing changes, snapping back to the minimum as soon as something does.
 *
 * The tracker works from the persisted store (withdrawalStore.ts), so a new process picks up exactly
 * where the last one stopped: tracking survives restarts.
 */
import { isTerminalWithdrawalStatus, type Withdrawal } from '../../../shared/protocol/index.js';
import { MAX_PAGE_LIMIT } from '../../api/tradingApiClient.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError } from '../errors.js';
import { WithdrawalStore, isOpen, type TrackedWithdrawal } from './withdrawalStore.js';
import { applyRow, matchLanded, resumeWithdrawals } from './withdrawals/index.js';

export interface TrackerOptions {
  /** First and post-change poll interval. */
  minIntervalMs?: number;
  /** Ceiling of the backed-off interval. */
  maxIntervalMs?: number;
  /** Interval growth per poll without a change. */
  backoffFactor?: number;
  /** Called with every record whose status or phase changed. */
  onUpdate?: (record: TrackedWithdrawal) => void;
}

export interface PollResult {
  /** Records whose phase or status changed in this poll. */
  changed: TrackedWithdrawal[];
  /** Records still open after it. */
  open: TrackedWithdrawal[];
  /** History requests made (one per account with open records, more only when a page overflows). */
  requests: number;
}

/** History pages read per account before giving up on finding a record (it is then read by id). */
const MAX_PAGES_PER_POLL = 5;

export class WithdrawalTracker {
  private readonly store: WithdrawalStore;
  private readonly minIntervalMs: number;
  private readonly maxIntervalMs: number;
  private readonly backoffFactor: number;
  private readonly onUpdate: ((record: TrackedWithdrawal) => void) | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    options: TrackerOptions = {},
  ) {
    this.store = new WithdrawalStore(ctx.settings, ctx.profile.name);
    this.minIntervalMs = options.minIntervalMs ?? 1_000;
    this.maxIntervalMs = Math.max(this.minIntervalMs, options.maxIntervalMs ?? 30_000);
    this.backoffFactor = Math.max(1, options.backoffFactor ?? 2);
    this.onUpdate = options.onUpdate;
  }

  /** Open records with a withdrawal to follow or find (SIGNED ones need a send, not a read). */
  private followed(filter?: (r: TrackedWithdrawal) => boolean): TrackedWithdrawal[] {
    return this.store.list({ open: true }).filter((r) => (r.phase === 'TRACKING' || r.phase === 'LANDED') && (!filter || filter(r)));
  }

  /** One poll: a history read per account, applied to every tracked record of it. */
  async pollOnce(filter?: (r: TrackedWithdrawal) => boolean): Promise<PollResult> {
    const tracked = this.followed(filter);
    const byAccount = new Map<string, TrackedWithdrawal[]>();
    for (const r of tracked) byAccount.set(r.account_id, [...(byAccount.get(r.account_id) ?? []), r]);
    const changed: TrackedWithdrawal[] = [];
    let requests = 0;
    for (const [accountId, records] of byAccount) {
      const wanted = new Set(records.filter((r) => r.withdrawal_id !== null).map((r) => r.withdrawal_id!));
      const needsMatching = records.some((r) => r.phase === 'LANDED');
      const rows: Withdrawal[] = [];
      // Newest first: the records being tracked are recent, so the first page nearly always holds them all.
      for (let page = 0; page < MAX_PAGES_PER_POLL; page++) {
        const { withdrawals } = await this.ctx.api.withdrawalHistory(accountId, { limit: MAX_PAGE_LIMIT, offset: page * MAX_PAGE_LIMIT });
        requests++;
        rows.push(...withdrawals);
        for (const w of withdrawals) wanted.delete(w.withdrawal_id);
        const oldestSigned = Math.min(...records.map((r) => r.signed_at));
        const reachedOlder = withdrawals.length > 0 && withdrawals[withdrawals.length - 1]!.created_at < oldestSigned;
        if (withdrawals.length < MAX_PAGE_LIMIT || (wanted.size === 0 && (!needsMatching || reachedOlder))) break;
      }
      const byId = new Map(rows.map((w) => [w.withdrawal_id, w]));
      for (const record of records) {
        if (record.phase !== 'TRACKING' || record.withdrawal_id === null) continue;
        let row = byId.get(record.withdrawal_id);
        if (!row) {
          // Not in the pages read (a very busy account): the single lookup is the fallback, not the rule.
          row = await this.ctx.api.withdrawal(record.withdrawal_id);
          requests++;
        }
        if (row.status !== record.status || isTerminalWithdrawalStatus(row.status)) {
          const next = applyRow(this.store, record, row);
          changed.push(next);
          this.onUpdate?.(next);
        }
      }
      const landed = records.filter((r) => r.phase === 'LANDED');
      if (landed.length > 0) {
        for (const next of await matchLanded(this.ctx, landed, new Map([[accountId, rows]]))) {
          if (next.phase !== 'LANDED') {
            changed.push(next);
            this.onUpdate?.(next);
          }
        }
      }
    }
    return { changed, open: this.followed(filter), requests };
  }

  /**
   * Polls until every record selected by `filter` is closed (DONE or UNMATCHED), backing off while nothing
   * changes. Returns the selected records in their final state.
   */
  async waitUntilClosed(filter: (r: TrackedWithdrawal) => boolean, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<TrackedWithdrawal[]> {
    const deadline = options.timeoutMs !== undefined ? Date.now() + options.timeoutMs : Infinity;
    let interval = this.minIntervalMs;
    for (;;) {
      const selected = this.store.list().filter(filter);
      const pending = selected.filter(isOpen);
      if (pending.length === 0) return selected;
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
      if (Date.now() >= deadline) {
        throw new OperationError('WAIT_TIMEOUT', `${pending.length} withdrawal(s) still in flight after ${options.timeoutMs} ms`, {
          details: { pending: pending.map((r) => ({ intent_id: r.intent_id, withdrawal_id: r.withdrawal_id, status: r.status, phase: r.phase })) },
          hint: 'Tracking continues where it left off: run `perps withdraw --resume --wait` or `perps history withdrawals` later.',
        });
      }
      if (pending.some((r) => r.phase === 'SIGNED')) {
        // A send that was never confirmed cannot be followed by reading: resend it (identical body). A
        // failure stays recorded on the record and is retried after the next interval.
        await resumeWithdrawals(this.ctx);
      }
      await this.ctx.sleep(Math.min(interval, Math.max(0, deadline - Date.now())), options.signal);
      const { changed } = await this.pollOnce(filter);
      interval = changed.length > 0 ? this.minIntervalMs : Math.min(this.maxIntervalMs, interval * this.backoffFactor);
    }
  }

  /** Waits for one intent (by intent id or withdrawal id). */
  async waitFor(id: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<TrackedWithdrawal> {
    const [record] = await this.waitUntilClosed((r) => r.intent_id === id || r.withdrawal_id === id, options);
    if (!record) throw new OperationError('NOT_TRACKED', `no withdrawal ${id} is tracked in this data folder`);
    return record;
  }
}
