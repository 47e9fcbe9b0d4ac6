/**
 * `perps limits set|show|log` (issue 39): the wallet's own risk limits, kept in the data folder and
 * shared with the app (Settings › Limits). Tightening applies at once; loosening (a higher value, `none`,
 * a shorter cool-down, a new reset time, `unlock`) waits the cool-down and shows as pending with its time.
 * Every order, from here, the app, `perps do` or an algorithm, is checked against them before it is
 * signed: RISK_LIMIT / RISK_LOCKOUT, exit 2.
 */
import type { Command } from 'commander';
import { limitText, limitsLog, setLimits, showLimits, type LimitsShow } from '../../main/services/risk/limitsOps.js';
import { LIMIT_LABELS, LIMIT_NAMES, type LimitName } from '../../shared/risk/riskLimits.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatTable, formatTime, runAction } from '../output.js';
import { durationFlag } from '../parse.js';

/** The show document's --json shape: { limits, pending: [{ limit, value, effective_at }], lockout: { until } | null, room }. */
export function limitsDocument(s: LimitsShow): Record<string, unknown> {
  return { ...s, lockout: s.lockout ? { until: s.lockout.until, reason: s.lockout.reason } : null };
}

/** The human rendering, shared with `perps balance`'s room lines. */
export function roomLines(s: Pick<LimitsShow, 'room' | 'lockout'>): string[] {
  const lines = s.room.map((r) => `${r.text}${r.warning ? '  [WARNING: under 25% left]' : ''}`);
  if (s.lockout) lines.unshift(`LOCKED: opening orders are refused until ${new Date(s.lockout.until).toISOString()} (${s.lockout.reason}); reduce-only orders and closes pass`);
  return lines;
}

/**
 * The room lines for `perps balance`: nothing when the wallet has no limit; a read that fails is said in
 * one line instead of failing the balance.
 */
export async function riskRoomLines(ctx: Parameters<typeof showLimits>[0], wallet: string): Promise<string[]> {
  const { riskStoreOf } = await import('../../main/services/risk/riskStore.js');
  const { hasAnyLimit } = await import('../../shared/risk/riskLimits.js');
  const stored = riskStoreOf(ctx).peek(ctx.profile.name, wallet, 0);
  if (!hasAnyLimit(stored.limits) && stored.lockout === null) return [];
  try {
    return roomLines(await showLimits(ctx, wallet));
  } catch (err) {
    return [`Risk limits: the room left could not be read (${(err as Error).message})`];
  }
}

function humanShow(s: LimitsShow): string {
  const rows: { name: string; value: string }[] = [];
  for (const n of LIMIT_NAMES) rows.push({ name: `${LIMIT_LABELS[n].label} (${n})`, value: limitText(n, s.limits[n]) });
  for (const [m, l] of Object.entries(s.limits.markets)) {
    if (l.max_position_notional !== null) rows.push({ name: `${m} position notional`, value: limitText('max_position_notional', l.max_position_notional) });
    if (l.max_leverage !== null) rows.push({ name: `${m} leverage`, value: limitText('max_leverage', l.max_leverage) });
  }
  rows.push({ name: 'Day resets at', value: `${s.reset_time} UTC` });
  rows.push({ name: 'Cool-down for loosening', value: s.cooldown_ms === null ? 'chosen with the first limit (default 24 h)' : limitText('cooldown', s.cooldown_ms) });
  const parts = [formatTable(rows, [{ header: 'LIMIT', value: (r) => r.name }, { header: 'VALUE', value: (r) => r.value }])];
  if (s.pending.length > 0) {
    parts.push('Pending (loosening waits its cool-down):');
    parts.push(formatTable(s.pending, [{ header: 'LIMIT', value: (p) => p.limit }, { header: 'NEW VALUE', value: (p) => limitText(p.limit, p.value) }, { header: 'TAKES EFFECT', value: (p) => formatTime(p.effective_at) }]));
  }
  const room = roomLines(s);
  if (room.length > 0) parts.push(room.join('\n'));
  return parts.join('\n\n');
}

interface SetOptions {
  wallet: string;
  dailyLoss?: string;
  maxDrawdown?: string;
  maxPositionNotional?: string;
  maxTotalNotional?: string;
  maxOrderNotional?: string;
  maxLeverage?: string;
  maxOrdersPerMinute?: string;
  market?: string;
  resetTime?: string;
  cooldown?: string;
}

const FLAG_OF: Record<LimitName, keyof SetOptions> = {
  daily_loss: 'dailyLoss',
  max_drawdown: 'maxDrawdown',
  max_position_notional: 'maxPositionNotional',
  max_total_notional: 'maxTotalNotional',
  max_order_notional: 'maxOrderNotional',
  max_leverage: 'maxLeverage',
  max_orders_per_minute: 'maxOrdersPerMinute',
};

