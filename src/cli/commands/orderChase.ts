/**
 * `perps order chase`: a post-only limit that rests at the best bid (buy) or ask (sell) and follows it
 * by Modify until it fills, run in the foreground (like `twap start`).
 *
 *   order chase --wallet ADDR --market SYM --side buy|sell --size S | --usd N [--offset-ticks N]
 *               [--max-distance 0.5%|PRICE] [--timeout 5m] [--interval 1s] [--taker-after DURATION]
 *               [--on-limit leave|cancel] [--leverage N|max] [--dry-run]
 *       Rests post-only (ALO) at the best bid/ask, or N whole ticks inside the spread, never crossing.
 *       When the venue's book moves away it follows, by whole ticks, at most once per --interval
 *       (default 1s). A partial fill keeps chasing what is left; a post-only rejection re-prices at
 *       once. It stops when it fills, when the best price is --max-distance from where it started, or
 *       when --timeout passes (then the order is left or cancelled, --on-limit, default leave). After
 *       --taker-after it cancels the resting order and crosses: an IOC limit for the remainder within
 *       the market's slippage_bps of the mark. Ctrl-C (or the process dying) stops chasing and
 *       leaves the order resting: `--resume ID` chases again.
 *   order chase --resume ID     chase again after a stop or a crash
 *   order chase --list          this profile's chases
 *
 * Exit 0 when the chase ended (filled, at a limit) or was stopped, 1 when it failed or a send was
 * refused, 2 for input refused (nothing sent).
 */
import type { Command } from 'commander';
import { parseChaseFlags } from '../../shared/algos/chase/chaseFlags.js';
import { durationFlag } from '../parse.js';
import { chaseFilled, type ChaseRecord } from '../../shared/algos/chase/chaseRecord.js';
import { OperationError, ValidationError } from '../../main/services/errors.js';
import { listChases, openChaseRunner, prepareChase, startChase, venueChaseBooks, type ChaseRunner } from '../../main/services/algos/chase/index.js';
import { loggingVenueSocketPool } from '../../main/venue/venueSocketPool.js';
import type { TradingContext } from '../../main/services/orders/orderContext.js';
import { damagedView } from '../damagedRecord.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { LEVERAGE_FLAG, leverageChoice, resolveLeverage } from '../orders/leverageFlag.js';
import { formatFields, formatTable, runAction, type Output } from '../output.js';

interface ChaseOpts {
  wallet?: string;
  market?: string;
  side?: string;
  size?: string;
  usd?: string;
  offsetTicks?: string;
  maxDistance?: string;
  timeout?: string;
  interval?: string;
  takerAfter?: string;
  onLimit?: string;
  leverage?: string;
  resume?: string;
  list?: boolean;
  dryRun?: boolean;
}

function chaseFields(r: ChaseRecord): string {
  const o = r.order;
  return formatFields([
    ['chase', r.id],
    ['market', r.market],
    ['side', `${r.side} ${r.size}`],
    ['filled', `${chaseFilled(r).toFixed()} of ${r.size}`],
    ['order', o ? `${o.kind === 'post' ? 'post-only' : 'IOC'} at ${o.price} (${o.size})${o.order_id ? ` [${o.order_id}]` : ''}` : 'none'],
    ['moves', String(r.moves)],
    ['status', r.status === 'working' ? `stopped chasing: \`perps order chase --resume ${r.id}\` chases again` : `done: ${r.end_reason}`],
  ]);
}

