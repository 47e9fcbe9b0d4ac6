/**
 * From the services' records to the shapes the IPC contract promises the renderer. Pure functions: every
 * decimal stays a string (derived values are computed with decimal.js and written canonically), absent
 * optional fields become null, and nothing internal (signed bodies, signatures, nonces) is copied.
 */
import { Decimal, canonical } from '../../shared/decimal/index.js';
import { typedDataView } from '../../shared/signingViews.js';
import type {
  FillView,
  ListedOrderView,
  MarketView,
  OpenOrderView,
  OrderStatusUpdate,
  PositionView,
  TrackedWithdrawalView,
} from '../../shared/ipc.js';
import type { Deposit, FundingPayment, ListedOrder, Market, Position, Withdrawal } from '../../shared/protocol/index.js';
import type { TrackedWithdrawal } from '../services/money/withdrawalStore.js';
import type { TrackedOrder } from '../services/orders/orderTracker.js';
import { positionRiskView, type PositionRiskInputs } from '../services/reads/positionRisk.js';
import { change24h } from '../services/reads/marketData.js';
import type { VenueAssetCtx } from '../venue/schemas.js';
import type { Fill } from '../../shared/protocol/index.js';

/** Places kept for derived ratios (PnL fractions, 24 h change, fee estimates): plenty for display, bounded. */
const RATIO_PLACES = 8;
const MONEY_PLACES = 6;

export function fixed(value: Decimal, places: number): string {
  return canonical(value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP));
}

export { typedDataView };

export function listedOrderView(row: ListedOrder): ListedOrderView {
  const pendingParent = row.order_type === 'TRIGGER' && row.status === 'open' && typeof row.parent_order_id === 'string' && row.parent_order_id.length > 0;
  return {
    order_id: row.order_id,
    market: row.market,
    side: row.side,
    size: row.size,
    filled_size: row.filled_size,
    limit_price: row.limit_price,
    order_type: row.order_type,
    time_in_force: row.time_in_force ?? null,
    reduce_only: row.reduce_only,
    trigger_price: row.trigger_price ?? null,
    tpsl: row.tpsl ?? null,
    status: row.status,
    submitted_at: row.submitted_at,
    status_at: row.status_at,
    is_modifying: row.is_modifying === true,
    pending_parent: pendingParent,
    parent_order_id: row.parent_order_id ?? null,
    armed: row.order_type === 'TRIGGER' && row.status === 'open' && !pendingParent,
    reason: row.reason ?? null,
    avg_fill_price: row.avg_fill_price ?? null,
  };
}

/**
 * Open orders with every PENDING_PARENT leg attached to its entry. A leg whose entry is not in the list
 * (the entry is already executing, or on another page of reality) stays at top level, flagged.
 */
export function openOrdersWithLegs(rows: readonly ListedOrder[]): OpenOrderView[] {
  const views = rows.map(listedOrderView);
  const ids = new Set(views.map((v) => v.order_id));
  const legsOf = new Map<string, ListedOrderView[]>();
  for (const v of views) {
    if (v.pending_parent && v.parent_order_id !== null && ids.has(v.parent_order_id)) {
      legsOf.set(v.parent_order_id, [...(legsOf.get(v.parent_order_id) ?? []), v]);
    }
  }
  return views
    .filter((v) => !(v.pending_parent && v.parent_order_id !== null && ids.has(v.parent_order_id)))
    .map((v) => ({ ...v, legs: legsOf.get(v.order_id) ?? [] }));
}

export function fillView(f: Fill): FillView {
  return {
    tid: f.tid,
    order_id: f.order_id,
    market: f.market ?? null,
    side: f.side ?? null,
    dir: f.dir,
    price: f.price,
    size: f.size,
    fee: f.fee,
    closed_pnl: f.closed_pnl ?? null,
    is_liquidation: f.is_liquidation,
    filled_at: f.filled_at,
  };
}

