/** TWAP records as the scheduler stores them, for tests that plant one in a data folder (then damage it). */
import { newTwapId, pendingSliceRecord, type TwapRecord } from '../../src/main/services/algos/twap/index.js';

/** A paused 2-slice TWAP of 0.02 ETH, as the scheduler stores one (nothing sent yet). */
export function pausedRecord(wallet: string): TwapRecord {
  const id = newTwapId();
  const now = Date.now();
  return {
    version: 1, id, profile: 'sim', wallet, market: 'ETH', side: 'BUY', total_size: '0.02', reduce_only: false, slippage_bps: 50, leverage: 5,
    duration_ms: 10_000, interval_ms: 5_000, randomize_time_pct: 0, randomize_size_pct: 0, seed: 1, arrival_mark: '3400', allow_large: false,
    created_at: now, status: 'paused', requested: null, stop_reason: null, stop_detail: null, notes: ['paused'], updated_at: now,
    slices: [0, 1].map((i) => pendingSliceRecord(id, i, now + i * 5_000, '0.01')),
  };
}
