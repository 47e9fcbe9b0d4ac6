/**
 * Position arithmetic, pure: what one execution does to an isolated position and to the free balance.
 *
 * - Opening (or adding) posts isolated margin from the free balance: notional x max(1/leverage, IMR),
 *   rounded up; the entry price becomes the size-weighted average.
 * - Reducing releases the matching share of margin plus the realized PnL, minus the fee. Isolated margin
 *   caps the loss: a close never takes more than the released margin from the account, and the fill's
 *   closed_pnl says so (the service's records must add up to its balance).
 * - An execution larger than the position flips it: a close part, then an open part (two fills).
 */
import type { Side } from '../../shared/protocol/index.js';
import { Decimal, ZERO, d, money, moneyUp, price8 } from '../core/numbers.js';
import type { FillRow } from '../state/model.js';

export interface PositionState {
  /** Signed size. */
  size: Decimal;
  entry: Decimal;
  margin: Decimal;
}

export interface TradePart {
  kind: 'open' | 'close';
  qty: Decimal;
  dir: FillRow['dir'];
  closedPnl: Decimal | null;
  fee: Decimal;
  /** Change of the free balance caused by this part. */
  balanceDelta: Decimal;
}

export interface TradeEffect {
  parts: TradePart[];
  next: PositionState | null;
  /** Free balance needed up front for the opening part (margin + fee); 0 for a pure close. */
  required: Decimal;
}

export function marginRateFor(leverage: number, maxLeverage: number, imr: Decimal): Decimal {
  const lev = leverage > 0 ? leverage : maxLeverage;
  const byLeverage = new Decimal(1).div(lev);
  return Decimal.max(byLeverage, imr);
}

export function tradeEffect(pos: PositionState | null, side: Side, qty: Decimal, px: Decimal, marginRate: Decimal, feeRate: Decimal): TradeEffect {
  const parts: TradePart[] = [];
  const signed = side === 'BUY' ? qty : qty.neg();
  let state: PositionState | null = pos && !pos.size.isZero() ? { ...pos } : null;
  let left = qty;
  let required = ZERO;

  if (state && state.size.isPositive() !== signed.isPositive()) {
    const abs = state.size.abs();
    const closeQty = Decimal.min(abs, left);
    const released = d(money(state.margin.mul(closeQty).div(abs)));
    const direction = state.size.isPositive() ? 1 : -1;
    const pnl = d(money(px.minus(state.entry).mul(closeQty).mul(direction)));
    const fee = d(money(closeQty.mul(px).mul(feeRate)));
    const credit = Decimal.max(ZERO, released.plus(pnl).minus(fee));
    // The fill records what the account realized: when the margin caps the loss, closed_pnl is the capped
    // loss (credit - released + fee), so closed_pnl - fee is always the cash the account gained or lost.
    const realized = credit.minus(released).plus(fee);
    parts.push({ kind: 'close', qty: closeQty, dir: direction > 0 ? 'Close Long' : 'Close Short', closedPnl: realized, fee, balanceDelta: credit });
    const newAbs = abs.minus(closeQty);
    state = newAbs.isZero() ? null : { size: state.size.isPositive() ? newAbs : newAbs.neg(), entry: state.entry, margin: state.margin.minus(released) };
    left = left.minus(closeQty);
  }

  if (left.gt(0)) {
    const notional = left.mul(px);
    const posted = d(moneyUp(notional.mul(marginRate)));
    const fee = d(money(notional.mul(feeRate)));
    required = posted.plus(fee);
    parts.push({ kind: 'open', qty: left, dir: side === 'BUY' ? 'Open Long' : 'Open Short', closedPnl: null, fee, balanceDelta: posted.plus(fee).neg() });
    if (state) {
      const abs = state.size.abs();
      const total = abs.plus(left);
      const entry = d(price8(abs.mul(state.entry).plus(notional).div(total)));
      state = { size: side === 'BUY' ? total : total.neg(), entry, margin: state.margin.plus(posted) };
    } else {
      state = { size: side === 'BUY' ? left : left.neg(), entry: px, margin: posted };
    }
  }
  return { parts, next: state, required };
}

/** Unrealized PnL at a mark. */
export function unrealizedPnl(pos: PositionState, mark: Decimal): Decimal {
  return mark.minus(pos.entry).mul(pos.size);
}

/** Maintenance margin at a mark: |size| x mark x MMR. */
export function maintenanceMargin(pos: PositionState, mark: Decimal, mmr: Decimal): Decimal {
  return pos.size.abs().mul(mark).mul(mmr);
}

/** True when margin + unrealized PnL has fallen below the maintenance margin. */
export function isLiquidatable(pos: PositionState, mark: Decimal, mmr: Decimal): boolean {
  return pos.margin.plus(unrealizedPnl(pos, mark)).lt(maintenanceMargin(pos, mark, mmr));
}

/**
 * Mark at which margin + uPnL = maintenance margin. Long: (s*e - m) / (s*(1 - mmr));
 * short (q = |s|): (m + e*q) / (q*(1 + mmr)). Null when no positive price liquidates it.
 */
export function liquidationPrice(pos: PositionState, mmr: Decimal): Decimal | null {
  const q = pos.size.abs();
  if (q.isZero()) return null;
  const px = pos.size.isPositive()
    ? q.mul(pos.entry).minus(pos.margin).div(q.mul(new Decimal(1).minus(mmr)))
    : pos.margin.plus(pos.entry.mul(q)).div(q.mul(new Decimal(1).plus(mmr)));
  return px.gt(0) ? d(price8(px)) : null;
}

/** Margin that can be removed now: margin + min(uPnL, 0) - |size| x mark x IMR, at least 0. */
export function maxRemovable(pos: PositionState, mark: Decimal, imr: Decimal): Decimal {
  const upnl = unrealizedPnl(pos, mark);
  const v = pos.margin.plus(Decimal.min(upnl, ZERO)).minus(pos.size.abs().mul(mark).mul(imr));
  return v.gt(0) ? d(money(v.toDecimalPlaces(6, Decimal.ROUND_DOWN))) : ZERO;
}
