/**
 * The risk limits applied (issue 39 items 2 and 3): the day's figures read from the service and the venue,
 * the lockout that breaking the daily loss or drawdown limit starts, and the check every order's prepare
 * step runs (prepareOrder.ts) before a nonce is reserved or anything is signed. The app, the command line,
 * `perps do` and every algorithm prepare orders there, and so do raw IPC calls: there is no other way to
 * an order.
 *
 * Time is the service's clock. Figures that cannot be read (the service or the venue unreachable, a
 * position without a mark) refuse opening orders rather than let them through unchecked; an order that
 * only reduces exposure is decided before any read, so a failing read never blocks a close.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { Position } from '../../../shared/protocol/index.js';
import { dayStartOf, nextResetAfter } from '../../../shared/risk/riskDay.js';
import { hasAnyLimit, type WalletRisk } from '../../../shared/risk/riskLimits.js';
import { checkOrder, dayBreach, drawdownPct, nextPeak, onlyReduces, pnlSinceReset, roomLeft, type DayFigures, type RiskLeg, type Room } from '../../../shared/risk/riskRules.js';
import { AppError, OperationError } from '../errors.js';
import { readMarks, walletIds, type TradingContext } from '../orders/orderContext.js';
import { readAccountHealth } from '../reads/accountHealth.js';
import { riskStoreOf, type RiskStore } from './riskStore.js';

/** The service's time now, measured afresh (a simulator's manual clock jumps; a cached offset would lag it). */
export async function serviceNow(ctx: Pick<TradingContext, 'clock'>): Promise<number> {
  ctx.clock.invalidate();
  return ctx.clock.now();
}

/** What a wallet's day looks like against its limits. */
export interface DayState {
  record: WalletRisk;
  day_start: number;
  next_reset: number;
  /** Null when neither the daily loss nor the drawdown limit is set (nothing was read). */
  figures: (DayFigures & { equity: Decimal; peak: Decimal }) | null;
  room: Room[];
}

/** A refusal by a risk limit: validation kind (exit 2), code RISK_LIMIT or RISK_LOCKOUT, with the figures in details. */
export class RiskRefusal extends AppError {
  constructor(code: 'RISK_LIMIT' | 'RISK_LOCKOUT', message: string, details: Record<string, unknown>, hint: string) {
    super(code, 'validation', message, { hint, details, field: typeof details['limit'] === 'string' ? details['limit'] : 'lockout' });
    this.name = 'RiskRefusal';
  }
}

/** Fills and funding of the wallet since `dayStart`: the newest-first pages are read until one is older. */
async function sinceReset(ctx: Pick<TradingContext, 'api'>, wallet: string, dayStart: number): Promise<{ fills: { filled_at: number; fee: string; closed_pnl?: string | null }[]; payments: { settled_at: number; payment: string }[] }> {
  const fills: { filled_at: number; fee: string; closed_pnl?: string | null }[] = [];
  const seen = new Set<string>();
  for await (const page of ctx.api.tradeHistoryPages({ wallet })) {
    for (const f of page) if (f.filled_at >= dayStart && !seen.has(f.tid) && seen.add(f.tid)) fills.push(f);
    if (page.length === 0 || page[page.length - 1]!.filled_at < dayStart) break;
  }
  const payments: { settled_at: number; payment: string }[] = [];
  for await (const page of ctx.api.fundingHistoryPages({ wallet })) {
    for (const p of page) if (p.settled_at >= dayStart) payments.push(p);
    if (page.length === 0 || page[page.length - 1]!.settled_at < dayStart) break;
  }
  return { fills, payments };
}

/** Withdrawal statuses whose amount has left the balance (in flight or done); the others gave it back. */
const WITHDRAWAL_DEBITED = new Set(['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED']);

/**
 * Money moved in or out since `dayStart` (credited deposits less withdrawals that left the balance): not
 * trading, so it moves neither the day's PnL nor its drawdown. Without it, a withdrawal of a fifth of the
 * account read as a 20% drawdown and locked the trader out.
 */
