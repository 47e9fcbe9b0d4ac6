/**
 * Withdrawals (spec, "POST /account/withdraw" and the Withdrawal states), in the two public steps of
 * every signed action (signing/prepared.ts):
 *
 *   1. prepareWithdraw validates before signing: amount a positive decimal with at most 6 places (USDC)
 *      and at most 64 characters, at least withdrawal.min_amount (from GET /config), at most
 *      free_balance; previews the new-wallet fee when the destination has never received a withdrawal (a
 *      preview: the venue decides). Then it reserves the nonce, makes the intent id and builds the exact
 *      Withdraw typed data (amount in base units) and the view a person reviews;
 *   2. submitWithdraw signs exactly that with the main wallet (the signature must recover it), splits it
 *      into { r, s, v }, persists the signed body and nonce, THEN sends; a lost answer means the identical
 *      body is sent again (never a new signature), and a 409 on it means it landed: it is found in
 *      withdrawal history. An intent already stored is never signed again;
 *   3. it is tracked to COMPLETED / REJECTED / REFUNDED / FAILED (see tracker.ts), across restarts.
 *
 * Steps 1 and 2 may also happen on two machines: prepareWithdrawForLater + signWithdrawalForLater on the
 * one holding the main wallet (no network, no checks), and submitSignedWithdrawal verifies, checks,
 * persists and sends from an online one, under the same rules.
 *
 * Submit-time rejections (HTTP 200, status REJECTED) become OperationErrors whose code is the reason.
 */
import { randomUUID } from 'node:crypto';
import { USDC_DECIMALS, canonical, parseDecimal, parseDecimalText, usdcToBaseUnits, DecimalError, type Decimal } from '../../../shared/decimal/index.js';
import { digestOf, joinSignature, recoverDigestSigner, splitSignature, withdrawTypedData, type ServiceEnvironment } from '../../../shared/eip712/index.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../shared/fieldSchemas.js';
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
import { summarizeTypedData } from '../../signers/offlineSigner.js';
import type { Signer } from '../../signers/signer.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';
import { assertPreparedFor, reserveNonces, signPrepared, signRequest, type PreparedBase } from '../signing/prepared.js';
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

/** The largest amount Withdraw can sign: its amount is a uint256 of base units. */
const UINT256_MAX = (1n << 256n) - 1n;
const AMOUNT_HINT = 'Give the amount in whole USDC as a plain decimal, e.g. 25 or 25.5.';

/**
 * Canonical whole-USDC amount of user input; refuses (never rounds) more than 6 places, and refuses as
 * bad input (INVALID_AMOUNT, nothing signed) text longer than any amount (the IPC bound) and an amount
 * whose base units would not fit the signed uint256. The length bound alone keeps base units under
 * 10^70 today; the uint256 check keeps holding if that shared bound ever grows.
 */
