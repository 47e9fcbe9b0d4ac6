/**
 * The bridge and swap transfers of a profile, from "preparing" to their end, as the renderer's progress
 * views and list show them. Every change is published (throttled, latest per transfer) on the `transfers`
 * event and saved in the settings store, so a transfer still being delivered when the app closes is
 * followed again on the next start: a bridge order whose source transaction was sent goes back to polling
 * GET /bridge/orders; one interrupted before its source transaction was known is marked as an error that
 * says where to look, never silently dropped or resent.
 *
 * Once a bridge's source transaction is broadcast, only a reverted receipt proves nothing moved: a
 * receipt wait that failed otherwise (timed out, the RPC went away) leaves the transfer tracking its order,
 * with the failure shown in `poll_error` until the bridge has seen the order. A failed read of the order
 * is shown there too (since when the reads have been failing), and cleared by the next good read.
 */
import type { TransferPhase, TransferView } from '../../../shared/ipc.js';
import { RECEIPT_UNCONFIRMED } from '../../../shared/transferNotes.js';
import type { SleepFn } from '../../api/retry.js';
import type { BridgeClient } from '../../api/companion/bridgeClient.js';
import { describeFailure, ValidationError } from '../../services/errors.js';
import { bridgeStatus, isFinalOutcome, type BridgeOutcome } from '../../services/bridge/track.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import type { AppLogger } from '../adapters.js';
import { Throttle } from '../throttle.js';

const FINAL_PHASES: readonly TransferPhase[] = ['done', 'refunded', 'failed', 'error'];
// poll_error code of a send whose receipt was not confirmed (not a failed read of the bridge): kept until
// the bridge lists the order, which answers what the receipt would have.
export { RECEIPT_UNCONFIRMED };
/** error code of a source transaction mined but reverted: nothing moved, so there is no order to follow. */
const REVERTED_CODE = 'TX_REVERTED';
/** Transfers kept (newest first); older final ones are forgotten. */
export const MAX_TRANSFERS = 100;
/** How often a pending bridge order is asked about (the CLI's default too). */
export const TRANSFER_POLL_INTERVAL_MS = 3_000;

export interface TransferTrackerOptions {
  settings: SettingsStore;
  /** Settings key of this profile's transfer list. */
  storeKey: string;
  emit: (transfers: TransferView[]) => void;
  bridge: () => BridgeClient;
  sleep: SleepFn;
  now: () => number;
  logger: AppLogger;
  pollIntervalMs?: number;
  throttleMs?: number;
}

export type NewTransfer = Pick<TransferView, 'kind' | 'from_chain' | 'to_chain' | 'from_token' | 'to_token' | 'amount_units' | 'protocol' | 'expected_out'> &
  Partial<Pick<TransferView, 'phase' | 'src_tx'>>;

export function isFinalPhase(phase: TransferPhase): boolean {
  return FINAL_PHASES.includes(phase);
}

export class TransferTracker {
  private readonly transfers = new Map<string, TransferView>();
  private readonly throttle: Throttle<TransferView>;
  private readonly abort = new AbortController();
  private readonly polling = new Set<string>();
  private seq = 0;
  /** After close, changes stay in memory only: the next session restores the last saved state and recovers from it. */
  private closed = false;

  constructor(private readonly options: TransferTrackerOptions) {
    this.throttle = new Throttle({
      intervalMs: options.throttleMs ?? 100,
      key: (t) => t.id,
      emit: (values) => options.emit(values),
      onError: (err) => options.logger.error(`[transfers] publishing failed: ${(err as Error).message}`),
    });
    this.load();
  }

  /** Newest first. */
  list(): TransferView[] {
    return [...this.transfers.values()].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
  }

  get(id: string): TransferView | undefined {
    return this.transfers.get(id);
  }

  findBySrcTx(srcTx: string): TransferView | undefined {
    return [...this.transfers.values()].find((t) => t.src_tx?.toLowerCase() === srcTx.toLowerCase());
  }

  create(init: NewTransfer): TransferView {
    const now = this.options.now();
    const phase = init.phase ?? 'preparing';
    const t: TransferView = {
      id: `${init.kind}-${now.toString(36)}-${(this.seq++).toString(36)}`,
      kind: init.kind,
      phase,
      final: isFinalPhase(phase),
      from_chain: init.from_chain,
      to_chain: init.to_chain,
      from_token: init.from_token,
      to_token: init.to_token,
      amount_units: init.amount_units,
      protocol: init.protocol,
      expected_out: init.expected_out,
      requotes: 0,
      approve_tx: null,
      src_tx: init.src_tx ?? null,
      bridge_state: null,
      bridge_orders: 0,
      points: null,
      points_error: null,
      error: null,
      poll_error: null,
      steps: [{ phase, at: now }],
      created_at: now,
      updated_at: now,
    };
    this.transfers.set(t.id, t);
    this.changed(t);
    return t;
  }

