/**
 * `perps position trail`: a trailing stop on an open position, kept trailing in the foreground.
 *
 *   position trail --wallet ADDR --market SYM --distance 1.5%|D [--activate PRICE] [--dry-run]
 *       Arms the trailing stop (the armed whole-position stop-loss, or a new one at the distance from the
 *       mark) and moves it with new highs (a long) or lows (a short) until Ctrl-C, SIGTERM or the
 *       position closes. Stopping, or the process dying, leaves the last level armed at the service.
 *       Running it again on the same position takes up where it was: the candles missed are read, the
 *       stop is moved to where it should be now, and what happened meanwhile is said.
 *   position trail --list      this profile's trailing stops and whether a process trails each now
 *   position trail --market SYM [--wallet ADDR] --off
 *       Stops trailing (the process trailing it stops at its next look); the armed level stays until
 *       removed with `perps position tpsl --sl none`.
 *
 * Exit 0 when trailing ran and stopped (or was turned off), 2 for input refused (nothing sent).
 */
import type { Command } from 'commander';
import { listTrails, prepareTrail, startTrail, trailSummary, turnOffTrail, type TrailRunner } from '../../main/services/algos/trailing/index.js';
import { ValidationError } from '../../main/services/errors.js';
import type { TrailRecord } from '../../shared/algos/trailRecord.js';
import { damagedView } from '../damagedRecord.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, runAction, type Output } from '../output.js';
import { exitFields } from '../orders/reports.js';
import { readExitFills, type ExitFills } from '../../main/services/positions/exitFills.js';
import type { TradingContext } from '../../main/services/orders/orderContext.js';

interface TrailOpts {
  wallet?: string;
  market: string;
  distance?: string;
  activate?: string;
  off?: boolean;
  list?: boolean;
  dryRun?: boolean;
}

/**
 * The fired stop's fill price and realized PnL, when trailing ended. A fired stop leaves position-triggers
 * before /positions shows the close (it lags), so the runner may end with stop_removed: the stop's own
 * fills in trade-history say whether it fired.
 */
async function trailExit(ctx: TradingContext, r: TrailRecord): Promise<ExitFills | null> {
  if (r.status !== 'ended' || !r.stop) return null;
  const exit = await readExitFills(ctx, r.wallet, [r.stop.order_id], { market: r.market, attempts: 4 });
  return exit.avg_fill_price !== null || r.end_reason === 'position_closed' ? exit : null;
}

function trailFields(r: TrailRecord, exit: ExitFills | null = null): string {
  return formatFields([
    ['market', `${r.market} ${r.side.toLowerCase()}`],
    ['trailing', trailSummary(r)],
    ['status', r.status === 'trailing' ? 'not trailed now: the last level stays armed; run the same command to take it up again' : r.status === 'off' ? 'off: the last level stays armed (remove it with `perps position tpsl --sl none`)' : `ended (${r.end_reason})`],
    ['moves', String(r.moves)],
    ['stop order', r.stop?.order_id ?? '-'],
    ...(exit === null ? [] : exit.avg_fill_price === null ? ([['exit', 'the position closed, but not through this stop (no fill of it in trade-history)']] as const) : exitFields(exit)),
  ]);
}

/** Trails in the foreground: Ctrl-C (or SIGTERM) stops trailing and leaves the last level armed. */
async function foreground(ctx: TradingContext, out: Output, runner: TrailRunner): Promise<undefined> {
  const stop = (): void => {
    out.note('stopping: the last level stays armed at the service');
    runner.requestStop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const r = await runner.run();
    const exit = await trailExit(ctx, r);
    out.result(exit ? { ...r, exit } : r, () => trailFields(r, exit));
    return undefined;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export function registerTrailCommand(position: Command): void {
  position
    .command('trail')
    .description("trail the position's stop-loss behind new highs (a long) or lows (a short), in the foreground; Ctrl-C leaves the last level armed")
    .option('--wallet <address>', 'main wallet (its trading key signs every move)')
    .option('--market <symbol>', 'market symbol')
    .option('--distance <d>', 'how far behind the best mark: a percentage (1.5%) or a price distance (25)')
    .option('--activate <price>', 'start trailing once the mark reaches this price (until then the stop stays where it is)')
    .option('--off', 'stop trailing; the armed level stays until removed with `position tpsl --sl none`')
    .option('--list', "this profile's trailing stops (trailing, off, ended) and whether a process trails each now")
    .option('--dry-run', 'check everything and print what would be armed and signed; sign and send nothing')
    .action(async (opts: TrailOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        if (opts.list === true) {
          const { trails, damaged } = listTrails(ctx);
          // A damaged record is listed beside the others with what is wrong: never run, never hidden.
          type Row = { ok: true; t: (typeof trails)[number] } | { ok: false; d: (typeof damaged)[number] };
          const rows: Row[] = [...trails.map((t) => ({ ok: true as const, t })), ...damaged.map((d) => ({ ok: false as const, d }))];
          out.result(
            { trailing: trails.map((r) => ({ ...r.record, runner: r.runner })), damaged: damaged.map(damagedView) },
            () =>
              formatTable(
                rows,
                [
                  { header: 'MARKET', value: (r) => (r.ok ? `${r.t.record.market} ${r.t.record.side.toLowerCase()}` : (r.d.summary.market ?? '?')) },
                  { header: 'WALLET', value: (r) => (r.ok ? r.t.record.wallet : (r.d.summary.wallet ?? '?')) },
                  { header: 'TRAILING', value: (r) => (r.ok ? r.t.summary : `(record ${r.d.file})`) },
                  {
                    header: 'STATUS',
                    value: (r) =>
                      !r.ok
                        ? `damaged: ${r.d.reason}; never run`
                        : r.t.record.status === 'trailing'
                          ? r.t.runner
                            ? `trailing (process ${r.t.runner})`
                            : 'not trailed now (last level armed)'
                          : r.t.record.status === 'ended'
                            ? `ended (${r.t.record.end_reason})`
                            : 'off',
                  },
                ],
                'no trailing stops',
              ),
          );
          return undefined;
        }
        if (opts.market === undefined) throw new ValidationError('--market is required', { field: 'market' });
        if (opts.off === true) {
          if (opts.distance !== undefined || opts.activate !== undefined) throw new ValidationError('--off takes no --distance or --activate', { field: 'off' });
          const r = turnOffTrail(ctx, { market: opts.market, ...(opts.wallet !== undefined ? { wallet: opts.wallet } : {}) });
          out.result(r, () => trailFields(r));
          return undefined;
        }
        if (opts.wallet === undefined) throw new ValidationError('--wallet is required to trail a position', { field: 'wallet' });
        if (opts.distance === undefined) throw new ValidationError('--distance is required: a percentage such as 1.5% or a price distance such as 25', { field: 'distance' });
        const prepared = await prepareTrail(ctx, { wallet: opts.wallet, market: opts.market, distance: opts.distance, ...(opts.activate !== undefined ? { activate: opts.activate } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        for (const line of prepared.view.summary) out.note(line);
        const runner = await startTrail(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onEvent: (text) => out.note(text) });
        out.note(`trailing the ${prepared.market} ${prepared.side.toLowerCase()}; Ctrl-C stops trailing and leaves the last level armed`);
        return foreground(ctx, out, runner);
      });
    });
}
