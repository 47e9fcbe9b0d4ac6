/**
 * A position as a trader reads it: the service's Position priced at the venue mark (notional, unrealized
 * PnL, return on margin), its estimated liquidation price and distance (src/shared/protocol/riskMath.ts,
 * with the market's maintenance_margin_ratio), the armed whole-position TP/SL from position-triggers, and
 * why closeable is 0 when armed triggers hold it. The app's positions stream and `perps positions` build
 * their rows here, so both show the same figures.
 */
import { Decimal, canonical } from '../../../shared/decimal/index.js';
import type { PositionTriggerView, PositionView } from '../../../shared/ipc.js';
import { liquidationDistance, liquidationPrice, type ListedOrder, type Market, type Position } from '../../../shared/protocol/index.js';
import { joinMarkets } from '../../venue/marketJoin.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import type { CsvColumn } from './csv.js';

/** Places kept for derived ratios (PnL and distance fractions). */
import { protectionFields, readProtection } from '../positions/protection.js';

export const RATIO_PLACES = 8;
/** Places of money (USDC). */
export const MONEY_PLACES = 6;

/** Shown when armed reduce-only triggers make closeable 0 (lifecycle rule 3): a close deals with them. */
export const CLOSE_CANCELS_TRIGGERS_NOTE = 'Close cancels the armed TP/SL first';

export interface PositionRiskInputs {
  /** The venue mark of the position's market; without one, PnL and distance are null. */
  mark?: string | undefined;
  /** The market record (its maintenance_margin_ratio); without it, no liquidation estimate. */
  market?: Pick<Market, 'maintenance_margin_ratio'> | undefined;
  /** The account's armed reduce-only triggers (position-triggers); any market, filtered here. */
  triggers?: readonly ListedOrder[] | undefined;
}

function fixed(value: Decimal, places: number): string {
  return canonical(value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP));
}

/** An armed whole-position trigger (size 0, reduce-only) of this kind on the market; the newest wins. */
function wholePositionTrigger(triggers: readonly ListedOrder[], market: string, tpsl: 'tp' | 'sl'): PositionTriggerView | null {
  const found = triggers
    .filter((o) => o.market === market && o.order_type === 'TRIGGER' && o.reduce_only && o.tpsl === tpsl && !o.parent_order_id && new Decimal(o.size).isZero() && typeof o.trigger_price === 'string')
    .sort((a, b) => b.submitted_at - a.submitted_at)[0];
  return found && typeof found.trigger_price === 'string' ? { order_id: found.order_id, trigger_price: found.trigger_price, limit_price: found.limit_price } : null;
}

export function positionRiskView(p: Position, inputs: PositionRiskInputs = {}): PositionView {
  const size = new Decimal(p.size);
  const triggers = inputs.triggers ?? [];
  const liq = inputs.market ? liquidationPrice(p, inputs.market.maintenance_margin_ratio) : null;
  const armedHere = triggers.some((o) => o.market === p.market && o.reduce_only && o.order_type === 'TRIGGER' && !o.parent_order_id);
  const view: PositionView = {
    id: p.id,
    market: p.market,
    side: size.isNeg() ? 'SHORT' : 'LONG',
    size: p.size,
    entry_price: p.entry_price,
    mark: inputs.mark ?? null,
    notional: null,
    unrealized_pnl: null,
    return_on_margin: null,
    isolated_margin: p.isolated_margin,
    closeable: p.closeable,
    status: p.status,
    version: p.version,
    liquidation_price: liq ? canonical(liq) : null,
    liquidation_distance: null,
    tp: wholePositionTrigger(triggers, p.market, 'tp'),
    sl: wholePositionTrigger(triggers, p.market, 'sl'),
    closeable_note: new Decimal(p.closeable).isZero() && armedHere ? CLOSE_CANCELS_TRIGGERS_NOTE : null,
  };
  if (inputs.mark !== undefined) {
    const m = new Decimal(inputs.mark);
    const pnl = size.times(m.minus(p.entry_price));
    view.notional = fixed(size.abs().times(m), MONEY_PLACES);
    view.unrealized_pnl = fixed(pnl, MONEY_PLACES);
    const margin = new Decimal(p.isolated_margin);
    if (margin.gt(0)) view.return_on_margin = fixed(pnl.div(margin), RATIO_PLACES);
    if (liq && m.gt(0)) view.liquidation_distance = fixed(liquidationDistance(size, m, liq)!, RATIO_PLACES);
  }
  return view;
}

/**
 * Every open position of the wallet with its risk figures: /positions, position-triggers, /markets and the
 * venue's marks (joined on venue_asset_index / venue_symbol), read together. A market the venue gives no
 * mark for is shown without PnL rather than failing the whole list.
 */
export async function readPositionViews(ctx: Pick<TradingContext, 'api' | 'config' | 'venue'>, wallet: string): Promise<{ positions: PositionView[]; markets: Map<string, Market> }> {
  const ids = walletIds(wallet);
  const [{ positions }, triggers, markets] = await Promise.all([ctx.api.positions(ids.accountId), ctx.api.positionTriggers(ids.wallet), ctx.config.markets()]);
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  const marks = new Map<string, string>();
  if (positions.length > 0) {
    const [meta, ctxs] = await ctx.venue.metaAndAssetCtxs();
    const held = positions.map((p) => bySymbol.get(p.market)).filter((m): m is Market => m !== undefined);
    for (const j of joinMarkets(held, meta, ctxs).joined) if (j.ctx) marks.set(j.market.symbol, j.ctx.markPx);
  }
  // Each position's stop and take-profit: armed, none, or failed (fired and cancelled unfilled).
  const protection = positions.length > 0 ? (await readProtection(ctx, wallet, { positions, triggers: triggers.orders })).byMarket : new Map();
  return {
    positions: positions.map((p) => ({ ...positionRiskView(p, { mark: marks.get(p.market), market: bySymbol.get(p.market), triggers: triggers.orders }), ...protectionFields(protection.get(p.market)) })),
    markets: bySymbol,
  };
}

/** `perps positions --csv`: the trader's fields at full precision (no internal version). */
export const POSITION_VIEW_CSV_COLUMNS: readonly CsvColumn<PositionView>[] = [
  { header: 'market', value: (p) => p.market },
  { header: 'side', value: (p) => p.side },
  { header: 'size', value: (p) => p.size },
  { header: 'entry_price', value: (p) => p.entry_price },
  { header: 'mark', value: (p) => p.mark },
  { header: 'unrealized_pnl', value: (p) => p.unrealized_pnl },
  { header: 'return_on_margin', value: (p) => p.return_on_margin },
  { header: 'liquidation_price', value: (p) => p.liquidation_price },
  { header: 'liquidation_distance', value: (p) => p.liquidation_distance },
  { header: 'isolated_margin', value: (p) => p.isolated_margin },
  { header: 'tp_trigger_price', value: (p) => p.tp?.trigger_price ?? null },
  { header: 'sl_trigger_price', value: (p) => p.sl?.trigger_price ?? null },
  { header: 'closeable', value: (p) => p.closeable },
  { header: 'id', value: (p) => p.id },
];
