/**
 * `perps quickstart`: from nothing to a paper trade in one step, on the simulator profile only.
 *
 *   perps quickstart [--amount N] [--reuse | --wallet ADDR] [--set-default] [--json]
 *
 * Creates a paper main wallet (its key in the OS keychain, bound to the sim profile), creates a trading key
 * and has the paper wallet authorize it, funds the account from the simulator's faucet and waits until the
 * deposit is credited (services/keys/quickstart.ts), then offers (on a terminal) to make the wallet the
 * profile's default (`perps config wallet`; --set-default without asking). Prints { wallet, agent,
 * free_balance, default_wallet }. On any other
 * profile it is refused (exit 2) before anything is created.
 */
import type { Command } from 'commander';
import { DEFAULT_PAPER_AMOUNT, FAUCET_MAX } from '../../main/services/sim/faucet.js';
import { quickstart } from '../../main/services/keys/quickstart.js';
import { ValidationError } from '../../main/services/errors.js';
import { nodeHttpFetch } from '../../main/api/nodeHttpFetch.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTime, runAction } from '../output.js';
import { askYesNo, atTerminal } from '../prompt.js';
import { readDefaultWallet, setDefaultWallet } from '../../main/services/settings/defaultWallet.js';

interface QuickstartOpts {
  amount: string;
  reuse?: boolean;
  wallet?: string;
  setDefault?: boolean;
}

export function registerQuickstartCommands(program: Command): void {
  program
    .command('quickstart')
    .description('sim profile: create a paper wallet, authorize a trading key and fund it from the faucet, in one step')
    .option('--amount <usdc>', `paper USDC from the faucet (at most ${FAUCET_MAX.toFixed()})`, DEFAULT_PAPER_AMOUNT)
    .option('--reuse', 'use the newest paper wallet of this data folder (and its trading key, if still usable) instead of a new one')
    .option('--wallet <address>', 'use this paper wallet of this data folder instead of a new one')
    .option('--set-default', 'make the wallet your default (`perps config wallet`) without asking; on a terminal quickstart offers it')
    .action(async (opts: QuickstartOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        if (opts.reuse === true && opts.wallet !== undefined) throw new ValidationError('choose one of --reuse and --wallet', { field: 'reuse', code: 'USAGE' });
        if (g.signer !== undefined) throw new ValidationError('quickstart signs with the paper wallet it makes; it takes no --signer', { field: 'signer', code: 'USAGE' });
        const ctx = contextOf(g);
        const r = await quickstart(ctx, { amount: opts.amount, reuse: opts.reuse === true, wallet: opts.wallet }, { fetch: nodeHttpFetch });
        // The wallet just made is the one a trader goes on with: quickstart offers to make it the default,
        // so the next commands need no --wallet (asked on a terminal; --set-default sets it unasked).
        const before = readDefaultWallet(ctx.settings, ctx.profile.name);
        let isDefault = before === r.wallet;
        if (!isDefault && (opts.setDefault === true || (!out.json && atTerminal() && (await askYesNo(`Make ${r.wallet} your default wallet on profile ${ctx.profile.name}${before ? ` (instead of ${before})` : ''}, so --wallet is optional?`, before === null))))) {
          setDefaultWallet(ctx.settings, ctx.profile.name, r.wallet);
          isDefault = true;
        }
        const w = isDefault ? '' : ` --wallet ${r.wallet}`;
        out.result({ wallet: r.wallet, agent: r.agent, free_balance: r.free_balance, default_wallet: isDefault }, () =>
          [
            formatFields([
              ['paper wallet', `${r.wallet}${r.created_wallet ? ' (new; its key is in the OS keychain)' : ''}`],
              ['trading key', `${r.agent}${r.created_key ? ' (new, authorized)' : ''}, expires ${formatTime(r.expires_at)}`],
              ['funded', `${r.funded.amount} USDC`],
              ['free balance', `${r.free_balance} USDC`],
              ['default wallet', isDefault ? 'yes: commands given no --wallet act for it' : `no (\`perps config wallet ${r.wallet}\` makes it the default)`],
            ]),
            '',
            `Trade: perps order place${w} --market BTC --side buy --size 0.01 --type market`,
          ].join('\n'),
        );
      });
    });
}
