/**
 * Withdrawals (spec, "POST /account/withdraw" and the Withdrawal states).
 *
 *   1. validate before signing: amount a positive decimal with at most 6 places (USDC), at least
 *      withdrawal.min_amount (from GET /config), at most free_balance; preview the new-wallet fee when
 *      the destination has never received a withdrawal (a preview: the venue decides);
 *   2. sign Withdraw with the main wallet (amount in base units), check it recovers the wallet, split it
 *      into { r, s, v };
 *   3. persist the signed body and nonce, THEN send; a lost answer means the identical body is sent
 *      again (never a new signature), and a 409 on it means it landed: it is found in withdrawal history;
 *   4. track it to COMPLETED / REJECTED / REFUNDED / FAILED (see tracker.ts), across restarts.
 *
 * Steps 2 and 3 may also happen on two machines: signWithdrawalForLater signs on the one holding the main
 * wallet (no network), and submitSignedWithdrawal verifies, checks (1), persists and sends from an online
 * one, under the same rules.
 *
 * Submit-time rejections (HTTP 200, status REJECTED) become OperationErrors whose code is the reason.
 */
import { randomUUID } from 'node:crypto';
import { USDC_DECIMALS, canonical, parseDecimal, DecimalError, type Decimal } from '../../../shared/decimal/index.js';
import { digestOf, joinSignature, recoverDigestSigner, splitSignature, withdrawTypedData } from '../../../shared/eip712/index.js';
import { accountIdFromWallet, sameAddress, walletFromAccountId } from '../../../shared/identity/index.js';
import {
  ApiError,
  DecodeError,
  WithdrawBodySchema,
  isTerminalWithdrawalStatus,
  parseWith,
  type Withdrawal,
  type WithdrawBody,
  type WithdrawResult,
} from '../../../shared/protocol/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError } from '../../api/errors.js';
import { MAX_PAGE_LIMIT } from '../../api/tradingApiClient.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';
import { checkAddress, checkChainId, checkSignerIsWallet } from '../keys/common.js';
import { WithdrawalStore, type TrackedWithdrawal } from './withdrawalStore.js';

/** Withdrawal statuses in which the destination has (or is about to have) history with the venue. */
const COUNTS_AS_HISTORY = new Set(['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED']);
/**
 * Our estimate of the service clock is good to about a round trip; a landed withdrawal's created_at is
 * compared against our signing time with this much slack.
 */
const CLOCK_SLACK_MS = 60_000;
/** Polls without finding a landed withdrawal in history before it is declared UNMATCHED. */
export const MAX_MATCH_ATTEMPTS = 5;

export interface FeePreview {
  /** Always true: the venue decides whether the destination is new; this is the app's best reading. */
  preview: true;
  new_wallet_fee: string;
  /** amount - new_wallet_fee: what would leave if the fee applies. */
  estimated_l1_send_amount: string;
  note: string;
}

export interface WithdrawalCheck {
  wallet: string;
  account_id: string;
  /** Canonical amount, as it will be sent. */
  amount: string;
  destination: string;
  free_balance: string;
  min_amount: string;
  /** Present when the destination has never received a withdrawal. */
  fee_preview: FeePreview | null;
  warnings: string[];
}

/** Canonical whole-USDC amount of user input; refuses (never rounds) more than 6 places. */
export function parseWithdrawAmount(input: string): string {
  let d: Decimal;
  try {
    d = parseDecimal(input, 'amount');
  } catch (err) {
    throw new ValidationError((err as DecimalError).message, { code: 'INVALID_AMOUNT', hint: 'Give the amount in whole USDC as a plain decimal, e.g. 25 or 25.5.' });
  }
  if (d.lte(0)) throw new ValidationError(`must be positive, got '${input}'`, { field: 'amount', code: 'INVALID_AMOUNT' });
  if (d.decimalPlaces() > USDC_DECIMALS) {
    throw new ValidationError(`USDC has ${USDC_DECIMALS} decimals; '${input}' has ${d.decimalPlaces()} (it is not rounded for you)`, { field: 'amount', code: 'INVALID_AMOUNT' });
  }
  return canonical(d);
}

