/**
 * Main-to-renderer events into the query cache. Streams are throttled by main (at most ten a second
 * each), but the renderer still treats them as bursty: marks go to the frame-batched mark store, never
 * through React state; list invalidations are coalesced so a burst of order updates causes one refetch.
 */
import { limitsKey } from '../features/limits/limitsQueries';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IpcEventPayload, IpcResponse, MarketView, TrackedWithdrawalView, TransferView } from '../../../shared/ipc';
import { putMarks } from '../features/markets/markStore';
import { fmt } from '../lib/decimal';
import { announceRiskWarning, playIfEnabled } from '../features/notifications/sounds';
import { riskWarningText } from '../features/risk/liquidation';
import { clearRiskWarnings, putRiskWarnings } from '../features/risk/riskWarningStore';
import { pushToast } from '../ui/toast';
import { perps } from './client';
import { clearActivity, recordActivity } from './orderActivity';
import { setTrezorPrompt } from './trezorPrompt';
import { pushPrompt } from './prompts';
import { qk } from './queries';
import { cqk, putTransfers } from './companionQueries';
import { putTwaps } from '../features/twap/twapQueries';
import { putOcos } from '../features/oco/ocoQueries';
import { putChases } from '../features/chase/chaseQueries';
import { announceAlertFiring, putAlerts } from '../features/alerts/alertQueries';
import { putPortfolioProgress } from '../features/portfolio/PortfolioProgress';
import { simFeedKey } from '../features/simFeed/simFeedQueries';

/** Coalesces repeated invalidations of the same keys into one, a short moment later. */
function coalescer(client: QueryClient, delayMs: number) {
  const pending = new Map<string, readonly unknown[]>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (key: readonly unknown[]) => {
    pending.set(JSON.stringify(key), key);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const keys = [...pending.values()];
      pending.clear();
      for (const k of keys) void client.invalidateQueries({ queryKey: k });
    }, delayMs);
  };
}

const REASON_TEXT: Record<string, string> = {
  post_only_would_take: 'post-only price would have crossed the book',
  bracket_parent_not_filled: 'its entry was not filled',
  bracket_no_position: 'no position on the entry side when it settled',
  bracket_parent_missing: 'its entry never persisted',
  bracket_replaced: 'replaced by a newer bracket leg',
  bracket_tp_wrong_side: 'take-profit is on the wrong side of the reference price',
  bracket_sl_wrong_side: 'stop-loss is on the wrong side of the reference price',
  close_trigger_coexistence: 'an armed reduce-only trigger exists on this position',
  market_order_must_be_ioc: 'market orders must be IOC',
  price_off_tick: 'price is not a multiple of the tick size',
  modify_not_modifiable: 'a leg waiting for its entry cannot be modified',
  no_liquidity_within_limit: 'no liquidity within the limit price; the order was cancelled',
  unfilled_remainder_cancelled: 'the unfilled remainder was cancelled',
  position_closed: 'the position it protected is closed',
  modify_dropped: 'the modify could not be applied; the original order stands',
  trigger_past_mark: 'the trigger price is already past the mark',
  insufficient_margin: 'not enough free balance for the margin',
  reduce_only_no_position: 'reduce-only, but there is no position to reduce',
  leverage_exceeds_max: 'leverage above the market maximum',
  min_order_value: 'order value below the market minimum',
  max_open_orders: 'too many open orders on this market',
};

/** A reason code with its plain-language meaning when known. */
export function explainReason(reason: string | null | undefined): string {
  if (!reason) return '';
  const text = REASON_TEXT[reason];
  return text ? `${reason}: ${text}` : reason;
}

export function mergeWithdrawals(prev: readonly TrackedWithdrawalView[] | undefined, next: readonly TrackedWithdrawalView[]): TrackedWithdrawalView[] {
  const byId = new Map((prev ?? []).map((w) => [w.intent_id, w]));
  for (const w of next) {
    const old = byId.get(w.intent_id);
    if (!old || old.updated_at <= w.updated_at) byId.set(w.intent_id, w);
  }
  return [...byId.values()].sort((a, b) => (b.created_at ?? b.updated_at) - (a.created_at ?? a.updated_at));
}

/** The cached withdraw:list with `next` merged in; the damaged records listed apart stay as main last said. */
export function withWithdrawals(prev: IpcResponse<'withdraw:list'> | undefined, next: readonly TrackedWithdrawalView[]): IpcResponse<'withdraw:list'> {
  return { withdrawals: mergeWithdrawals(prev?.withdrawals, next), damaged: prev?.damaged ?? [] };
}

