/**
 * `perps position close|close-all|reverse|tpsl`: acting on open positions, signed by the wallet's trading key.
 *
 *   position close --wallet ADDR --market SYM [--percent P | --size S] [--price LIMIT] [--slippage-bps N]
 *       The spec's exit (lifecycle rule 4): cancel every armed trigger on the market, wait until
 *       position-triggers shows none, then one reduce-only leg opposite the position sized from
 *       `closeable`: all of it, a percentage of it or a size (rounded down to sz_decimals). --price makes
 *       it a reduce-only LIMIT GTC at that price, which rests: the command ends once it rests (or fills).
 *       A market close is followed until filled and until /positions reflects it. A limit price far past
 *       the mark needs --allow-far-price.
 *   position close-all --wallet ADDR [--yes]   every open position, each closed at market as above; on a
 *       terminal it lists them and asks first (--yes skips the question).
 *   position reverse --wallet ADDR --market SYM [--size DEC]   rule 5, exit then enter the other way.
 *   position trail ...   a trailing stop kept trailing in the foreground (positionTrail.ts)
 *   position tpsl --wallet ADDR --market SYM [--tp PRICE|none] [--sl PRICE|none]
 *       Sets, moves or removes the position's whole-position take-profit and stop-loss (levels checked
 *       against the current mark: a long's TP above it and SL below; a short's the other way).
 *
 * Each is prepared first (every Cancel, Modify and Order with its typed data; --dry-run prints them and
 * sends nothing), then submitted. Exit 0 when it did what was asked, 1 when it was attempted and failed,
 * 2 when the input was refused (nothing sent).
 */
import type { Command } from 'commander';
import { LEVERAGE_FLAG, leverageChoice, resolveLeverage } from '../orders/leverageFlag.js';
import { ValidationError } from '../../main/services/errors.js';
import { isFilled, type GuardAllowance } from '../../main/services/orders/index.js';
import type { TradingContext } from '../../main/services/orders/orderContext.js';
import { Decimal, canonical } from '../../shared/decimal/index.js';
import {
  prepareClose,
  prepareCloseAll,
  readExitFills,
  type ExitFills,
  preparePositionTpsl,
  prepareReverse,
  submitClose,
  submitCloseAll,
  submitPositionTpsl,
  submitReverse,
  type CloseAllResult,
  type ClosePositionResult,
  type PositionTpslResult,
  type PreparedClose,
} from '../../main/services/positions/index.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, runAction, type Output } from '../output.js';
import { exitFields } from '../orders/reports.js';
import { durationFlag, parseIntegerOption, timeoutOf } from '../parse.js';
import { createProgress } from '../progress.js';
import { askYesNo, atTerminal } from '../prompt.js';
import { registerTrailCommand } from './positionTrail.js';

const DRY_RUN_HELP = 'check everything and print what would be signed (the cancels, the closing order, their typed data); sign and send nothing';

/** A close's order ids whose fills say what it did: none for a limit close that rests unfilled. */
function closeOrderIds(r: ClosePositionResult): string[] {
  return r.order.order_id && r.order.final && isFilled(r.order.final) ? [r.order.order_id] : [];
}

/** The exit's fill price and realized PnL, from trade-history (exitFills.ts). */
export async function exitOf(ctx: TradingContext, r: ClosePositionResult): Promise<ExitFills> {
  return readExitFills(ctx, r.wallet, closeOrderIds(r), { market: r.market, expectSize: r.order.final?.filled_size ?? null });
}

function closeFields(r: ClosePositionResult, exit?: ExitFills): (readonly [string, string])[] {
  const leg = r.order.leg;
  return [
    ['market', r.market],
    ['position before', `${r.position_before.size} @ ${r.position_before.entry_price}`],
    ['triggers cancelled', r.cancelled_triggers.length === 0 ? 'none' : r.cancelled_triggers.map((c) => c.order_id).join(', ')],
    ['closing order', `${r.order.order_id ?? '-'} ${leg.order_type === 'LIMIT' ? 'LIMIT GTC' : 'MARKET'} ${leg.side} ${leg.size} (${leg.order_type === 'LIMIT' ? 'at' : 'bound'} ${leg.limit_price}): ${r.order.final?.status ?? r.order.status}`],
    ...(exit && exit.avg_fill_price !== null ? exitFields(exit) : [...(r.order.final?.avg_fill_price ? ([['fill price', r.order.final.avg_fill_price]] as const) : []), ...(exit ? exitFields(exit) : [])]),
    ['position after', r.resting ? `${r.position_after?.size ?? '?'} (the limit close rests; it closes as it fills)` : r.position_after ? `${r.position_after.size} @ ${r.position_after.entry_price}` : 'closed'],
  ];
}

