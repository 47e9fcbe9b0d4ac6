/**
 * Trades as the venue's `trades` channel publishes them (Hyperliquid's WsTrade: coin, side B/A, px, sz,
 * time, hash, tid, users), from both sources the simulated venue has: the order engine's fills
 * (recordTrade) and the random walk's background volume of other traders (each tick's volume is one
 * trade at the new mark). A walk trade's side follows the tick: an uptick was lifted by a buyer (B), a
 * downtick hit by a seller (A), and an unchanged mark alternates by trade id, so the tape is
 * deterministic and draws nothing from the walk's generator (prices stay what they were).
 */
import { createHash } from 'node:crypto';
import type Decimal from 'decimal.js';
import { fmt } from './priceWalk.js';
import type { TradeSide, VenueTrade } from './venueTypes.js';

/** The simulator does not expose counterparties: both users are the zero address. */
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function tradeOf(coin: string, px: Decimal, sz: Decimal, side: TradeSide, time: number, tid: number): VenueTrade {
  return {
    coin,
    side,
    px: fmt(px),
    sz: fmt(sz),
    time,
    // Derived from the trade id rather than drawn from the walk's generator, so trades never shift prices.
    hash: '0x' + createHash('sha256').update(`${coin}:${tid}`).digest('hex'),
    tid,
    users: [ZERO_ADDRESS, ZERO_ADDRESS],
  };
}

/** The taker side of a walk trade: buyers lift an uptick, sellers hit a downtick. */
export function walkTradeSide(before: Decimal, after: Decimal, tid: number): TradeSide {
  if (after.gt(before)) return 'B';
  if (after.lt(before)) return 'A';
  return tid % 2 === 0 ? 'B' : 'A';
}