/** The toast announcing how a bridge or swap ended (null for a phase that is not an end). */
function transferEndToast(t: TransferView): Parameters<typeof pushToast>[0] | null {
  const what = t.kind === 'bridge' ? `Bridge ${t.from_chain} → ${t.to_chain}` : `Swap on ${t.from_chain}`;
  switch (t.phase) {
    case 'done':
      return { tone: 'success', title: `${what} done`, body: t.kind === 'bridge' ? 'Delivered on the destination chain.' : 'The swap transaction is confirmed.' };
    case 'refunded':
      return { tone: 'warn', title: `${what} refunded`, body: 'The bridge returned the value on the venue.' };
    case 'failed':
      return { tone: 'error', title: `${what} failed`, body: 'Wait for the operator to retry it, or contact them with the source transaction hash.' };
    case 'error':
      return { tone: 'error', title: `${what} stopped`, ...(t.error ? { error: t.error } : {}) };
    default:
      return null;
  }
}

/** Statuses a trigger reaches only after it fired. */
const FIRED: ReadonlySet<string> = new Set(['ACCEPTED', 'EXECUTING', 'FILLED', 'PARTIALLY_FILLED_CANCELLED']);
const announcedFires = new Set<string>();
/** Cancellations that are the expected end of something the user did (a modify replaces its order). */
const QUIET_CANCEL_REASONS: ReadonlySet<string> = new Set(['modified', 'user_cancelled', 'cancelled_by_user']);

