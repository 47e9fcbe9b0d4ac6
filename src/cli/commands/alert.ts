/**
 * `perps alert add|list|rm|watch`: the alerts of the app (src/main/services/alerts), in the same store of
 * the data folder, decided by the same rules (src/shared/alerts).
 *
 *   alert add --market SYM (--above PRICE | --below PRICE | --move PCT --window D | --funding-above RATE |
 *             --funding-below RATE | (--pnl-above USDC | --pnl-below USDC | --liq-distance-below PCT) --wallet ADDR)
 *             [--repeat] [--note TEXT]
 *       RATE is the venue's hourly funding rate as a raw fraction (0.0001 is 0.01 % an hour); D is seconds
 *       or a span such as 90s, 10m, 1h30m. One-shot unless --repeat (a repeating alert re-arms once the
 *       value went back across the level).
 *   alert list                 this profile's alerts
 *   alert rm ID                removes one
 *   alert watch                evaluates the alerts in the foreground on the venue's stream (position alerts
 *                              on the wallet's positions, read every 5 s) and prints each
 *                              firing (with --json: one JSON line per firing); Ctrl-C stops. Safe beside
 *                              the app: an alert fires once, in whichever process saw it first.
 *
 * Exit codes: 0, 1 when the store or the venue failed, 2 for bad input (nothing is stored).
 */
import type { Command } from 'commander';
import { startStopFailurePoll } from '../../main/services/positions/stopFailureAlerts.js';
import { walletIds } from '../../main/services/orders/orderContext.js';
import { describeRule } from '../../shared/alerts/alertEvaluation.js';
import type { AlertInput } from '../../shared/alerts/alertInput.js';
import { POSITION_ALERT_KINDS, type AlertFiring, type AlertKind, type AlertView } from '../../shared/alerts/alertRule.js';
import { AlertEvaluator, addAlert, alertStoreOf, listAlertsChecked, removeAlert, startAlertFeed, startPositionPoll } from '../../main/services/alerts/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { loggingVenueSocketPool } from '../../main/venue/venueSocketPool.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, formatTime, forTerminal, runAction, type Output } from '../output.js';
import { oneLineText } from '../../shared/safeText.js';
import { durationFlag } from '../parse.js';

/** How often position alerts' wallets are read (the app's own slow positions refresh). */
const POSITIONS_POLL_MS = 5_000;

interface AddOpts {
  market: string;
  above?: string;
  below?: string;
  move?: string;
  window?: string;
  fundingAbove?: string;
  fundingBelow?: string;
  pnlAbove?: string;
  pnlBelow?: string;
  liqDistanceBelow?: string;
  wallet?: string;
  repeat?: boolean;
  note?: string;
}

const CONDITIONS: readonly [keyof AddOpts, AlertKind][] = [
  ['above', 'price_above'],
  ['below', 'price_below'],
  ['move', 'move'],
  ['fundingAbove', 'funding_above'],
  ['fundingBelow', 'funding_below'],
  ['pnlAbove', 'pnl_above'],
  ['pnlBelow', 'pnl_below'],
  ['liqDistanceBelow', 'liq_distance_below'],
];

/** The flags as one typed alert: exactly one condition. */
export function alertInputOf(opts: AddOpts): AlertInput {
  const given = CONDITIONS.filter(([flag]) => opts[flag] !== undefined);
  if (given.length !== 1) {
    throw new ValidationError(`give exactly one of --above, --below, --move, --funding-above, --funding-below, --pnl-above, --pnl-below, --liq-distance-below (got ${given.length})`, { field: 'condition', hint: 'e.g. `perps alert add --market ETH --above 3500`' });
  }
  const [flag, kind] = given[0]!;
  if (opts.wallet !== undefined && !POSITION_ALERT_KINDS.includes(kind)) throw new ValidationError('only a PnL or liquidation-distance alert watches a wallet', { field: 'wallet' });
  return { market: opts.market, kind, value: opts[flag] as string, window: opts.window, repeat: opts.repeat, note: opts.note, wallet: opts.wallet };
}

function stateOf(a: AlertView): string {
  if (a.status === 'done') return 'fired (done)';
  if (a.rule.kind === 'move') return 'watching';
  return a.armed === null ? 'waiting for a first value' : a.armed ? 'armed' : 'past the level: re-arms when back';
}