export function fundingView(p: FundingPayment) {
  return {
    market: p.market ?? null,
    direction: p.direction,
    size: p.size,
    payment: p.payment,
    funding_rate: p.funding_rate,
    epoch_time: p.epoch_time,
    settled_at: p.settled_at,
  };
}

export function depositView(d: Deposit) {
  return { tx_hash: d.tx_hash, amount: d.amount, source: d.source, status: d.status, detected_at: d.detected_at, credited_at: d.credited_at ?? null };
}

export function withdrawalRowView(w: Withdrawal) {
  return {
    withdrawal_id: w.withdrawal_id,
    amount: w.amount,
    l1_send_amount: w.l1_send_amount ?? null,
    destination: w.destination,
    status: w.status,
    failure_reason: w.failure_reason,
    l1_tx_hash: w.l1_tx_hash ?? null,
    created_at: w.created_at,
    completed_at: w.completed_at ?? null,
  };
}

/** A tracked withdrawal without its signed body (the signature never leaves main). */
export function trackedWithdrawalView(r: TrackedWithdrawal): TrackedWithdrawalView {
  return {
    intent_id: r.intent_id,
    withdrawal_id: r.withdrawal_id,
    amount: r.amount,
    destination: r.destination,
    phase: r.phase,
    status: r.status,
    reason: r.reason,
    new_wallet_fee: r.new_wallet_fee,
    failure_reason: r.failure_reason,
    l1_send_amount: r.l1_send_amount,
    l1_tx_hash: r.l1_tx_hash,
    created_at: r.created_at,
    completed_at: r.completed_at,
    updated_at: r.updated_at,
    note: r.note,
  };
}

/**
 * PnL from the mark: size x (mark - entry); return on the posted isolated margin; with the market and the
 * armed triggers, the liquidation estimate and the TP/SL too (services/reads/positionRisk.ts, shared with
 * the command line).
 */
export function positionView(p: Position, mark: string | undefined, risk: Omit<PositionRiskInputs, 'mark'> = {}): PositionView {
  return positionRiskView(p, { ...risk, mark });
}

export function orderStatusUpdate(o: TrackedOrder): OrderStatusUpdate {
  return {
    order_id: o.order_id,
    market: o.market,
    order_type: o.order_type,
    status: o.status,
    list_status: o.list_status,
    reason: o.reason,
    filled_size: o.filled_size,
    avg_fill_price: o.avg_fill_price,
    armed: o.armed,
    terminal: o.terminal,
    replaced_by: o.replaced_by,
  };
}

/** A market record joined (or not) to the venue's context for it. */
export function marketView(m: Market, ctx: VenueAssetCtx | null): MarketView {
  const change = ctx ? change24h(ctx.markPx, ctx.prevDayPx) : null;
  return {
    symbol: m.symbol,
    venue_symbol: m.venue_symbol,
    joined: ctx !== null,
    is_active: m.is_active,
    only_isolated: m.only_isolated,
    mark: ctx?.markPx ?? null,
    oracle: ctx?.oraclePx ?? null,
    mid: ctx?.midPx ?? null,
    prev_day_px: ctx?.prevDayPx ?? null,
    change_24h: change,
    funding_rate: ctx?.funding ?? null,
    open_interest: ctx?.openInterest ?? null,
    day_volume: ctx?.dayNtlVlm ?? null,
    max_leverage: m.max_leverage,
    display_max_leverage: m.display_max_leverage,
    tick_size: m.tick_size,
    sz_decimals: m.sz_decimals,
    px_decimals: m.px_decimals,
    min_order_value: m.min_order_value,
    max_notional: m.max_notional,
    max_open_orders: m.max_open_orders,
    maker_fee_rate: m.maker_fee_rate,
    taker_fee_rate: m.taker_fee_rate,
    initial_margin_ratio: m.initial_margin_ratio,
    maintenance_margin_ratio: m.maintenance_margin_ratio,
    slippage_bps: m.slippage_bps,
  };
}

export { RATIO_PLACES, MONEY_PLACES };