/** Subscribes to every event for the lifetime of the app. */
export function useIpcEvents(client: QueryClient): void {
  useEffect(() => {
    const api = perps();
    const invalidate = coalescer(client, 120);
    // Positions are re-priced with every mark of a held market (up to ten a second): the health figures,
    // which main computes from several reads, are re-read at most once a second while that lasts.
    const invalidateHealth = coalescer(client, 1_000);
    const offs: (() => void)[] = [];

    offs.push(
      api.on('marks', (p: IpcEventPayload<'marks'>) => {
        putMarks(p.marks.map((m) => [m.market, { mark: m.mark, at: m.at }]));
      }),
    );

    offs.push(
      api.on('positions', (p) => {
        client.setQueryData(qk.positions, { positions: p.positions, at: p.at });
        invalidateHealth(qk.health);
      }),
    );

    offs.push(
      api.on('orderStatus', (p) => {
        recordActivity(p.updates);
        invalidate(qk.openOrders);
        invalidate(qk.triggers);
        for (const u of p.updates) {
          if (u.status === 'REJECTED' || u.status === 'FAILED') {
            pushToast({ tone: 'error', title: `Order ${u.status.toLowerCase()}${u.market ? ` · ${u.market}` : ''}`, body: explainReason(u.reason) || u.order_id, announce: 'polite' });
          } else if (u.status === 'CANCELLED' && u.reason && !QUIET_CANCEL_REASONS.has(u.reason)) {
            // A cancel the user did not ask for (bracket rules, no liquidity, a closed position): say why.
            pushToast({ tone: 'warn', title: `${u.reason.startsWith('bracket_') ? 'Bracket leg' : 'Order'} cancelled${u.market ? ` · ${u.market}` : ''}`, body: explainReason(u.reason), announce: 'polite' });
          } else if (u.order_type === 'TRIGGER' && FIRED.has(u.status) && !announcedFires.has(u.order_id)) {
            // Polling may see a fired trigger first as ACCEPTED, EXECUTING or already FILLED: announce it once.
            announcedFires.add(u.order_id);
            pushToast({ tone: 'info', title: `Trigger fired${u.market ? ` · ${u.market}` : ''}`, body: `${u.order_id} · ${u.status.toLowerCase()}`, announce: 'polite' });
            playIfEnabled(client, 'trigger');
          }
          if (u.terminal) invalidate(['history', 'orders']);
        }
      }),
    );

    offs.push(
      api.on('fills', (p) => {
        invalidate(qk.balance);
        invalidate(['history', 'fills']);
        invalidate(qk.positions);
        for (const f of p.fills.slice(0, 3)) {
          pushToast({ tone: 'success', title: `Filled ${f.dir}${f.market ? ` · ${f.market}` : ''}`, body: `${fmt(f.size)}${f.market ? ` ${f.market}` : ''} @ ${fmt(f.price)}`, announce: 'polite' });
        }
        if (p.fills.length > 0) playIfEnabled(client, 'fill');
      }),
    );

    offs.push(
      api.on('withdrawals', (p) => {
        client.setQueryData(qk.withdrawals, (prev: IpcResponse<'withdraw:list'> | undefined) => withWithdrawals(prev, p.withdrawals));
        invalidate(qk.balance);
        invalidate(['history', 'withdrawals']);
      }),
    );

    offs.push(
      api.on('transfers', (p) => {
        const before = putTransfers(client, p.transfers);
        for (const t of p.transfers) {
          const old = before.get(t.id);
          // The source transaction is in (tracking) or the transfer ended: wallet balances moved.
          if (t.phase !== old?.phase && (t.phase === 'tracking' || t.final)) invalidate(cqk.tokenInfoAll);
          if (!t.final || old?.final) continue;
          // A bridge onto the venue (or its refund there) changes the venue balance, and an ended transfer
          // may have been credited points: a Points view open on a range shows them.
          invalidate(qk.balance);
          invalidate(cqk.pointsCreditedAll);
          const toast = transferEndToast(t);
          if (toast) pushToast(toast);
        }
      }),
    );

    offs.push(
      api.on('keyExpiry', (p) => {
        invalidate(qk.keys);
        for (const k of p.keys) {
          pushToast({
            tone: k.expired ? 'error' : 'warn',
            title: k.expired ? 'Trading key expired' : 'Trading key expiring soon',
            body: `${k.name ?? k.agent} — renew it under Keys.`,
          });
        }
      }),
    );

    // The simulator's feed (following a venue: live or down) drives the banner and the status bar.
    offs.push(api.on('simFeed', (p) => client.setQueryData(simFeedKey, p)));
    // The wallet's risk limits and room left (issue 39): the header and the lockout banner.
    offs.push(api.on('riskLimits', (p) => client.setQueryData(limitsKey, p)));

    let sessionKey: string | null = null;
    offs.push(
      api.on('session', (p) => {
        const key = `${p.profile}:${p.wallet.address ?? ''}`;
        if (sessionKey !== null && sessionKey !== key) {
          clearActivity();
          clearRiskWarnings();
        }
        sessionKey = key;
        client.setQueryData(qk.wallet, p.wallet);
        // A new profile or wallet makes every cached read stale (other account, other service).
        void client.invalidateQueries();
      }),
    );

    // Liquidation-risk warnings: the banner shows the latest set; a position entering it is announced once
    // (a toast and, when switched on, the risk sound; main raises the native notification itself).
    offs.push(
      api.on('riskWarning', (p) => {
        const markets = client.getQueryData<{ markets: MarketView[] }>(qk.markets)?.markets ?? [];
        for (const w of putRiskWarnings(p)) {
          announceRiskWarning(client, { market: w.market, message: `${riskWarningText(w, markets.find((m) => m.symbol === w.market))}. Add margin or reduce the position.` });
        }
      }),
    );

    // TWAP progress (main runs them): the panel, the chart's fill markers and the restart prompt read it.
    offs.push(api.on('twap', (p) => putTwaps(client, p.twaps)));
    // OCO pairs (main watches them): the OCO tab reads it.
    offs.push(api.on('oco', (p) => putOcos(client, p.pairs)));
    // Chases (main runs them): the Chase tab and the chart's chase line read it.
    offs.push(api.on('chase', (p) => putChases(client, p.chases)));

    // Alerts (main evaluates them): the list follows main's store; each firing is announced once (main
    // raises the native notification itself).
    offs.push(api.on('alerts', (p) => putAlerts(client, p.alerts, p.damaged)));
    offs.push(api.on('alertFired', (p) => p.firings.forEach((f) => announceAlertFiring(client, f))));

    // How far the Portfolio view's read is (main pages through the account's history).
    offs.push(api.on('portfolioProgress', (p) => putPortfolioProgress(client, p)));

    offs.push(api.on('blindSigningRequest', (request) => pushPrompt({ kind: 'blind', request })));
    offs.push(api.on('offlineSignatureRequest', (request) => pushPrompt({ kind: 'offline', request })));
    offs.push(api.on('trezorPrompt', (p) => setTrezorPrompt(p)));

    return () => offs.forEach((off) => off());
  }, [client]);
}
