/**
 * The account's health (issue 14): equity, maintenance margin, margin ratio, account leverage and what can
 * be withdrawn, from the free balance, the open positions, the markets' maintenance_margin_ratio and the
 * venue's marks (src/shared/protocol/riskMath.ts accountHealth). The service has no equity endpoint, so
 * every figure is COMPUTED here and says so. The app's account panel (account:health) and `perps balance`
 * both read it.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { AccountHealthView } from '../../../shared/ipc.js';
import { accountHealth, type Market, type Position } from '../../../shared/protocol/index.js';
import { joinMarkets } from '../../venue/marketJoin.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { MONEY_PLACES, RATIO_PLACES } from './positionRisk.js';

export const EQUITY_NOTE = 'Computed by Perps Desk: equity = free balance + posted margin + unrealized PnL at the venue mark (the service has no equity endpoint).';

export interface AccountHealthOptions {
  /** Marks already known (the app's marks stream); markets missing here are read from the venue. */
  marks?: (market: string) => string | undefined;
}

const money = (v: Decimal): string => canonical(v.toDecimalPlaces(MONEY_PLACES, Decimal.ROUND_HALF_UP));
const ratio = (v: Decimal): string => canonical(v.toDecimalPlaces(RATIO_PLACES, Decimal.ROUND_HALF_UP));

/** Marks of the held markets: the known ones, then one venue read (joined on venue_asset_index / venue_symbol) for the rest. */
export async function marksOf(ctx: Pick<TradingContext, 'venue'>, held: readonly Market[], known: AccountHealthOptions['marks']): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const m of held) {
    const mark = known?.(m.symbol);
    if (mark !== undefined) out.set(m.symbol, mark);
  }
  const missing = held.filter((m) => !out.has(m.symbol));
  if (missing.length === 0) return out;
  const [meta, ctxs] = await ctx.venue.metaAndAssetCtxs();
  for (const j of joinMarkets(missing, meta, ctxs).joined) if (j.ctx) out.set(j.market.symbol, j.ctx.markPx);
  return out;
}

/** `markets`: each listed market's maintenance ratio, the one thing read of it (a market missing is unpriced). */
export function accountHealthView(wallet: string, freeBalance: string, positions: readonly Position[], markets: ReadonlyMap<string, Pick<Market, 'maintenance_margin_ratio'>>, marks: ReadonlyMap<string, string>, at: number): AccountHealthView {
  const ids = walletIds(wallet);
  const h = accountHealth(
    freeBalance,
    positions.map((p) => {
      const market = markets.get(p.market);
      // A position on a market /markets no longer lists cannot be priced for maintenance: shown unpriced.
      return { ...p, mark: market ? (marks.get(p.market) ?? null) : null, maintenance_margin_ratio: market?.maintenance_margin_ratio ?? '0' };
    }),
  );
  const opt = (v: Decimal | null, f: (d: Decimal) => string): string | null => (v === null ? null : f(v));
  return {
    wallet: ids.wallet,
    account_id: ids.accountId,
    free_balance: freeBalance,
    posted_margin: money(h.posted_margin),
    unrealized_pnl: opt(h.unrealized_pnl, money),
    equity: opt(h.equity, money),
    open_notional: opt(h.open_notional, money),
    maintenance_margin: opt(h.maintenance_margin, money),
    margin_ratio: opt(h.margin_ratio, ratio),
    account_leverage: opt(h.account_leverage, ratio),
    withdrawable: money(h.withdrawable),
    unpriced_markets: h.unpriced_markets,
    computed: true,
    note: EQUITY_NOTE,
    at,
  };
}

/** Reads the balance, positions and markets (and the marks it was not given) and computes the figures. */
export async function readAccountHealth(ctx: Pick<TradingContext, 'api' | 'config' | 'venue'>, wallet: string, options: AccountHealthOptions = {}): Promise<AccountHealthView> {
  const ids = walletIds(wallet);
  const [balance, { positions }, markets] = await Promise.all([ctx.api.balance(ids.accountId), ctx.api.positions(ids.accountId), ctx.config.markets()]);
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  const held = [...new Set(positions.map((p) => p.market))].map((s) => bySymbol.get(s)).filter((m): m is Market => m !== undefined);
  const marks = await marksOf(ctx, held, options.marks);
  return accountHealthView(ids.wallet, balance.free_balance, positions, bySymbol, marks, Date.now());
}
