/** Where chases are kept: <data folder>/chases/<id>.json, checked as a whole on every read (algos/algoStore.ts). */
import { checkChaseRecord, damagedChaseSummary, type ChaseRecord } from '../../../../shared/algos/chase/chaseRecord.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { AlgoStore, type AlgoRecordKind, type DamagedRecord } from '../algoStore.js';
import type { AlgoNaming } from '../runLock.js';

export type ChaseSummary = ReturnType<typeof damagedChaseSummary>;

const CHASE_KIND: AlgoRecordKind<ChaseRecord, ChaseSummary> = {
  folder: 'chases',
  what: 'chase',
  code: 'CHASE',
  listCommand: 'perps order chase --list',
  check: (raw) => checkChaseRecord(raw),
  summary: (raw) => damagedChaseSummary(raw),
  createdAt: (r) => r.created_at,
};

export const CHASE_NAMING: AlgoNaming = {
  what: 'chase',
  code: 'CHASE',
  stopHint: (id) => `Stop that process (Ctrl-C), then \`perps order chase --resume ${id}\``,
};

export class ChaseStore extends AlgoStore<ChaseRecord, ChaseSummary> {
  constructor(dataDir: string) {
    super(dataDir, CHASE_KIND);
  }
}

export function chaseStoreOf(ctx: Pick<TradingContext, 'profile'>): ChaseStore {
  return new ChaseStore(ctx.profile.dataDir);
}

/** This profile's chases, newest first, and beside them the damaged ones (never hidden). */
export function listChases(ctx: Pick<TradingContext, 'profile'>): { chases: ChaseRecord[]; damaged: DamagedRecord<ChaseSummary>[] } {
  const listed = chaseStoreOf(ctx).list(ctx.profile.name);
  return { chases: listed.records, damaged: listed.damaged };
}
