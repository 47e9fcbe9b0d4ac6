/**
 * Which slice rejections stop a TWAP. A rejection that depends on the moment (nothing within the bound
 * just now, the venue unreachable for a while, its live data held or refused) leaves that slice unfilled and the TWAP goes on; every
 * other one would meet the next slice too (no margin, no position left to reduce, the key revoked), so
 * the TWAP stops at once and says which reason stopped it and why waiting would not help. A reason this
 * list does not know stops it as well: firing more slices into an unexplained refusal helps nobody.
 */

/** Reasons a later slice may well not meet. */
const MOMENTARY = new Set(['no_liquidity_within_limit', 'unfilled_remainder_cancelled', 'venue_unreachable', 'market_data_frozen']);

const WHY: Record<string, string> = {
  insufficient_margin: 'the free balance cannot pay the margin of a slice, and it does not grow by itself',
  INSUFFICIENT_BALANCE: 'the free balance cannot pay the margin of a slice, and it does not grow by itself',
  leverage_exceeds_max: "the leverage is above the market's maximum",
  reduce_only_no_position: 'there is no position left to reduce',
  close_trigger_coexistence: 'an armed TP/SL trigger blocks reduce-only orders until it is cancelled',
  market_inactive: 'the market is not tradable',
  MARKET_INACTIVE: 'the market is not tradable',
  unknown_market: 'the market is not listed',
  UNKNOWN_MARKET: 'the market is not listed',
  min_order_value: "a slice is worth less than the market's min_order_value",
  max_notional: "a slice is above the market's max_notional",
  FORBIDDEN: 'no active trading key matches (revoked or expired): every slice would be refused',
  NO_TRADING_KEY: 'there is no usable trading key here: every slice would be refused',
};

export function isMomentaryRejection(reason: string | null): boolean {
  return reason !== null && MOMENTARY.has(reason);
}

/** "rejected: insufficient_margin (the free balance cannot ...)": the stop detail a person reads. */
export function explainStop(reason: string, slice: number, total: number, message?: string): string {
  const why = WHY[reason] ?? `repeating the same order would be refused the same way${message ? ` (${message})` : ''}`;
  return `slice ${slice}/${total} was rejected: ${reason} (${why}); the TWAP stopped`;
}