/** True when some withdrawal in the account's history went (or is going) to `destination`. */
async function destinationHasHistory(ctx: ServiceContext, accountId: string, destination: string): Promise<boolean> {
  for await (const page of ctx.api.withdrawalHistoryPages(accountId)) {
    if (page.some((w) => sameAddress(w.destination, destination) && COUNTS_AS_HISTORY.has(w.status))) return true;
  }
  return false;
}

/** Everything checked before signing. Nothing is signed or sent; a failed check is a ValidationError. */
export async function checkWithdrawal(ctx: ServiceContext, input: { wallet: string; amount: string }): Promise<WithdrawalCheck> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const amount = parseWithdrawAmount(input.amount);
  const accountId = accountIdFromWallet(wallet);
  // Default rail: the destination is the wallet itself (spec: an EOA withdraws to its own wallet).
  const destination = wallet;
  const [funding, balance, hasHistory] = await Promise.all([
    ctx.config.funding(),
    ctx.api.balance(accountId),
    destinationHasHistory(ctx, accountId, destination),
  ]);
  const value = parseDecimal(amount);
  const min = parseDecimal(funding.withdrawal.min_amount, 'withdrawal.min_amount');
  if (value.lt(min)) {
    throw new ValidationError(`${amount} is below the minimum withdrawal of ${canonical(min)} USDC`, {
      field: 'amount',
      code: 'BELOW_MIN',
      hint: `Withdraw at least ${canonical(min)} USDC (withdrawal.min_amount from GET /config).`,
    });
  }
  const free = parseDecimal(balance.free_balance, 'free_balance');
  if (value.gt(free)) {
    throw new ValidationError(`${amount} is more than the free balance of ${canonical(free)} USDC`, {
      field: 'amount',
      code: 'INSUFFICIENT_BALANCE',
      hint: 'The free balance excludes posted margin and funds held by withdrawals in flight. Withdraw less, or close positions first.',
    });
  }
  const warnings: string[] = [];
  let feePreview: FeePreview | null = null;
  if (!hasHistory) {
    const fee = parseDecimal(funding.withdrawal.new_wallet_fee, 'withdrawal.new_wallet_fee');
    const net = value.minus(fee);
    feePreview = {
      preview: true,
      new_wallet_fee: canonical(fee),
      estimated_l1_send_amount: canonical(net.isNegative() ? parseDecimal('0') : net),
      note: `Preview: ${destination} has never received a withdrawal, so the venue will likely charge a one-time new-wallet fee of ${canonical(fee)} USDC on this one.`,
    };
    if (net.lt(min)) {
      warnings.push(
        `After the ${canonical(fee)} USDC new-wallet fee, ${canonical(net)} USDC would remain, under the ${canonical(min)} USDC minimum: the service will likely reject it (BELOW_MIN_AFTER_FEE).`,
      );
    }
  }
  return { wallet, account_id: accountId, amount, destination, free_balance: canonical(free), min_amount: canonical(min), fee_preview: feePreview, warnings };
}

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

function storeOf(ctx: ServiceContext): WithdrawalStore {
  return new WithdrawalStore(ctx.settings, ctx.profile.name);
}

/** Validates, then signs, persists and submits. Resolves once the service has accepted it (REQUESTED). */
export async function withdraw(ctx: ServiceContext, input: WithdrawInput): Promise<WithdrawOutcome> {
  const existing = input.intentId ? storeOf(ctx).get(input.intentId) : undefined;
  if (existing) return { withdrawal: await settleIntent(ctx, existing), check: null };
  const check = await checkWithdrawal(ctx, input);
  const withdrawal = await executeWithdrawal(ctx, { ...input, wallet: check.wallet, amount: check.amount });
  return { withdrawal, check };
}

/**
 * Signs, persists and submits WITHOUT the balance and minimum checks (the service is the judge). The
 * app uses withdraw(); this exists for callers that have already checked, and for tests that need the
 * service's own verdicts (BELOW_MIN, an asynchronous insufficient-balance REJECTED).
 */
export async function executeWithdrawal(ctx: ServiceContext, input: WithdrawInput): Promise<TrackedWithdrawal> {
  const store = storeOf(ctx);
  const existing = input.intentId ? store.get(input.intentId) : undefined;
  if (existing) return settleIntent(ctx, existing);
  const signed = await signWithdrawBody(ctx, input, () => ctx.clock.now());
  const record = newRecord(ctx, signed, { intentId: input.intentId ?? randomUUID(), signedAt: signed.signedAt });
  // Persisted before the first byte goes out: from here on this intent can only ever be resent.
  store.insert(record);
  return settleIntent(ctx, record);
}

