/**
 * `perps do "<phrase>"`: a trade in plain words, read by the same reader as the app's command palette
 * (src/shared/commands), prepared by the same services as `perps order place`, `position close`,
 * `position close-all`, `order cancel-all` and `twap start`, and printed as the same review.
 *
 *   perps do "buy 0.1 btc" --wallet ADDR                 prints the review; signs and sends nothing
 *   perps do "sell 2 eth at 3400" --wallet ADDR --yes    signs and sends it
 *   perps do "close eth 50%" | "close all" | "cancel all btc" | "twap buy 1 btc over 30m" ...
 *
 * Without --yes (or with --dry-run) the review is printed and nothing is signed: a phrase is too short to
 * be sent on a guess, so the person reads what it became first. The review is one screen: what each leg
 * does and the review's fields; --verbose adds the typed data and digests (--json always carries them).
 * A phrase may add: limit / market, post only, reduce only, 10x, with tp 3600 sl 3200, and a size in USD
 * ("buy 250 usd of btc": rounded down to sz_decimals at the limit price or the mark, shown in the review). A phrase that is incomplete,
 * ambiguous or invalid is exit 2 with what was understood and what is missing; nothing is prepared.
 */
import type { Command } from 'commander';
import { describeCommand, isTradeCommand, orderIntentOf, parsePhrase, phraseTextProblem, type TradeCommand } from '../../shared/commands/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { cancelAll, prepareCancelAll, prepareOrder, type GuardAllowance } from '../../main/services/orders/index.js';
import { prepareClose, prepareCloseAll, submitCloseAll, submitClose } from '../../main/services/positions/index.js';
import { prepareTwap, startTwap } from '../../main/services/algos/twap/index.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import type { PreparedBase } from '../../main/services/signing/prepared.js';
import { printReview } from '../dryRun.js';
import { resolveUsd } from '../orders/usdSize.js';
import { contextOf, globalsOf } from '../globals.js';
import { reportCancel } from '../orders/reports.js';
import { runAction, type Output } from '../output.js';
import { createProgress } from '../progress.js';
import { noteLeverage, submitAndReport } from './order.js';
import { noteClosePlan, reportClose, reportCloseAll } from './position.js';
import { foreground, reporter } from './twap.js';

interface DoOpts {
  wallet: string;
  yes?: boolean;
  dryRun?: boolean;
  verbose?: boolean;
  allowFarPrice?: boolean;
  allowLarge?: boolean;
}

const CODES = { incomplete: 'PHRASE_INCOMPLETE', ambiguous: 'PHRASE_AMBIGUOUS', invalid: 'PHRASE_INVALID', empty: 'PHRASE_INCOMPLETE' } as const;

/** The phrase as a trade, or a validation error (exit 2) saying what was understood and what is missing. */
async function tradeOf(ctx: ServiceContext, phrase: string): Promise<TradeCommand> {
  // Text that cannot be a command at all is refused before anything is read from the service.
  const problem = phraseTextProblem(phrase);
  if (problem !== null) throw new ValidationError(problem, { field: 'phrase', code: CODES.invalid });
  const r = parsePhrase(phrase, await ctx.config.markets());
  if (r.status === 'ok') {
    if (isTradeCommand(r.intent)) return r.intent;
    throw new ValidationError(`“${phrase}” is ${describeCommand(r.intent).toLowerCase()}: a place in the app, not a trade`, { field: 'phrase', code: CODES.invalid, hint: 'Use the app, or `perps markets` / `perps history` / `perps positions` to read it here.' });
  }
  throw new ValidationError(r.message, { field: 'phrase', code: CODES[r.status], hint: 'Such as "buy 0.1 btc", "sell 2 eth at 3400", "close eth 50%", "cancel all btc", "twap buy 1 btc over 30m".' });
}

/** Prints the review of what would be signed (typed data with --verbose or --json), and that nothing was: --yes signs it. */
function reviewer(verbose: boolean, dryRun: boolean) {
  return (out: Output, prepared: PreparedBase, view: unknown): void => {
    printReview(out, prepared, view, verbose);
    out.note(dryRun ? 'DRY RUN: not signed or sent.' : 'not signed or sent: this was the review only. Add --yes to sign and send it.');
  };
}