async function netTransfersSince(ctx: Pick<TradingContext, 'api'>, accountId: string, dayStart: number): Promise<Decimal> {
  let net = new Decimal(0);
  for await (const page of ctx.api.depositHistoryPages(accountId, { from: dayStart })) {
    for (const d of page) if (d.status === 'CONFIRMED' && d.credited_at !== null && d.credited_at !== undefined && d.credited_at >= dayStart) net = net.plus(d.amount);
  }
  for await (const page of ctx.api.withdrawalHistoryPages(accountId, { from: dayStart })) {
    for (const x of page) if (x.created_at >= dayStart && WITHDRAWAL_DEBITED.has(x.status)) net = net.minus(x.amount);
  }
  return net;
}

/**
 * The wallet's day: its record (what is due applied), and when a daily-loss or drawdown limit is set, the
 * PnL since the reset, the day's peak equity (kept in the store; a first look of the day starts it at the
 * higher of equity now and equity before today's PnL), the drawdown from it and the room left. A breach
 * starts the lockout until the next reset, logged.
 */
export async function evaluateDay(ctx: Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock' | 'profile'>, wallet: string, options: { now?: number; store?: RiskStore } = {}): Promise<DayState> {
  const ids = walletIds(wallet);
  const store = options.store ?? riskStoreOf(ctx);
  const now = options.now ?? (await serviceNow(ctx));
  let record = store.current(ctx.profile.name, ids.wallet, now);
  const dayStart = dayStartOf(now, record.reset_time);
  const nextReset = nextResetAfter(now, record.reset_time);
  const { daily_loss, max_drawdown } = record.limits;
  if (daily_loss === null && max_drawdown === null) return { record, day_start: dayStart, next_reset: nextReset, figures: null, room: [] };

  const [health, history, transfers] = await Promise.all([readAccountHealth(ctx, ids.wallet), sinceReset(ctx, ids.wallet, dayStart), netTransfersSince(ctx, ids.accountId, dayStart)]);
  if (health.equity === null || health.unrealized_pnl === null) {
    throw new OperationError('RISK_FIGURES_UNKNOWN', `the day's PnL and drawdown cannot be computed: no venue mark for ${health.unpriced_markets.join(', ')}; opening orders are refused until they can`, {
      kind: 'transient',
      hint: 'Reduce-only orders and closes still pass. Try again once the venue lists a mark for every held market.',
    });
  }
  const equity = new Decimal(health.equity);
  // Money moved in or out is neither a loss nor a gain: the peak is kept on trading equity (equity less the
  // day's net deposits) and shown in today's money (plus them), so a withdrawal lowers the peak with the
  // equity and a deposit raises both; the drawdown is what trading lost from that peak.
  const tradingEquity = equity.minus(transfers);
  const pnl = pnlSinceReset(dayStart, history.fills, history.payments, new Decimal(health.unrealized_pnl));
  const stored = record.peak && record.peak.day_start === dayStart ? new Decimal(record.peak.equity) : null;
  const peak = nextPeak(stored ?? Decimal.max(tradingEquity, tradingEquity.minus(pnl)), tradingEquity);
  const shownPeak = peak.plus(transfers);
  const drawdown = drawdownPct(shownPeak, equity);
  const figures = { pnl, drawdown, equity, peak: shownPeak };
  const breach = record.lockout ? null : dayBreach(record.limits, figures);
  if (stored === null || !peak.eq(stored) || breach) {
    record = store.transact(ctx.profile.name, ids.wallet, now, (r) => {
      const next: WalletRisk = { ...r, peak: { day_start: dayStart, equity: canonical(peak) }, updated_at: now };
      if (!breach || r.lockout) return { record: next, log: [] };
      return {
        record: { ...next, lockout: { at: now, until: nextReset, reason: breach.reason, limit: breach.limit } },
        log: [{ at: now, limit: breach.limit, old: null, new: null, action: 'lockout', effective_at: nextReset }],
      };
    });
  }
  return { record, day_start: dayStart, next_reset: nextReset, figures, room: roomLeft(record.limits, figures) };
}