/** A note on stderr for each guard a person let through with an --allow-* flag (the review lists them too). */
function noteConfirmations(out: Output, confirmations: readonly { code: string; message: string }[]): void {
  for (const c of confirmations) out.note(`confirmed by flag [${c.code}]: ${c.message}`);
}

/** Says which triggers a close cancels before it goes: once they are gone, the position has no TP/SL. */
export function noteClosePlan(out: Output, prepared: PreparedClose): void {
  // The levels the close lifts, and that they come back on what remains (the summary's last line says it).
  if (prepared.view.rearm) out.note(`note: ${prepared.view.summary[prepared.view.summary.length - 1]}`);
  for (const w of prepared.view.warnings) out.note(`note: ${w}`);
  noteConfirmations(out, prepared.view.confirmations);
}

export function registerPositionCommands(program: Command): void {
  const position = program.command('position').description('act on positions: close (all, part, at a limit), close all, reverse, TP/SL, trailing stop');

  position
    .command('close')
    .description('close a position, all or part of it, at market or at a limit: its armed triggers are cancelled first, then one reduce-only order')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol')
    .option('--percent <p>', 'close this percentage (1 to 100) of what is closeable, rounded down to the size step')
    .option('--size <decimal>', 'close this size (rounded down to sz_decimals; at most what is closeable)')
    .option('--price <decimal>', 'a limit close: a reduce-only LIMIT GTC at this price (it rests; the command ends once it rests)')
    .option('--slippage-bps <n>', "tolerance of a market close's bound, default the market's slippage_bps")
    .option('--allow-far-price', "send a limit price that crosses the mark by more than the market's slippage bound")
    .option('--timeout <duration>', 'give up waiting after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', DRY_RUN_HELP)
    .action(
      async (
        opts: { wallet: string; market: string; percent?: string; size?: string; price?: string; slippageBps?: string; allowFarPrice?: boolean; timeout?: string; dryRun?: boolean },
        cmd: Command,
      ) => {
        const g = globalsOf(cmd);
        const json = g.json === true;
        await runAction({ json }, async (out) => {
          if (opts.percent !== undefined && opts.size !== undefined) throw new ValidationError('give --percent or --size, not both', { field: 'percent', code: 'USAGE' });
          if (opts.price !== undefined && opts.slippageBps !== undefined) throw new ValidationError('--slippage-bps bounds a market close; a limit close (--price) has its own price', { field: 'slippage-bps', code: 'USAGE' });
          const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
          const timeoutMs = timeoutOf(opts.timeout);
          const ctx = contextOf(g);
          const prepared = await prepareClose(ctx, {
            wallet: opts.wallet,
            market: opts.market,
            ...(slippageBps !== undefined ? { slippageBps } : {}),
            ...(opts.percent !== undefined ? { percent: opts.percent } : {}),
            ...(opts.size !== undefined ? { size: opts.size } : {}),
            ...(opts.price !== undefined ? { price: opts.price } : {}),
            allow: { farPrice: opts.allowFarPrice === true },
          });
          if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
          noteClosePlan(out, prepared);
          const progress = createProgress({ json });
          try {
            const r = await submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
            progress.done();
            return await reportClose(ctx, out, r, prepared);
          } finally {
            progress.done();
          }
        });
      },
    );

  position
    .command('close-all')
    .description('close every open position at market (each: its armed triggers cancelled first, then one reduce-only market order)')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--slippage-bps <n>', "tolerance of every closing order's bound, default each market's slippage_bps")
    .option('--timeout <duration>', 'give up waiting after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--yes', 'close without asking (on a terminal close-all shows what it closes and asks first)')
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; slippageBps?: string; timeout?: string; dryRun?: boolean; yes?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareCloseAll(ctx, { wallet: opts.wallet, ...(slippageBps !== undefined ? { slippageBps } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        // Every position at market in one word is the one command a slip makes costly: a person at the
        // terminal reads what it closes and says yes first, as `perps do "close all"` needs --yes.
        if (opts.yes !== true && !json && atTerminal() && prepared.closes.length > 0) {
          for (const line of prepared.view.summary) out.note(line);
          if (!(await askYesNo(`Close ${prepared.closes.length === 1 ? 'this position' : `these ${prepared.closes.length} positions`} at market?`, false))) {
            throw new ValidationError('not confirmed: nothing was cancelled or closed', { field: 'yes', code: 'CANCELLED', hint: 'Answer y to close, or pass --yes to close without asking.' });
          }
        }
        const progress = createProgress({ json });
        try {
          const r = await submitCloseAll(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          return await reportCloseAll(ctx, out, r);
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
    .option(LEVERAGE_FLAG, "leverage of the new entry, 1..max_leverage, or max (the market's max_leverage read from /markets). Default: your default for the market, `perps config leverage`, else 1x")
    .option('--slippage-bps <n>', "tolerance of both market orders' bounds")
    .option('--allow-large', 'send a new entry whose notional is above your cap (`perps config max-notional`)')
    .option('--timeout <duration>', 'give up waiting after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; market: string; size?: string; leverage?: string; slippageBps?: string; allowLarge?: boolean; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
        const choice = leverageChoice(opts.leverage);
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const lev = await resolveLeverage(ctx, opts.market, choice);
        const leverage = lev.leverage;
        if (lev.note) out.note(lev.note);
        const prepared = await prepareReverse(ctx, {
          wallet: opts.wallet,
          market: opts.market,
          ...(opts.size !== undefined ? { size: opts.size } : {}),
          ...(leverage !== undefined ? { leverage } : {}),
          ...(slippageBps !== undefined ? { slippageBps } : {}),
          allow: { large: opts.allowLarge === true } satisfies GuardAllowance,
        });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        out.note(`the new ${opts.market} position is entered with leverage ${prepared.entry.legs[0]!.leverage}x${leverage === undefined ? ' (your default)' : choice.max ? " (the market's maximum, --leverage max)" : ''}`);
        noteConfirmations(out, prepared.entry.view.confirmations);
        const progress = createProgress({ json });
        try {
          const r = await submitReverse(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          const exit = await exitOf(ctx, r.close);
          out.result({ ...r, exit }, () => formatFields([...closeFields(r.close, exit), ['new position', `${r.position_after.size} @ ${r.position_after.entry_price}`]]));
          return undefined;
        } finally {
          progress.done();
        }
      });
    });

  registerTrailCommand(position);

  position
    .command('tpsl')
    .description("set, move or remove a position's take-profit and stop-loss (whole-position triggers, checked against the current mark)")
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol')
    .option('--tp <price|none>', "take-profit trigger price (a long's above the mark, a short's below); none removes it")
    .option('--sl <price|none>', "stop-loss trigger price (a long's below the mark, a short's above); none removes it")
    .option('--slippage-bps <n>', "tolerance of the fire price around the trigger price, default your default, else the market's slippage_bps")
    .option('--timeout <duration>', 'give up waiting after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', 'check everything and print what would be signed (the cancels, modifies and orders, their typed data); sign and send nothing')
    .action(async (opts: { wallet: string; market: string; tp?: string; sl?: string; slippageBps?: string; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const slippageBps = parseIntegerOption(opts.slippageBps, 'slippage-bps');
        const timeoutMs = timeoutOf(opts.timeout);
        const level = (v: string | undefined): string | null | undefined => (v === undefined ? undefined : v.toLowerCase() === 'none' ? null : v);
        const tp = level(opts.tp);
        const sl = level(opts.sl);
        const ctx = contextOf(g);
        const prepared = await preparePositionTpsl(ctx, {
          wallet: opts.wallet,
          market: opts.market,
          ...(tp !== undefined ? { tp } : {}),
          ...(sl !== undefined ? { sl } : {}),
          ...(slippageBps !== undefined ? { slippageBps } : {}),
        });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        for (const w of prepared.view.warnings) out.note(`note: ${w}`);
        const progress = createProgress({ json });
        try {
          const r = await submitPositionTpsl(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: true, onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          out.result(r, () => tpslTable(r));
          for (const c of r.changes.filter((x) => x.status !== 'done')) out.note(`error [${c.reason ?? c.status.toUpperCase()}]: ${c.summary}: ${c.status}`);
          if (!r.ok) out.note(r.changes.some((c) => c.status === 'dropped') ? 'hint: a dropped move leaves the original level armed (it fired, or the open-order cap no longer allowed the swap).' : 'hint: check `perps orders triggers --wallet ADDR` before trying again.');
          return r.ok ? undefined : 1;
        } finally {
          progress.done();
        }
      });
    });
}

/** Prints a close's outcome with its fill price and realized PnL; exit 1 when a close of the whole position left some of it open. */
export async function reportClose(ctx: TradingContext, out: Output, r: ClosePositionResult, prepared: PreparedClose): Promise<1 | undefined> {
  const exit = await exitOf(ctx, r);
  out.result({ ...r, exit }, () => formatFields(closeFields(r, exit)));
  // What became of the lifted TP/SL: re-armed, kept, or (a level the mark has passed) the trader's choice.
  for (const line of r.rearm?.summary ?? []) out.note(r.rearm!.past_mark.length > 0 || r.rearm!.failed.length > 0 ? `warning: ${line}` : line);
  for (const p of r.rearm?.past_mark ?? []) {
    out.note(`  close the rest: perps position close --wallet ${r.wallet} --market ${r.market}`);
    out.note(`  or set a new level: perps position tpsl --wallet ${r.wallet} --market ${r.market} --${p.kind} PRICE`);
  }
  // Only a close of all that was closeable is expected to leave nothing: a part, or a resting
  // limit, leaves the rest open by design.
  if (!r.closed && !r.resting && prepared.whole) {
    out.note(`error [NOT_FULLY_CLOSED]: ${r.position_after?.size ?? '?'} ${r.market} is still open (only the closeable part was closed)`);
    out.note('hint: resting reduce-only orders reserve part of a position; cancel them and close again.');
    return 1;
  }
  return undefined;
}

/** Prints every market's outcome of a close-all with its fill price and realized PnL; exit 1 when one was not closed. */
export async function reportCloseAll(ctx: TradingContext, out: Output, r: CloseAllResult): Promise<1 | undefined> {
  const exits = new Map<string, ExitFills>();
  for (const x of r.results) if (x.result) exits.set(x.market, await exitOf(ctx, x.result));
  const results = r.results.map((x) => ({ ...x, ...(exits.has(x.market) ? { exit: exits.get(x.market)! } : {}) }));
  const total = [...exits.values()].reduce((a, e) => (e.realized_pnl === null ? a : a.plus(e.realized_pnl)), new Decimal(0));
  const realized = [...exits.values()].some((e) => e.realized_pnl !== null) ? canonical(total) : null;
  out.result({ ...r, results, realized_pnl: realized }, () => closeAllTable(r, exits) + (realized !== null ? `\n\nrealized PnL: ${realized} USDC in total` : ''));
  const failed = r.results.filter((x) => x.outcome !== 'closed');
  for (const f of failed) {
    if (f.error) out.note(`error [${f.error.code}]: ${f.market}: ${f.error.message}${f.error.cancelled_triggers.length > 0 ? ` (its triggers ${f.error.cancelled_triggers.join(', ')} were cancelled)` : ''}`);
    else out.note(`error [NOT_FULLY_CLOSED]: ${f.market}: ${f.result?.position_after?.size ?? '?'} is still open (resting reduce-only orders reserve it)`);
  }
  for (const s of r.skipped) out.note(`error [${s.code}]: ${s.market} was not closed: ${s.message}`);
  return failed.length > 0 || r.skipped.length > 0 ? 1 : undefined;
}

function closeAllTable(r: CloseAllResult, exits: ReadonlyMap<string, ExitFills>): string {
  const rows = [
    ...r.results.map((x) => ({
      market: x.market,
      outcome: x.outcome,
      cancelled: x.result ? x.result.cancelled_triggers.map((c) => c.order_id).join(', ') : (x.error?.cancelled_triggers.join(', ') ?? ''),
      order: x.result ? `${x.result.order.order_id ?? '-'} ${x.result.order.leg.side} ${x.result.order.leg.size}` : '',
      after: x.result ? (x.result.position_after ? x.result.position_after.size : 'closed') : '',
      fill: exits.get(x.market)?.avg_fill_price ?? '',
      pnl: exits.get(x.market)?.realized_pnl ?? '',
      note: x.error ? `${x.error.code}: ${x.error.message}` : '',
    })),
    ...r.skipped.map((s) => ({ market: s.market, outcome: 'skipped', cancelled: '', order: '', after: '', fill: '', pnl: '', note: `${s.code}: ${s.message}` })),
  ];
  return formatTable(
    rows,
    [
      { header: 'MARKET', value: (x) => x.market },
      { header: 'OUTCOME', value: (x) => x.outcome },
      { header: 'TRIGGERS CANCELLED', value: (x) => x.cancelled || '-' },
      { header: 'CLOSING ORDER', value: (x) => x.order },
      { header: 'AFTER', value: (x) => x.after, align: 'right' },
      { header: 'FILL PRICE', value: (x) => x.fill, align: 'right' },
      { header: 'REALIZED PNL', value: (x) => x.pnl, align: 'right' },
      { header: 'NOTE', value: (x) => x.note },
    ],
    'no open positions',
  );
}

function tpslTable(r: PositionTpslResult): string {
  return formatTable(r.changes, [
    { header: 'LEVEL', value: (c) => c.kind.toUpperCase() },
    { header: 'CHANGE', value: (c) => c.summary },
    { header: 'ORDER', value: (c) => c.new_order_id ?? c.order_id ?? '-' },
    { header: 'STATUS', value: (c) => `${c.status}${c.reason ? ` (${c.reason})` : ''}` },
  ]);
}
