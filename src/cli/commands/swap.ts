/**
 * `perps swap`: a same-chain swap through the service's aggregator, with the partner code, signed by the
 * main wallet (--signer) and sent through the chain's JSON-RPC like a bridge transaction (an ERC-20
 * approve first when the allowance is short). `--quote-only` shows the quote without signing anything;
 * `--dry-run` goes further (the balances, the approve, the gas: everything up to the first signature) and
 * prints the transactions that would be signed, signing and sending nothing.
 */
import type { Command } from 'commander';
import { companionFailure, requirePartnerCode } from '../../main/services/companion/index.js';
import { parseUnits } from '../../main/services/chains/chainIds.js';
import { prepareSwap, quoteSwap, submitSwap, validateSwapInput, type SwapProgress } from '../../main/services/swap/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { addCompanionOptions, companionContextOf, jsonSafe, openTransactionSigner, type CompanionUrlOptions } from '../companionSupport.js';
import { printDryRun } from '../dryRun.js';
import { globalsOf } from '../globals.js';
import { formatFields, runAction } from '../output.js';
import { parseIntegerOption } from '../parse.js';
import { createProgress } from '../progress.js';

interface SwapOpts extends CompanionUrlOptions {
  chain: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  decimals?: string;
  slippage: string;
  receiver?: string;
  srcUsd?: string;
  dstUsd?: string;
  quoteOnly?: boolean;
  dryRun?: boolean;
}

function describe(p: SwapProgress): string {
  if ('step' in p) return `${p.tx === 'approve' ? 'approval' : 'swap transaction'}: ${p.phase}${p.hash ? ` ${p.hash}` : ''}`;
  return p.phase === 'quoting' ? 'quoting the swap' : 'estimating points';
}

export function registerSwapCommands(program: Command): void {
  addCompanionOptions(program.command('swap').description('swap on one chain through the aggregator (with the partner code), signed with --signer'), {
    aggregator: true,
    platform: true,
    rpc: true,
    source: true,
  })
    .requiredOption('--chain <id>', 'chain id (ethereum, arbitrum, optimism, base, unichain, venue_evm)')
    .requiredOption('--token-in <token>', "token sold: address or 'native'")
    .requiredOption('--token-out <token>', "token bought: address or 'native'")
    .requiredOption('--amount-in <units>', 'amount sold in smallest units (integer), or whole tokens with --decimals')
    .option('--decimals <n>', 'decimals of the token sold: --amount-in is then in whole tokens')
    .requiredOption('--slippage <fraction>', 'slippage as a fraction, e.g. 0.005 for 0.5%')
    .option('--receiver <address>', 'who receives the tokens bought (default: the signer; required with --quote-only)')
    .option('--src-usd <usd>', 'USD value sold (with --dst-usd: estimate points before sending)')
    .option('--dst-usd <usd>', 'USD value bought')
    .option('--quote-only', 'show the quote; sign and send nothing')
    .option('--dry-run', 'quote and check everything (balances, approve, gas), then print the transactions that would be signed; sign and send nothing')
    .action(async (opts: SwapOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const progress = createProgress({ json });
        try {
          if ((opts.srcUsd === undefined) !== (opts.dstUsd === undefined)) throw new ValidationError('give both --src-usd and --dst-usd, or neither', { field: 'src-usd' });
          const ctx = companionContextOf(g, opts, opts.chain);
          const source = requirePartnerCode(ctx.resolveInput, opts.source, 'for an aggregator swap (it earns the bonus points)');
          const amountIn = parseUnits(opts.amountIn, 'amount-in', parseIntegerOption(opts.decimals, 'decimals'));
          const base = { chain: opts.chain, tokenIn: opts.tokenIn, tokenOut: opts.tokenOut, amountIn, slippage: opts.slippage, source };
          if (opts.quoteOnly === true && opts.dryRun === true) throw new ValidationError('give --quote-only or --dry-run, not both', { field: 'dry-run', code: 'USAGE' });
          if (opts.quoteOnly === true) {
            if (opts.receiver === undefined) throw new ValidationError('is required with --quote-only', { field: 'receiver' });
            const params = validateSwapInput({ ...base, receiver: opts.receiver });
            const quote = await quoteSwap(ctx, params);
            out.result({ params, quote }, () =>
              formatFields([
                ['swap', `${params.amountIn} ${params.tokenIn} -> ${quote.amountOut ?? '?'} ${params.tokenOut} on ${params.chain}`],
                ['minimum out', quote.minAmountOut ?? '-'],
                ['to', quote.tx.to],
              ]),
            );
            return;
          }
          const onProgress = (p: SwapProgress): void => progress.update(describe(p));
          // A dry run opens the signer too: it names the sending wallet (balances, allowance), and signs nothing.
          const opened = await openTransactionSigner(g.signer);
          try {
            const prepared = await prepareSwap(ctx, {
              ...base,
              sender: opened.signer.address,
              ...(opts.receiver !== undefined ? { receiver: opts.receiver } : {}),
              ...(opts.srcUsd !== undefined && opts.dstUsd !== undefined ? { pointsUsd: { src: opts.srcUsd, dst: opts.dstUsd } } : {}),
              onProgress,
            });
            if (opts.dryRun === true) {
              progress.done();
              return printDryRun(out, prepared, prepared.view);
            }
            const r = await submitSwap(ctx, prepared, opened.signer, { onProgress });
            progress.done();
            out.result({ tx_hash: r.transaction.hash, params: r.params, quote: r.quote, transaction: jsonSafe(r.transaction), points: r.points, points_error: r.pointsError }, () =>
              formatFields([
                ['swap tx', r.transaction.hash],
                ['swap', `${r.params.amountIn} ${r.params.tokenIn} -> ${r.quote.amountOut ?? '?'} ${r.params.tokenOut} on ${r.params.chain}`],
                ...(r.transaction.approval ? ([['approve tx', r.transaction.approval.hash]] as const) : []),
                ...(r.points ? ([['points (estimate)', `${r.points.point} + ${r.points.partnerBonus} partner bonus`]] as const) : []),
                ...(r.pointsError !== null ? ([['points (estimate)', `unavailable: ${r.pointsError}`]] as const) : []),
              ]),
            );
          } finally {
            await opened.close();
          }
        } catch (err) {
          progress.done();
          throw companionFailure(err);
        }
      });
    });
}