export function registerLimitsCommands(program: Command): void {
  const limits = program.command('limits').description('your own risk limits (daily loss, drawdown, notional, leverage, order rate), enforced before every order is signed');

  limits
    .command('set')
    .description('set limits: tightening applies at once, loosening (higher, none, shorter cool-down, new reset time) waits the cool-down')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--daily-loss <usd>', 'daily loss limit in USD (realized + unrealized PnL since the reset), or none')
    .option('--max-drawdown <pct>', "maximum drawdown from the day's peak equity, in percent, or none")
    .option('--max-position-notional <usd>', 'maximum position notional per market (with --market: that market only), or none')
    .option('--max-total-notional <usd>', 'maximum total position notional, or none')
    .option('--max-order-notional <usd>', 'maximum notional of one order, or none')
    .option('--max-leverage <n>', "maximum leverage of an order (with --market: that market only, at most its own maximum), or none")
    .option('--max-orders-per-minute <n>', 'maximum orders sent in any minute, or none')
    .option('--market <symbol>', 'apply --max-position-notional and --max-leverage to this market')
    .option('--reset-time <HH:MM>', 'when the day resets, UTC (default 00:00)')
    .option('--cooldown <duration>', 'how long a loosening waits: a duration such as 24h or 1d12h (chosen with the first limit; default 24h)', durationFlag('cooldown'))
    .action(async (opts: SetOptions, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const values: Partial<Record<LimitName, string>> = {};
        for (const n of LIMIT_NAMES) {
          const v = opts[FLAG_OF[n]];
          if (v !== undefined) values[n] = v;
        }
        const { show, log } = await setLimits(contextOf(g), {
          wallet: opts.wallet,
          limits: values,
          ...(opts.market !== undefined ? { market: opts.market } : {}),
          ...(opts.resetTime !== undefined ? { reset_time: opts.resetTime } : {}),
          ...(opts.cooldown !== undefined ? { cooldown: opts.cooldown } : {}),
        });
        out.result({ ...limitsDocument(show), changes: log }, () => {
          const lines = log.map((l) => (l.action === 'pending' ? `${l.limit}: ${limitText(l.limit, l.old)} -> ${limitText(l.limit, l.new)} waits its cool-down, takes effect ${formatTime(l.effective_at)}` : l.action === 'cancelled' ? `${l.limit}: the pending change to ${limitText(l.limit, l.old)} is dropped` : `${l.limit}: ${limitText(l.limit, l.old)} -> ${limitText(l.limit, l.new)} (now)`));
          return [...(lines.length > 0 ? lines : ['nothing changed']), '', humanShow(show)].join('\n');
        });
      });
    });

  limits
    .command('unlock')
    .description('end a lockout before the next reset: a loosening, so it waits the cool-down')
    .requiredOption('--wallet <address>', 'main wallet')
    .action(async (opts: { wallet: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const { show, log } = await setLimits(contextOf(g), { wallet: opts.wallet, end_lockout: true });
        out.result({ ...limitsDocument(show), changes: log }, () => (log.length === 0 ? 'no lockout to end' : `the lockout ends ${formatTime(log.at(-1)!.effective_at)} (after the cool-down) unless the reset comes first`));
      });
    });

  limits
    .command('show')
    .description('the limits in force, pending loosenings, the lockout and the room left')
    .requiredOption('--wallet <address>', 'main wallet')
    .action(async (opts: { wallet: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const show = await showLimits(contextOf(g), opts.wallet);
        out.result(limitsDocument(show), () => humanShow(show));
      });
    });

  limits
    .command('log')
    .description('every change of the limits: time, limit, old and new value, applied or pending')
    .option('--wallet <address>', 'only this wallet')
    .action(async (opts: { wallet?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const { entries, unreadable } = limitsLog(contextOf(g), opts.wallet);
        if (unreadable > 0) out.note(`${unreadable} line(s) of the log could not be read and are not shown`);
        out.result({ entries, unreadable }, () =>
          formatTable(
            entries,
            [
              { header: 'TIME', value: (e) => formatTime(e.at) },
              { header: 'WALLET', value: (e) => e.wallet },
              { header: 'LIMIT', value: (e) => e.limit },
              { header: 'OLD', value: (e) => limitText(e.limit, e.old) },
              { header: 'NEW', value: (e) => (e.action === 'lockout' ? 'locked' : limitText(e.limit, e.new)) },
              { header: 'ACTION', value: (e) => e.action },
              { header: 'EFFECTIVE', value: (e) => (e.effective_at === null ? '' : formatTime(e.effective_at)) },
            ],
            'no changes yet',
          ),
        );
      });
    });
}