/**
 * Orders the wallet sent in the last minute by the service's clock: order-history rows (one per order)
 * together with the orders this data folder sent (recordSentOrders), which history hides for its
 * persist lag.
 */
async function ordersInLastMinute(ctx: Pick<TradingContext, 'api'>, wallet: string, now: number, record: WalletRisk): Promise<number> {
  const ids = new Set<string>((record.sent ?? []).filter((s) => s.at >= now - 60_000).map((s) => s.order_id));
  for await (const page of ctx.api.orderHistoryPages({ wallet })) {
    for (const o of page) if (o.submitted_at >= now - 60_000) ids.add(o.order_id);
    if (page.length === 0 || page.every((o) => o.submitted_at < now - 60_000)) break;
  }
  return ids.size;
}

export interface RiskCheckLeg {
  market: string;
  side: 'BUY' | 'SELL';
  size: string;
  reduce_only: boolean;
  leverage?: number | undefined;
  parent_client_order_id?: string | undefined;
}

/**
 * The check of the prepare step: refuses (RiskRefusal, before any nonce or signature) an order that would
 * break a limit or that opens exposure during a lockout. `notionals` are the review's, leg by leg;
 * `positions` and `marks` what the prepare step already read (missing marks are read here).
 */
export async function enforceRiskLimits(
  ctx: Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock' | 'profile'>,
  input: { wallet: string; legs: readonly RiskCheckLeg[]; notionals: readonly Decimal[]; positions: readonly Position[]; marks: ReadonlyMap<string, Decimal> },
): Promise<void> {
  const store = riskStoreOf(ctx);
  const { wallet } = walletIds(input.wallet);
  const riskLegs: RiskLeg[] = input.legs.map((l, i) => ({
    market: l.market,
    side: l.side,
    size: new Decimal(l.size),
    notional: input.notionals[i] ?? new Decimal(0),
    reduce_only: l.reduce_only,
    attached: l.parent_client_order_id !== undefined,
    leverage: l.leverage ?? null,
  }));
  const positions = new Map(input.positions.map((p) => [p.market, new Decimal(p.size)]));
  // Decided before any read: nothing may stand between a trader and a close.
  if (onlyReduces(riskLegs, positions)) return;
  const stored = store.peek(ctx.profile.name, wallet, 0);
  if (!hasAnyLimit(stored.limits) && stored.lockout === null && stored.pending.length === 0) return;

  const now = await serviceNow(ctx);
  const day = await evaluateDay(ctx, wallet, { now, store });
  const limits = day.record.limits;
  const marks = new Map(input.marks);
  const needMarks = limits.max_position_notional !== null || limits.max_total_notional !== null || Object.values(limits.markets).some((m) => m.max_position_notional !== null);
  if (needMarks) {
    const wanted = [...new Set([...riskLegs.map((l) => l.market), ...[...positions].filter(([, s]) => !s.isZero()).map(([m]) => m)])].filter((m) => !marks.has(m));
    if (wanted.length > 0) {
      const markets = await ctx.config.markets();
      const found = await readMarks(ctx, markets.filter((m) => wanted.includes(m.symbol)));
      for (const [k, v] of found) marks.set(k, v);
      const unknown = wanted.filter((m) => !marks.has(m));
      if (unknown.length > 0) throw new OperationError('NO_MARK', `no venue mark for ${unknown.join(', ')}: the position limits cannot be checked`, { kind: 'transient' });
    }
  }
  const ordersLastMinute = limits.max_orders_per_minute !== null ? await ordersInLastMinute(ctx, wallet, now, day.record) : null;
  const verdict = checkOrder({ limits, legs: riskLegs, book: { positions, marks }, ordersLastMinute, lockout: day.record.lockout, day: day.figures });
  if (verdict.ok) return;
  if (verdict.code === 'RISK_LOCKOUT') {
    const until = day.record.lockout?.until ?? day.next_reset;
    throw new RiskRefusal('RISK_LOCKOUT', `opening orders are locked until ${new Date(until).toISOString()}: ${day.record.lockout?.reason ?? verdict.message}`, { until, reason: day.record.lockout?.reason ?? verdict.message }, 'Only reduce-only orders and closes pass until the next reset. Ending the lockout early waits the cool-down: `perps limits unlock`.');
  }
  throw new RiskRefusal('RISK_LIMIT', `refused by your risk limit ${verdict.message}`, { limit: verdict.limit, value: verdict.value, would_be: verdict.would_be }, 'Lower the size or leverage, or change the limit (`perps limits set`, Settings › Limits): raising a limit waits its cool-down.');
}

