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
 * A record file is read only when it is a regular file within the size cap (files/recordFiles.ts: no link
 * followed, a FIFO never waited on, /dev/zero never read). One that cannot be read as a record is damaged:
 * `listChecked` returns it apart, with why, and it never fails or hides the others (issue 36). A write
 * after a lost lock (a holder that stalled past the lock's stale time while another process wrote) is
 * refused with WITHDRAWAL_STORE_CONFLICT (files/recordFiles.ts assertUnchangedSince), never silent, as
 * the TWAP, trailing, OCO and alert stores do.
 *
 * The store holds signatures over withdrawals to the user's own wallet (needed for the identical
 * resend). They authorize nothing else and are never logged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { WITHDRAWAL_STATUSES, WithdrawBodySchema, type WithdrawalStatus, type WithdrawBody } from '../../../shared/protocol/index.js';
import { oneLineText } from '../../../shared/safeText.js';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { assertUnchangedSince, readRecordText, removeStaleLeftovers, UnreadableRecordFile } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { OperationError } from '../errors.js';

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

/**
 * A stored record checked as a whole before anything reads it: the fields the tracker, the resend and
 * the views use, with their types (the signed body as the service's schema has it). Extra keys pass.
 */
const nullableText = z.string().nullable();
const nullableTime = z.number().finite().nullable();
const StoredWithdrawalSchema = z.looseObject({
  intent_id: z.string().min(1),
  profile: z.string().min(1),
  wallet: z.string().min(1),
  account_id: z.string().min(1),
  amount: z.string().min(1),
  destination: z.string().min(1),
  nonce: z.string().min(1),
  body: WithdrawBodySchema,
  phase: z.enum(['SIGNED', 'LANDED', 'TRACKING', 'DONE', 'UNMATCHED']),
  signed_at: z.number().finite(),
  send_attempts: z.number().int().min(0),
  match_attempts: z.number().int().min(0),
  withdrawal_id: nullableText,
  status: z.enum(WITHDRAWAL_STATUSES).nullable(),
  reason: nullableText,
  new_wallet_fee: nullableText,
  failure_reason: nullableText,
  l1_send_amount: nullableText,
  l1_tx_hash: nullableText,
  created_at: nullableTime,
  completed_at: nullableTime,
  updated_at: z.number().finite(),
  note: nullableText,
});

/** Why a parsed record is not one (the first problem, by field), or null when it is whole. */
function recordProblem(v: unknown): string | null {
  const r = StoredWithdrawalSchema.safeParse(v);
  if (r.success) return null;
  const issue = r.error.issues[0];
  return `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'invalid'}`;
}

/** A record file that could not be read as a record: listed apart with why, never acted on, never quoted. */
export interface DamagedWithdrawalRecord {
  /** The file's name in the withdrawals folder (control and bidi characters removed). */
  name: string;
  file: string;
  /** What is wrong, in words (never the content: it may hold a signed body). */
  reason: string;
  /** The profile the file names, when it can be read (null: unknown, listed for every profile). */
  profile: string | null;
  /** When the file last changed (Unix ms). */
  changedAt: number;
}

/** Runs `work` holding the lock of one record file (files/recordLock.ts); other processes wait their turn. */
function withRecordLock<T>(file: string, work: () => T): T {
  return withFileLockSync(
    file,
    (why, cause) => new OperationError('WITHDRAWAL_STORE_BUSY', `the withdrawal record ${oneLineText(path.basename(file))} ${why}; nothing was written`, { kind: 'transient', cause, hint: 'Try again in a moment.' }),
    work,
  );
}

function conflictError(file: string): OperationError {
  return new OperationError('WITHDRAWAL_STORE_CONFLICT', `the withdrawal record ${oneLineText(path.basename(file))} was changed by another process while this one held its lock past the lock's time (it stalled); this change was not written`, {
    kind: 'transient',
    hint: 'Nothing was lost: the other change stands. Run the command again to act on the record as it is now.',
  });
}

/** A record file as read: the record, or why it is not one; `text` is what was read (for the version check). */
type ReadRecord = { record: TrackedWithdrawal | undefined; text: string | undefined } | { damaged: { reason: string; profile: string | null }; text: string | undefined };

function readRecordWithText(file: string): ReadRecord {
  let text: string | undefined;
  try {
    text = readRecordText(file);
  } catch (err) {
    if (err instanceof UnreadableRecordFile) return { damaged: { reason: `its file ${err.why}; it was not read`, profile: null }, text: undefined };
    throw err;
  }
  if (text === undefined) return { record: undefined, text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Records are written only atomically: this is damage from outside. The content is not quoted (a signed body).
    return { damaged: { reason: 'its file is not valid JSON (it is only ever written atomically, so something else changed it)', profile: null }, text };
  }
  if (!looksLikeRecord(parsed)) {
    const profile = typeof parsed === 'object' && parsed !== null && typeof (parsed as { profile?: unknown }).profile === 'string' ? (parsed as { profile: string }).profile : null;
    return { damaged: { reason: 'it does not hold a withdrawal record (no intent id or profile)', profile }, text };
  }
  const problem = recordProblem(parsed);
  if (problem !== null) return { damaged: { reason: `it does not hold a whole withdrawal record (${oneLineText(problem)})`, profile: parsed.profile }, text };
  return { record: parsed, text };
}