  /** Applies a change; a final transfer never changes again (except through refollow). */
  update(id: string, patch: Partial<Omit<TransferView, 'id' | 'kind' | 'created_at'>>): TransferView {
    const current = this.transfers.get(id);
    if (!current) throw new ValidationError(`no transfer ${id}`, { field: 'id' });
    if (current.final) return current;
    return this.write(current, patch);
  }

  private write(current: TransferView, patch: Partial<Omit<TransferView, 'id' | 'kind' | 'created_at'>>): TransferView {
    const id = current.id;
    const phase = patch.phase ?? current.phase;
    const at = this.options.now();
    const steps = phase === current.phase ? current.steps : [...current.steps, { phase, at }];
    const next: TransferView = { ...current, ...patch, phase, steps, final: isFinalPhase(phase), updated_at: at };
    this.transfers.set(id, next);
    this.changed(next);
    return next;
  }

  /** Ends a transfer with the failure as the user should read it. */
  fail(id: string, err: unknown): TransferView {
    const d = describeFailure(err);
    const code = d.code === 'ERROR' ? 'TRANSFER_FAILED' : d.code;
    if (d.code === 'ERROR') this.options.logger.error(`[transfers] ${id} failed unexpectedly: ${(err as Error).message}`);
    return this.update(id, { phase: 'error', error: { code, message: d.message, ...(d.hint ? { hint: d.hint } : {}) } });
  }

  /**
   * A bridge whose source transaction was broadcast, but whose send then failed short of a revert (the
   * receipt wait timed out, the RPC went away): the order may well be under way at the bridge, so the
   * transfer goes on tracking it instead of ending, with the failure noted for the user.
   */
  followAfterSendFailure(id: string, err: unknown): TransferView {
    const t = this.transfers.get(id);
    if (!t) throw new ValidationError(`no transfer ${id}`, { field: 'id' });
    if (!t.src_tx || t.kind !== 'bridge') return this.fail(id, err);
    const d = describeFailure(err);
    this.options.logger.warn(`[transfers] ${id}: the receipt of ${t.src_tx} was not confirmed (${d.code}); following the bridge order instead`);
    const next = this.update(id, {
      phase: 'tracking',
      bridge_state: t.bridge_state ?? 'unseen',
      poll_error: unconfirmedNote(t.src_tx, d, this.options.now()),
    });
    this.follow(id);
    return next;
  }

  /**
   * Follows a bridge transfer's order again on the user's request: one that ended in `error` after its
   * source transaction was known (e.g. by an older version, when the receipt wait failed) goes back to
   * tracking, its error kept as the note of why it was not followed. A reverted source transaction moved
   * nothing and stays as it is; a transfer under way is (still) followed.
   */
  refollow(id: string): TransferView {
    const t = this.transfers.get(id);
    if (!t) throw new ValidationError(`no transfer ${id}`, { field: 'id' });
    if (t.kind !== 'bridge' || !t.src_tx) return t;
    if (!t.final) {
      this.follow(id);
      return t;
    }
    if (t.phase !== 'error' || t.error?.code === REVERTED_CODE) return t;
    const note = t.error ? unconfirmedNote(t.src_tx, { code: t.error.code, message: t.error.message, ...(t.error.hint ? { hint: t.error.hint } : {}) }, this.options.now()) : null;
    this.options.logger.info(`[transfers] ${id}: following the bridge order of ${t.src_tx} again, as asked`);
    const next = this.write(t, { phase: 'tracking', error: null, bridge_state: t.bridge_state ?? 'unseen', poll_error: note });
    this.follow(id);
    return next;
  }

  /** Forgets a transfer that has ended (one still under way cannot be dismissed). */
  dismiss(id: string): void {
    const t = this.transfers.get(id);
    if (!t) throw new ValidationError(`no transfer ${id}`, { field: 'id' });
    if (!t.final) throw new ValidationError('this transfer is still under way; it can be dismissed once it has ended', { field: 'id', code: 'TRANSFER_IN_PROGRESS' });
    this.transfers.delete(id);
    this.save();
  }

