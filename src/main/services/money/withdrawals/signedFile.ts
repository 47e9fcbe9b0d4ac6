/**
 * Signing on one machine, submitting from another: the signed-withdrawal file (`perps withdraw --out FILE`
 * on the machine holding the main wallet, `perps withdraw submit FILE` from an online one), verified as a
 * whole and sent under the same never-twice rules as a withdrawal signed here.
 */
import { randomUUID } from 'node:crypto';
import { digestOf, joinSignature, recoverDigestSigner, splitSignature, withdrawTypedData } from '../../../../shared/eip712/index.js';
import { sameAddress, walletFromAccountId } from '../../../../shared/identity/index.js';
import { DecodeError, WithdrawBodySchema, parseWith, type WithdrawBody } from '../../../../shared/protocol/index.js';
import type { Signer } from '../../../signers/signer.js';
import type { ServiceContext } from '../../serviceContext.js';
import { ValidationError } from '../../errors.js';
import { signPrepared } from '../../signing/prepared.js';
import type { TrackedWithdrawal } from '../withdrawalStore.js';
import { parseWithdrawAmount } from './amount.js';
import { checkWithdrawal, type WithdrawalCheck } from './check.js';
import { storeOf, type PreparedWithdraw } from './prepare.js';
import { settleIntent } from './send.js';
import { newRecord } from './submit.js';

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
