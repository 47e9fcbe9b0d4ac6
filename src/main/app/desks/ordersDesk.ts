/**
 * orders:* — preview (prepare: the exact typed data of every leg, kept in the review store), place a
 * reviewed preview (submit exactly that), modify, cancel, cancel all, and the open orders and triggers.
 * After each action the desk raises what happened (orders to follow, stale history); the pumps follow.
 */
import type { IpcResponse, OpenOrderView, OrderPreview, PlaceOrdersResult } from '../../../shared/ipc.js';
import { prepareCancel, prepareCancelAll, submitCancel, type CancelLegResult } from '../../services/orders/cancelOrders.js';
import { prepareModify, submitModify } from '../../services/orders/modifyOrder.js';
import { prepareOrderIntent, protectionLost, submitOrderIntent, type PreparedIntentOrder } from '../../services/positions/scaleOut.js';
import { readOpenOrders, readTriggers } from '../../services/reads/accountReads.js';
import type { DeskContext } from '../deskContext.js';
import { listedOrderView, openOrdersWithLegs } from '../views.js';
import { requireConfirmations } from './confirmations.js';

export class OrdersDesk {
  constructor(private readonly session: DeskContext) {}

  private wallet(): string {
    return this.session.wallet.requireAddress();
  }

  /**
   * The fat-finger guards are let through here so the person can see the order; what they tripped is in
   * the review's `confirmations`, and place requires each to be confirmed.
   */
  async preview(req: { intent: unknown }): Promise<OrderPreview> {
    // A reduce-only ladder on a position with its TP/SL armed is a scale-out: the review says what is
    // lifted and re-armed (services/positions/scaleOut.ts), the same use case as `perps order scale`.
    const prepared = await prepareOrderIntent(this.session.ctx(), { wallet: this.wallet(), intent: req.intent, allow: { farPrice: true, large: true } });
    const entry = this.session.reviews.put('orders', this.session.scope(), this.session.reviewTtl('orders'), prepared);
    return { ...prepared.view, preview_id: entry.id, valid_until: entry.validUntil };
  }

  async place(req: { preview_id: string; confirm?: readonly string[] | undefined }): Promise<PlaceOrdersResult> {
    const ctx = this.session.ctx();
    // Checked before the review is used up: a missing confirmation sends the page back to ask, same review.
    requireConfirmations(this.session.reviews.peek<'orders', PreparedIntentOrder>(req.preview_id, 'orders', this.session.scope()).payload.view.confirmations, req.confirm);
    const { payload: prepared } = this.session.reviews.take<'orders', PreparedIntentOrder>(req.preview_id, 'orders', this.session.scope());
    const result = await submitOrderIntent(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: false }).catch((err: unknown) => {
      // A scale-out that placed its ladder and could not re-arm: said outside the dialog too.
      if (prepared.lift && (err as { code?: unknown }).code === 'PROTECTION_NOT_RESTORED') this.session.notify('trigger_fires', `${prepared.lift.market} TP/SL not restored`, (err as Error).message);
      throw err;
    });
    const rearm = result.rearm;
    if (prepared.lift) {
      this.session.raise({ type: 'orders.changed' });
      this.session.raise({ type: 'positions.changed' });
      // Less protected than the trader set it: said where it cannot be missed, not only in the dialog.
      if (protectionLost(rearm)) this.session.notify('trigger_fires', `${prepared.lift.market} TP/SL not restored`, rearm!.summary.filter((l) => !/re-armed on/.test(l)).join(' '));
    }
    const entries = new Set(prepared.legs.map((l) => l.client_order_id));
    this.session.raise({
      type: 'orders.submitted',
      orders: result.legs
        .filter((leg) => leg.order_id !== null)
        .map((leg) => {
          const child = leg.leg.parent_client_order_id !== undefined && entries.has(leg.leg.parent_client_order_id);
          return {
            order_id: leg.order_id!,
            hint: {
              market: leg.leg.market,
              order_type: leg.leg.order_type,
              status: leg.status === 'REJECTED' ? 'REJECTED' : child ? 'PENDING_PARENT' : leg.status === 'SUBMITTED' ? 'SUBMITTED' : 'UNKNOWN',
              reason: leg.reason,
              justSubmitted: true,
            },
          };
        }),
    });
    this.session.raise({ type: 'history.changed', kinds: ['orders'] });
    return {
      success: result.success,
      reconciled: result.reconciled,
      legs: result.legs.map((l, i) => ({ label: prepared.labels[i] ?? 'order', client_order_id: l.client_order_id, order_id: l.order_id, status: l.status, reason: l.reason })),
      rearm: rearm ? { rearmed: rearm.rearmed.map((x) => ({ kind: x.kind, trigger_price: x.trigger_price, limit_price: x.limit_price })), past_mark: rearm.past_mark, failed: rearm.failed, summary: rearm.summary } : null,
    };
  }

  async modify(req: { order_id: string; price: string; size: string; trigger_price?: string | undefined }): Promise<IpcResponse<'orders:modify'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareModify(ctx, { wallet: this.wallet(), orderId: req.order_id, price: req.price, size: req.size, ...(req.trigger_price !== undefined ? { triggerPrice: req.trigger_price } : {}) });
    const result = await submitModify(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: false });
    if (result.new_order_id) {
      this.session.raise({ type: 'orders.submitted', orders: [{ order_id: result.new_order_id, hint: { market: prepared.row.market, order_type: prepared.row.order_type, justSubmitted: true } }] });
    }
    this.session.raise({ type: 'orders.changed' });
    this.session.raise({ type: 'history.changed', kinds: ['orders'] });
    return { old_order_id: result.old_order_id, new_order_id: result.new_order_id, status: result.status, reason: result.reason };
  }

  async cancel(req: { order_id: string; order_type?: 'LIMIT' | 'TRIGGER' | undefined }): Promise<IpcResponse<'orders:cancel'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareCancel(ctx, { wallet: this.wallet(), orderId: req.order_id, ...(req.order_type ? { orderType: req.order_type } : {}) });
    return this.afterCancel((await submitCancel(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { confirm: false })).results);
  }

  async cancelAll(req: { market?: string | undefined }): Promise<IpcResponse<'orders:cancelAll'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareCancelAll(ctx, { wallet: this.wallet(), ...(req.market ? { market: req.market } : {}) });
    return this.afterCancel((await submitCancel(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { confirm: false })).results);
  }

  /** A cancel is asynchronous: the orders are followed so their CANCELLED (or FILLED) status arrives as events. */
  private afterCancel(results: CancelLegResult[]): IpcResponse<'orders:cancel'> {
    this.session.raise({ type: 'orders.submitted', orders: results.map((r) => ({ order_id: r.order_id, hint: { order_type: r.order_type, justSubmitted: false } })) });
    this.session.raise({ type: 'history.changed', kinds: ['orders'] });
    return { results: results.map((r) => ({ order_id: r.order_id, order_type: r.order_type, status: r.status, reason: r.reason })) };
  }

  async openOrders(req: { market?: string | undefined }): Promise<{ orders: OpenOrderView[] }> {
    const rows = await readOpenOrders(this.session.ctx(), this.wallet(), req.market ? { market: req.market } : {});
    return { orders: openOrdersWithLegs(rows) };
  }

  async triggers(req: { market?: string | undefined }): Promise<IpcResponse<'orders:listTriggers'>> {
    const rows = await readTriggers(this.session.ctx(), this.wallet(), req.market ? { market: req.market } : {});
    return { triggers: rows.map(listedOrderView) };
  }
}
