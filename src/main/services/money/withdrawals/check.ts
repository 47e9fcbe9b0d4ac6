/**
 * Everything a withdrawal is checked against before signing, from the service's own figures: the minimum
 * of GET /config, the free balance, and the one-time new-wallet fee previewed for a destination with no
 * history. Nothing is signed or sent here.
 */
import { canonical, parseDecimal } from '../../../../shared/decimal/index.js';
import { accountIdFromWallet, sameAddress } from '../../../../shared/identity/index.js';
import type { ServiceContext } from '../../serviceContext.js';
import { ValidationError } from '../../errors.js';
import { checkAddress } from '../../keys/common.js';
import { parseWithdrawAmount } from './amount.js';

/** Withdrawal statuses in which the destination has (or is about to have) history with the venue. */
const COUNTS_AS_HISTORY = new Set(['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED']);
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
