/**
 * `perps twap start|list|status|pause|resume|cancel`: TWAPs run by the same scheduler as the app's
 * (src/main/services/algos/twap).
 *
 *   twap start --wallet ADDR --market SYM --side buy|sell (--total-size DEC | --usd AMOUNT) --duration D --slices N
 *              [--randomize-time PCT] [--randomize-size PCT] [--reduce-only] [--slippage-bps N]
 *              [--leverage N|max] [--allow-large] [--dry-run]
 *       D is a span such as 90s, 10m, 1h30m, 1d (src/shared/duration/duration.ts). Runs in the foreground and prints each slice;
 *       Ctrl-C pauses it (after the slice being sent, if any) and says how to resume; a second Ctrl-C
 *       leaves at once (it is then resumable as interrupted: nothing is lost, nothing is sent twice).
 *   twap list [--wallet ADDR]          this profile's TWAPs in this data folder (damaged ones beside them)
 *   twap status ID                     progress, each slice, and what needs deciding (or what is damaged)
 *   twap pause ID                      asks the process running it (or marks it paused)
 *   twap resume ID                     runs a paused or interrupted TWAP in the foreground
 *   twap cancel ID                     stops it for good (an interrupted one without resuming it)
 *
 * Exit codes: 0 when the run ended as asked (completed, paused, cancelled), 1 when a slice was rejected
 * for a reason that will not change (the output names it) or the TWAP could not run, 2 for bad input.
 * A TWAP whose record is damaged (it fails its whole-record check) is listed with status `damaged` and
 * the reason; resume, pause and cancel refuse it (TWAP_RECORD_DAMAGED, exit 2) and send nothing.
 */
import type { Command } from 'commander';
import { LEVERAGE_FLAG, leverageChoice, resolveLeverage } from '../orders/leverageFlag.js';
import { Decimal, canonical } from '../../shared/decimal/index.js';
import type { DamagedTwapView, TwapView } from '../../shared/ipc/twap.js';
import { noteText } from '../../shared/algos/algoNotes.js';
import {
  cancelTwap,
  damagedTwapView,
  liveRunner,
  openTwapRunner,
  pauseTwap,
  prepareTwap,
  startTwap,
  twapStoreOf,
  twapView,
  type TwapRecord,
  type TwapRunner,
} from '../../main/services/algos/twap/index.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, formatTime, runAction, type Output } from '../output.js';
import { durationFlag, parseDecimalOption, parseDurationOption, parseIntegerOption } from '../parse.js';
import { checkSizeOrUsd, resolveUsd, type ResolvedUsd } from '../orders/usdSize.js';

interface StartOpts {
  wallet: string;
  market: string;
  side: string;
  totalSize?: string;
  usd?: string;
  duration: string;
  slices: string;
  randomizeTime?: string;
  randomizeSize?: string;
  reduceOnly?: boolean;
  slippageBps?: string;
  leverage?: string;
  allowLarge?: boolean;
  dryRun?: boolean;
}

function clock(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().slice(11, 19) + 'Z';
}

function progressLine(v: TwapView): string {
  const avg = v.avg_fill_price ? `avg ${v.avg_fill_price} (arrival ${v.arrival_mark}, ${new Decimal(v.slippage_vs_arrival_bps!).gte(0) ? '+' : ''}${v.slippage_vs_arrival_bps} bps)` : `arrival ${v.arrival_mark}`;
  return `${v.filled_size} of ${v.total_size} filled, ${avg}${v.next_slice_at ? `; next slice ${clock(v.next_slice_at)}` : ''}`;
}

/**
 * How many of `now` were already in `before`: notes are only appended (the oldest dropped past a cap), so
 * the longest start of `now` that ends `before` is what was seen.
 */
function notesSeen(before: readonly string[], now: readonly string[]): number {
  for (let j = Math.min(before.length, now.length); j > 0; j--) {
    if (now.slice(0, j).every((n, k) => n === before[before.length - j + k])) return j;
  }
  return 0;
}

/** Prints what changed between two states of the TWAP: each slice's outcome, and the TWAP's own notes. */
export function reporter(out: Output): (r: TwapRecord) => void {
  let prev: TwapRecord | null = null;
  return (r) => {
    const v = twapView(r, { pid: process.pid, hostname: '', since: 0, token: '' });
    for (const s of r.slices) {
      const before = prev?.slices[s.index]?.status;
      if (before === s.status) continue;
      const label = `slice ${s.index + 1}/${r.slices.length}`;
      if (s.status === 'filled' || s.status === 'partial') out.note(`${label} ${s.status} ${s.filled_size} @ ${s.avg_fill_price ?? '-'} | ${progressLine(v)}`);
      else if (s.status === 'sending') out.note(`${label}: ${r.side} ${s.sent_size} ${r.market} at market, bound ${s.limit_price}`);
    }
    // Said as it happens, like the slice lines above: the stamp is for `twap status`, which shows the history.
    for (const n of r.notes.slice(notesSeen(prev?.notes ?? [], r.notes))) out.note(noteText(n));
    prev = r;
  };
}

