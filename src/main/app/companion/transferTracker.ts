/**
 * The bridge and swap transfers of a profile, from "preparing" to their end, as the renderer's progress
 * views and list show them. Every change is published (throttled, latest per transfer) on the `transfers`
 * event and saved in the settings store, so a transfer still being delivered when the app closes is
 * followed again on the next start: a bridge order whose source transaction was sent goes back to polling
 * GET /bridge/orders; one interrupted before its source transaction was known is marked as an error that
 * says where to look, never silently dropped or resent.
 */
import type { TransferPhase, TransferView } from '../../../shared/ipc.js';
import type { SleepFn } from '../../api/retry.js';
import type { BridgeClient } from '../../api/companion/bridgeClient.js';
import { describeFailure, ValidationError } from '../../services/errors.js';
import { bridgeStatus, isFinalOutcome, type BridgeOutcome } from '../../services/bridge/track.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import type { AppLogger } from '../adapters.js';
import { Throttle } from '../throttle.js';

const FINAL_PHASES: readonly TransferPhase[] = ['done', 'refunded', 'failed', 'error'];
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

  /** Applies a change; a final transfer never changes again. */
  update(id: string, patch: Partial<Omit<TransferView, 'id' | 'kind' | 'created_at'>>): TransferView {
    const current = this.transfers.get(id);
    if (!current) throw new ValidationError(`no transfer ${id}`, { field: 'id' });
    if (current.final) return current;
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
   * failed). A failed poll is logged and retried at the next interval: the order lives on at the bridge
   * whatever the app's connection does.
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
      while (!this.abort.signal.aborted) {
        try {
          const status = await bridgeStatus({ bridge: this.options.bridge() }, srcTx);
          lastError = null;
          const state: BridgeOutcome = status.state;
          const phase: TransferPhase = isFinalOutcome(state) ? state : 'tracking';
          const cur = this.transfers.get(id);
          if (!cur) return;
          if (cur.bridge_state !== state || cur.phase !== phase || cur.bridge_orders !== status.orders.length) {
            this.update(id, { phase, bridge_state: state, bridge_orders: status.orders.length });
          }
          if (isFinalOutcome(state)) return;
        } catch (err) {
          const message = (err as Error).message;
          // Logged once per distinct failure, not on every poll of an outage.
          if (message !== lastError) this.options.logger.warn(`[transfers] polling the bridge order of ${srcTx} failed: ${message}`);
          lastError = message;
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