interface SignedWithdrawBody {
  wallet: string;
  accountId: string;
  amount: string;
  nonce: string;
  body: WithdrawBody;
  /** `clock` read after the input checks and before the signature (see TrackedWithdrawal.signed_at). */
  signedAt: number;
}

/**
 * Checks the input, reads `clock`, then signs Withdraw with the main wallet and checks the signature
 * recovers it. Nothing else touches the network (the nonce is local).
 */
async function signWithdrawBody(ctx: ServiceContext, input: WithdrawInput, clock: () => Promise<number>): Promise<SignedWithdrawBody> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const amount = parseWithdrawAmount(input.amount);
  checkSignerIsWallet(input.signer, wallet);
  const chainId = checkChainId(ctx, input.chainId);
  const accountId = accountIdFromWallet(wallet);
  const signedAt = await clock();
  const nonce = String(await ctx.nonces.next(wallet));
  const unsigned = { account_id: accountId, amount, nonce, signature_chain_id: chainId };
  const typed = withdrawTypedData(unsigned, ctx.profile.environment);
  const signature = await input.signer.signTypedData(typed);
  const recovered = recoverDigestSigner(digestOf(typed), signature);
  if (!sameAddress(recovered, wallet)) {
    throw new OperationError('SIGNATURE_MISMATCH', `the Withdraw signature recovers ${recovered}, not ${wallet}; nothing was sent`);
  }
  return { wallet, accountId, amount, nonce, signedAt, body: { account_id: accountId, amount, signature: splitSignature(signature), nonce, signature_chain_id: chainId } };
}