export function registerDoCommands(program: Command): void {
  program
    .command('do')
    .description("a trade in plain words, as in the app's command palette: prints the review; --yes signs and sends it")
    .argument('<phrase>', '"buy 0.1 btc", "sell 2 eth at 3400 limit post only", "buy 250 usd of btc 10x with tp 99000 sl 90000", "sell 1 sol reduce only", "close eth 50%", "close all", "cancel all btc", "twap buy 1 btc over 30m"')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--yes', 'sign and send what the phrase became (without it: the review only, nothing sent)')
    .option('--dry-run', 'the review only, as without --yes: check everything, sign and send nothing')
    .option('--verbose', 'with the review, print the typed data and digests that would be signed (always in --json)')
    .option('--allow-far-price', "send a limit price that crosses the mark by more than the market's slippage bound")
    .option('--allow-large', 'send an order whose notional is above your cap (`perps config max-notional`)')
    .action(async (phrase: string, opts: DoOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        if (opts.dryRun === true && opts.yes === true) throw new ValidationError('--dry-run sends nothing and --yes sends it: choose one', { field: 'dry-run', code: 'USAGE' });
        const reviewOnly = reviewer(opts.verbose === true, opts.dryRun === true);
        const ctx = contextOf(g);
        const c = await tradeOf(ctx, phrase);
        const allow: GuardAllowance = { farPrice: opts.allowFarPrice === true, large: opts.allowLarge === true };
        const sign = opts.yes === true;
        out.note(`${sign ? 'signing' : 'review'}: ${describeCommand(c)}`);
        const progress = createProgress({ json });
        const onProgress = (t: string): void => progress.update(t);
        try {
          switch (c.kind) {
            case 'order': {
              // "250 usd of btc": the size at the limit price, or at the mark, rounded down to sz_decimals.
              const usd = c.usd ? await resolveUsd(ctx, c.market, c.size, c.price !== null ? { price: c.price, label: 'the limit price' } : 'mark') : undefined;
              if (usd) out.note(`size: ${usd.description}`);
              const prepared = await prepareOrder(ctx, { wallet: opts.wallet, intent: orderIntentOf(c, usd?.sizing.size ?? c.size), allow });
              if (!sign) return reviewOnly(out, prepared, usd ? { ...prepared.view, usd_sizing: usd.sizing } : prepared.view);
              noteLeverage(out, prepared, c.leverage !== undefined ? String(c.leverage) : undefined);
              return await submitAndReport(ctx, out, prepared, {}, json);
            }
            case 'close': {
              const prepared = await prepareClose(ctx, { wallet: opts.wallet, market: c.market, ...(c.percent !== null ? { percent: c.percent } : {}), allow: { farPrice: allow.farPrice } });
              if (!sign) return reviewOnly(out, prepared, prepared.view);
              noteClosePlan(out, prepared);
              return await reportClose(ctx, out, await submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress }), prepared);
            }
            case 'close_all': {
              const prepared = await prepareCloseAll(ctx, { wallet: opts.wallet });
              if (!sign) return reviewOnly(out, prepared, prepared.view);
              return await reportCloseAll(ctx, out, await submitCloseAll(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress }));
            }
            case 'cancel_all': {
              const input = { wallet: opts.wallet, ...(c.market !== null ? { market: c.market } : {}) };
              const prepared = await prepareCancelAll(ctx, input);
              if (!sign) return reviewOnly(out, prepared, prepared.view);
              return reportCancel(out, await cancelAll(ctx, input, { onProgress }));
            }
            case 'twap': {
              const plan = await prepareTwap(ctx, { wallet: opts.wallet, market: c.market, side: c.side, totalSize: c.size, durationMs: c.duration_ms, slices: c.slices, allow: { large: allow.large } });
              for (const w of plan.view.warnings) out.note(`warning: ${w}`);
              if (!sign) {
                out.note('each slice is prepared at its own time, bounded by the mark then; the signature below is slice 1 as it would be signed now');
                return reviewOnly(out, { ...plan.firstSlice, action: 'twap' }, plan.view);
              }
              progress.done();
              const runner = await startTwap(ctx, plan, { allowLarge: allow.large, onUpdate: reporter(out) });
              out.note(`TWAP ${runner.id}: ${plan.side} ${plan.totalSize} ${plan.market.symbol} in ${plan.schedule.length} slices every ${plan.intervalMs / 1000} s; Ctrl-C pauses it`);
              return await foreground(out, runner);
            }
          }
        } finally {
          progress.done();
        }
      });
    });
}
