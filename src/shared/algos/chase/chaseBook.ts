/**
 * A book message from the venue as a chase reads it: checked as a whole before any price in it is used.
 * The socket's schema already holds each field to its type; this holds the book to what a book is: its
 * coin, positive prices and sizes, bids falling and asks rising from the best, and the best bid below
 * the best ask. A book that fails freezes the chase (nothing is sent on it) until a good one comes.
 */
import { Decimal, isDecimalString } from '../../decimal/index.js';
import type { BestPrices } from './chasePrice.js';

export type BookCheck = { ok: true; best: BestPrices; time: number } | { ok: false; problem: string };

interface Level {
  px: unknown;
  sz: unknown;
}

function levelsOf(raw: unknown, side: string): Level[] | string {
  if (!Array.isArray(raw)) return `${side} is not a list of levels`;
  if (raw.length === 0) return `no ${side}`;
  for (const [i, l] of raw.entries()) {
    if (typeof l !== 'object' || l === null) return `${side}[${i}] is not a level`;
    const { px, sz } = l as Level;
    if (!isDecimalString(px) || !new Decimal(px).gt(0)) return `${side}[${i}] has no positive price`;
    if (!isDecimalString(sz) || !new Decimal(sz).gt(0)) return `${side}[${i}] has no positive size`;
  }
  return raw as Level[];
}

/** The best bid and ask of an l2Book message for `coin`, or why it cannot be used. */
export function checkChaseBook(raw: unknown, coin: string): BookCheck {
  if (typeof raw !== 'object' || raw === null) return { ok: false, problem: 'the book is not an object' };
  const b = raw as { coin?: unknown; time?: unknown; levels?: unknown };
  if (b.coin !== coin) return { ok: false, problem: `the book is for ${typeof b.coin === 'string' ? b.coin.slice(0, 20) : 'no coin'}, not ${coin}` };
  if (typeof b.time !== 'number' || !Number.isSafeInteger(b.time) || b.time < 0) return { ok: false, problem: 'the book has no time' };
  if (!Array.isArray(b.levels) || b.levels.length !== 2) return { ok: false, problem: 'the book does not have two sides' };
  const bids = levelsOf(b.levels[0], 'bids');
  if (typeof bids === 'string') return { ok: false, problem: bids };
  const asks = levelsOf(b.levels[1], 'asks');
  if (typeof asks === 'string') return { ok: false, problem: asks };
  for (let i = 1; i < bids.length; i++) if (!new Decimal(bids[i]!.px as string).lt(bids[i - 1]!.px as string)) return { ok: false, problem: `bids are not falling from the best (level ${i})` };
  for (let i = 1; i < asks.length; i++) if (!new Decimal(asks[i]!.px as string).gt(asks[i - 1]!.px as string)) return { ok: false, problem: `asks are not rising from the best (level ${i})` };
  const bid = bids[0]!.px as string;
  const ask = asks[0]!.px as string;
  if (!new Decimal(bid).lt(ask)) return { ok: false, problem: `the best bid ${bid} is not below the best ask ${ask} (a crossed book)` };
  return { ok: true, best: { bid, ask }, time: b.time };
}
