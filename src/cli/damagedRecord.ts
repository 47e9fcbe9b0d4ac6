/** How `--list` of trailing stops and OCO pairs shows a damaged record: what can still be read of it, and what is wrong. */
import type { DamagedRecord } from '../main/services/algos/algoStore.js';
import type { DamagedAlgoSummary } from '../shared/algos/damagedSummary.js';

export interface DamagedRecordView {
  id: string;
  status: 'damaged';
  /** What is wrong, in words. */
  damage: string;
  file: string;
  changed_at: number;
  wallet: string | null;
  market: string | null;
}

export function damagedView(d: DamagedRecord<DamagedAlgoSummary>): DamagedRecordView {
  return { id: d.id, status: 'damaged', damage: d.reason, file: d.file, changed_at: d.changedAt, wallet: d.summary.wallet, market: d.summary.market };
}
