/**
 * `perps order oco`: two resting entry legs where the first fill of either cancels the other at once,
 * watched in the foreground.
 *
 *   order oco --wallet ADDR --market SYM --size S --buy PRICE --sell PRICE [--leverage N|max] [--dry-run]
 *       A LIMIT GTC buy below the mark and a LIMIT GTC sell above it, sent as one batch; the first fill of
 *       either (even partial) cancels the other, exactly once. Ctrl-C, or the process dying, stops
 *       watching and leaves both legs resting: `--resume ID` watches them again (a fill meanwhile is
 *       found and the other leg cancelled then). Without --leverage both legs sign your default for the
 *       market (`perps config leverage`, else 1x), as `order place` does; the review and every output
 *       name it.
 *   order oco --resume ID     watch a pair again after a stop or a crash
 *   order oco --list          this profile's pairs
 *
 * Exit 0 when the pair is done (one leg filled, the other cancelled) or was stopped, 1 when it failed,
 * 2 for input refused (nothing sent).
 */
import type { Command } from 'commander';
import { LEVERAGE_FLAG, leverageChoice, resolveLeverage } from '../orders/leverageFlag.js';
import { listOcos, openOcoRunner, prepareOco, startOco, type OcoRunner } from '../../main/services/algos/oco/index.js';
import { damagedView } from '../damagedRecord.js';
import { ValidationError } from '../../main/services/errors.js';
import type { OcoRecord } from '../../shared/algos/ocoRecord.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, runAction, type Output } from '../output.js';
import { exitFields } from '../orders/reports.js';
import { readExitFills, type ExitFills } from '../../main/services/positions/exitFills.js';
import type { TradingContext } from '../../main/services/orders/orderContext.js';

interface OcoOpts {
  wallet?: string;
  market?: string;
  size?: string;
  buy?: string;
  sell?: string;
  leverage?: string;
  resume?: string;
  list?: boolean;
  dryRun?: boolean;
}

/** The leverage both legs were signed with (pairs written before it was recorded say so). */
function leverageText(r: OcoRecord): string {
  return r.leverage === null ? 'leverage not recorded' : `${r.leverage}x`;
}

/** The winning leg's fill price and realized PnL (an OCO that closes or flips a position realizes some). */
async function ocoExit(ctx: TradingContext, r: OcoRecord): Promise<ExitFills | null> {
  const leg = r.winner === null ? null : r.legs[r.winner];
  if (!leg?.order_id || leg.filled_size === '0') return null;
  return readExitFills(ctx, r.wallet, [leg.order_id], { market: r.market, expectSize: leg.filled_size, attempts: 4 });
}

function ocoFields(r: OcoRecord, exit: ExitFills | null = null): string {
  return formatFields([
    ['oco', r.id],
    ['market', r.market],
    ...r.legs.map((l, i) => [`leg ${i + 1}`, `${l.side} ${l.size} at ${l.price}, ${leverageText(r)}: ${l.status}${l.filled_size !== '0' ? ` (filled ${l.filled_size})` : ''}${l.order_id ? ` [${l.order_id}]` : ''}`] as const),
    ...(exit ? exitFields(exit) : []),
    ['status', r.status === 'working' ? `watching stopped: both legs rest; \`perps order oco --resume ${r.id}\` watches them again` : r.status],
  ]);
}

async function foreground(ctx: TradingContext, out: Output, runner: OcoRunner): Promise<1 | undefined> {
  const stop = (): void => {
    out.note(`stopped watching: the legs keep resting; \`perps order oco --resume ${runner.id}\` watches them again`);
    runner.requestStop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const r = await runner.run();
    const exit = await ocoExit(ctx, r);
    out.result(exit ? { ...r, exit } : r, () => ocoFields(r, exit));
    return r.status === 'failed' ? 1 : undefined;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export function registerOcoCommand(order: Command): void {
  order
    .command('oco')
    .description('one-cancels-the-other: a buy below and a sell above the mark; the first fill cancels the other at once (watched in the foreground)')
    .option('--wallet <address>', "main wallet (its trading key signs)")
    .option('--market <symbol>', 'market symbol')
    .option('--size <decimal>', 'size of each leg')
    .option('--buy <price>', 'the buy leg: a LIMIT GTC below the mark')
    .option('--sell <price>', 'the sell leg: a LIMIT GTC above the mark')
    .option(LEVERAGE_FLAG, "leverage of both legs, 1..max_leverage, or max (the market's max_leverage read from /markets). Default: your default for the market, `perps config leverage`, else 1x; stated in the output")
    .option('--resume <id>', 'watch a pair again after a stop or a crash')
    .option('--list', "this profile's pairs")
    .option('--dry-run', 'check everything and print both legs as they would be signed; send nothing')
    .action(async (opts: OcoOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        if (opts.list === true) {
          const { pairs, damaged } = listOcos(ctx);
          // A damaged pair is listed beside the others with what is wrong: never resumed, never hidden.
          type Row = { ok: true; p: (typeof pairs)[number] } | { ok: false; d: (typeof damaged)[number] };
          const rows: Row[] = [...pairs.map((p) => ({ ok: true as const, p })), ...damaged.map((d) => ({ ok: false as const, d }))];
          out.result({ pairs, damaged: damaged.map(damagedView) }, () => formatTable(rows, [
            { header: 'OCO', value: (r) => (r.ok ? r.p.id : r.d.id) },
            { header: 'MARKET', value: (r) => (r.ok ? r.p.market : (r.d.summary.market ?? '?')) },
            { header: 'LEGS', value: (r) => (r.ok ? r.p.legs.map((l) => `${l.side} ${l.size} @ ${l.price} ${l.status}`).join(' | ') : `(record ${r.d.file})`) },
            { header: 'LEVERAGE', value: (r) => (r.ok ? (r.p.leverage === null ? '-' : `${r.p.leverage}x`) : '-'), align: 'right' },
            { header: 'STATUS', value: (r) => (r.ok ? r.p.status : `damaged: ${r.d.reason}; never resumed`) },
          ], 'no OCO pairs'));
          return undefined;
        }
        if (opts.resume !== undefined) {
          const runner = openOcoRunner(ctx, opts.resume, { onEvent: (t) => out.note(t) });
          return foreground(ctx, out, runner);
        }
        for (const [flag, v] of [['wallet', opts.wallet], ['market', opts.market], ['size', opts.size], ['buy', opts.buy], ['sell', opts.sell]] as const) {
          if (v === undefined) throw new ValidationError(`--${flag} is required (or --resume ID, or --list)`, { field: flag });
        }
        const lev = await resolveLeverage(ctx, opts.market!, leverageChoice(opts.leverage));
        const leverage = lev.leverage;
        if (lev.note) out.note(lev.note);
        const prepared = await prepareOco(ctx, { wallet: opts.wallet!, market: opts.market!, size: opts.size!, buy: opts.buy!, sell: opts.sell!, ...(leverage !== undefined ? { leverage } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        for (const line of prepared.view.summary) out.note(line);
        const runner = await startOco(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onEvent: (t) => out.note(t) });
        out.note(`OCO ${runner.id}: watching both legs; Ctrl-C stops watching and leaves them resting`);
        return foreground(ctx, out, runner);
      });
    });
}
