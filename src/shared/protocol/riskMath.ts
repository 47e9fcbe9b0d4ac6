/**
 * The risk arithmetic of isolated positions, pure, over decimal strings: the estimated liquidation price,
 * how far the mark is from it, the account's health figures, and the position an order would leave. The
 * positions pump, the order review, the app's ticket and the command line all call these, so every place
 * shows the same numbers.
 *
 * The rules are the service's (as the simulator implements them, src/sim/positions/ledger.ts and
 * src/sim/liquidation): an isolated position is liquidated when
 *
 *     isolated_margin + size x (mark - entry) < |size| x mark x maintenance_margin_ratio
 *
 * Solving the equality for the mark gives the closed form
 *
 *     long  (s > 0):        p = (s·e - m) / (s·(1 - mmr))    (none when s·e <= m: margin covers the notional)
 *     short (s = -q < 0):   p = (m + q·e) / (q·(1 + mmr))
 *
 * The service publishes no liquidation price (a Position has none), so this is always an ESTIMATE: it
 * assumes the isolated margin stays as it is (funding is paid into it hourly, and margin can be added or
 * removed). It is rounded to 8 places on the safe side — up for a long, down for a short — so a mark AT
 * the estimate still survives and a mark one unit of the 8th place past it is liquidated.
 *
 * The position an order leaves follows the simulator's ledger to the rounding: opening posts
 * notional x max(1/leverage, initial_margin_ratio) rounded UP to 6 places (tradingMath.initialMargin),
 * the entry becomes the size-weighted average rounded half-up to 8 places, and reducing releases the
 * closed share of the margin, rounded half-up to 6 places; an execution larger than the position closes
 * it and opens the rest the other way.
 */
import { Decimal, DecimalError, parseDecimal } from '../decimal/decimal.js';
import type { Market } from './schemas/config.js';
import type { Side } from './schemas/orders.js';
import { initialMargin } from './tradingMath.js';

type Dec = Decimal | string;
const dec = (v: Dec, field: string): Decimal => (typeof v === 'string' ? parseDecimal(v, field) : v);

/** Places of derived prices (entry, liquidation), as the service's engine keeps them. */
export const RISK_PRICE_PLACES = 8;
/** Places of money (margin), USDC's. */
export const RISK_MONEY_PLACES = 6;

/** What the liquidation arithmetic needs of a position: signed size, entry and posted margin. */
export interface RiskPosition {
  /** Signed: positive long, negative short. */
  size: Dec;
  entry_price: Dec;
  isolated_margin: Dec;
}

function ratio(mmr: Dec): Decimal {
  const r = dec(mmr, 'maintenance_margin_ratio');
  // A ratio of 1 or more would make every position liquidatable at any price: a broken market record,
  // never something to compute a price from.
  if (r.isNegative() || r.gte(1)) throw new DecimalError(`must be at least 0 and below 1, got ${r.toFixed()}`, 'maintenance_margin_ratio');
  return r;
}

/**
 * The estimated liquidation price, or null when no positive mark liquidates the position (a long whose
 * margin covers its whole notional at entry, or no position at all).
 */
export function liquidationPrice(pos: RiskPosition, maintenanceMarginRatio: Dec): Decimal | null {
  const s = dec(pos.size, 'size');
  const e = dec(pos.entry_price, 'entry_price');
  const m = dec(pos.isolated_margin, 'isolated_margin');
  const mmr = ratio(maintenanceMarginRatio);
  if (s.isZero()) return null;
  if (s.isPositive()) {
    const numerator = s.mul(e).minus(m);
    if (numerator.lte(0)) return null;
    return numerator.div(s.mul(new Decimal(1).minus(mmr))).toDecimalPlaces(RISK_PRICE_PLACES, Decimal.ROUND_UP);
  }
  const q = s.abs();
  const p = m.plus(q.mul(e)).div(q.mul(new Decimal(1).plus(mmr))).toDecimalPlaces(RISK_PRICE_PLACES, Decimal.ROUND_DOWN);
  return p.gt(0) ? p : null;
}

