/**
 * positions:* — the positions priced at the latest marks, close (lifecycle rule 4: all, part, or at a limit
 * price), close all, reverse (rule 5), TP/SL on a position (previewed, then applied) and isolated margin.
 * Each action is prepared and submitted with the wallet's trading key; afterwards the desk says orders and
 * positions changed, and the pumps re-read them.
 */
import type { ConfirmationCode, IpcResponse, PositionTpslPreview, PositionView } from '../../../shared/ipc.js';
import { typedDataView } from '../../../shared/signingViews.js';
import { prepareCloseAll, submitCloseAll } from '../../services/positions/closeAll.js';
import { prepareMargin, submitMargin } from '../../services/positions/margin.js';
import { prepareClose, prepareReverse, submitClose, submitReverse, type ClosePositionResult, type PreparedClose } from '../../services/positions/closePosition.js';
import { preparePositionTpsl, submitPositionTpsl, type PreparedPositionTpsl } from '../../services/positions/positionTpsl.js';
import type { Position } from '../../../shared/protocol/index.js';
import { trailingViews } from '../../services/algos/trailing/trailView.js';
import { walletIds } from '../../services/orders/orderContext.js';
import { readPositionViews } from '../../services/reads/positionRisk.js';
import type { DeskContext } from '../deskContext.js';
import { positionView } from '../views.js';
import { allowanceOf } from './confirmations.js';

/** Closing waits for the fill and for /positions to show it. */
const POSITION_ACTION_TIMEOUT_MS = 60_000;

export class PositionsDesk {
  constructor(private readonly session: DeskContext) {}

  private wallet(): string {
    return this.session.wallet.requireAddress();
  }

  private mark(market: string): string | undefined {
    return this.session.pumps?.latestMark(market);
  }

  async list(): Promise<{ positions: PositionView[]; at: number }> {
    const pumps = this.session.pumps;
    if (pumps) return { positions: await pumps.refreshPositions(), at: Date.now() };
    // Without running streams the marks are read from the venue once.
    const { positions } = await readPositionViews(this.session.ctx(), this.wallet());
    return { positions, at: Date.now() };
  }

  /** A position after an action, priced like the stream's (mark, liquidation estimate, armed TP/SL). */
  private async riskView(p: Position): Promise<PositionView> {
    const ctx = this.session.ctx();
    const [markets, triggers] = await Promise.all([ctx.config.markets(), ctx.api.positionTriggers(walletIds(this.wallet()).wallet)]);
    return { ...positionView(p, this.mark(p.market), { market: markets.find((m) => m.symbol === p.market), triggers: triggers.orders }), trailing: trailingViews(ctx, this.wallet()).get(p.market) ?? null };
  }

