/**
 * positions:* — the positions priced at the latest marks, close (lifecycle rule 4), reverse (rule 5) and
 * isolated margin. Each action is prepared and submitted with the wallet's trading key; afterwards the
 * desk says orders and positions changed, and the pumps re-read them.
 */
import type { IpcResponse, PositionView } from '../../../shared/ipc.js';
import { prepareMargin, submitMargin } from '../../services/positions/margin.js';
import { prepareClose, prepareReverse, submitClose, submitReverse } from '../../services/positions/closePosition.js';
import type { Position } from '../../../shared/protocol/index.js';
import { walletIds } from '../../services/orders/orderContext.js';
import { readPositionViews } from '../../services/reads/positionRisk.js';
import type { Session } from '../session.js';
import { positionView } from '../views.js';

/** Closing waits for the fill and for /positions to show it. */
const POSITION_ACTION_TIMEOUT_MS = 60_000;

export class PositionsDesk {
  constructor(private readonly session: Session) {}

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
    return positionView(p, this.mark(p.market), { market: markets.find((m) => m.symbol === p.market), triggers: triggers.orders });
  }

  async close(req: { market: string; slippage_bps?: number | undefined }): Promise<IpcResponse<'positions:close'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareClose(ctx, { wallet: this.wallet(), market: req.market, ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}) });
    const res = await submitClose(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { timeoutMs: POSITION_ACTION_TIMEOUT_MS });
    this.changed();
    return {
      market: res.market,
      closed: res.closed,
      order_id: res.order.order_id,
      cancelled_triggers: res.cancelled_triggers.length,
      position_after: res.position_after ? await this.riskView(res.position_after) : null,
    };
  }

  async reverse(req: { market: string; size?: string | undefined; leverage?: number | undefined; slippage_bps?: number | undefined }): Promise<IpcResponse<'positions:reverse'>> {
    const ctx = this.session.ctx();
    const prepared = await prepareReverse(ctx, {
      wallet: this.wallet(),
      market: req.market,
      ...(req.size !== undefined ? { size: req.size } : {}),
      ...(req.leverage !== undefined ? { leverage: req.leverage } : {}),
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
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

  private changed(): void {
    this.session.raise({ type: 'history.changed', kinds: ['orders', 'fills'] });
    this.session.raise({ type: 'orders.changed' });
    this.session.raise({ type: 'positions.changed' });
  }
}
