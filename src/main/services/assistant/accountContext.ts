/**
 * What the assistant is told about the account: a compact JSON summary of the user's own balance,
 * positions, open orders and latest fills, built from the account reads (services/reads). Values stay the
 * service's own decimal strings; rows are cut to the newest ones so the prompt stays small, and the
 * summary says how many were left out. Nothing in it is secret (the spec treats account data as public),
 * but it is sent only with the question the user asked.
 */
import type { Balance, Fill, ListedOrder, Position } from '../../../shared/protocol/index.js';
import type { TradingApiClient } from '../../api/tradingApiClient.js';
import type { LiveConfig } from '../liveConfig.js';
import { readBalance, readPositions } from '../reads/accountReads.js';
import { walletIds } from '../orders/orderContext.js';

/** The reads the assistant needs; the default is the account reads over the trading API. */
export interface AccountReads {
  balance(wallet: string): Promise<Balance>;
  positions(wallet: string): Promise<Position[]>;
  /** Newest first, at most `limit`, and the total. */
  openOrders(wallet: string, limit: number): Promise<{ rows: ListedOrder[]; total: number }>;
  fills(wallet: string, limit: number): Promise<{ rows: Fill[]; total: number }>;
}

export function accountReadsOf(ctx: { api: TradingApiClient; config: LiveConfig }): AccountReads {
  return {
    balance: (wallet) => readBalance(ctx, wallet),
    positions: (wallet) => readPositions(ctx, wallet),
    // One page each: the assistant needs the recent picture, not a full export (which reads/ does).
    openOrders: async (wallet, limit) => {
      const p = await ctx.api.openOrders({ wallet: walletIds(wallet).wallet, limit });
      return { rows: p.orders, total: p.total };
    },
    fills: async (wallet, limit) => {
      const p = await ctx.api.tradeHistory({ wallet: walletIds(wallet).wallet, limit });
      return { rows: p.fills, total: p.total };
    },
  };
}

export interface ContextLimits {
  orders: number;
  fills: number;
}

export const DEFAULT_CONTEXT_LIMITS: ContextLimits = { orders: 50, fills: 50 };

export interface AccountContext {
  /** The JSON text sent to the model. */
  text: string;
  counts: { positions: number; openOrders: number; openOrdersTotal: number; fills: number; fillsTotal: number };
}

function iso(ms: number | null | undefined): string | null {
  return typeof ms === 'number' ? new Date(ms).toISOString() : null;
}

export async function buildAccountContext(reads: AccountReads, wallet: string, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS, now: number = Date.now()): Promise<AccountContext> {
  const ids = walletIds(wallet);
  const [balance, positions, orders, fills] = await Promise.all([
    reads.balance(ids.wallet),
    reads.positions(ids.wallet),
    reads.openOrders(ids.wallet, limits.orders),
    reads.fills(ids.wallet, limits.fills),
  ]);
  const summary = {
    as_of: iso(now),
    wallet: ids.wallet,
    free_balance_usdc: balance.free_balance,
    positions: positions.map((p) => ({
      market: p.market,
      size: p.size,
      side: p.size.startsWith('-') ? 'short' : 'long',
      entry_price: p.entry_price,
      isolated_margin: p.isolated_margin,
      closeable: p.closeable,
    })),
    open_orders: orders.rows.map((o) => ({
      id: o.order_id,
      market: o.market,
      side: o.side,
      type: o.order_type,
      size: o.size,
      filled: o.filled_size,
      price: o.limit_price,
      ...(o.trigger_price ? { trigger_price: o.trigger_price, tpsl: o.tpsl ?? null } : {}),
      tif: o.time_in_force ?? null,
      reduce_only: o.reduce_only,
      status: o.status,
      submitted: iso(o.submitted_at),
    })),
    open_orders_not_shown: Math.max(0, orders.total - orders.rows.length),
    recent_fills: fills.rows.map((f) => ({
      time: iso(f.filled_at),
      ...(f.market ? { market: f.market } : {}),
      order_id: f.order_id,
      dir: f.dir,
      price: f.price,
      size: f.size,
      fee: f.fee,
      ...(f.closed_pnl !== undefined && f.closed_pnl !== null ? { closed_pnl: f.closed_pnl } : {}),
      ...(f.is_liquidation ? { liquidation: true } : {}),
    })),
    fills_not_shown: Math.max(0, fills.total - fills.rows.length),
  };
  return {
    text: JSON.stringify(summary),
    counts: { positions: positions.length, openOrders: orders.rows.length, openOrdersTotal: orders.total, fills: fills.rows.length, fillsTotal: fills.total },
  };
}
