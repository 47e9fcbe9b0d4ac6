/**
 * The simulator's faucet: paper USDC credited to a wallet's account as if it had made a venue spot
 * transfer (POST /sim/deposit). The amount is checked first (a positive USDC amount, at least the
 * hypercore rail's min_amount from GET /config, since a smaller transfer is detected but never credited,
 * and at most FAUCET_MAX); then, when asked, the deposit is followed on the account's deposit history
 * until the service credits it (CONFIRMED), and the free balance is read.
 */
import { accountIdFromWallet } from '../../../shared/identity/index.js';
import { canonical, parseDecimal, Decimal } from '../../../shared/decimal/index.js';
import { DepositSchema, parseWith, type Deposit } from '../../../shared/protocol/index.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';
import { checkAddress } from '../keys/common.js';
import { parseWithdrawAmount } from '../money/withdrawals/index.js';
import { postSimControl, requireSimProfile, simControlUrl, type SimControlTransport } from './controlApi.js';

/** Paper money, but not without bound: a typo should not mint billions. */
export const FAUCET_MAX = new Decimal(1_000_000);
/** What a quick start funds when no amount is given: room for a few leveraged trades on every market. */
export const DEFAULT_PAPER_AMOUNT = '10000';
/** How long a faucet deposit may take to be credited (the simulator's default confirmation is 1 s). */
export const FAUCET_CREDIT_TIMEOUT_MS = 30_000;
const POLL_MS = 250;

export type FaucetContext = Pick<ServiceContext, 'profile' | 'api' | 'config' | 'sleep'>;

export interface FaucetInput {
  wallet: string;
  amount: string;
  /** Follow the deposit until it is credited (default true). */
  wait?: boolean;
  /** How long to wait for the credit (default FAUCET_CREDIT_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface FaucetResult {
  wallet: string;
  amount: string;
  tx_hash: string;
  /** DETECTED when not waited for; CONFIRMED once credited. */
  status: Deposit['status'];
  credited_at: number | null;
  /** The free balance after the credit; null when not waited for. */
  free_balance: string | null;
}

/** The faucet's amount rules that need no network: a USDC amount, positive, at most FAUCET_MAX. */
export function checkFaucetAmount(input: string): string {
  const amount = parseWithdrawAmount(input);
  if (parseDecimal(amount).gt(FAUCET_MAX)) {
    throw new ValidationError(`at most ${FAUCET_MAX.toFixed()} USDC per faucet request, got ${amount}`, { field: 'amount', code: 'FAUCET_LIMIT' });
  }
  return amount;
}

/**
 * Every faucet rule, the live deposit minimum included (GET /config, which also shows the service is up):
 * a transfer under the minimum is detected but never credited. Returns the canonical amount.
 */
export async function checkFaucetRequest(ctx: Pick<FaucetContext, 'config'>, input: string): Promise<string> {
  const amount = checkFaucetAmount(input);
  const funding = await ctx.config.funding();
  const min = parseDecimal(funding.deposit.hypercore.min_amount, 'deposit.hypercore.min_amount');
  if (parseDecimal(amount).lt(min)) {
    throw new ValidationError(`${amount} is below the deposit minimum of ${canonical(min)} USDC: such a transfer is detected but never credited`, {
      field: 'amount',
      code: 'BELOW_MIN',
    });
  }
  return amount;
}

export async function simFaucet(ctx: FaucetContext, input: FaucetInput, transport: SimControlTransport = {}): Promise<FaucetResult> {
  requireSimProfile(ctx.profile, 'the faucet');
  const wallet = checkAddress(input.wallet, 'wallet');
  const amount = await checkFaucetRequest(ctx, input.amount);
  const raw = await postSimControl(
    { controlUrl: transport.controlUrl ?? simControlUrl(ctx.profile), fetch: transport.fetch ?? fetch },
    '/deposit',
    { wallet, amount },
  );
  const deposit = parseWith(DepositSchema, raw, 'POST /sim/deposit');
  if (input.wait === false) {
    return { wallet, amount, tx_hash: deposit.tx_hash, status: deposit.status, credited_at: deposit.credited_at ?? null, free_balance: null };
  }
  const credited = await waitForCredit(ctx, wallet, deposit.tx_hash, input.timeoutMs ?? FAUCET_CREDIT_TIMEOUT_MS);
  const balance = await ctx.api.balance(accountIdFromWallet(wallet));
  return { wallet, amount, tx_hash: credited.tx_hash, status: credited.status, credited_at: credited.credited_at ?? null, free_balance: balance.free_balance };
}

/** Follows one deposit on the account's history (newest first) until it is CONFIRMED. */
async function waitForCredit(ctx: FaucetContext, wallet: string, txHash: string, timeoutMs: number): Promise<Deposit> {
  const accountId = accountIdFromWallet(wallet);
  let last: Deposit | undefined;
  // Counted in polls rather than wall time, so a context whose sleep moves a simulated clock waits the same.
  for (let waited = 0; waited <= timeoutMs; waited += POLL_MS) {
    const page = await ctx.api.depositHistory(accountId, { limit: 200 });
    last = page.deposits.find((d) => d.tx_hash === txHash);
    if (last?.status === 'CONFIRMED') return last;
    if (last?.status === 'BELOW_MIN') throw new OperationError('DEPOSIT_BELOW_MIN', `the faucet deposit ${txHash} was detected below the minimum and will never be credited`);
    await ctx.sleep(POLL_MS);
  }
  throw new OperationError('FAUCET_NOT_CREDITED', `the faucet deposit ${txHash} to ${wallet} was not credited within ${timeoutMs / 1000} s (last seen ${last?.status ?? 'not yet listed'})`, {
    kind: 'transient',
    hint: 'A simulator started with --manual-clock credits deposits only when its clock is advanced (POST /sim/advance). Check the balance with `perps balance --wallet ADDR`.',
  });
}
