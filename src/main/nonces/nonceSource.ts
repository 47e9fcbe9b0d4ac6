/**
 * Nonces: one source per wallet, Unix-ms based, strictly increasing.
 *
 * The service accepts each nonce once per wallet, and a burst can sign many requests in one
 * millisecond, so a nonce is max(now, last + 1). To stay increasing across restarts and across processes
 * sharing a data folder (the app and the command line), each process leases a block of nonces: under a
 * file lock it reads the persisted high-water mark, takes [max(now, mark + 1), that + LEASE) and writes
 * the block's end back. Two processes therefore never hold overlapping blocks, and a crash loses at most
 * the rest of a block (harmless: nonces only need to be unique and increasing, not dense).
 */
import fs from 'node:fs';
import path from 'node:path';
import { toChecksumAddress } from '../../shared/identity/index.js';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../files/atomicWrite.js';
import { ensurePrivateFolder } from '../files/privateFolder.js';
import { LOCK_STALE_MS, LOCK_WAIT_MS } from '../files/lockRule.js';
import { OperationError } from '../services/errors.js';

export interface NonceSourceOptions {
  /** Folder holding nonces.json (the app's data folder). */
  dataDir: string;
  now?: () => number;
  /** Nonces per lease; larger means fewer file writes in a burst. */
  leaseSize?: number;
  /** How long to wait for another process's lock before giving up. Default LOCK_WAIT_MS. */
  lockWaitMs?: number;
}

interface Lease {
  next: number;
  end: number;
}

const FILE = 'nonces.json';
/** The longest pause between two tries; the retry count is what makes the wait last LOCK_WAIT_MS. */
const LOCK_RETRY_MAX_MS = 50;

export class NonceSource {
  private readonly file: string;
  private readonly now: () => number;
  private readonly leaseSize: number;
  private readonly lockWaitMs: number;
  private readonly leases = new Map<string, Lease>();
  /** Per-wallet queue: callers in the same process are served one at a time, in call order. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(options: NonceSourceOptions) {
    if (!path.isAbsolute(options.dataDir)) throw new Error(`nonce folder must be absolute, got '${options.dataDir}'`);
    ensurePrivateFolder(options.dataDir);
    this.file = path.join(options.dataDir, FILE);
    this.now = options.now ?? Date.now;
    this.leaseSize = options.leaseSize ?? 1000;
    this.lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
  }

  /** The next nonce for `wallet`: greater than every nonce this data folder has issued for it. */
  async next(wallet: string): Promise<number> {
    const key = toChecksumAddress(wallet, 'wallet').toLowerCase();
    const prev = this.queues.get(key) ?? Promise.resolve();
    const run = prev.then(() => this.issue(key));
    // The queue continues whether this call succeeds or fails; the caller still sees its own error.
    this.queues.set(
      key,
      run.then(
        () => undefined,
        () => undefined,
      ),
    );
    return run;
  }

  private async issue(wallet: string): Promise<number> {
    // A nonce is only issued from inside this process's own lease, so it can never collide with a
    // nonce another process leased; when the clock has run past the lease, take a new one.
    for (;;) {
      const lease = this.leases.get(wallet);
      const n = Math.max(this.now(), lease?.next ?? 0);
      if (lease && n < lease.end) {
        lease.next = n + 1;
        return n;
      }
      this.leases.set(wallet, await this.takeLease(wallet, n));
    }
  }

  /** Leases under the data folder's lock rule (files/lockRule.ts), with proper-lockfile's async lock. */
  private async takeLease(wallet: string, wanted: number): Promise<Lease> {
    this.createMarksFile();
    // Imported here, the first time a lease is taken: commands that sign nothing never load it.
    const { default: lockfile } = await import('proper-lockfile');
    let release: () => Promise<void>;
    try {
      const retries = Math.ceil(this.lockWaitMs / LOCK_RETRY_MAX_MS);
      release = await lockfile.lock(this.file, { retries: { retries, minTimeout: 5, maxTimeout: LOCK_RETRY_MAX_MS }, stale: LOCK_STALE_MS });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      throw new OperationError('NONCE_STORE_BUSY', `${this.file} stayed locked by another Perps Desk process for ${this.lockWaitMs / 1000} s; nothing was signed`, {
        kind: 'transient',
        cause: err,
        hint: 'Another perps command or the app is taking nonces for this data folder; try again once it is done.',
      });
    }
    try {
      const marks = this.readMarks();
      const start = Math.max(wanted, (marks[wallet] ?? 0) + 1);
      const end = start + this.leaseSize;
      marks[wallet] = end - 1;
      writeFileAtomicSync(this.file, JSON.stringify(marks, null, 2) + '\n');
      return { next: start, end };
    } finally {
      await release();
    }
  }

  /**
   * The lock needs the file to exist. Created exclusively: two processes starting together must not both
   * write an empty file, or the second would erase a mark the first had already leased under the lock.
   */
  private createMarksFile(): void {
    try {
      fs.writeFileSync(this.file, '{}\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }

  private readMarks(): Record<string, number> {
    const text = fs.readFileSync(this.file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      // A corrupt high-water file must stop signing: guessing could reuse a nonce.
      throw new Error(`${this.file} is not valid JSON (${(err as Error).message}); fix or remove it after checking no other Perps Desk is running`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${this.file} must hold a JSON object`);
    return parsed as Record<string, number>;
  }
}