  /**
   * Polls GET /bridge/orders for the transfer's source transaction until the orders end (done, refunded,
   * failed). A failed poll is retried at the next interval (the order lives on at the bridge whatever the
   * app's connection does) and shown on the transfer as `poll_error`, with `since` the first failure of
   * the streak; the next good read clears it. The log gets each distinct failure once, not every poll.
   */
  follow(id: string): void {
    if (this.polling.has(id)) return;
    const t = this.transfers.get(id);
    if (!t?.src_tx || t.kind !== 'bridge' || t.final) return;
    this.polling.add(id);
    const srcTx = t.src_tx;
    const interval = this.options.pollIntervalMs ?? TRANSFER_POLL_INTERVAL_MS;
    const loop = async (): Promise<void> => {
      let lastError: string | null = null;
      // A streak saved before a restart goes on: nothing good has been read since.
      let failingSince: number | null = t.poll_error && t.poll_error.code !== RECEIPT_UNCONFIRMED ? t.poll_error.since : null;
      while (!this.abort.signal.aborted) {
        let status: Awaited<ReturnType<typeof bridgeStatus>> | null = null;
        try {
          status = await bridgeStatus({ bridge: this.options.bridge() }, srcTx);
        } catch (err) {
          const d = describeFailure(err);
          // Logged once per distinct failure, not on every poll of an outage.
          if (d.message !== lastError) this.options.logger.warn(`[transfers] polling the bridge order of ${srcTx} failed: ${d.message}`);
          lastError = d.message;
          failingSince ??= this.options.now();
          const cur = this.transfers.get(id);
          if (!cur || cur.final) return;
          const prev = cur.poll_error;
          if (prev?.code !== d.code || prev.message !== d.message || prev.since !== failingSince) {
            this.update(id, { poll_error: { code: d.code, message: d.message, ...(d.hint ? { hint: d.hint } : {}), since: failingSince } });
          }
        }
        if (status !== null) {
          lastError = null;
          failingSince = null;
          const state: BridgeOutcome = status.state;
          const phase: TransferPhase = isFinalOutcome(state) ? state : 'tracking';
          const cur = this.transfers.get(id);
          if (!cur) return;
          // A failed read is cleared by this good one; the note of an unconfirmed receipt only once the
          // bridge lists the order (which proves the transaction was mined).
          const clear = cur.poll_error !== null && (cur.poll_error.code !== RECEIPT_UNCONFIRMED || state !== 'unseen');
          if (clear || cur.bridge_state !== state || cur.phase !== phase || cur.bridge_orders !== status.orders.length) {
            this.update(id, { phase, bridge_state: state, bridge_orders: status.orders.length, ...(clear ? { poll_error: null } : {}) });
          }
          if (isFinalOutcome(state)) return;
        }
        await this.options.sleep(interval, this.abort.signal).catch(() => undefined);
      }
    };
    loop()
      .catch((err: unknown) => this.options.logger.error(`[transfers] following ${srcTx} stopped: ${(err as Error).message}`))
      .finally(() => this.polling.delete(id));
  }

  /** Stops polling and delivers what is pending. */
  close(): void {
    this.abort.abort();
    this.throttle.close();
    this.save();
    this.closed = true;
  }

  private changed(t: TransferView): void {
    this.throttle.push(t);
    this.save();
  }

  private save(): void {
    if (this.closed) return;
    const kept = this.list();
    // Transfers under way are always kept; the oldest final ones go first.
    while (kept.length > MAX_TRANSFERS) {
      const i = kept.map((x) => x.final).lastIndexOf(true);
      if (i < 0) break;
      this.transfers.delete(kept[i]!.id);
      kept.splice(i, 1);
    }
    try {
      this.options.settings.set(this.options.storeKey, kept);
    } catch (err) {
      this.options.logger.error(`[transfers] saving the transfer list failed: ${(err as Error).message}`);
    }
  }

  /** Restores the saved list; what was under way is followed again or marked interrupted. */
  private load(): void {
    const raw = this.options.settings.get(this.options.storeKey);
    if (!Array.isArray(raw)) return;
    for (const item of raw as TransferView[]) {
      if (typeof item?.id !== 'string' || typeof item.phase !== 'string') continue;
      // Transfers saved by an older version lack the newer fields.
      this.transfers.set(item.id, { ...item, points_error: item.points_error ?? null, poll_error: item.poll_error ?? null, steps: Array.isArray(item.steps) ? item.steps : [] });
    }
    for (const t of [...this.transfers.values()]) {
      if (t.final) continue;
      if (t.kind === 'bridge' && t.src_tx) {
        this.update(t.id, { phase: 'tracking' });
        this.follow(t.id);
      } else if (t.src_tx) {
        // A swap whose transaction was sent: its receipt is on the chain; the app did not see it.
        this.update(t.id, { phase: 'error', error: { code: 'INTERRUPTED', message: `the app closed while waiting for ${t.src_tx} to be confirmed`, hint: 'Look the transaction up on the chain’s explorer: it may have been confirmed.' } });
      } else {
        this.update(t.id, {
          phase: 'error',
          error: { code: 'INTERRUPTED', message: `the app closed during "${t.phase}", before a source transaction was known`, hint: 'Check the wallet’s recent transactions on the source chain before trying again.' },
        });
      }
    }
  }
}

/** The poll_error note of a source transaction whose receipt was not confirmed. */
function unconfirmedNote(srcTx: string, d: { code: string; message: string; hint?: string }, now: number): NonNullable<TransferView['poll_error']> {
  return {
    code: RECEIPT_UNCONFIRMED,
    message: `the source transaction ${srcTx} was sent, but its receipt was not confirmed (${d.code}: ${d.message}); following the bridge order instead`,
    hint: 'The bridge lists the order once the transaction is mined. If it never does, look the hash up on the chain’s explorer: the transaction may have been dropped.',
    since: now,
  };
}
