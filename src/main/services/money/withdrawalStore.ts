/**
 * Withdrawals this data folder signed, persisted so that tracking survives a restart and no withdrawal
 * is ever sent twice by accident. A record is written with its signed body and nonce BEFORE the first
 * send: after a crash or a lost answer the identical body is sent again (the nonce makes the service
 * accept it at most once), and a second signature for the same intent is never made.
 *
 * Each record is its own file, <data folder>/withdrawals/<intent>.json (0600, folder 0700), written
 * atomically under a per-record lock (proper-lockfile). They used to be one list in settings.json,
 * which the app and the command line share and rewrite whole: two processes inserting at once kept 149
 * of 300 records, and any writer of another settings key (trading-key metadata, companion transfers,
 * window bounds) could put back a stale copy of the list. A record lost after its body was sent is a
 * withdrawal neither tracked nor resumable, so records now share no file with anything: an insert
 * creates a file nobody else writes, an update rewrites one record under its lock, and a crash (even
 * kill -9) at any point leaves either the old file or the whole new one. Lists from older versions are
 * moved into files once (migrateLegacyRecords), then removed from settings.json.
 *
 * The store holds signatures over withdrawals to the user's own wallet (needed for the identical
 * resend). They authorize nothing else and are never logged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WithdrawalStatus, WithdrawBody } from '../../../shared/protocol/index.js';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { readJsonFileIfPresent, removeStaleLeftovers } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
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

/** Where older versions kept every record, as one list in settings.json. */
const LEGACY_KEY = 'money.withdrawals';
/** The records' folder, beside settings.json in the data folder. */
export const WITHDRAWALS_FOLDER = 'withdrawals';

/** Leftovers of a killed writer (temporary files, lock folders) older than this are removed. */
const LEFTOVER_AGE_MS = 10 * 60_000;

/** Every phase but DONE and UNMATCHED still needs work (a send, a match or tracking). */
export function isOpen(r: TrackedWithdrawal): boolean {
  return r.phase === 'SIGNED' || r.phase === 'LANDED' || r.phase === 'TRACKING';
}

/** A record file could not be read as a record: named, never quoted (it holds a signed body). */
export class WithdrawalStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WithdrawalStoreError';
  }
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The record's file name: the intent id itself when it is a safe name (UUIDs are), else its hash. */
function fileNameOf(intentId: string): string {
  return SAFE_ID.test(intentId) ? `${intentId}.json` : `~${createHash('sha256').update(intentId).digest('hex')}.json`;
}

function isRecordFileName(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.');
}

function looksLikeRecord(v: unknown): v is TrackedWithdrawal {
  const r = v as Partial<TrackedWithdrawal> | null;
  return typeof r === 'object' && r !== null && !Array.isArray(r) && typeof r.intent_id === 'string' && r.intent_id !== '' && typeof r.profile === 'string';
}

/** Runs `work` holding the lock of one record file (files/recordLock.ts); other processes wait their turn. */
function withRecordLock<T>(file: string, work: () => T): T {
  return withFileLockSync(file, (why, cause) => new WithdrawalStoreError(`the withdrawal record ${path.basename(file)} ${why}`, { cause }), work);
}

function readRecordFile(file: string): TrackedWithdrawal | undefined {
  // Not valid JSON: damage from outside (records are written only atomically); the content is not quoted (a signed body).
  const parsed = readJsonFileIfPresent(file, (why) => new WithdrawalStoreError(`the withdrawal record ${file} ${why}; move it out of the folder after checking the withdrawal in history`));
  if (parsed === undefined) return undefined;
  if (!looksLikeRecord(parsed)) throw new WithdrawalStoreError(`the withdrawal record ${file} does not hold a withdrawal record`);
  return parsed;
}

function writeRecordFile(file: string, record: TrackedWithdrawal): void {
  writeFileAtomicSync(file, JSON.stringify(record, null, 2) + '\n');
}

