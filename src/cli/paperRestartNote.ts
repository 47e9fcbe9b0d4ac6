/**
 * The command line's word about an empty paper account: when a read finds a paper wallet of this data
 * folder empty because the simulator restarted without its state, say so on stderr (stdout keeps the
 * read's own output, JSON included). src/main/services/sim/paperRestart.ts decides.
 */
import { readBalance } from '../main/services/reads/index.js';
import type { ServiceContext } from '../main/services/serviceContext.js';
import { forgottenPaperWallet, forgottenPaperWalletNote } from '../main/services/sim/paperRestart.js';

/** After a read that found nothing: `freeBalance` when the read has it, else the balance is read. */
export async function noteForgottenPaperWallet(ctx: ServiceContext, wallet: string, freeBalance?: string): Promise<void> {
  if (ctx.profile.name !== 'sim' || !ctx.paperWallets.get(ctx.profile.name, wallet)) return;
  const balance = freeBalance ?? (await readBalance(ctx, wallet)).free_balance;
  const forgotten = await forgottenPaperWallet(ctx, wallet, balance);
  if (forgotten) process.stderr.write(`\n${forgottenPaperWalletNote(forgotten)}\n`);
}
