/**
 * How the order commands print what happened: each placed leg with its final state, cancels with their
 * confirmation, an order's tracked status, and listed orders as a table. A leg or cancel that did not do
 * what was asked makes the command exit 1, after every result is printed and the reason is noted.
 */
import type { ListedOrder } from '../../shared/protocol/index.js';
import { isFilled, type CancelLegResult, type CancelResult, type PlacedLeg, type PlaceOrdersResult, type TrackedOrder } from '../../main/services/orders/index.js';
import { formatFields, formatTable, formatTime, type Column, type Output } from '../output.js';
import type { ExitFills } from '../../main/services/positions/exitFills.js';
import { orderStatusLabel, type StatusSubject } from '../../shared/orders/orderStatusLabel.js';

/**
 * A size as a trader reads it: a reduce-only trigger of size 0 closes the whole position when it fires,
 * so it reads "whole position", never 0 (which reads as nothing).
 */
export function sizeText(size: string, o: { order_type?: string; reduce_only?: boolean }): string {
  return size === '0' && o.order_type === 'TRIGGER' && o.reduce_only === true ? 'whole position' : size;
}

/**
 * An order's status as a trader reads it: a trigger waiting for its price is "armed" (the service says
 * SUBMITTED on the order route and open in lists), a bracket leg whose entry has not filled "awaiting
 * entry"; every other status is the service's own word (src/shared/orders/orderStatusLabel.ts).
 */
export function statusText(status: string, o: StatusSubject): string {
  return orderStatusLabel(status, o);
}

/** A leg that did not do what was asked: rejected, lost, FAILED, or a take-or-cancel order that did not fill. */
export function legFailed(p: PlacedLeg): boolean {
  if (p.status !== 'SUBMITTED') return true;
  const f = p.final;
  if (!f) return false;
  if (f.status === 'REJECTED' || f.status === 'FAILED') return true;
  const takeOrCancel = p.leg.order_type === 'MARKET' || p.leg.time_in_force === 'IOC';
  return takeOrCancel && f.terminal && !isFilled(f);
}

const LEG_COLUMNS = (labels: readonly string[]): Column<PlacedLeg & { i: number }>[] => [
  { header: 'LEG', value: (p) => labels[p.i] ?? `orders[${p.i}]` },
  { header: 'ORDER', value: (p) => p.order_id ?? '-' },
  { header: 'TYPE', value: (p) => `${p.leg.order_type}${p.leg.time_in_force ? ' ' + p.leg.time_in_force : ''}${p.leg.reduce_only ? ' RO' : ''}` },
  { header: 'SIDE', value: (p) => p.leg.side },
  { header: 'SIZE', value: (p) => sizeText(p.leg.size, p.leg), align: 'right' },
  { header: 'PRICE', value: (p) => p.leg.limit_price, align: 'right' },
  { header: 'TRIGGER', value: (p) => (p.leg.trigger ? `${p.leg.trigger.tpsl} ${p.leg.trigger.trigger_price}` : '') },
  // The leverage signed: never 0 on an opening leg (the service would read it as the market's maximum).
  { header: 'LEV', value: (p) => (p.leg.leverage !== undefined ? `${p.leg.leverage}x` : p.leg.reduce_only ? '-' : '0 (max)'), align: 'right' },
  { header: 'STATUS', value: (p) => (p.status === 'SUBMITTED' ? statusText(p.final?.status ?? (p.leg.parent_client_order_id ? 'PENDING_PARENT' : p.status), p.leg) : p.status) },
  { header: 'FILL', value: (p) => (p.final?.avg_fill_price ? `${p.final.filled_size ?? ''} @ ${p.final.avg_fill_price}` : '') },
  { header: 'REASON', value: (p) => p.final?.reason ?? p.reason ?? '' },
];

/** Prints a placement and returns 1 when a leg failed (after noting why on stderr). */
export function reportPlacement(out: Output, result: PlaceOrdersResult, labels: readonly string[]): 1 | undefined {
  const failed = result.legs.filter(legFailed);
  out.result(result, () => {
    const head = result.reconciled ? 'note: the service answer was lost; these orders were found in order-history\n' : '';
    return head + formatTable(result.legs.map((p, i) => ({ ...p, i })), LEG_COLUMNS(labels));
  });
  for (const p of failed) {
    const reason = p.final?.reason ?? p.reason;
    out.note(`error [${reason ?? p.final?.status ?? p.status}]: ${labels[result.legs.indexOf(p)] ?? 'leg'} ${p.order_id ?? p.client_order_id} ${p.final?.status ?? p.status}${reason ? ` (${reason})` : ''}`);
  }
  if (failed.length > 0) out.note(legHint(failed));
  return failed.length > 0 ? 1 : undefined;
}

