/**
 * Finding what landed: a withdrawal whose answer was lost (or that the service accepted without an id) is
 * matched to its row in withdrawal history, never signed or sent again.
 */
import { parseDecimal } from '../../../../shared/decimal/index.js';
import { sameAddress } from '../../../../shared/identity/index.js';
import { isTerminalWithdrawalStatus, type Withdrawal } from '../../../../shared/protocol/index.js';
import { MAX_PAGE_LIMIT } from '../../../api/tradingApiClient.js';
import type { ServiceContext } from '../../serviceContext.js';
import type { TrackedWithdrawal, WithdrawalStore } from '../withdrawalStore.js';
import { storeOf } from './prepare.js';

/**
 * Our estimate of the service clock is good to about a round trip; a landed withdrawal's created_at is
 * compared against our signing time with this much slack.
 */
const CLOCK_SLACK_MS = 60_000;
/** Polls without finding a landed withdrawal in history before it is declared UNMATCHED. */
export const MAX_MATCH_ATTEMPTS = 5;

/** Applies a history row to a tracked record. */
export function applyRow(store: WithdrawalStore, record: TrackedWithdrawal, row: Withdrawal): TrackedWithdrawal {
  return store.update(record.intent_id, {
    phase: isTerminalWithdrawalStatus(row.status) ? 'DONE' : 'TRACKING',
    withdrawal_id: row.withdrawal_id,
    status: row.status,
    failure_reason: row.failure_reason,
    l1_send_amount: row.l1_send_amount ?? null,
    l1_tx_hash: row.l1_tx_hash ?? null,
    created_at: row.created_at,
    completed_at: row.completed_at ?? null,
    note: null,
  });
}

/**
 * Finds landed withdrawals in the account's history (one read for all of an account's records): same
 * amount, same destination, created no earlier than the signing (less clock slack), not already claimed
 * by another stored intent; the oldest such row is the one. `rows`, when given, is a history already
 * read by the caller (the tracker's poll), so no extra request is made.
 */
export async function matchLanded(ctx: ServiceContext, records: TrackedWithdrawal[], rows?: Map<string, Withdrawal[]>): Promise<TrackedWithdrawal[]> {
  const store = storeOf(ctx);
  const out: TrackedWithdrawal[] = [];
  const byAccount = new Map<string, TrackedWithdrawal[]>();
  for (const r of records) byAccount.set(r.account_id, [...(byAccount.get(r.account_id) ?? []), r]);
  for (const [accountId, group] of byAccount) {
    const history = rows?.get(accountId) ?? (await ctx.api.withdrawalHistory(accountId, { limit: MAX_PAGE_LIMIT })).withdrawals;
    for (const stale of [...group].sort((a, b) => a.signed_at - b.signed_at)) {
      // Re-read: another process sharing the data folder (the app and the CLI) may have resolved it meanwhile.
      const record = store.get(stale.intent_id) ?? stale;
      const known = record.withdrawal_id !== null ? history.find((w) => w.withdrawal_id === record.withdrawal_id) : undefined;
      if (known) {
        out.push(applyRow(store, record, known));
        continue;
      }
      const claimed = new Set(store.list().filter((r) => r.withdrawal_id !== null && r.intent_id !== record.intent_id).map((r) => r.withdrawal_id));
      const candidates = history
        .filter(
          (w) =>
            !claimed.has(w.withdrawal_id) &&
            sameAddress(w.destination, record.destination) &&
            parseDecimal(w.amount).eq(parseDecimal(record.amount)) &&
            w.created_at >= record.signed_at - CLOCK_SLACK_MS,
        )
        .sort((a, b) => a.created_at - b.created_at);
      const match = candidates[0];
      if (match) {
        out.push(applyRow(store, record, match));
        continue;
      }
      const attempts = record.match_attempts + 1;
      out.push(
        attempts >= MAX_MATCH_ATTEMPTS
          ? store.update(record.intent_id, {
              phase: 'UNMATCHED',
              match_attempts: attempts,
              note: 'the service used this nonce but lists no withdrawal for it: most likely it was rejected at submit and the answer was lost. Nothing was withdrawn by it; it will not be resent.',
            })
          : store.update(record.intent_id, { match_attempts: attempts }),
      );
    }
  }
  return out;
}