async function foreground(ctx: TradingContext, out: Output, runner: ChaseRunner): Promise<1 | undefined> {
  const stop = (): void => {
    out.note(`stopping: the order keeps resting; \`perps order chase --resume ${runner.id}\` chases again`);
    runner.requestStop('interrupt');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const r = await runner.run();
    out.result(r, () => chaseFields(r));
    return r.status === 'done' && (r.end_reason === 'refused' || r.end_reason === 'order_gone') ? 1 : undefined;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export function registerChaseCommand(order: Command): void {
  order
    .command('chase')
    .description('a post-only limit that rests at the best bid (buy) or ask (sell) and follows it by Modify until it fills (run in the foreground)')
    .option('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--market <symbol>', 'market symbol')
    .option('--side <side>', 'buy or sell')
    .option('--size <decimal>', 'size to fill')
    .option('--usd <decimal>', 'instead of --size: a notional in USDC, turned into a size at the first price (down to sz_decimals; the review says so)')
    .option('--offset-ticks <n>', 'rest this many whole ticks inside the spread (never crossing). Default 0: at the best bid/ask')
    .option('--max-distance <pct|price>', 'stop when the best price is this far from where it started: a percent (0.5%) or a price distance (25)')
    .option('--timeout <duration>', 'stop after this long, a duration such as 30s, 5m or 1h', durationFlag('timeout'))
    .option('--interval <duration>', 'follow at most once per this span, a duration such as 1s or 5s (default 1s)', durationFlag('interval'))
    .option('--taker-after <duration>', 'after this long, a duration such as 2m, cancel the resting order and cross: an IOC limit for the remainder within the market slippage bound', durationFlag('taker-after'))
    .option('--on-limit <leave|cancel>', 'at --max-distance or --timeout: leave the order resting (default) or cancel it')
    .option(LEVERAGE_FLAG, "leverage, 1..max_leverage, or max. Default: your default for the market, `perps config leverage`, else 1x; stated in the output")
    .option('--resume <id>', 'chase again after a stop or a crash')
    .option('--list', "this profile's chases")
    .option('--dry-run', 'check everything and print the first order as it would be signed; send nothing')
    .action(async (opts: ChaseOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        if (opts.list === true) {
          const { chases, damaged } = listChases(ctx);
          type Row = { ok: true; c: ChaseRecord } | { ok: false; d: (typeof damaged)[number] };
          const rows: Row[] = [...chases.map((c) => ({ ok: true as const, c })), ...damaged.map((d) => ({ ok: false as const, d }))];
          out.result({ chases, damaged: damaged.map(damagedView) }, () =>
            formatTable(
              rows,
              [
                { header: 'CHASE', value: (r) => (r.ok ? r.c.id : r.d.id) },
                { header: 'MARKET', value: (r) => (r.ok ? r.c.market : (r.d.summary.market ?? '?')) },
                { header: 'SIDE', value: (r) => (r.ok ? `${r.c.side} ${r.c.size}` : '-') },
                { header: 'FILLED', value: (r) => (r.ok ? chaseFilled(r.c).toFixed() : '-'), align: 'right' },
                { header: 'ORDER', value: (r) => (r.ok ? (r.c.order ? `${r.c.order.price}${r.c.order.order_id ? ` [${r.c.order.order_id}]` : ''}` : '-') : `(record ${r.d.file})`) },
                { header: 'STATUS', value: (r) => (r.ok ? (r.c.status === 'working' ? 'working' : `done: ${r.c.end_reason}`) : `damaged: ${r.d.reason}; never resumed`) },
              ],
              'no chases',
            ),
          );
          return undefined;
        }
        const url = ctx.profile.venueWsUrl;
        const pool = loggingVenueSocketPool({ warn: (m) => out.note(m) });
        const books = (): ReturnType<typeof venueChaseBooks> => {
          if (!url) throw new OperationError('CHASE_NO_BOOK_STREAM', `profile '${ctx.profile.name}' has no venue WebSocket URL: a chase follows the venue's book stream`, { hint: 'Set it with --venue-ws-url or `perps config`.' });
          return venueChaseBooks(pool.lease(url), (err) => out.note(`warning: the venue's book stream: ${err.message}`));
        };
        const onEvent = (t: string): void => out.note(t);
        try {
          if (opts.resume !== undefined) return await foreground(ctx, out, openChaseRunner(ctx, opts.resume, { books: books(), onEvent }));
          for (const [flag, v] of [['wallet', opts.wallet], ['market', opts.market], ['side', opts.side]] as const) {
            if (v === undefined) throw new ValidationError(`--${flag} is required (or --resume ID, or --list)`, { field: flag });
          }
          if ((opts.size === undefined) === (opts.usd === undefined)) throw new ValidationError('give --size or --usd (one of them)', { field: 'size' });
          const settings = parseChaseFlags({
            ...(opts.offsetTicks !== undefined ? { offsetTicks: opts.offsetTicks } : {}),
            ...(opts.maxDistance !== undefined ? { maxDistance: opts.maxDistance } : {}),
            ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
            ...(opts.interval !== undefined ? { interval: opts.interval } : {}),
            ...(opts.takerAfter !== undefined ? { takerAfter: opts.takerAfter } : {}),
            ...(opts.onLimit !== undefined ? { onLimit: opts.onLimit } : {}),
          });
          const lev = await resolveLeverage(ctx, opts.market!, leverageChoice(opts.leverage));
          if (lev.note) out.note(lev.note);
          const prepared = await prepareChase(ctx, {
            wallet: opts.wallet!,
            market: opts.market!,
            side: opts.side!,
            ...(opts.size !== undefined ? { size: opts.size } : {}),
            ...(opts.usd !== undefined ? { usd: opts.usd } : {}),
            settings,
            ...(lev.leverage !== undefined ? { leverage: lev.leverage } : {}),
          });
          if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
          for (const line of prepared.view.summary) out.note(line);
          const runner = await startChase(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { books: books(), onEvent });
          out.note(`chase ${runner.id}: following the best ${prepared.side === 'BUY' ? 'bid' : 'ask'}; Ctrl-C stops chasing and leaves the order resting`);
          return await foreground(ctx, out, runner);
        } finally {
          await pool.close();
        }
      });
    });
}