function humanDamaged(d: DamagedTwapView): string {
  return formatFields([
    ['twap', d.id],
    ['market', d.market !== null ? `${d.side ?? '?'} ${d.total_size ?? '?'} ${d.market} (as the damaged record says)` : '- (unreadable)'],
    ['status', 'damaged: never run, resumed, paused or cancelled; nothing is sent for it'],
    ['damage', d.damage],
    ['changed', formatTime(d.updated_at)],
  ]);
}

function humanView(v: TwapView): string {
  const decision =
    v.status === 'interrupted'
      ? `interrupted: resume it with \`perps twap resume ${v.id}\`, or stop it with \`perps twap cancel ${v.id}\``
      : v.status === 'paused'
        ? `paused: resume it with \`perps twap resume ${v.id}\`, or \`perps twap cancel ${v.id}\``
        : null;
  const head = formatFields([
    ['twap', v.id],
    ['market', `${v.side} ${v.total_size} ${v.market}${v.reduce_only ? ' (reduce-only)' : ''}`],
    ['status', `${v.status}${v.requested ? ` (${v.requested} requested)` : ''}${v.runner ? ` in process ${v.runner.pid}` : ''}`],
    ['filled', `${v.filled_size} of ${v.total_size} (remaining ${v.remaining_size})`],
    ['avg price', v.avg_fill_price ? `${v.avg_fill_price} vs arrival ${v.arrival_mark}: ${v.slippage_vs_arrival_bps} bps (positive is worse)` : `- (arrival ${v.arrival_mark})`],
    ['slices', `${v.slices_total} every ${v.interval_ms / 1000} s; ${v.slices_sent} sent, ${v.slices_missed} missed`],
    ['next slice', formatTime(v.next_slice_at)],
    ...(v.stop_detail ? ([['stopped', `${v.stop_reason}: ${v.stop_detail}`]] as const) : []),
    ...(decision ? ([['decide', decision]] as const) : []),
  ]);
  const table = formatTable(v.slices, [
    { header: '#', value: (s) => String(s.index + 1), align: 'right' },
    { header: 'DUE', value: (s) => clock(s.due_at) },
    { header: 'SIZE', value: (s) => s.sent_size ?? s.size, align: 'right' },
    { header: 'STATUS', value: (s) => s.status },
    { header: 'FILLED', value: (s) => s.filled_size, align: 'right' },
    { header: 'PRICE', value: (s) => s.avg_fill_price ?? '', align: 'right' },
    { header: 'ORDER', value: (s) => s.order_id ?? '' },
    { header: 'REASON', value: (s) => s.reason ?? '' },
  ]);
  return `${head}\n\n${table}${v.notes.length > 0 ? `\n\n${v.notes.slice(-10).join('\n')}` : ''}`;
}

/** Runs a TWAP in the foreground: Ctrl-C pauses it, a second Ctrl-C leaves at once (it stays resumable). */
export async function foreground(out: Output, runner: TwapRunner): Promise<1 | undefined> {
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts === 1) {
      out.note(`pausing TWAP ${runner.id} (after the slice being sent, if any); Ctrl-C again to leave at once`);
      runner.requestStop('pause');
      return;
    }
    // Every slice is written before it is sent: leaving now loses nothing and sends nothing twice.
    out.note(`left without pausing: TWAP ${runner.id} is interrupted; \`perps twap resume ${runner.id}\` settles and continues it`);
    process.exit(130);
  };
  const onSigterm = (): void => runner.requestStop('interrupt');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  try {
    const r = await runner.run();
    const v = twapView(r, liveRunner(runner.store.dir, r.id));
    out.result(v, () => humanView(v));
    if (v.status === 'paused') out.note(`paused: resume it with \`perps twap resume ${v.id}\` (slices due meanwhile are missed, not sent late)`);
    if (v.status === 'interrupted') out.note(`interrupted: resume it with \`perps twap resume ${v.id}\``);
    if (r.status === 'failed') {
      out.note(`error [TWAP_STOPPED]: ${r.stop_detail}`);
      return 1;
    }
    return undefined;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }
}

