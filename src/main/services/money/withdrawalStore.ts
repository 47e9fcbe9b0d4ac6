/**
 * Withdrawals this data folder signed, persisted in the settings store so that tracking survives a
 * restart and no withdrawal is ever sent twice by accident. A record is written with its signed body
 * and nonce BEFORE the first send: after a crash or a lost answer the identical body is sent again (the
 * nonce makes the service accept it at most once), and a second signature for the same intent is
 * never made.
 *
 * The store holds signatures over withdrawals to the user's own wallet (needed for the identical
 * resend). They authorize nothing else and are never logged.
 */
import type { WithdrawalStatus, WithdrawBody } from '../../../shared/protocol/index.js';
import type { SettingsStore } from '../../settings/settingsStore.js';

export type WithdrawalPhase =
  /** Signed and persisted; it may or may not have reached the service. Resend the identical body. */
  | 'SIGNED'
  /** The service has it (its nonce answered 409 on a resend), but its withdrawal_id is not known yet. */
  | 'LANDED'
  /** Accepted (REQUESTED) with a withdrawal_id; followed until a terminal status. */
  | 'TRACKING'
  /** Finished: a terminal status, or rejected at submit, or refused outright. */
  | 'DONE'
  /** Its nonce was used, yet withdrawal history shows nothing for it: most likely rejected at submit with the answer lost. */
  | 'UNMATCHED';

export interface TrackedWithdrawal {
  /** Local id of the user's intent: one intent, one signature, at most one withdrawal. */
  intent_id: string;
  /** Profile name ('sim', 'mainnet'): records never cross services. */
  profile: string;
  wallet: string;
  account_id: string;
  /** Canonical whole-USDC decimal, as sent. */
  amount: string;
  destination: string;
  nonce: string;
  /** The signed body, sent byte-identical on every resend. */
  body: WithdrawBody;
  phase: WithdrawalPhase;
  /** Service clock (Unix ms) when it was signed: the landed withdrawal cannot be older. */
  signed_at: number;
  /** Sends started (persisted before each send: a send that crashed still counts). */
  send_attempts: number;
  /** Unsuccessful attempts to find a landed withdrawal in history. */
  match_attempts: number;
  withdrawal_id: string | null;
  status: WithdrawalStatus | null;
  /** Submit-time rejection reason (BELOW_MIN, ...) or the error code that refused the body. */
  reason: string | null;
  new_wallet_fee: string | null;
  failure_reason: string | null;
  l1_send_amount: string | null;
  l1_tx_hash: string | null;
  /** Service timestamps of the withdrawal itself. */
  created_at: number | null;
  completed_at: number | null;
  /** Local clock of the last change of this record. */
  updated_at: number;
  note: string | null;
}

const KEY = 'money.withdrawals';

/** Every phase but DONE and UNMATCHED still needs work (a send, a match or tracking). */
export function isOpen(r: TrackedWithdrawal): boolean {
  return r.phase === 'SIGNED' || r.phase === 'LANDED' || r.phase === 'TRACKING';
}

export class WithdrawalStore {
  constructor(
    private readonly settings: SettingsStore,
    private readonly profile: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** This profile's records, oldest first. */
  list(filter: { wallet?: string; open?: boolean } = {}): TrackedWithdrawal[] {
    return this.readAll().filter(
      (r) =>
        r.profile === this.profile &&
        (filter.wallet === undefined || r.wallet.toLowerCase() === filter.wallet.toLowerCase()) &&
        (filter.open === undefined || isOpen(r) === filter.open),
    );
  }

  get(intentId: string): TrackedWithdrawal | undefined {
    return this.readAll().find((r) => r.intent_id === intentId && r.profile === this.profile);
  }

  /** Finds a record by its service id. */
  byWithdrawalId(withdrawalId: string): TrackedWithdrawal | undefined {
    return this.list().find((r) => r.withdrawal_id === withdrawalId);
  }

  insert(record: TrackedWithdrawal): void {
    const all = this.readAll();
    if (all.some((r) => r.intent_id === record.intent_id)) throw new Error(`withdrawal intent ${record.intent_id} is already stored`);
    this.settings.set(KEY, [...all, record]);
  }

  /**
   * Read-modify-write of one record. The file is re-read first, so a record changed by another process
   * sharing the data folder (the app and the command line) keeps that process's other changes.
   */
  update(intentId: string, patch: Partial<Omit<TrackedWithdrawal, 'intent_id' | 'body' | 'nonce' | 'profile'>>): TrackedWithdrawal {
    const all = this.readAll();
    const i = all.findIndex((r) => r.intent_id === intentId);
    if (i < 0) throw new Error(`withdrawal intent ${intentId} is not stored`);
    const next = { ...all[i]!, ...patch, updated_at: this.now() };
    all[i] = next;
    this.settings.set(KEY, all);
    return next;
  }

  private readAll(): TrackedWithdrawal[] {
    const raw = this.settings.get(KEY);
    return Array.isArray(raw) ? (raw as TrackedWithdrawal[]) : [];
  }
}