/** The liquidation check itself (the service's rule, strictly below): true when this mark liquidates. */
export function isLiquidatedAt(pos: RiskPosition, mark: Dec, maintenanceMarginRatio: Dec): boolean {
  const s = dec(pos.size, 'size');
  const p = dec(mark, 'mark');
  const equity = dec(pos.isolated_margin, 'isolated_margin').plus(s.mul(p.minus(dec(pos.entry_price, 'entry_price'))));
  return equity.lt(s.abs().mul(p).mul(ratio(maintenanceMarginRatio)));
}

/**
 * How far the mark is from the liquidation price, as a fraction of the mark: (mark - liq) / mark for a
 * long, (liq - mark) / mark for a short. Positive on the safe side; 0.1 means a 10 % move of the mark
 * liquidates. Null without a liquidation price.
 */
export function liquidationDistance(size: Dec, mark: Dec, liquidation: Dec | null): Decimal | null {
  if (liquidation === null) return null;
  const p = dec(mark, 'mark');
  if (p.lte(0)) throw new DecimalError('must be positive', 'mark');
  const l = dec(liquidation, 'liquidation_price');
  const gap = dec(size, 'size').isPositive() ? p.minus(l) : l.minus(p);
  return gap.div(p);
}

/**
 * A liquidation price rounded for display to `places` decimals, on the safe side (toward the mark: up for
 * a long, down for a short), so a shortened figure never promises more room than there is.
 */
export function liquidationForDisplay(size: Dec, liquidation: Dec, places: number): Decimal {
  const long = dec(size, 'size').isPositive();
  return dec(liquidation, 'liquidation_price').toDecimalPlaces(places, long ? Decimal.ROUND_UP : Decimal.ROUND_DOWN);
}

// ---- account health -----------------------------------------------------------------------------------

export interface HealthPosition extends RiskPosition {
  market: string;
  /** The venue mark, or null when none is known (the figures that need it are then null). */
  mark: Dec | null;
  maintenance_margin_ratio: Dec;
}

export interface AccountHealth {
  /** Sum of the positions' isolated margin. */
  posted_margin: Decimal;
  /** Sum of size x (mark - entry); null when a position has no mark. */
  unrealized_pnl: Decimal | null;
  /** free balance + posted margin + unrealized PnL: computed here, the service has no equity endpoint. */
  equity: Decimal | null;
  /** Sum of |size| x mark. */
  open_notional: Decimal | null;
  /** Sum of |size| x mark x maintenance_margin_ratio. */
  maintenance_margin: Decimal | null;
  /** maintenance margin / equity; null when equity is not positive. */
  margin_ratio: Decimal | null;
  /** open notional / equity; null when equity is not positive. */
  account_leverage: Decimal | null;
  /** The free balance: the service lets exactly that be withdrawn. */
  withdrawable: Decimal;
  /** Markets of positions without a mark (their figures could not be computed). */
  unpriced_markets: string[];
}

export function accountHealth(freeBalance: Dec, positions: readonly HealthPosition[]): AccountHealth {
  const free = dec(freeBalance, 'free_balance');
  let posted = new Decimal(0);
  let pnl = new Decimal(0);
  let notional = new Decimal(0);
  let maintenance = new Decimal(0);
  const unpriced: string[] = [];
  for (const p of positions) {
    const size = dec(p.size, 'size');
    posted = posted.plus(dec(p.isolated_margin, 'isolated_margin'));
    if (p.mark === null) {
      unpriced.push(p.market);
      continue;
    }
    const mark = dec(p.mark, 'mark');
    pnl = pnl.plus(size.mul(mark.minus(dec(p.entry_price, 'entry_price'))));
    const n = size.abs().mul(mark);
    notional = notional.plus(n);
    maintenance = maintenance.plus(n.mul(ratio(p.maintenance_margin_ratio)));
  }
  const priced = unpriced.length === 0;
  const equity = priced ? free.plus(posted).plus(pnl) : null;
  const positive = equity !== null && equity.gt(0);
  return {
    posted_margin: posted,
    unrealized_pnl: priced ? pnl : null,
    equity,
    open_notional: priced ? notional : null,
    maintenance_margin: priced ? maintenance : null,
    margin_ratio: positive ? maintenance.div(equity) : null,
    account_leverage: positive ? notional.div(equity) : null,
    withdrawable: free,
    unpriced_markets: unpriced,
  };
}