/** Waits (briefly) for the process running a TWAP to act on a pause or cancel asked of it. */
async function acknowledged(ctx: ServiceContext, id: string, done: (r: TwapRecord) => boolean, timeoutMs = 10_000): Promise<TwapRecord> {
  const store = twapStoreOf(ctx);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = store.require(id, ctx.profile.name);
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function registerTwapCommands(program: Command): void {
  const twap = program.command('twap').description('TWAP: a total size sent as market slices over a duration (runs in the foreground; Ctrl-C pauses)');

  twap
    .command('start')
    .description('prepare and run a TWAP in the foreground, printing each slice')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs every slice)')
    .requiredOption('--market <symbol>', 'market symbol, e.g. ETH')
    .requiredOption('--side <side>', 'buy or sell')
    .option('--total-size <decimal>', 'the total to execute, at most sz_decimals places (or --usd)')
    .option('--usd <amount>', 'the total in USD instead: the amount over the mark now, rounded down to sz_decimals (slices then follow the size)')
    .requiredOption('--duration <duration>', 'how long the TWAP runs: a duration such as 90s, 10m, 1h30m or 1d (units largest first; after the first, h < 24, m and s < 60)', durationFlag('duration'))
    .requiredOption('--slices <n>', 'number of market slices, at least 2, at least 5 s apart')
    .option('--randomize-time <pct>', 'move each slice by up to this percentage of the interval (0..40)')
    .option('--randomize-size <pct>', 'vary each slice by up to this percentage of the even share (0..50); the total stays exact')
    .option('--reduce-only', 'only reduce the position; stops once it is closed')
    .option('--slippage-bps <n>', "each slice's bound around the mark at its time (default: your default, else the market's)")
    .option(LEVERAGE_FLAG, "leverage of the slices, 1..max_leverage, or max (the market's max_leverage read from /markets; refused with --reduce-only). Default: your default for the market, else 1x")
    .option('--allow-large', 'run a TWAP whose total notional is above your cap (`perps config max-notional`)')
    .option('--dry-run', 'check everything, print the schedule and the first slice as it would be signed now; send nothing')
    .action(async (opts: StartOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        // Checked by the one grammar before anything is read from the service: " 1" or "1." is refused
        // here (exit 2), and the text that passes is the text the plan canonicalises.
        checkSizeOrUsd(opts.totalSize, opts.usd, 'total-size');
        if (opts.totalSize !== undefined) parseDecimalOption(opts.totalSize, 'total-size');
        const input = {
          wallet: opts.wallet,
          market: opts.market,
          side: opts.side,
          totalSize: opts.totalSize ?? '0',
          durationMs: parseDurationOption(opts.duration, 'duration'),
          slices: parseIntegerOption(opts.slices, 'slices')!,
          ...(opts.randomizeTime !== undefined ? { randomizeTimePct: parseIntegerOption(opts.randomizeTime, 'randomize-time')! } : {}),
          ...(opts.randomizeSize !== undefined ? { randomizeSizePct: parseIntegerOption(opts.randomizeSize, 'randomize-size')! } : {}),
          ...(opts.reduceOnly === true ? { reduceOnly: true } : {}),
          ...(opts.slippageBps !== undefined ? { slippageBps: parseIntegerOption(opts.slippageBps, 'slippage-bps')! } : {}),
          allow: { large: opts.allowLarge === true },
        };
        const choice = leverageChoice(opts.leverage, opts.reduceOnly === true ? 'on a reduce-only TWAP: its slices sign no leverage (they post no margin)' : undefined);
        const ctx = contextOf(g);
        const lev = await resolveLeverage(ctx, opts.market, choice);
        if (lev.note) out.note(lev.note);
        if (lev.leverage !== undefined) Object.assign(input, { leverage: lev.leverage });
        let usd: ResolvedUsd | undefined;
        if (opts.usd !== undefined) {
          usd = await resolveUsd(ctx, opts.market, opts.usd, 'mark');
          input.totalSize = usd.sizing.size;
          out.note(`total size: ${usd.description}`);
        }
        const plan = await prepareTwap(ctx, input);
        for (const w of plan.view.warnings) out.note(`warning: ${w}`);
        if (opts.dryRun === true) {
          out.note('each slice is prepared at its own time, bounded by the mark then; the signature below is slice 1 as it would be signed now');
          return printDryRun(out, { ...plan.firstSlice, action: 'twap' }, usd ? { ...plan.view, usd_sizing: usd.sizing } : plan.view);
        }
        for (const c of plan.view.confirmations) out.note(`confirmed by flag [${c.code}]: ${c.message}`);
        const runner = await startTwap(ctx, plan, { allowLarge: opts.allowLarge === true, onUpdate: reporter(out) });
        const last = plan.schedule.at(-1)!;
        out.note(`TWAP ${runner.id}: ${plan.side} ${plan.totalSize} ${plan.market.symbol} in ${plan.schedule.length} slices every ${plan.intervalMs / 1000} s (the last ${Math.round(last.offset_ms / 1000)} s from now); Ctrl-C pauses it`);
        return foreground(out, runner);
      });
    });

  twap
    .command('list')
    .description("this profile's TWAPs in this data folder, newest first")
    .option('--wallet <address>', 'only this wallet')
    .action(async (opts: { wallet?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const store = twapStoreOf(ctx);
        const wallet = opts.wallet?.toLowerCase();
        const listed = store.list(ctx.profile.name);
        const views = listed.twaps.filter((r) => wallet === undefined || r.wallet.toLowerCase() === wallet).map((r) => twapView(r, liveRunner(store.dir, r.id)));
        // A damaged record whose wallet cannot be read is listed for every wallet: damage is never hidden.
        const damaged = listed.damaged.filter((d) => wallet === undefined || d.summary.wallet === null || d.summary.wallet.toLowerCase() === wallet).map(damagedTwapView);
        const rows: (TwapView | DamagedTwapView)[] = [...views, ...damaged];
        out.result({ twaps: views, damaged }, () =>
          formatTable(rows, [
            { header: 'ID', value: (v) => v.id },
            { header: 'MARKET', value: (v) => v.market ?? '?' },
            { header: 'SIDE', value: (v) => (v.status === 'damaged' ? (v.side ?? '?') : `${v.side}${v.reduce_only ? ' RO' : ''}`) },
            { header: 'FILLED', value: (v) => (v.status === 'damaged' ? `?/${v.total_size ?? '?'}` : `${v.filled_size}/${v.total_size}`), align: 'right' },
            { header: 'AVG', value: (v) => (v.status === 'damaged' ? '' : (v.avg_fill_price ?? '')), align: 'right' },
            { header: 'STATUS', value: (v) => (v.status === 'damaged' ? `damaged: ${v.damage}` : `${v.status}${v.needs_decision ? ' (decide: resume or cancel)' : ''}`) },
            { header: 'NEXT', value: (v) => (v.status === 'damaged' ? '-' : clock(v.next_slice_at)) },
            { header: 'CREATED', value: (v) => formatTime(v.created_at) },
          ]),
        );
      });
    });

  twap
    .command('status')
    .description("a TWAP's progress and slices")
    .argument('<id>', 'TWAP id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const store = twapStoreOf(ctx);
        const stored = store.inspect(id, ctx.profile.name);
        if (stored && 'damaged' in stored) {
          const d = damagedTwapView(stored.damaged);
          out.result(d, () => humanDamaged(d));
          return;
        }
        const v = twapView(store.require(id, ctx.profile.name), liveRunner(store.dir, id));
        out.result(v, () => humanView(v));
      });
    });

  twap
    .command('pause')
    .description('pause a TWAP (the process running it stops before its next slice)')
    .argument('<id>', 'TWAP id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        let r = pauseTwap(ctx, id);
        if (r.requested === 'pause') r = await acknowledged(ctx, id, (x) => x.status !== 'running' || x.requested === null);
        const store = twapStoreOf(ctx);
        const v = twapView(r, liveRunner(store.dir, id));
        out.result(v, () => humanView(v));
        if (v.requested === 'pause') out.note(`the process running it (pid ${v.runner?.pid ?? '?'}) has not paused yet; it does before its next slice`);
      });
    });

  twap
    .command('resume')
    .description('resume a paused or interrupted TWAP in the foreground (slices whose time passed are missed, not sent late)')
    .argument('<id>', 'TWAP id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const runner = openTwapRunner(ctx, id, { onUpdate: reporter(out) });
        out.note(`resuming TWAP ${id}; Ctrl-C pauses it`);
        return foreground(out, runner);
      });
    });

  twap
    .command('cancel')
    .description('cancel a TWAP for good (a slice already sent finishes; nothing more is sent)')
    .argument('<id>', 'TWAP id')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const store = twapStoreOf(ctx);
        const before = store.require(id, ctx.profile.name);
        const interrupted = before.status === 'running' && liveRunner(store.dir, id) === null;
        let r = await cancelTwap(ctx, id, interrupted ? { as: 'stopped' } : {});
        if (r.requested === 'cancel') r = await acknowledged(ctx, id, (x) => x.status !== 'running' && x.status !== 'paused');
        const v = twapView(r, liveRunner(store.dir, id));
        out.result(v, () => humanView(v));
        if (v.requested === 'cancel') out.note(`the process running it (pid ${v.runner?.pid ?? '?'}) has not stopped yet; it does before its next slice`);
        else out.note(`${v.status}: ${canonical(new Decimal(v.filled_size))} of ${v.total_size} filled`);
      });
    });
}