  /**
   * Closes all of the position, part of it (percent or size) or at a limit price. The close is one step
   * (no preview); a limit price far past the mark is refused (VALIDATION, reason FAR_PRICE) unless the
   * request confirms FAR_PRICE, so the page asks the person and sends again.
   */
  async close(req: {
    market: string;
    slippage_bps?: number | undefined;
    percent?: string | undefined;
    size?: string | undefined;
    price?: string | undefined;
    confirm?: ConfirmationCode[] | undefined;
  }): Promise<IpcResponse<'positions:close'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareClose(ctx, {
      wallet: this.wallet(),
      market: req.market,
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
      ...(req.percent !== undefined ? { percent: req.percent } : {}),
      ...(req.size !== undefined ? { size: req.size } : {}),
      ...(req.price !== undefined ? { price: req.price } : {}),
      allow: allowanceOf(req.confirm),
    });
    try {
      const res = await submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { timeoutMs: POSITION_ACTION_TIMEOUT_MS });
      this.followClose(res);
      return await this.closeView(prepared, res);
    } finally {
      // Triggers may be gone even when the close failed after them.
      this.changed();
    }
  }

  /** Closes every open position at market (one confirmation in the page): each market's outcome on its own. */
  async closeAll(): Promise<IpcResponse<'positions:closeAll'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareCloseAll(ctx, { wallet: this.wallet() });
    const results: IpcResponse<'positions:closeAll'>['results'] = [];
    try {
      const res = await submitCloseAll(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { timeoutMs: POSITION_ACTION_TIMEOUT_MS });
      for (const r of res.results) {
        const close = prepared.closes.find((c) => c.market === r.market)!;
        if (r.result) {
          this.followClose(r.result);
          const v = await this.closeView(close, r.result);
          results.push({ market: r.market, outcome: r.outcome, order_id: v.order_id, cancelled: v.cancelled, position_after: v.position_after, error: null });
          continue;
        }
        const cancelled = close.view.triggers_to_cancel.filter((t) => r.error?.cancelled_triggers.includes(t.order_id));
        results.push({ market: r.market, outcome: 'failed', order_id: null, cancelled: cancelled.map(cancelledView), position_after: null, error: this.pageError(r.market, r.error!) });
      }
      for (const s of res.skipped) results.push({ market: s.market, outcome: 'skipped', order_id: null, cancelled: [], position_after: null, error: { code: s.code, message: s.message, hint: s.hint } });
      return { results };
    } finally {
      this.changed();
    }
  }

  /** TP/SL on a position: prepared (checked against the mark, typed data built) and kept for applyTpsl. */
  async previewTpsl(req: { market: string; tp?: string | null | undefined; sl?: string | null | undefined; slippage_bps?: number | undefined }): Promise<PositionTpslPreview> {
    const prepared = await preparePositionTpsl(this.session.ctx(), {
      wallet: this.wallet(),
      market: req.market,
      ...(req.tp !== undefined ? { tp: req.tp } : {}),
      ...(req.sl !== undefined ? { sl: req.sl } : {}),
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
    });
    const entry = this.session.reviews.put('tpsl', this.session.scope(), this.session.reviewTtl('orders'), prepared);
    const v = prepared.view;
    return {
      preview_id: entry.id,
      valid_until: entry.validUntil,
      wallet: v.wallet,
      signer: prepared.signer.address,
      market: v.market,
      side: v.side,
      size: v.size,
      entry_price: v.entry_price,
      mark: v.mark,
      before: v.before,
      after: v.after,
      changes: v.changes,
      summary: v.summary,
      warnings: v.warnings,
      requests: prepared.requests.map((r) => ({ label: r.label, digest: r.digest, typed_data: typedDataView(r.typedData) })),
    };
  }

  /** Applies exactly the reviewed TP/SL changes, following each until it is done (armed, moved, gone). */
  async applyTpsl(req: { preview_id: string }): Promise<IpcResponse<'positions:applyTpsl'>> {
    const ctx = this.session.ctx();
    const { payload: prepared } = this.session.reviews.take<'tpsl', PreparedPositionTpsl>(req.preview_id, 'tpsl', this.session.scope());
    try {
      const res = await submitPositionTpsl(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: true, timeoutMs: POSITION_ACTION_TIMEOUT_MS });
      const ids = res.changes.map((c) => c.new_order_id).filter((id): id is string => id !== null);
      if (ids.length > 0) this.session.raise({ type: 'orders.submitted', orders: ids.map((order_id) => ({ order_id, hint: { market: res.market, order_type: 'TRIGGER', justSubmitted: true } })) });
      return { market: res.market, ok: res.ok, changes: res.changes };
    } finally {
      this.changed();
    }
  }

  async reverse(req: { market: string; size?: string | undefined; leverage?: number | undefined; slippage_bps?: number | undefined; confirm?: ConfirmationCode[] | undefined }): Promise<IpcResponse<'positions:reverse'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareReverse(ctx, {
      wallet: this.wallet(),
      market: req.market,
      ...(req.size !== undefined ? { size: req.size } : {}),
      ...(req.leverage !== undefined ? { leverage: req.leverage } : {}),
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
      allow: allowanceOf(req.confirm),
    });
    const res = await submitReverse(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { timeoutMs: POSITION_ACTION_TIMEOUT_MS });
    this.changed();
    return { market: res.market, position_after: await this.riskView(res.position_after) };
  }

  async adjustMargin(req: { market: string; amount: string }): Promise<IpcResponse<'positions:adjustMargin'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareMargin(ctx, { wallet: this.wallet(), market: req.market, amount: req.amount });
    const res = await submitMargin(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: true, timeoutMs: 30_000 });
    this.changed();
    return { market: res.market, amount: res.amount, request_id: res.request_id, status: res.status, reason: res.reason, explanation: res.explanation };
  }

  private async closeView(prepared: PreparedClose, res: ClosePositionResult): Promise<IpcResponse<'positions:close'>> {
    const cancelledIds = new Set(res.cancelled_triggers.map((c) => c.order_id));
    return {
      market: res.market,
      closed: res.closed,
      order_id: res.order.order_id,
      cancelled_triggers: res.cancelled_triggers.length,
      position_after: res.position_after ? await this.riskView(res.position_after) : null,
      cancelled: prepared.view.triggers_to_cancel.filter((t) => cancelledIds.has(t.order_id)).map(cancelledView),
      order_type: res.order.leg.order_type === 'LIMIT' ? 'LIMIT' : 'MARKET',
      size: res.order.leg.size,
      limit_price: res.order.leg.limit_price,
      resting: res.resting,
      order_status: res.order.final?.status ?? null,
      rearm: res.rearm
        ? {
            rearmed: res.rearm.rearmed.map((x) => ({ kind: x.kind, trigger_price: x.trigger_price, limit_price: x.limit_price })),
            past_mark: res.rearm.past_mark,
            failed: res.rearm.failed,
            summary: res.rearm.summary,
          }
        : null,
    };
  }

  /**
   * Every close order is followed by the orders pump, as a placed order is: a resting limit close until it
   * fills or is cancelled, a market close (already filled) once, so its fill arrives as a fills event and
   * its own "Order filled" notification now, not merged into the next fill the pump happens to read.
   */
  private followClose(res: ClosePositionResult): void {
    if (!res.order.order_id) return;
    this.session.raise({ type: 'orders.submitted', orders: [{ order_id: res.order.order_id, hint: { market: res.market, order_type: res.order.leg.order_type, justSubmitted: false } }] });
  }

  /** One market's failure as the page may see it: an unexpected error's text stays in main's log. */
  private pageError(market: string, error: { code: string; message: string; hint: string | null }): { code: string; message: string; hint: string | null } {
    if (error.code !== 'INTERNAL') return error;
    this.session.logger.error(`[positions] closing ${market} failed unexpectedly: ${error.message}`);
    return { code: 'INTERNAL', message: `closing ${market} failed unexpectedly; see the app log`, hint: null };
  }

  private changed(): void {
    this.session.raise({ type: 'history.changed', kinds: ['orders', 'fills'] });
    this.session.raise({ type: 'orders.changed' });
    this.session.raise({ type: 'positions.changed' });
  }
}

function cancelledView(t: { order_id: string; tpsl: string | null; trigger_price: string | null }): { order_id: string; tpsl: 'tp' | 'sl' | null; trigger_price: string | null } {
  return { order_id: t.order_id, tpsl: t.tpsl === 'tp' || t.tpsl === 'sl' ? t.tpsl : null, trigger_price: t.trigger_price };
}