function alertFields(a: AlertView): string {
  return formatFields([
    ['alert', a.id],
    ['when', describeRule(a.market, a.rule)],
    ['mode', a.repeat ? 'repeating' : 'one-shot'],
    ['state', stateOf(a)],
    ...(a.note ? ([['note', a.note]] as const) : []),
  ]);
}

/** How often a watcher reads the watched wallets' stops: a failed stop is said within seconds. */
const STOP_POLL_MS = 2_000;

function firingLine(f: AlertFiring): string {
  return `${new Date(f.at).toISOString().slice(11, 19)}Z ALERT ${f.id} ${f.message}${f.note ? ` | ${f.note}` : ''}${f.done ? '' : ' (repeats)'}`;
}

/** Runs the evaluator until SIGINT/SIGTERM. */
async function watch(out: Output, g: ReturnType<typeof globalsOf>, watchWallets: readonly string[] = []): Promise<void> {
  const ctx = contextOf(g);
  const store = alertStoreOf(ctx);
  // Each firing is one line on the terminal, whatever a stored note holds (forTerminal/oneLineText, issue 36).
  const print = (line: string): void => void process.stdout.write(line + '\n');
  const marketSymbols = (await ctx.config.markets()).filter((m) => m.is_active).map((m) => m.symbol);
  const evaluator = new AlertEvaluator({ store, profile: ctx.profile.name, marketSymbols, onFire: (f) => print(out.json ? forTerminal(JSON.stringify(f), true) : oneLineText(firingLine(f))) });
  evaluator.reload();
  for (const d of store.checked(ctx.profile.name, marketSymbols).damaged) out.note(`warning: alert ${d.id} is not watched: ${d.problems.join('; ')}`);
  const active = evaluator.active();
  const positional = active.filter((a) => a.wallet !== null).length;
  out.note(`watching ${active.length} alert(s) of profile '${ctx.profile.name}' on the venue's ${ctx.profile.venueWsUrl ? 'stream' : 'info API (polled)'}${positional > 0 ? `, positions every ${POSITIONS_POLL_MS / 1000} s` : ''}; alerts added meanwhile are picked up; Ctrl-C stops`);
  const pool = loggingVenueSocketPool({ warn: (m) => out.note(m) });
  const failed: { error: Error | null } = { error: null };
  let stop: () => void = () => undefined;
  // A failure of the store (damaged, locked for long) ends the watch with its error: exit 1.
  const guarded =
    <T>(evaluate: (obs: T) => void) =>
    (obs: T): void => {
      try {
        evaluate(obs);
      } catch (err) {
        failed.error ??= err as Error;
        stop();
      }
    };
  const feed = await startAlertFeed({
    ctx,
    socket: ctx.profile.venueWsUrl ? pool.lease(ctx.profile.venueWsUrl) : null,
    pollMs: 2_000,
    observe: guarded((obs) => evaluator.observeMarket(obs)),
    onError: (err) => out.note(`warning: reading the venue failed: ${err.message}`),
  });
  const positions = startPositionPoll({
    ctx,
    wallets: () => [...new Set(evaluator.active().flatMap((a) => (a.wallet === null ? [] : [a.wallet])))],
    everyMs: POSITIONS_POLL_MS,
    observe: guarded((obs) => evaluator.observePosition(obs)),
    onError: (err) => out.note(`warning: reading the positions failed: ${err.message}`),
  });
  // Stops that fired and were cancelled unfilled (issue 35): the wallets named, those of position alerts
  // and those with a trading key on this profile, read every few seconds.
  const stopWallets = (): string[] => [
    ...new Set([...watchWallets, ...evaluator.active().flatMap((a) => (a.wallet === null ? [] : [a.wallet])), ...ctx.vault.list({ environment: ctx.profile.name }).map((k) => k.wallet)].map((w) => w.toLowerCase())),
  ];
  const stops = startStopFailurePoll({
    ctx,
    wallets: stopWallets,
    everyMs: STOP_POLL_MS,
    onFailure: (f) => print(out.json ? JSON.stringify(f) : `${new Date(f.at).toISOString().slice(11, 19)}Z STOP FAILED ${f.market} ${f.message}`),
    onError: (err) => out.note(`warning: reading the stops failed: ${err.message}`),
  });
  await new Promise<void>((resolve) => {
    stop = resolve;
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  positions.stop();
  stops.stop();
  await feed.stop();
  await pool.close();
  if (failed.error) throw failed.error;
}

export function registerAlertCommands(program: Command): void {
  const alert = program.command('alert').description('price, move, funding, PnL and liquidation-distance alerts, kept in the data folder and shared with the app');

  alert
    .command('add')
    .description('add an alert (one condition); one-shot unless --repeat')
    .requiredOption('--market <symbol>', 'market symbol, e.g. ETH')
    .option('--above <price>', 'the mark crosses up to this price')
    .option('--below <price>', 'the mark crosses down to this price')
    .option('--move <pct>', 'the mark moves this many percent (up or down) within --window')
    .option('--window <duration>', 'the window of --move: a duration such as 90s, 10m or 1h30m (1s to 24h)', durationFlag('window'))
    .option('--funding-above <rate>', "the venue's hourly funding rate (a raw fraction: 0.0001 is 0.01 %) rises to this")
    .option('--funding-below <rate>', "the venue's hourly funding rate falls to this (0 or below: funding turns negative)")
    .option('--pnl-above <usdc>', "the unrealized PnL of --wallet's position in the market rises to this")
    .option('--pnl-below <usdc>', "the unrealized PnL of --wallet's position falls to this (negative: a loss)")
    .option('--liq-distance-below <pct>', "the mark comes within this percentage of --wallet's position's liquidation estimate")
    .option('--wallet <address>', 'the wallet whose position a --pnl-* or --liq-distance-below alert watches')
    .option('--repeat', 'fire on every crossing (re-arms once the value went back across), not once')
    .option('--note <text>', 'shown with the alert when it fires (at most 200 characters)')
    .action(async (opts: AddOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const input = alertInputOf(opts);
        const a = await addAlert(contextOf(g), input);
        out.result(a, () => alertFields(a));
      });
    });

  alert
    .command('list')
    .description("this profile's alerts in this data folder")
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const { alerts, damaged } = await listAlertsChecked(contextOf(g));
        // A stored alert that fails the rules of a new one is listed beside the others, with why (never hidden, never watched).
        const rows: ({ ok: true; a: (typeof alerts)[number] } | { ok: false; d: (typeof damaged)[number] })[] = [...alerts.map((a) => ({ ok: true as const, a })), ...damaged.map((d) => ({ ok: false as const, d }))];
        out.result({ alerts, damaged }, () =>
          formatTable(rows, [
            { header: 'ID', value: (r) => (r.ok ? r.a.id : r.d.id) },
            { header: 'WHEN', value: (r) => (r.ok ? describeRule(r.a.market, r.a.rule) : `${r.d.market} ${r.d.kind}`) },
            { header: 'MODE', value: (r) => (r.ok ? (r.a.repeat ? 'repeat' : 'once') : '-') },
            { header: 'STATE', value: (r) => (r.ok ? stateOf(r.a) : `damaged, not watched: ${r.d.problems.join('; ')}`) },
            { header: 'FIRED', value: (r) => (r.ok && r.a.fired_count > 0 ? `${r.a.fired_count}x, last ${formatTime(r.a.last_fired_at)} at ${r.a.last_fired_value}` : '-') },
            { header: 'NOTE', value: (r) => (r.ok ? r.a.note : '') },
          ]),
        );
      });
    });

  alert
    .command('rm')
    .description('remove an alert')
    .argument('<id>', 'alert id (see `perps alert list`)')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const a = removeAlert(contextOf(g), id);
        out.result({ removed: a }, `removed alert ${a.id}: ${describeRule(a.market, a.rule)}`);
      });
    });

  alert
    .command('watch')
    .description('evaluate the alerts in the foreground and print each firing, and each stop or take-profit that fired and was cancelled unfilled (for a server or a terminal); Ctrl-C stops')
    .option('--wallet <address...>', 'also watch these wallets\' stops (those with a trading key here, and those of position alerts, are watched anyway)')
    .action(async (opts: { wallet?: string[] }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        // A wallet that is not an address is refused before anything is watched (exit 2).
        const wallets = (opts.wallet ?? []).map((w) => walletIds(w).wallet);
        await watch(out, g, wallets);
      });
    });
}