/** The record in `file` (undefined: no such file); a damaged one throws, naming the file (never quoting it). */
function readRecordFile(file: string): { record: TrackedWithdrawal | undefined; text: string | undefined } {
  const r = readRecordWithText(file);
  if ('damaged' in r) {
    throw new OperationError('WITHDRAWAL_RECORD_DAMAGED', `the withdrawal record ${oneLineText(file)} is damaged: ${r.damaged.reason}; nothing was sent or written`, {
      hint: 'Check the withdrawal in `perps history withdrawals`, then restore the file from a backup or move it out of the folder.',
    });
  }
  return r;
}

/** `text`: the file's content when this writer read it (undefined: it did not exist); a change since is refused. */
function writeRecordFile(file: string, record: TrackedWithdrawal, text: string | undefined): void {
  assertUnchangedSince(file, text, () => conflictError(file));
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
      // lstat, not exists: a dangling link planted under the name is an entry too (listed as damaged).
      if (!fs.lstatSync(file, { throwIfNoEntry: false })) writeRecordFile(file, r, undefined);
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

  /** This profile's records, oldest first (damaged files are left out here: see listChecked). */
  list(filter: { wallet?: string; open?: boolean } = {}): TrackedWithdrawal[] {
    return this.listChecked(filter).records;
  }

  /**
   * This profile's records, oldest first, and apart from them the files that cannot be read as records
   * (those naming this profile or none), with why. One damaged file never fails or hides the others.
   */
  listChecked(filter: { wallet?: string; open?: boolean } = {}): { records: TrackedWithdrawal[]; damaged: DamagedWithdrawalRecord[] } {
    const { records, damaged } = this.readAll();
    return {
      records: records.filter(
        (r) =>
          r.profile === this.profile &&
          (filter.wallet === undefined || (typeof r.wallet === 'string' && r.wallet.toLowerCase() === filter.wallet.toLowerCase())) &&
          (filter.open === undefined || isOpen(r) === filter.open),
      ),
      damaged: damaged.filter((d) => d.profile === null || d.profile === this.profile),
    };
  }

  get(intentId: string): TrackedWithdrawal | undefined {
    const { record: r } = readRecordFile(this.fileOf(intentId));
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
      if (fs.lstatSync(file, { throwIfNoEntry: false })) throw new Error(`withdrawal intent ${record.intent_id} is already stored`);
      writeRecordFile(file, record, undefined);
    });
  }

  /**
   * Read-modify-write of one record under its lock. The file is re-read first, so a record changed by
   * another process sharing the data folder (the app and the command line) keeps that process's other
   * changes; a change made after this process lost the lock (it stalled past the lock's time) is refused
   * with WITHDRAWAL_STORE_CONFLICT rather than overwritten.
   */
  update(intentId: string, patch: Partial<Omit<TrackedWithdrawal, 'intent_id' | 'body' | 'nonce' | 'profile'>>): TrackedWithdrawal {
    const file = this.fileOf(intentId);
    return withRecordLock(file, () => {
      const { record: current, text } = readRecordFile(file);
      if (!current || current.intent_id !== intentId) throw new Error(`withdrawal intent ${intentId} is not stored`);
      const next = { ...current, ...patch, updated_at: this.now() };
      writeRecordFile(file, next, text);
      return next;
    });
  }

  private fileOf(intentId: string): string {
    return path.join(this.dir, fileNameOf(intentId));
  }

  /**
   * Every record in the folder, oldest signature first (ties by intent id, so the order is stable), and
   * apart from them every entry named like a record that cannot be read as one, newest change first.
   */
  private readAll(): { records: TrackedWithdrawal[]; damaged: DamagedWithdrawalRecord[] } {
    const records: TrackedWithdrawal[] = [];
    const damaged: DamagedWithdrawalRecord[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!isRecordFileName(name)) continue;
      const file = path.join(this.dir, name);
      let r: ReadRecord;
      try {
        r = readRecordWithText(file);
      } catch (err) {
        // An entry that cannot be read at all (no permission, an I/O error) is damaged too; it never fails the list.
        r = { damaged: { reason: `its file cannot be read (${oneLineText((err as NodeJS.ErrnoException).code ?? (err as Error).message)})`, profile: null }, text: undefined };
      }
      if ('damaged' in r) {
        const stat = fs.lstatSync(file, { throwIfNoEntry: false });
        damaged.push({ name: oneLineText(name), file: oneLineText(file), reason: r.damaged.reason, profile: r.damaged.profile, changedAt: Math.floor(stat?.mtimeMs ?? 0) });
      } else if (r.record) records.push(r.record);
    }
    records.sort((a, b) => a.signed_at - b.signed_at || (a.intent_id < b.intent_id ? -1 : a.intent_id > b.intent_id ? 1 : 0));
    damaged.sort((a, b) => b.changedAt - a.changedAt || (a.name < b.name ? -1 : 1));
    return { records, damaged };
  }
}