/** Removes what a killed writer left behind: temporary files and lock folders long past any use. */
function removeLeftovers(dir: string): void {
  removeStaleLeftovers(dir, '.json.lock', LEFTOVER_AGE_MS);
}

/**
 * Moves the records an older version kept in settings.json into their own files, then drops the list.
 * Safe to repeat and to run in two processes at once: a record whose file exists is left alone (the file
 * is newer), every file is durable before the list is touched, and a crash in between only means the
 * next start finds the list again and skips what is already moved. An entry that is not a record is
 * kept in settings.json rather than destroyed.
 */
function migrateLegacyRecords(settings: SettingsStore, dir: string): void {
  const legacy = settings.get(LEGACY_KEY);
  if (!Array.isArray(legacy)) return;
  const unreadable: unknown[] = [];
  for (const r of legacy) {
    if (!looksLikeRecord(r)) {
      unreadable.push(r);
      continue;
    }
    const file = path.join(dir, fileNameOf(r.intent_id));
    withRecordLock(file, () => {
      if (!fs.existsSync(file)) writeRecordFile(file, r);
    });
  }
  if (unreadable.length === 0) settings.delete(LEGACY_KEY);
  else if (unreadable.length !== legacy.length) settings.set(LEGACY_KEY, unreadable);
}

export class WithdrawalStore {
  private readonly dir: string;

  constructor(
    settings: SettingsStore,
    private readonly profile: string,
    private readonly now: () => number = Date.now,
  ) {
    if (!path.isAbsolute(settings.path)) throw new Error(`the settings file must have an absolute path, got '${settings.path}'`);
    this.dir = path.join(path.dirname(settings.path), WITHDRAWALS_FOLDER);
    ensurePrivateFolder(this.dir);
    migrateLegacyRecords(settings, this.dir);
    removeLeftovers(this.dir);
  }

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
    const r = readRecordFile(this.fileOf(intentId));
    return r && r.intent_id === intentId && r.profile === this.profile ? r : undefined;
  }

  /** Finds a record by its service id. */
  byWithdrawalId(withdrawalId: string): TrackedWithdrawal | undefined {
    return this.list().find((r) => r.withdrawal_id === withdrawalId);
  }

  /** Stores a new record durably (fsynced) before returning; an intent already stored is refused. */
  insert(record: TrackedWithdrawal): void {
    if (!looksLikeRecord(record)) throw new WithdrawalStoreError('a withdrawal record needs an intent_id and a profile');
    const file = this.fileOf(record.intent_id);
    withRecordLock(file, () => {
      if (fs.existsSync(file)) throw new Error(`withdrawal intent ${record.intent_id} is already stored`);
      writeRecordFile(file, record);
    });
  }

  /**
   * Read-modify-write of one record under its lock. The file is re-read first, so a record changed by
   * another process sharing the data folder (the app and the command line) keeps that process's other
   * changes.
   */
  update(intentId: string, patch: Partial<Omit<TrackedWithdrawal, 'intent_id' | 'body' | 'nonce' | 'profile'>>): TrackedWithdrawal {
    const file = this.fileOf(intentId);
    return withRecordLock(file, () => {
      const current = readRecordFile(file);
      if (!current || current.intent_id !== intentId) throw new Error(`withdrawal intent ${intentId} is not stored`);
      const next = { ...current, ...patch, updated_at: this.now() };
      writeRecordFile(file, next);
      return next;
    });
  }

  private fileOf(intentId: string): string {
    return path.join(this.dir, fileNameOf(intentId));
  }

  /** Every record in the folder, oldest signature first (ties by intent id, so the order is stable). */
  private readAll(): TrackedWithdrawal[] {
    const records: TrackedWithdrawal[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!isRecordFileName(name)) continue;
      const r = readRecordFile(path.join(this.dir, name));
      if (r) records.push(r);
    }
    return records.sort((a, b) => a.signed_at - b.signed_at || (a.intent_id < b.intent_id ? -1 : a.intent_id > b.intent_id ? 1 : 0));
  }
}
