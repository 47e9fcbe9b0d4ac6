/**
 * Reconciliation on start, and the stored withdrawals of a profile: every intent that may not have reached
 * the service is resent with its identical body, landed ones are looked up.
 */
import type { ServiceContext } from '../../serviceContext.js';
import type { DamagedWithdrawalRecord, TrackedWithdrawal } from '../withdrawalStore.js';
import { storeOf } from './prepare.js';
import { matchLanded } from './reconcile.js';
import { sendStored } from './send.js';

/**
 * Reconciliation on start: every stored intent that may not have reached the service is resent with
 * its identical body, and landed ones are looked up. Returns the open records afterwards. A send that
 * still gets no answer leaves its record SIGNED for the next start; that is reported, not thrown, so
 * one unreachable moment does not block the others. Record files that cannot be read as records are
 * returned apart (`damaged`): never sent, never hiding the others, for the caller to show.
 */
export async function resumeWithdrawals(
  ctx: ServiceContext,
  filter: { wallet?: string } = {},
): Promise<{ records: TrackedWithdrawal[]; errors: { intent_id: string; error: unknown }[]; damaged: DamagedWithdrawalRecord[] }> {
  const store = storeOf(ctx);
  const errors: { intent_id: string; error: unknown }[] = [];
  for (const r of store.list({ ...filter, open: true })) {
    if (r.phase !== 'SIGNED') continue;
    try {
      await sendStored(ctx, r);
    } catch (error) {
      // A submit-time rejection is a final answer, recorded in the store; anything else stays pending.
      errors.push({ intent_id: r.intent_id, error });
    }
  }
  const landed = store.list({ ...filter, open: true }).filter((r) => r.phase === 'LANDED');
  if (landed.length > 0) await matchLanded(ctx, landed);
  const { records, damaged } = store.listChecked({ ...filter, open: true });
  return { records, errors, damaged };
}

/** Stored withdrawals of this profile (newest first). */
export function listTrackedWithdrawals(ctx: ServiceContext, filter: { wallet?: string; open?: boolean } = {}): TrackedWithdrawal[] {
  return storeOf(ctx).list(filter).reverse();
}

/**
 * Stored withdrawals of this profile (newest first) and, apart, the files of the withdrawals folder that
 * cannot be read as records (newest change first): the app lists both, so a damaged file is seen, not
 * silently left out, and never hides the others.
 */
export function listWithdrawalsChecked(ctx: ServiceContext, filter: { wallet?: string; open?: boolean } = {}): { records: TrackedWithdrawal[]; damaged: DamagedWithdrawalRecord[] } {
  const { records, damaged } = storeOf(ctx).listChecked(filter);
  return { records: [...records].reverse(), damaged: [...damaged].sort((a, b) => b.changedAt - a.changedAt) };
}