/**
 * Notes the orders just sent (their ids, the service's time) for the orders-per-minute limit; only for
 * a wallet with that limit set, so every other order's path stays one POST.
 */
export async function recordSentOrders(ctx: Pick<TradingContext, 'clock' | 'profile'>, wallet: string, orderIds: readonly (string | null)[]): Promise<void> {
  const ids = orderIds.filter((x): x is string => x !== null);
  if (ids.length === 0) return;
  try {
    const store = riskStoreOf(ctx);
    if (store.peek(ctx.profile.name, wallet, 0).limits.max_orders_per_minute === null) return;
    const now = await serviceNow(ctx);
    store.transact(ctx.profile.name, wallet, now, (r) => ({
      record: { ...r, sent: [...(r.sent ?? []).filter((s) => s.at >= now - 5 * 60_000), ...ids.map((order_id) => ({ order_id, at: now }))].slice(-10_000), updated_at: now },
      log: [],
    }));
  } catch (err) {
    // The orders are sent: failing the send now would tell the caller they were not. The next opening
    // order meets the same failure in its prepare step and is refused there, so nothing trades past it.
    console.warn(`risk limits: the orders just sent could not be noted for max_orders_per_minute: ${(err as Error).message}`);
  }
}

/**
 * The check again just before a prepared order is signed and sent: a review prepared earlier (the app's
 * preview, a raw orders:place naming one) must not outlive a limit tightened or a lockout begun since.
 * Without limits nothing is read.
 */
export async function recheckBeforeSend(
  ctx: Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock' | 'profile'>,
  prepared: { wallet: string; accountId: string; legs: readonly RiskCheckLeg[]; view: { legs: readonly { notional: string }[] } },
): Promise<void> {
  // Reduce-only legs and attached TP/SL never need the store (a damaged file must not block a close).
  if (prepared.legs.every((l) => l.reduce_only || l.parent_client_order_id !== undefined)) return;
  let stored: WalletRisk | null = null;
  try {
    stored = riskStoreOf(ctx).peek(ctx.profile.name, prepared.wallet, 0);
  } catch {
    // Unreadable limits: enforceRiskLimits below lets an only-reducing order through and refuses the rest
    // with the store's own error.
  }
  if (stored && !hasAnyLimit(stored.limits) && stored.lockout === null && stored.pending.length === 0) return;
  const { positions } = await ctx.api.positions(prepared.accountId);
  await enforceRiskLimits(ctx, { wallet: prepared.wallet, legs: prepared.legs, notionals: prepared.view.legs.map((l) => new Decimal(l.notional)), positions, marks: new Map() });
}

/**
 * A modify that makes an opening order larger is checked as an order of the extra size at its new price
 * (a modify inherits side, reduce-only and leverage, so nothing else about it can break a limit). Nothing
 * is read when the wallet has no limit.
 */
export async function enforceOnModify(
  ctx: Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock' | 'profile'>,
  input: { wallet: string; accountId: string; market: string; side: 'BUY' | 'SELL'; reduceOnly: boolean; increase: Decimal; price: Decimal },
): Promise<void> {
  if (input.reduceOnly || input.increase.lte(0)) return;
  const stored = riskStoreOf(ctx).peek(ctx.profile.name, input.wallet, 0);
  if (!hasAnyLimit(stored.limits) && stored.lockout === null && stored.pending.length === 0) return;
  const { positions } = await ctx.api.positions(input.accountId);
  await enforceRiskLimits(ctx, { wallet: input.wallet, legs: [{ market: input.market, side: input.side, size: input.increase.toFixed(), reduce_only: false }], notionals: [input.increase.mul(input.price)], positions, marks: new Map() });
}
