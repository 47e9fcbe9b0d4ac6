/**
 * `perps position close --wallet ADDR --market SYM [--slippage-bps N]`: the spec's exit (lifecycle rule 4):
 * cancel every armed trigger on the market, wait until position-triggers shows none, then one reduce-only
 * MARKET order opposite the position sized from `closeable`, followed until filled and until /positions
 * reflects it.
 * `perps position reverse --wallet ADDR --market SYM [--size DEC]`: rule 5, exit then enter the other way.
 * Both are prepared first (every Cancel and Order with its typed data; --dry-run prints them and sends
 * nothing), then submitted with the wallet's trading key.
 */
import type { Command } from 'commander';
import { prepareClose, prepareReverse, submitClose, submitReverse, type ClosePositionResult } from '../../main/services/positions/index.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, runAction } from '../output.js';
import { parseIntegerOption, timeoutOf } from '../parse.js';
import { createProgress } from '../progress.js';

const DRY_RUN_HELP = 'check everything and print what would be signed (the cancels, the closing order, their typed data); sign and send nothing';

function closeFields(r: ClosePositionResult): (readonly [string, string])[] {
  return [
    ['market', r.market],
    ['position before', `${r.position_before.size} @ ${r.position_before.entry_price}`],
    ['triggers cancelled', r.cancelled_triggers.length === 0 ? 'none' : r.cancelled_triggers.map((c) => c.order_id).join(', ')],
    ['closing order', `${r.order.order_id ?? '-'} ${r.order.leg.side} ${r.order.leg.size} (bound ${r.order.leg.limit_price}): ${r.order.final?.status ?? r.order.status}`],
    ...(r.order.final?.avg_fill_price ? ([['fill price', r.order.final.avg_fill_price]] as const) : []),
    ['position after', r.position_after ? `${r.position_after.size} @ ${r.position_after.entry_price}` : 'closed'],
  ];
}

export function registerPositionCommands(program: Command): void {
  const position = program.command('position').description('act on one position: close, reverse');

  position
    .command('close')
    .description('close a position: cancel its armed triggers, then one reduce-only market order for the closeable size')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol')
    .option('--slippage-bps <n>', "tolerance of the closing order's bound, default the market's slippage_bps")
    .option('--timeout <seconds>', 'give up waiting after this long')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; market: string; slippageBps?: string; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareClose(ctx, { wallet: opts.wallet, market: opts.market, ...(slippageBps !== undefined ? { slippageBps } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        const progress = createProgress({ json });
        try {
          const r = await submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          out.result(r, () => formatFields(closeFields(r)));
          if (!r.closed) {
            out.note(`error [NOT_FULLY_CLOSED]: ${r.position_after?.size ?? '?'} ${r.market} is still open (only the closeable part was closed)`);
            out.note('hint: resting reduce-only orders reserve part of a position; cancel them and close again.');
            return 1;
          }
          return undefined;
        } finally {
          progress.done();
        }
      });
    });

  position
    .command('reverse')
    .description('reverse a position: close it, wait for flat, then enter the opposite way')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol')
    .option('--size <decimal>', 'size of the new position (default: the old size)')
    .option('--leverage <n>', 'leverage of the new entry (default: your default for the market, `perps config leverage`, else 1x)')
    .option('--slippage-bps <n>', "tolerance of both market orders' bounds")
    .option('--timeout <seconds>', 'give up waiting after this long')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; market: string; size?: string; leverage?: string; slippageBps?: string; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
        const leverage = parseIntegerOption(opts.leverage, 'leverage');
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareReverse(ctx, {
          wallet: opts.wallet,
          market: opts.market,
          ...(opts.size !== undefined ? { size: opts.size } : {}),
          ...(leverage !== undefined ? { leverage } : {}),
          ...(slippageBps !== undefined ? { slippageBps } : {}),
        });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        out.note(`the new ${opts.market} position is entered with leverage ${prepared.entry.legs[0]!.leverage}x${leverage === undefined ? ' (your default)' : ''}`);
        const progress = createProgress({ json });
        try {
          const r = await submitReverse(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          out.result(r, () => formatFields([...closeFields(r.close), ['new position', `${r.position_after.size} @ ${r.position_after.entry_price}`]]));
          return undefined;
        } finally {
          progress.done();
        }
      });
    });
}
