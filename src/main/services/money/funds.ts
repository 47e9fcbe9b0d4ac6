/**
 * Deposit information, balance and money history. Deposit address and rail minimums come from
 * GET /config at runtime (spec: never hardcode them); there is no equity endpoint, so "balance" is the
 * free balance the service reports.
 */
import { accountIdFromWallet } from '../../../shared/identity/index.js';
import type { Deposit, Withdrawal } from '../../../shared/protocol/index.js';
import type { ServiceContext } from '../serviceContext.js';
import { checkAddress } from '../keys/common.js';

export interface DepositRail {
  rail: string;
  /** Below it a transfer is detected but not credited. */
  min_amount: string;
  address: string | null;
}

export interface DepositInfo {
  /** Destination of a venue spot transfer (the hypercore rail). */
  address: string;
  rails: DepositRail[];
  note: string;
}

export async function depositInfo(ctx: ServiceContext): Promise<DepositInfo> {
  const funding = await ctx.config.funding();
  const rails: DepositRail[] = Object.entries(funding.deposit).map(([rail, r]) => ({ rail, min_amount: r.min_amount, address: r.address ?? null }));
  return {
    address: funding.deposit.hypercore.address,
    rails,
    note: 'Send USDC by venue spot transfer from the wallet you trade with: the sending wallet decides which account is credited. Transfers under a rail minimum are detected but never credited.',
  };
}

export interface BalanceView {
  wallet: string;
  account_id: string;
  /** Excludes posted margin, unrealized PnL and funds held by withdrawals in flight. */
  free_balance: string;
}

export async function balanceOf(ctx: ServiceContext, walletInput: string): Promise<BalanceView> {
  const wallet = checkAddress(walletInput, 'wallet');
  const accountId = accountIdFromWallet(wallet);
  const b = await ctx.api.balance(accountId);
  return { wallet, account_id: accountId, free_balance: b.free_balance };
}

/** Every deposit of the wallet's account, newest first (walks all pages). */
export async function depositHistory(ctx: ServiceContext, walletInput: string): Promise<Deposit[]> {
  const wallet = checkAddress(walletInput, 'wallet');
  return ctx.api.allDepositHistory(accountIdFromWallet(wallet));
}

/** Every withdrawal of the wallet's account, newest first (walks all pages). */
export async function withdrawalHistory(ctx: ServiceContext, walletInput: string): Promise<Withdrawal[]> {
  const wallet = checkAddress(walletInput, 'wallet');
  return ctx.api.allWithdrawalHistory(accountIdFromWallet(wallet));
}