function legHint(failed: PlacedLeg[]): string {
  const reasons = new Set(failed.map((p) => p.final?.reason ?? p.reason ?? ''));
  if (reasons.has('post_only_would_take')) return 'hint: a post-only (ALO) order would have crossed the book; move the price away from the market.';
  if (reasons.has('close_trigger_coexistence')) return 'hint: cancel the armed TP/SL triggers first, or use `perps position close`.';
  if (reasons.has('no_liquidity_within_limit') || failed.some((p) => p.final?.status === 'CANCELLED')) return 'hint: nothing filled within the price bound; widen --slippage-bps or give --price.';
  if (failed.some((p) => p.status === 'UNKNOWN')) return 'hint: the answer was lost and the order is not in history yet; check `perps history orders` before placing again.';
  return 'hint: the reason is the service\'s; see `perps history orders --wallet ADDR`.';
}

export function trackedView(o: TrackedOrder): string {
  return formatFields([
    ['order', o.order_id],
    ['status', o.armed ? 'armed (waits for its trigger price)' : `${o.status}${o.list_status ? ` (listed: ${o.list_status})` : ''}`],
    ...(o.market ? ([['market', o.market]] as const) : []),
    ...(o.order_type ? ([['type', o.order_type]] as const) : []),
    ...(o.filled_size ? ([['filled', o.filled_size]] as const) : []),
    ...(o.avg_fill_price ? ([['avg price', o.avg_fill_price]] as const) : []),
    ...(o.reason ? ([['reason', o.reason]] as const) : []),
  ]);
}

const CANCEL_COLUMNS: Column<CancelLegResult>[] = [
  { header: 'ORDER', value: (r) => r.order_id },
  { header: 'TYPE', value: (r) => r.order_type },
  { header: 'CANCEL', value: (r) => r.status },
  { header: 'REASON', value: (r) => r.reason ?? '' },
  { header: 'CONFIRMED', value: (r) => (r.confirmed ? 'yes' : 'no') },
  { header: 'FINAL', value: (r) => `${r.final_status ?? ''}${r.final_reason ? ` (${r.final_reason})` : ''}` },
];

export function reportCancel(out: Output, result: CancelResult): 1 | undefined {
  out.result(result, () => {
    const table = formatTable(result.results, CANCEL_COLUMNS, 'nothing to cancel');
    const left = result.remaining && result.remaining.length > 0 ? `\nstill open: ${result.remaining.map((r) => r.order_id).join(', ')}` : '';
    return table + left;
  });
  // A cancel succeeded when the order is no longer open, whatever the answer (a FILLED order is not open either).
  const bad = result.results.filter((r) => !r.confirmed);
  for (const r of bad) out.note(`error [${r.reason ?? 'UNCONFIRMED'}]: cancel of ${r.order_id} answered ${r.status} and it is still listed as open`);
  if (bad.length > 0) out.note('hint: check `perps orders open --wallet ADDR` and cancel again (a new cancel is safe).');
  return bad.length > 0 || (result.remaining?.length ?? 0) > 0 ? 1 : undefined;
}

/** Rows of open-orders, position-triggers and order-history as a table. */
export const LISTED_ORDER_COLUMNS: Column<ListedOrder>[] = [
  { header: 'ORDER', value: (o) => o.order_id },
  { header: 'MARKET', value: (o) => o.market },
  { header: 'SIDE', value: (o) => o.side },
  { header: 'TYPE', value: (o) => `${o.order_type}${o.time_in_force && o.order_type !== 'TRIGGER' ? ' ' + o.time_in_force : ''}${o.reduce_only ? ' RO' : ''}` },
  { header: 'SIZE', value: (o) => sizeText(o.size, o), align: 'right' },
  { header: 'FILLED', value: (o) => o.filled_size, align: 'right' },
  { header: 'PRICE', value: (o) => o.limit_price, align: 'right' },
  { header: 'TRIGGER', value: (o) => (o.trigger_price ? `${(o.tpsl ?? '').toUpperCase()} ${o.trigger_price}` : '') },
  { header: 'STATUS', value: (o) => `${statusText(o.status, o)}${o.parent_order_id ? ` (${o.parent_order_id})` : ''}${o.is_modifying ? ' (modifying)' : ''}` },
  { header: 'REASON', value: (o) => o.reason ?? '' },
  { header: 'AT', value: (o) => formatTime(o.status_at) },
];

/** "fill price" and "realized PnL" lines of an exit (what a trader reads first). */
export function exitFields(e: ExitFills): (readonly [string, string])[] {
  if (e.order_ids.length === 0) return [];
  if (e.avg_fill_price === null) return [['realized PnL', 'not in trade-history yet (`perps fills` shows it once it lands)']];
  return [
    ['fill price', `${e.avg_fill_price}${e.fills > 1 ? ` (average of ${e.fills} fills)` : ''}`],
    ['realized PnL', `${e.realized_pnl} USDC (fees ${e.fees} USDC)${e.complete ? '' : ' so far: not every fill is in trade-history yet'}`],
  ];
}

