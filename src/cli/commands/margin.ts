/**
 * `perps margin --wallet ADDR --market SYM --amount SIGNED_DEC [--wait]`: add (positive) or remove
 * (negative) isolated margin on the open position. Write a negative amount as `--amount=-10` or
 * `--amount -10`. Without --wait the command reports SUBMITTED; with it, APPLIED (exit 0) or REJECTED
 * with the service's reason (exit 1). A rejection at submit is exit 1 too. --dry-run prints the signed
 * UpdateIsolatedMargin that would be sent, and sends nothing.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../main/services/errors.js';
import { prepareMargin, submitMargin, type MarginResult } from '../../main/services/positions/index.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, runAction } from '../output.js';
import { durationFlag, timeoutOf } from '../parse.js';
import { createProgress } from '../progress.js';

function human(r: MarginResult): string {
  return formatFields([
    ['market', r.market],
    ['amount', `${r.amount} USDC (${r.amount.startsWith('-') ? 'remove' : 'add'})`],
    ['request', r.request_id ?? '-'],
    ['status', r.status],
    ...(r.reason ? ([['reason', `${r.reason}${r.explanation ? `: ${r.explanation}` : ''}`]] as const) : []),
  ]);
}

export function registerMarginCommands(program: Command): void {
  program
    .command('margin')
    .description('add (positive amount) or remove (negative amount) isolated margin on a position')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market of the position')
    .requiredOption('--amount <signed-decimal>', 'USDC: positive adds from free balance, negative removes (e.g. --amount=-10)')
    .option('--wait', 'follow the request until APPLIED or REJECTED')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', 'check it and print what would be signed; sign and send nothing')
    .action(async (opts: { wallet: string; market: string; amount: string; wait?: boolean; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        if (opts.dryRun === true && opts.wait === true) throw new ValidationError('--dry-run sends nothing, so there is nothing to --wait for', { field: 'dry-run', code: 'USAGE' });
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareMargin(ctx, { wallet: opts.wallet, market: opts.market, amount: opts.amount });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        const progress = createProgress({ json });
        try {
          const r = await submitMargin(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          out.result(r, () => human(r));
          if (r.status === 'REJECTED') {
            out.note(`error [${r.reason ?? 'REJECTED'}]: the margin adjustment was rejected${r.explanation ? `: ${r.explanation}` : ''}`);
            out.note(r.reason === 'EXCEEDS_MAX_REMOVABLE' ? 'hint: remove less; the position must keep its required margin.' : r.reason === 'INSUFFICIENT_BALANCE' ? 'hint: deposit first or add less.' : r.reason === 'NO_OPEN_POSITION' ? 'hint: margin applies to an open position on this market; check `perps positions`.' : 'hint: see the reason above.');
            return 1;
          }
          if (r.status === 'UNKNOWN') {
            out.note("error [LANDED_RESULT_UNKNOWN]: the request reached the service but its answer was lost");
            out.note("hint: check the position's isolated_margin (`perps positions --wallet ADDR`) before sending it again.");
            return 1;
          }
          return undefined;
        } finally {
          progress.done();
        }
      });
    });
}
