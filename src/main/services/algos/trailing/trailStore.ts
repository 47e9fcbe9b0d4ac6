/**
 * Trailing stops in the data folder: <data folder>/trailing/<id>.json, kept by the algorithms' store
 * (atomic 0600 writes under a per-file lock, every read and write checked as a whole), and their run lock
 * (one process trails a position). The id is derived from the profile, wallet and market, so a position
 * has one trailing stop and a second process that tries to trail it is refused with TRAIL_LOCKED.
 */
import { createHash } from 'node:crypto';
import { checkTrailRecord, damagedTrailSummary, type TrailRecord } from '../../../../shared/algos/trailRecord.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { AlgoStore, type AlgoRecordKind } from '../algoStore.js';
import { acquireRunLock, type AlgoNaming, type RunLock } from '../runLock.js';

export const TRAILING_FOLDER = 'trailing';

export type TrailSummary = ReturnType<typeof damagedTrailSummary>;

const TRAIL_KIND: AlgoRecordKind<TrailRecord, TrailSummary> = {
  folder: TRAILING_FOLDER,
  what: 'trailing stop',
  code: 'TRAIL',
  listCommand: 'perps position trail --list',
  check: (raw) => checkTrailRecord(raw),
  summary: (raw) => damagedTrailSummary(raw),
  createdAt: (r) => r.created_at,
};

export const TRAIL_NAMING: AlgoNaming = {
  what: 'trailing stop',
  code: 'TRAIL',
  stopHint: () => 'Stop it from here with `perps position trail --market SYM --off` (the armed level stays)',
};

export class TrailStore extends AlgoStore<TrailRecord, TrailSummary> {
  constructor(dataDir: string) {
    super(dataDir, TRAIL_KIND);
  }
}

export function trailStoreOf(ctx: Pick<TradingContext, 'profile'>): TrailStore {
  return new TrailStore(ctx.profile.dataDir);
}

/** The one trailing stop of a position: the same id in every process. */
export function trailId(profile: string, wallet: string, market: string): string {
  return createHash('sha256').update(`${profile}\n${wallet.toLowerCase()}\n${market}`).digest('hex').slice(0, 12);
}

export function acquireTrailLock(store: TrailStore, id: string): RunLock {
  return acquireRunLock(store.dir, id, TRAIL_NAMING);
}
