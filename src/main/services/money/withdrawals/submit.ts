/**
 * Step 2 of a withdrawal: the main wallet signs exactly the prepared Withdraw (the signature must recover
 * it), the signed body is persisted, THEN sent (send.ts). An intent already stored is never signed again.
 */
import type { WithdrawBody } from '../../../../shared/protocol/index.js';
import { splitSignature } from '../../../../shared/eip712/index.js';
import type { Signer } from '../../../signers/signer.js';
import type { ServiceContext } from '../../serviceContext.js';
import { assertPreparedFor, signPrepared } from '../../signing/prepared.js';
import { checkAddress, checkSignerIsWallet } from '../../keys/common.js';
import type { TrackedWithdrawal } from '../withdrawalStore.js';
import type { WithdrawalCheck } from './check.js';
import { prepareWithdraw, storeOf, type PreparedWithdraw } from './prepare.js';
import { settleIntent } from './send.js';

export interface WithdrawInput {
  wallet: string;
  amount: string;
  signer: Signer;
  /** signature_chain_id; default the profile's chain id. */
  chainId?: number;
  /**
   * Idempotency key of the user's intent (the app passes one per confirmation dialog). A second call with
   * the same id never signs again: it resumes or returns the stored withdrawal.
   */
  intentId?: string;
}

export interface WithdrawOutcome {
  withdrawal: TrackedWithdrawal;
  check: WithdrawalCheck | null;
}

/** Submits running per intent in this process: a second submit of the same one waits, then resumes it. */
const submitting = new Map<string, Promise<unknown>>();

/**
 * Signs exactly the prepared Withdraw with the main wallet (signPrepared: the signer must be the wallet
 * and its signature must recover it), persists the signed body, THEN sends it; see the module comment for
 * what happens after a lost answer. An intent already stored here (a second submit of the same prepared
 * withdrawal) is never signed again: it is resumed or reported, with `check` null.
 */
export async function submitWithdraw(ctx: ServiceContext, prepared: PreparedWithdraw, signer: Signer): Promise<WithdrawOutcome> {
  assertPreparedFor(prepared, ctx.profile.name);
  const key = `${ctx.profile.name}\u0000${prepared.intentId}`;
  const running = submitting.get(key);
  if (running) await running.catch(() => undefined);
  const store = storeOf(ctx);
  const existing = store.get(prepared.intentId);
  if (existing) return { withdrawal: await settleIntent(ctx, existing), check: null };
  const work = (async (): Promise<WithdrawOutcome> => {
    // Read before the signature: the landed withdrawal cannot be older (TrackedWithdrawal.signed_at).
    const signedAt = await ctx.clock.now();
    const [signature] = await signPrepared(prepared, signer);
    const body: WithdrawBody = { account_id: prepared.accountId, amount: prepared.amount, signature: splitSignature(signature!), nonce: prepared.nonce, signature_chain_id: prepared.chainId };
    const record = newRecord(ctx, { wallet: prepared.wallet, accountId: prepared.accountId, amount: prepared.amount, nonce: prepared.nonce, body }, { intentId: prepared.intentId, signedAt });
    // Persisted before the first byte goes out: from here on this intent can only ever be resent.
    store.insert(record);
    return { withdrawal: await settleIntent(ctx, record), check: prepared.check };
  })();
  submitting.set(key, work);
  try {
    return await work;
  } finally {
    if (submitting.get(key) === work) submitting.delete(key);
  }
}

/** Validates, then signs, persists and submits, in one go. Resolves once the service has accepted it (REQUESTED). */
export async function withdraw(ctx: ServiceContext, input: WithdrawInput): Promise<WithdrawOutcome> {
  const existing = input.intentId ? storeOf(ctx).get(input.intentId) : undefined;
  if (existing) return { withdrawal: await settleIntent(ctx, existing), check: null };
  // A signer of another wallet is refused before a nonce is taken.
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  return submitWithdraw(ctx, await prepareWithdraw(ctx, input), input.signer);
}

export interface SignedWithdrawBody {
  wallet: string;
  accountId: string;
  amount: string;
  nonce: string;
  body: WithdrawBody;
}

export function newRecord(ctx: ServiceContext, signed: SignedWithdrawBody, meta: { intentId: string; signedAt: number }): TrackedWithdrawal {
  return {
    intent_id: meta.intentId,
    profile: ctx.profile.name,
    wallet: signed.wallet,
    account_id: signed.accountId,
    amount: signed.amount,
    destination: signed.wallet,
    nonce: signed.nonce,
    body: signed.body,
    phase: 'SIGNED',
    signed_at: meta.signedAt,
    send_attempts: 0,
    match_attempts: 0,
    withdrawal_id: null,
    status: null,
    reason: null,
    new_wallet_fee: null,
    failure_reason: null,
    l1_send_amount: null,
    l1_tx_hash: null,
    created_at: null,
    completed_at: null,
    updated_at: Date.now(),
    note: null,
  };
}