// ---- the position an order leaves ---------------------------------------------------------------------

/** One execution of an order. */
export interface OrderFill {
  side: Side;
  /** Unsigned size filled. */
  size: Dec;
  price: Dec;
  /** The signed leverage; 0 (none signed) reads as the market's max_leverage, as the service reads it. */
  leverage: number;
  /** A reduce-only fill only shrinks the position, up to its size, and posts no margin. */
  reduce_only?: boolean;
}

/** A position as the arithmetic leaves it: signed size, entry and margin, all exact decimals. */
export interface PositionState {
  size: Decimal;
  entry_price: Decimal;
  isolated_margin: Decimal;
}

export interface PositionAfter extends PositionState {
  /** The estimate for the resulting position (null when none at a positive price). */
  liquidation_price: Decimal | null;
}

type RiskMarket = Pick<Market, 'max_leverage' | 'initial_margin_ratio' | 'maintenance_margin_ratio'>;

function stateOf(pos: RiskPosition | null): PositionState | null {
  if (pos === null) return null;
  const size = dec(pos.size, 'size');
  if (size.isZero()) return null;
  return { size, entry_price: dec(pos.entry_price, 'entry_price'), isolated_margin: dec(pos.isolated_margin, 'isolated_margin') };
}

/** What one fill does to a position (null: flat), exactly as the service's ledger books it. */
export function applyFill(current: RiskPosition | null, fill: OrderFill, market: Pick<Market, 'max_leverage' | 'initial_margin_ratio'>): PositionState | null {
  let state = stateOf(current);
  let left = dec(fill.size, 'size');
  const px = dec(fill.price, 'price');
  if (left.isNegative()) throw new DecimalError('must not be negative', 'size');
  if (px.lte(0)) throw new DecimalError('must be positive', 'price');
  const buying = fill.side === 'BUY';
  const against = state !== null && state.size.isPositive() !== buying;
  if (fill.reduce_only === true) {
    // Reduce-only: only the opposite position's size executes; with none, nothing does.
    if (!against) return state;
    left = Decimal.min(left, state!.size.abs());
  }
  if (state && against) {
    const abs = state.size.abs();
    const closeQty = Decimal.min(abs, left);
    const released = state.isolated_margin.mul(closeQty).div(abs).toDecimalPlaces(RISK_MONEY_PLACES, Decimal.ROUND_HALF_UP);
    const rest = abs.minus(closeQty);
    state = rest.isZero() ? null : { size: state.size.isPositive() ? rest : rest.neg(), entry_price: state.entry_price, isolated_margin: state.isolated_margin.minus(released) };
    left = left.minus(closeQty);
  }
  if (left.gt(0)) {
    const notional = left.mul(px);
    const posted = initialMargin(notional, fill.leverage, market, false).toDecimalPlaces(RISK_MONEY_PLACES, Decimal.ROUND_UP);
    if (state) {
      const abs = state.size.abs();
      const total = abs.plus(left);
      const entry = abs.mul(state.entry_price).plus(notional).div(total).toDecimalPlaces(RISK_PRICE_PLACES, Decimal.ROUND_HALF_UP);
      state = { size: buying ? total : total.neg(), entry_price: entry, isolated_margin: state.isolated_margin.plus(posted) };
    } else {
      state = { size: buying ? left : left.neg(), entry_price: px.toDecimalPlaces(RISK_PRICE_PLACES, Decimal.ROUND_HALF_UP), isolated_margin: posted };
    }
  }
  return state;
}

/**
 * The position these fills leave, in order, with its liquidation estimate; null when they leave the
 * market flat. The ticket calls it with the order it shows, the review with the legs that would fill.
 */
export function positionAfterFills(current: RiskPosition | null, fills: readonly OrderFill[], market: RiskMarket): PositionAfter | null {
  let state = stateOf(current);
  for (const f of fills) state = applyFill(state, f, market);
  if (state === null) return null;
  return { ...state, liquidation_price: liquidationPrice(state, market.maintenance_margin_ratio) };
}
