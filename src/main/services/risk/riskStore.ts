/**
 * The risk limits in the data folder (issue 39): <data folder>/risk-limits.json holds every profile and
 * wallet's limits, pending loosenings, lockout and the day's peak equity (0600, folder 0700), written
 * atomically under the file's short lock, because the app and `perps` share the folder and both enforce
 * and change the limits. <data folder>/risk-limits.log gets one JSON line per change (time, limit, old
 * and new value, applied or pending), appended inside the same lock.
 *
 * The file is validated as a whole on every read. A damaged file is reported (RISK_STORE_DAMAGED, naming
 * the file) and refuses opening orders until it is repaired or moved aside: limits that cannot be read
 * must not read as "no limits".
 */
import fs from 'node:fs';
import path from 'node:path';
import { LimitLogEntrySchema, RiskFileSchema, type LimitLogEntry, type RiskFile, type WalletRisk } from '../../../shared/risk/riskLimits.js';
import { newWalletRisk, requestChange, settle, type ChangeOutcome, type LimitChangeRequest } from '../../../shared/risk/limitChanges.js';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../../files/atomicWrite.js';
import { ensurePrivateFolder, tightenMode } from '../../files/privateFolder.js';
import { readJsonFileIfPresent } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { OperationError } from '../errors.js';

export const RISK_LIMITS_FILE = 'risk-limits.json';
export const RISK_LOG_FILE = 'risk-limits.log';

const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);

export class RiskStore {
  readonly file: string;
  readonly logFile: string;

  constructor(readonly dataDir: string) {
    if (!path.isAbsolute(dataDir)) throw new Error(`the data folder must be absolute, got '${dataDir}'`);
    ensurePrivateFolder(dataDir);
    this.file = path.join(dataDir, RISK_LIMITS_FILE);
    this.logFile = path.join(dataDir, RISK_LOG_FILE);
  }

  /** The wallet's record as stored (a fresh one, with no limits, when it has none), without settling. */
  peek(profile: string, wallet: string, now: number): WalletRisk {
    return this.readAll().wallets.find((w) => same(w, profile, wallet)) ?? newWalletRisk(profile, wallet, now);
  }

  /**
   * Reads the record with what is due applied (a pending loosening whose time came, a lockout past its
   * reset), writing and logging it when anything changed.
   */
  current(profile: string, wallet: string, now: number): WalletRisk {
    const stored = this.peek(profile, wallet, now);
    const due = settle(stored, now);
    if (due.log.length === 0) return stored;
    return this.transact(profile, wallet, now, (r) => settle(r, now));
  }

  /** Applies a change request (tighten now, loosen after the cool-down); returns the record and what was logged. */
  change(profile: string, wallet: string, req: LimitChangeRequest, now: number): { record: WalletRisk; log: LimitLogEntry[] } {
    let logged: LimitLogEntry[] = [];
    const record = this.transact(profile, wallet, now, (r) => {
      const out = requestChange(r, req, now);
      logged = out.log.map((l) => ({ ...l, profile, wallet: r.wallet }));
      return out;
    });
    return { record, log: logged };
  }

  /** Any other update of the record (peak equity, a lockout), with its log lines. */
  transact(profile: string, wallet: string, now: number, fn: (r: WalletRisk) => ChangeOutcome): WalletRisk {
    return withFileLockSync(this.file, (why, cause) => new OperationError('RISK_STORE_BUSY', `the risk limits file ${this.file} ${why}`, { kind: 'transient', cause }), () => {
      const file = this.readAll();
      const i = file.wallets.findIndex((w) => same(w, profile, wallet));
      const before = i >= 0 ? file.wallets[i]! : newWalletRisk(profile, wallet, now);
      const out = fn(before);
      if (out.record === before && out.log.length === 0) return before;
      const next: RiskFile = { version: 1, wallets: i >= 0 ? file.wallets.map((w, j) => (j === i ? out.record : w)) : [...file.wallets, out.record] };
      const checked = RiskFileSchema.safeParse(next);
      // A bug, never user input: the request was validated before it came here.
      if (!checked.success) throw new Error(`refusing to store invalid risk limits: ${checked.error.issues[0]?.path.join('.')}: ${checked.error.issues[0]?.message}`);
      writeFileAtomicSync(this.file, JSON.stringify(checked.data, null, 2) + '\n');
      for (const l of out.log) this.appendLog({ ...l, profile, wallet: out.record.wallet });
      return out.record;
    });
  }

  /** The change log, oldest first (a line that is not an entry is counted, not shown). */
  readLog(filter: { profile?: string; wallet?: string } = {}): { entries: LimitLogEntry[]; unreadable: number } {
    let text: string;
    try {
      text = fs.readFileSync(this.logFile, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], unreadable: 0 };
      throw err;
    }
    const entries: LimitLogEntry[] = [];
    let unreadable = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const r = LimitLogEntrySchema.safeParse(JSON.parse(line));
        if (r.success) entries.push(r.data);
        else unreadable++;
      } catch {
        unreadable++;
      }
    }
    return {
      entries: entries.filter((e) => (filter.profile === undefined || e.profile === filter.profile) && (filter.wallet === undefined || e.wallet.toLowerCase() === filter.wallet.toLowerCase())),
      unreadable,
    };
  }

  private appendLog(entry: LimitLogEntry): void {
    const fd = fs.openSync(this.logFile, APPEND_FLAGS, PRIVATE_FILE_MODE);
    try {
      fs.writeSync(fd, JSON.stringify(LimitLogEntrySchema.parse(entry)) + '\n');
    } finally {
      fs.closeSync(fd);
    }
    tightenMode(this.logFile, PRIVATE_FILE_MODE);
  }

  private readAll(): RiskFile {
    const raw = readJsonFileIfPresent(this.file, () => this.damaged('it is not JSON'));
    if (raw === undefined) return { version: 1, wallets: [] };
    const parsed = RiskFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.damaged(`${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.data;
  }

  private damaged(why: string): OperationError {
    return new OperationError('RISK_STORE_DAMAGED', `the risk limits file ${this.file} is damaged (${why}); opening orders are refused until it is repaired or moved aside`, {
      hint: 'Limits that cannot be read are not treated as no limits. Move the file aside to start over with none (the change log risk-limits.log keeps what they were).',
    });
  }
}

function same(w: WalletRisk, profile: string, wallet: string): boolean {
  return w.profile === profile && w.wallet.toLowerCase() === wallet.toLowerCase();
}

export function riskStoreOf(ctx: { profile: { dataDir: string } }): RiskStore {
  return new RiskStore(ctx.profile.dataDir);
}
