/**
 * Why a remembered paper wallet reads empty: the simulator it was funded on has restarted without its
 * state (a simulator without --state keeps paper accounts in memory only), so this one has never seen
 * it. Every paper wallet is funded when it is made (quickstart's faucet deposit), so a paper wallet of
 * this data folder with no deposit at all on the running simulator means the simulator forgot it.
 *
 * Asked only after a read found the account empty (a zero balance), so a funded account costs nothing:
 * one deposit-history read (limit 1) otherwise. Simulator profile only: there are no paper wallets
 * anywhere else.
 */
import Decimal from 'decimal.js';
import { PAPER_PROFILE } from '../../vault/paperWalletVault.js';
import type { ServiceContext } from '../serviceContext.js';
import { walletIds } from '../orders/orderContext.js';

export interface ForgottenPaperWallet {
  readonly wallet: string;
  /** When this data folder made the paper wallet (Unix ms). */
  readonly created_at: number;
}

type Ctx = Pick<ServiceContext, 'profile' | 'paperWallets' | 'api'>;

/** The paper wallet this simulator forgot, or null when it is not one, or the simulator knows it. */
export async function forgottenPaperWallet(ctx: Ctx, wallet: string, freeBalance: string): Promise<ForgottenPaperWallet | null> {
  if (ctx.profile.name !== PAPER_PROFILE || !new Decimal(freeBalance).isZero()) return null;
  const remembered = ctx.paperWallets.get(ctx.profile.name, wallet);
  if (!remembered) return null;
  const { deposits } = await ctx.api.depositHistory(walletIds(wallet).accountId, { limit: 1 });
  return deposits.length === 0 ? { wallet: remembered.wallet, created_at: remembered.created_at } : null;
}

/** What the command line says about it, on stderr: what happened, why, and the commands that fix it. */
export function forgottenPaperWalletNote(f: ForgottenPaperWallet): string {
  return [
    `Note: ${f.wallet} is a paper wallet of this data folder (made ${new Date(f.created_at).toISOString()}), but this simulator has no deposit for it:`,
    'the simulator was restarted (or the wallet was never funded), and without --state it keeps paper accounts, orders and positions in memory only.',
    `Fund it again with \`perps quickstart --wallet ${f.wallet}\` (or \`perps sim faucet --wallet ${f.wallet} --amount 10000\`);`,
    'start the simulator with `perps sim --state FILE` to keep them across restarts.',
  ].join('\n');
}
