/**
 * Step 1 of a withdrawal (signing/prepared.ts): validated, its nonce reserved only once every check
 * passed, the exact Withdraw typed data built and the view a person reviews. Also the offline half
 * (`perps withdraw --out`), prepared without the network for another machine to submit.
 */
import { randomUUID } from 'node:crypto';
import { usdcToBaseUnits } from '../../../../shared/decimal/index.js';
import { withdrawTypedData, type ServiceEnvironment } from '../../../../shared/eip712/index.js';
import { accountIdFromWallet } from '../../../../shared/identity/index.js';
import { summarizeTypedData } from '../../../signers/offlineSigner.js';
import type { ServiceContext } from '../../serviceContext.js';
import { ValidationError } from '../../errors.js';
import { reserveNonces, signRequest, type PreparedBase } from '../../signing/prepared.js';
import { checkAddress, checkChainId } from '../../keys/common.js';
import { WithdrawalStore } from '../withdrawalStore.js';
import { parseWithdrawAmount } from './amount.js';
import { checkWithdrawal, type FeePreview, type WithdrawalCheck } from './check.js';

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
   * (`withdraw --out`: that submit checks).
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

export function storeOf(ctx: Pick<ServiceContext, 'settings' | 'profile'>): WithdrawalStore {
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
