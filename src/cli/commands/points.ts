/**
 * `perps points estimate | leaderboard`: partner points.
 *
 *   estimate     points a bridge or swap would earn (base and partner bonus), from the USD values of both
 *                sides the user gives (prices are never built in)
 *   leaderboard  points credited to a wallet in a date range, and the partner bonuses by code
 */
import type { Command } from 'commander';
import { companionFailure } from '../../main/services/companion/index.js';
import { creditedPoints, estimatePoints, parseTimeInput } from '../../main/services/points/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { addCompanionOptions, companionContextOf, type CompanionUrlOptions } from '../companionSupport.js';
import { globalsOf } from '../globals.js';
import { formatFields, formatTable, runAction } from '../output.js';

interface EstimateOpts extends CompanionUrlOptions {
  user: string;
  srcChain: string;
  dstChain: string;
  srcToken: string;
  dstToken: string;
  srcUsd: string;
  dstUsd: string;
  from?: string;
}

interface LeaderboardOpts extends CompanionUrlOptions {
  user: string;
  from: string;
  to: string;
  partner?: string;
}

export function registerPointsCommands(program: Command): void {
  const points = program.command('points').description('partner points: estimates and credited totals');

  addCompanionOptions(points.command('estimate').description('points a bridge or swap would earn (GET /v1/point/estimate)'), { platform: true, source: true })
    .requiredOption('--user <address>', 'trader wallet')
    .requiredOption('--src-chain <id>', 'source chain id')
    .requiredOption('--dst-chain <id>', 'destination chain id')
    .requiredOption('--src-token <token>', "source token address ('native' for the gas token)")
    .requiredOption('--dst-token <token>', "destination token address ('native', or a venue token id on venue_core)")
    .requiredOption('--src-usd <usd>', 'USD value of the source side')
    .requiredOption('--dst-usd <usd>', 'USD value of the destination side')
    .option('--from <time>', 'Unix seconds or ISO date (default now)')
    .action(async (opts: EstimateOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        try {
          const ctx = companionContextOf(g, opts);
          const source = ctx.partnerCode();
          if (source === undefined) throw new ValidationError('a partner code is required', { field: 'source', code: 'PARTNER_CODE_REQUIRED', hint: 'Pass --source CODE or set PERPS_PARTNER_CODE.' });
          const r = await estimatePoints(ctx, {
            user: opts.user,
            srcChain: opts.srcChain,
            dstChain: opts.dstChain,
            srcToken: opts.srcToken,
            dstToken: opts.dstToken,
            srcUsd: opts.srcUsd,
            dstUsd: opts.dstUsd,
            ...(opts.from !== undefined ? { from: parseTimeInput(opts.from, 'from') } : {}),
            source,
          });
          out.result(r, () => formatFields([['points', String(r.point)], [`partner bonus (${r.source})`, String(r.partnerBonus)]]));
        } catch (err) {
          throw companionFailure(err);
        }
      });
    });

  addCompanionOptions(points.command('leaderboard').description('points credited in a date range, with partner bonuses (GET /v1/point/leaderboard)'), { platform: true })
    .requiredOption('--user <address>', 'trader wallet')
    .requiredOption('--from <time>', 'start: Unix seconds or ISO date (UTC)')
    .requiredOption('--to <time>', 'end: Unix seconds or ISO date (UTC)')
    .option('--partner <code>', 'single out the bonus credited under this partner code')
    .action(async (opts: LeaderboardOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        try {
          const ctx = companionContextOf(g, opts);
          const r = await creditedPoints(ctx, {
            user: opts.user,
            from: parseTimeInput(opts.from, 'from'),
            to: parseTimeInput(opts.to, 'to'),
            ...(opts.partner !== undefined ? { partnerCode: opts.partner } : {}),
          });
          const bonuses = Object.entries(r.partnerBonuses).map(([code, bonus]) => ({ code, bonus }));
          out.result(r, () =>
            [
              formatFields([
                ['user', r.user],
                ['range', `${new Date(r.from * 1000).toISOString()} .. ${new Date(r.to * 1000).toISOString()}`],
                ['points', String(r.point)],
                ...(r.partnerCode !== null ? ([[`partner bonus (${r.partnerCode})`, String(r.partnerBonus ?? 0)]] as const) : []),
              ]),
              formatTable(bonuses, [
                { header: 'PARTNER', value: (b) => b.code },
                { header: 'BONUS', value: (b) => String(b.bonus), align: 'right' },
              ], 'no partner bonuses credited in this range'),
            ].join('\n\n'),
          );
        } catch (err) {
          throw companionFailure(err);
        }
      });
    });
}