function newRecord(ctx: ServiceContext, signed: Omit<SignedWithdrawBody, 'signedAt'>, meta: { intentId: string; signedAt: number }): TrackedWithdrawal {
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

// ---- signing on one machine, submitting from another -------------------------------------------------

/** Names the layout of a signed-withdrawal file, so `withdraw submit` can tell it from other JSON. */
export const SIGNED_WITHDRAWAL_FORMAT = 'perps-desk/signed-withdrawal@1';

/**
 * What `perps withdraw --out FILE` writes on the machine holding the main wallet and `perps withdraw
 * submit FILE` sends from an online one. `body` is the exact request body; everything else is there for
 * the person carrying the file (and is checked against the body on submit, never trusted instead of it).
 */
export interface SignedWithdrawalFile {
  format: typeof SIGNED_WITHDRAWAL_FORMAT;
  service_environment: string;
  wallet: string;
  amount: string;
  destination: string;
  /** The signing machine's clock (Unix ms) when it signed: a lower bound for when it can have landed. */
  signed_at: number;
  summary: string[];
  body: WithdrawBody;
}

/**
 * Signs a withdrawal and returns it as a file for another machine to submit. Nothing is read over the
 * network, sent or stored: the balance and minimum checks happen at submit, where the service is
 * reachable. A new nonce is taken, so signing twice makes two distinct withdrawals.
 */
export async function signWithdrawalForLater(ctx: ServiceContext, input: WithdrawInput): Promise<SignedWithdrawalFile> {
  // The signing machine's own clock: it may have no network, and the service's clock is not needed here.
  const signed = await signWithdrawBody(ctx, input, async () => Date.now());
  const typed = withdrawTypedData(signed.body, ctx.profile.environment);
  return {
    format: SIGNED_WITHDRAWAL_FORMAT,
    service_environment: ctx.profile.environment,
    wallet: signed.wallet,
    amount: signed.amount,
    destination: signed.wallet,
    signed_at: signed.signedAt,
    summary: [
      `Withdraw ${signed.amount} USDC (${typed.message.amount} base units) from ${signed.wallet} to ${typed.message.destination} (the wallet itself)`,
      `Environment: ${ctx.profile.environment}, signature chain id ${signed.body.signature_chain_id}, nonce ${signed.nonce}`,
    ],
    body: signed.body,
  };
}

export interface SubmitSignedOutcome {
  withdrawal: TrackedWithdrawal;
  /** The pre-send checks (null when this file had already been submitted from this data folder). */
  check: WithdrawalCheck | null;
  /** This file's withdrawal was already recorded here: it was resumed or reported, not sent as new. */
  already_submitted: boolean;
}

const SUBMIT_HINT = 'Submit the file written by `perps withdraw --out FILE`, unchanged; if it was damaged, sign a new one.';

/** Shape, environment and signature of a signed-withdrawal file; nothing is sent. */
export function verifySignedWithdrawal(ctx: ServiceContext, raw: unknown): { file: SignedWithdrawalFile; wallet: string } {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (o['format'] !== SIGNED_WITHDRAWAL_FORMAT) {
    throw new ValidationError(`not a signed withdrawal (format ${JSON.stringify(o['format'] ?? null)}, expected ${SIGNED_WITHDRAWAL_FORMAT})`, {
      code: 'INVALID_WITHDRAWAL_FILE',
      hint: SUBMIT_HINT,
    });
  }
  let body: WithdrawBody;
  try {
    body = parseWith(WithdrawBodySchema, o['body'], 'signed withdrawal body');
  } catch (err) {
    if (err instanceof DecodeError) throw new ValidationError(err.message, { code: 'INVALID_WITHDRAWAL_FILE', hint: SUBMIT_HINT, cause: err });
    throw err;
  }
  if (body.destination_chain_id !== undefined || body.destination_recipient !== undefined) {
    throw new ValidationError('only the default rail (to the wallet itself) is supported; the body names another destination', {
      code: 'INVALID_WITHDRAWAL_FILE',
      hint: SUBMIT_HINT,
    });
  }
  if (parseWithdrawAmount(body.amount) !== body.amount) {
    throw new ValidationError(`the amount '${body.amount}' is not in canonical form`, { field: 'amount', code: 'INVALID_WITHDRAWAL_FILE', hint: SUBMIT_HINT });
  }
  if (o['service_environment'] !== ctx.profile.environment) {
    throw new ValidationError(`the withdrawal was signed for ${String(o['service_environment'])}, but profile '${ctx.profile.name}' is ${ctx.profile.environment}`, {
      field: 'service_environment',
      code: 'ENVIRONMENT_MISMATCH',
      hint: 'Submit it with the --profile it was signed for.',
    });
  }
  const wallet = walletFromAccountId(body.account_id);
  let recovered: string;
  try {
    recovered = recoverDigestSigner(digestOf(withdrawTypedData(body, ctx.profile.environment)), joinSignature(body.signature));
  } catch (err) {
    throw new ValidationError(`the signature is unusable: ${(err as Error).message}`, { field: 'signature', code: 'SIGNATURE_MALFORMED', hint: SUBMIT_HINT, cause: err });
  }
  // The body is what is sent, so the signature is checked against the body alone; the readable fields
  // beside it must then agree with the body, or the person carrying the file was shown something else.
  if (!sameAddress(recovered, wallet)) {
    throw new ValidationError(`the signature recovers ${recovered}, not the account's wallet ${wallet}`, {
      field: 'signature',
      code: 'SIGNATURE_MISMATCH',
      hint: 'The file was changed after signing, or signed by another wallet. Sign a new one.',
    });
  }
  if (typeof o['wallet'] !== 'string' || !sameAddress(o['wallet'], wallet) || o['amount'] !== body.amount) {
    throw new ValidationError('the wallet or amount shown in the file differs from its signed body', { code: 'INVALID_WITHDRAWAL_FILE', hint: SUBMIT_HINT });
  }
  const signedAt = o['signed_at'];
  if (typeof signedAt !== 'number' || !Number.isSafeInteger(signedAt) || signedAt <= 0) {
    throw new ValidationError('signed_at must be a Unix-ms integer', { field: 'signed_at', code: 'INVALID_WITHDRAWAL_FILE', hint: SUBMIT_HINT });
  }
  return { file: { ...(o as unknown as SignedWithdrawalFile), body }, wallet };
}

/**
 * Submits a withdrawal signed elsewhere (`signWithdrawalForLater`), with the same never-twice rules as
 * one signed here: the file is verified, checked against the balance and minimum, recorded with its
 * signed body, THEN sent. Submitting the same file again from this data folder resumes its record
 * instead of sending it as new; from another data folder, the service answers 409 (nonce used) and the
 * withdrawal is found in history.
 */
export async function submitSignedWithdrawal(ctx: ServiceContext, raw: unknown): Promise<SubmitSignedOutcome> {
  const { file, wallet } = verifySignedWithdrawal(ctx, raw);
  const body = file.body;
  const store = storeOf(ctx);
  const known = store.list().find((r) => r.account_id.toLowerCase() === body.account_id.toLowerCase() && r.nonce === body.nonce);
  if (known) {
    if (JSON.stringify(known.body) !== JSON.stringify(body)) {
      throw new ValidationError(`another withdrawal with nonce ${body.nonce} is already recorded here`, { code: 'NONCE_CONFLICT', hint: 'Sign a new withdrawal.' });
    }
    return { withdrawal: await settleIntent(ctx, known), check: null, already_submitted: true };
  }
  const check = await checkWithdrawal(ctx, { wallet, amount: body.amount });
  const serverNow = await ctx.clock.now();
  // The landed withdrawal cannot be older than its signing. The signing machine's clock says when that
  // was, the nonce (Unix ms on that clock) says it again, and the service's clock bounds both from above
  // when the signing machine's clock runs fast.
  const signedAt = Math.min(serverNow, file.signed_at, Number(body.nonce));
  const record = newRecord(ctx, { wallet, accountId: body.account_id, amount: body.amount, nonce: body.nonce, body }, { intentId: randomUUID(), signedAt });
  // Persisted before the first byte goes out, exactly as for a withdrawal signed here.
  store.insert(record);
  return { withdrawal: await settleIntent(ctx, record), check, already_submitted: false };
}

/** Drives a stored intent as far as a send can: SIGNED is (re)sent, LANDED is matched, others returned. */
async function settleIntent(ctx: ServiceContext, record: TrackedWithdrawal): Promise<TrackedWithdrawal> {
  if (record.phase === 'SIGNED') return sendStored(ctx, record);
  if (record.phase === 'LANDED') return (await matchLanded(ctx, [record]))[0] ?? record;
  throwIfRejected(record);
  return record;
}

/** A submit-time rejection (or a refused body) as the OperationError the caller sees. */
function throwIfRejected(record: TrackedWithdrawal): void {
  if (record.phase !== 'DONE' || record.withdrawal_id !== null || record.reason === null) return;
  throw rejectionError(record);
}

const REJECTION_TEXT: Record<string, string> = {
  BELOW_MIN: 'the amount is under withdrawal.min_amount',
  BELOW_MIN_AFTER_FEE: 'the amount is under the minimum once the one-time new-wallet fee is deducted',
  ABOVE_MAX: 'the amount is over the per-transaction ceiling',
  DAILY_LIMIT_EXCEEDED: 'it would exceed the rolling daily allowance',
  RATE_LIMITED: 'too many withdrawal requests in a short window',
};
const REJECTION_HINT: Record<string, string> = {
  BELOW_MIN: 'Withdraw at least withdrawal.min_amount (see `perps config`).',
  BELOW_MIN_AFTER_FEE: 'The first withdrawal to a new destination pays the new-wallet fee: withdraw at least the minimum plus that fee.',
  ABOVE_MAX: 'Split it into smaller withdrawals.',
  DAILY_LIMIT_EXCEEDED: 'Wait for the rolling 24-hour window to free up, or withdraw less.',
  RATE_LIMITED: 'Wait a minute, then withdraw again.',
};

export function rejectionError(record: TrackedWithdrawal): OperationError {
  const reason = record.reason ?? 'REJECTED';
  const why = REJECTION_TEXT[reason] ?? 'the service refused it';
  const fee = record.new_wallet_fee !== null ? ` (new_wallet_fee ${record.new_wallet_fee} USDC)` : '';
  const details: Record<string, unknown> = { reason, intent_id: record.intent_id, amount: record.amount };
  if (record.new_wallet_fee !== null) details['new_wallet_fee'] = record.new_wallet_fee;
  const hint = REJECTION_HINT[reason];
  return new OperationError(reason, `withdrawal of ${record.amount} USDC rejected: ${reason}: ${why}${fee}; nothing was withdrawn`, { details, ...(hint ? { hint } : {}) });
}

/** A terminal status other than COMPLETED, as an error (for callers that wait). */
export function unsuccessfulError(record: TrackedWithdrawal): OperationError {
  const status = record.status ?? record.phase;
  const meaning: Record<string, string> = {
    REJECTED: 'it was rejected after submission (e.g. insufficient balance at the check); the funds stay in your balance',
    REFUNDED: 'it was debited, then returned in full to your balance',
    FAILED: 'it could not be completed',
    UNMATCHED: 'its request reached the service but no withdrawal exists for it; most likely it was rejected at submit',
  };
  return new OperationError(`WITHDRAWAL_${status}`, `withdrawal ${record.withdrawal_id ?? record.intent_id} ended ${status}: ${meaning[status] ?? status}${record.failure_reason ? ` (${record.failure_reason})` : ''}`, {
    details: { intent_id: record.intent_id, withdrawal_id: record.withdrawal_id, status, failure_reason: record.failure_reason },
    hint: status === 'FAILED' ? 'Check the balance and withdrawal history; contact the operator if funds are missing.' : 'Check `perps balance` and `perps history withdrawals`.',
  });
}

/** Sends the stored body (identical bytes every time) and records what came back. */
async function sendStored(ctx: ServiceContext, record: TrackedWithdrawal): Promise<TrackedWithdrawal> {
  const store = storeOf(ctx);
  let current = store.update(record.intent_id, { send_attempts: record.send_attempts + 1 });
  let result: WithdrawResult;
  try {
    result = await ctx.api.withdraw(current.body);
  } catch (err) {
    // 409: this nonce is used, so this signed body already reached the service (an earlier send whose
    // answer was lost, or a resend inside the client). Find it; never sign again.
    if (err instanceof WriteLandedUnknownResultError || (err instanceof ApiError && err.status === 409)) {
      current = store.update(record.intent_id, { phase: 'LANDED', note: 'the service already has this request (nonce used); finding it in withdrawal history' });
      return (await matchLanded(ctx, [current]))[0] ?? current;
    }
    if (err instanceof NetworkError || err instanceof TimeoutError || (err instanceof ApiError && err.status >= 500)) {
      store.update(record.intent_id, { note: `last send failed: ${(err as Error).message}` });
      throw new OperationError('SUBMISSION_UNCONFIRMED', `the withdrawal of ${record.amount} USDC was signed and sent, but no answer arrived: ${(err as Error).message}`, {
        cause: err,
        details: { intent_id: record.intent_id },
        hint: 'It is stored with its signature and will be resent unchanged (never signed again) on the next `perps withdraw --resume` or app start; the service accepts it at most once.',
      });
    }
    if (err instanceof ApiError) {
      // A definite refusal (400 INVALID_REQUEST, 401 UNAUTHORIZED): it never took effect.
      store.update(record.intent_id, { phase: 'DONE', reason: err.code ?? `HTTP_${err.status}`, note: err.message });
    }
    throw err;
  }
  if (result.status === 'REQUESTED' && result.withdrawal_id) {
    return store.update(record.intent_id, { phase: 'TRACKING', withdrawal_id: result.withdrawal_id, status: 'REQUESTED', note: null });
  }
  if (result.status === 'REQUESTED') {
    // Accepted without an id (off-spec): history will show it, as after a lost answer.
    current = store.update(record.intent_id, { phase: 'LANDED', note: 'accepted without a withdrawal_id; finding it in withdrawal history' });
    return (await matchLanded(ctx, [current]))[0] ?? current;
  }
  const done = store.update(record.intent_id, {
    phase: 'DONE',
    status: 'REJECTED',
    reason: result.reason ?? 'REJECTED',
    new_wallet_fee: result.new_wallet_fee ?? null,
    note: 'rejected at submit; no withdrawal was created',
  });
  throw rejectionError(done);
}

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

/**
 * Reconciliation on start: every stored intent that may not have reached the service is resent with
 * its identical body, and landed ones are looked up. Returns the open records afterwards. A send that
 * still gets no answer leaves its record SIGNED for the next start; that is reported, not thrown, so
 * one unreachable moment does not block the others.
 */
export async function resumeWithdrawals(ctx: ServiceContext, filter: { wallet?: string } = {}): Promise<{ records: TrackedWithdrawal[]; errors: { intent_id: string; error: unknown }[] }> {
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
  return { records: store.list({ ...filter, open: true }), errors };
}

/** Stored withdrawals of this profile (newest first). */
export function listTrackedWithdrawals(ctx: ServiceContext, filter: { wallet?: string; open?: boolean } = {}): TrackedWithdrawal[] {
  return storeOf(ctx).list(filter).reverse();
}