export function parseWithdrawAmount(input: string): string {
  if (typeof input === 'string' && input.length > MAX_DECIMAL_INPUT_LENGTH) {
    throw new ValidationError(`at most ${MAX_DECIMAL_INPUT_LENGTH} characters (got ${input.length})`, { field: 'amount', code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  let d: Decimal;
  try {
    d = parseDecimalText(input, 'amount');
  } catch (err) {
    throw new ValidationError((err as DecimalError).message, { code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  if (d.lte(0)) throw new ValidationError(`must be positive, got '${input}'`, { field: 'amount', code: 'INVALID_AMOUNT' });
  if (d.decimalPlaces() > USDC_DECIMALS) {
    throw new ValidationError(`USDC has ${USDC_DECIMALS} decimals; '${input}' has ${d.decimalPlaces()} (it is not rounded for you)`, { field: 'amount', code: 'INVALID_AMOUNT' });
  }
  const amount = canonical(d);
  if (usdcToBaseUnits(amount) > UINT256_MAX) {
    throw new ValidationError('is larger than a withdrawal can sign (a uint256 of USDC base units)', { field: 'amount', code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  return amount;
}

/**
 * True when `destination` has history with the venue (spec: the new-wallet fee is charged on "the
 * first-ever credit to a destination with no history on it"): a withdrawal that went (or is going) to
 * it, or, for the wallet itself, any deposit it made (its transfer to the venue is on record).
 */
async function destinationHasHistory(ctx: ServiceContext, accountId: string, wallet: string, destination: string): Promise<boolean> {
  if (sameAddress(wallet, destination) && (await ctx.api.depositHistory(accountId, { limit: 1 })).deposits.length > 0) return true;
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
    destinationHasHistory(ctx, accountId, wallet, destination),
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

export interface PrepareWithdrawInput {
  wallet: string;
  amount: string;
  /** signature_chain_id; default the profile's chain id. */
  chainId?: number;
  /** The intent's idempotency key; a fresh one is made when omitted (one per prepared withdrawal). */
  intentId?: string;
}

/** What a person reviews before the main wallet signs Withdraw. */
export interface WithdrawView {
  action: 'withdraw';
  wallet: string;
  account_id: string;
  /** Canonical whole-USDC amount, as sent. */
  amount: string;
  /** The amount signed, in USDC base units (6 decimals). */
  amount_base_units: string;
  destination: string;
  environment: ServiceEnvironment;
  profile: string;
  chain_id: number;
  nonce: string;
  intent_id: string;
  /**
   * Checked against the live /config and the balance. False when signed for another machine to submit
   * (`withdraw --out`: that submit checks) or sent for the service to judge (executeWithdrawal).
   */
  checked: boolean;
  free_balance: string | null;
  min_amount: string | null;
  fee_preview: FeePreview | null;
  /** The signing request in words (the lines an offline device shows). */
  summary: string[];
  warnings: string[];
}

export interface PreparedWithdraw extends PreparedBase<'withdraw'> {
  /** One intent, one signature, at most one withdrawal: submit never signs an intent already stored. */
  readonly intentId: string;
  readonly accountId: string;
  readonly amount: string;
  readonly nonce: string;
  readonly chainId: number;
  readonly environment: ServiceEnvironment;
  /** The checks it was prepared under; null when it was not checked (see WithdrawView.checked). */
  readonly check: WithdrawalCheck | null;
  readonly view: WithdrawView;
}

function storeOf(ctx: Pick<ServiceContext, 'settings' | 'profile'>): WithdrawalStore {
  return new WithdrawalStore(ctx.settings, ctx.profile.name);
}

/** An intent id: any short, non-blank text (the app makes UUIDs). */
function checkIntentId(intentId: string | undefined): string {
  if (intentId === undefined) return randomUUID();
  if (typeof intentId !== 'string' || intentId.trim() === '' || intentId.length > 128) {
    throw new ValidationError('must be 1 to 128 characters', { field: 'intentId', code: 'INVALID_INTENT_ID' });
  }
  return intentId;
}

/**
 * The prepared Withdraw for `input`, after whatever checks the caller ran: the nonce is reserved only
 * now, so a refused input never takes one. Nothing is read over the network.
 */
async function buildPrepared(ctx: Pick<ServiceContext, 'profile' | 'nonces'>, input: PrepareWithdrawInput, check: WithdrawalCheck | null, warnings: string[]): Promise<PreparedWithdraw> {
  const wallet = checkAddress(input.wallet, 'wallet');
  const amount = parseWithdrawAmount(input.amount);
  const chainId = checkChainId(ctx, input.chainId);
  const intentId = checkIntentId(input.intentId);
  const accountId = accountIdFromWallet(wallet);
  const environment = ctx.profile.environment;
  const nonce = String((await reserveNonces(ctx.nonces, wallet, 1))[0]);
  const request = signRequest('Withdraw', withdrawTypedData({ account_id: accountId, amount, nonce, signature_chain_id: chainId }, environment));
  return {
    action: 'withdraw',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'main-wallet', address: wallet },
    requests: [request],
    intentId,
    accountId,
    amount,
    nonce,
    chainId,
    environment,
    check,
    view: {
      action: 'withdraw',
      wallet,
      account_id: accountId,
      amount,
      amount_base_units: usdcToBaseUnits(amount).toString(),
      // Default rail: the destination is the wallet itself (spec: an EOA withdraws to its own wallet).
      destination: wallet,
      environment,
      profile: ctx.profile.name,
      chain_id: chainId,
      nonce,
      intent_id: intentId,
      checked: check !== null,
      free_balance: check?.free_balance ?? null,
      min_amount: check?.min_amount ?? null,
      fee_preview: check?.fee_preview ?? null,
      summary: summarizeTypedData(request.typedData),
      warnings: [...(check?.warnings ?? []), ...warnings],
    },
  };
}

/**
 * Checks the withdrawal against the live /config and the balance (checkWithdrawal), then reserves its
 * nonce and builds the exact Withdraw typed data for review. Nothing is signed or sent; a refused input
 * takes no nonce. An intent id already stored here is refused: that withdrawal exists (resume it).
 */
export async function prepareWithdraw(ctx: ServiceContext, input: PrepareWithdrawInput): Promise<PreparedWithdraw> {
  if (input.intentId !== undefined && storeOf(ctx).get(input.intentId)) {
    throw new ValidationError(`withdrawal intent ${input.intentId} is already signed and stored here`, {
      field: 'intentId',
      code: 'INTENT_ALREADY_USED',
      hint: 'Prepare it again without an intent id (a new withdrawal), or resume the stored one.',
    });
  }
  const check = await checkWithdrawal(ctx, input);
  return buildPrepared(ctx, { ...input, wallet: check.wallet, amount: check.amount }, check, []);
}

/**
 * The offline half (`perps withdraw --out`): a Withdraw for another machine to submit. Nothing is read over
 * the network; the balance and minimum are checked at submit (submitSignedWithdrawal), where the service
 * is reachable. A new nonce is taken, so preparing twice makes two distinct withdrawals.
 */
export async function prepareWithdrawForLater(ctx: Pick<ServiceContext, 'profile' | 'nonces'>, input: Omit<PrepareWithdrawInput, 'intentId'>): Promise<PreparedWithdraw> {
  return buildPrepared(ctx, input, null, ['Not checked against the balance or the minimum yet: that happens at submit, on the online machine.']);
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

/**
 * Signs, persists and submits WITHOUT the balance and minimum checks (the service is the judge). The
 * app uses prepareWithdraw/submitWithdraw; this exists for tests that need the service's own verdicts
 * (BELOW_MIN, an asynchronous insufficient-balance REJECTED).
 */
export async function executeWithdrawal(ctx: ServiceContext, input: WithdrawInput): Promise<TrackedWithdrawal> {
  const existing = input.intentId ? storeOf(ctx).get(input.intentId) : undefined;
  if (existing) return settleIntent(ctx, existing);
  checkSignerIsWallet(input.signer, checkAddress(input.wallet, 'wallet'));
  const prepared = await buildPrepared(ctx, input, null, ['Not checked against the balance or the minimum: the service judges it.']);
  return (await submitWithdraw(ctx, prepared, input.signer)).withdrawal;
}

interface SignedWithdrawBody {
  wallet: string;
  accountId: string;
  amount: string;
  nonce: string;
  body: WithdrawBody;
}

function newRecord(ctx: ServiceContext, signed: SignedWithdrawBody, meta: { intentId: string; signedAt: number }): TrackedWithdrawal {
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
 * Signs a withdrawal prepared for later (prepareWithdrawForLater) and returns it as a file for another
 * machine to submit. Nothing is read over the network, sent or stored.
 */
export async function signWithdrawalForLater(prepared: PreparedWithdraw, signer: Signer): Promise<SignedWithdrawalFile> {
  // The signing machine's own clock: it may have no network, and the service's clock is not needed here.
  const signedAt = Date.now();
  const [signature] = await signPrepared(prepared, signer);
  const body: WithdrawBody = { account_id: prepared.accountId, amount: prepared.amount, signature: splitSignature(signature!), nonce: prepared.nonce, signature_chain_id: prepared.chainId };
  const typed = withdrawTypedData(body, prepared.environment);
  return {
    format: SIGNED_WITHDRAWAL_FORMAT,
    service_environment: prepared.environment,
    wallet: prepared.wallet,
    amount: prepared.amount,
    destination: prepared.wallet,
    signed_at: signedAt,
    summary: [
      `Withdraw ${prepared.amount} USDC (${typed.message.amount} base units) from ${prepared.wallet} to ${typed.message.destination} (the wallet itself)`,
      `Environment: ${prepared.environment}, signature chain id ${body.signature_chain_id}, nonce ${prepared.nonce}`,
    ],
    body,
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

