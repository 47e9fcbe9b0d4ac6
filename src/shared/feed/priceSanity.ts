/**
 * The rules every price, size and book from a followed venue must pass before the simulator uses it
 * (issue 26): the same rules the simulator applies to its own prices. A price is a plain decimal, above
 * zero, at least one tick of the market (the walk never goes below one tick, toMark) and at most 10^12
 * ticks, with at most 18 decimal places; a size is above zero and at most 10^12, with at most 18
 * decimal places; a book has sane levels, bids strictly falling, asks strictly rising, and is not
 * crossed. The plausibility band (how far one update may move a price from the last accepted one) is in
 * bandGate.ts.
 *
 * Each check answers null when the value passes, else a short reason for the log and the status.
 */
import { Decimal, SIGNED_DECIMAL_TEXT } from '../decimal/decimal.js';

/** No market quotes more than 10^12 ticks: 10^308 or a 309-digit price is a broken feed, not a price. */
export const MAX_PRICE_TICKS = new Decimal('1e12');
/** No venue quotes a price or size to more than 18 decimal places; a longer fraction is a broken feed. */
export const MAX_DECIMAL_PLACES = 18;
/** No level or trade is larger than 10^12 units of any asset. */
export const MAX_SIZE = new Decimal('1e12');
/** Hourly funding and premium are fractions; the venue caps funding at a few percent an hour, 100% is absurd. */
const MAX_RATE = new Decimal(1);
/** Volumes and open interest: non-negative and below 10^18 (a day's notional of a whole market is far less). */
const MAX_AMOUNT = new Decimal('1e18');

export interface SaneLevel {
  px: string;
  sz: string;
}

function plain(text: unknown): Decimal | null {
  return typeof text === 'string' && SIGNED_DECIMAL_TEXT.test(text) ? new Decimal(text) : null;
}

/** A price of a market whose tick size is `tick`. */
export function priceProblem(text: unknown, tick: string): string | null {
  const px = plain(text);
  if (!px) return `${describe(text)} is not a decimal string`;
  if (!px.isFinite() || px.lte(0)) return `price ${short(text)} is not positive`;
  if (px.lt(tick)) return `price ${short(text)} is below one tick (${tick})`;
  if (px.gt(MAX_PRICE_TICKS.mul(tick))) return `price ${short(text)} is above 10^12 ticks`;
  if (px.decimalPlaces() > MAX_DECIMAL_PLACES) return `price ${short(text)} has more than ${MAX_DECIMAL_PLACES} decimal places`;
  return null;
}

/** A size of a book level or a trade. */
export function sizeProblem(text: unknown): string | null {
  const sz = plain(text);
  if (!sz) return `${describe(text)} is not a decimal string`;
  if (!sz.isFinite() || sz.lte(0)) return `size ${short(text)} is not positive`;
  if (sz.gt(MAX_SIZE)) return `size ${short(text)} is above 10^12`;
  if (sz.decimalPlaces() > MAX_DECIMAL_PLACES) return `size ${short(text)} has more than ${MAX_DECIMAL_PLACES} decimal places`;
  return null;
}

/** A signed rate (funding, premium): a fraction well below 1 in size. */
export function rateProblem(text: unknown, what: string): string | null {
  const rate = plain(text);
  if (!rate) return `${what} ${describe(text)} is not a decimal string`;
  if (rate.abs().gte(MAX_RATE)) return `${what} ${short(text)} is not a plausible rate`;
  return null;
}

/** A non-negative amount (open interest, volumes). */
export function amountProblem(text: unknown, what: string): string | null {
  const amount = plain(text);
  if (!amount) return `${what} ${describe(text)} is not a decimal string`;
  if (amount.lt(0) || amount.gt(MAX_AMOUNT)) return `${what} ${short(text)} is out of range`;
  return null;
}

/** A whole book: every level sane, bids strictly falling, asks strictly rising, best bid below best ask. */
export function bookProblem(bids: readonly SaneLevel[], asks: readonly SaneLevel[], tick: string): string | null {
  for (const [side, levels] of [
    ['bid', bids],
    ['ask', asks],
  ] as const) {
    for (const level of levels) {
      const problem = priceProblem(level.px, tick) ?? sizeProblem(level.sz);
      if (problem) return `${side} level: ${problem}`;
    }
    for (let i = 1; i < levels.length; i++) {
      const before = new Decimal(levels[i - 1]!.px);
      const here = new Decimal(levels[i]!.px);
      if (side === 'bid' ? !here.lt(before) : !here.gt(before)) return `${side}s are not in order (${short(levels[i - 1]!.px)} then ${short(levels[i]!.px)})`;
    }
  }
  const bestBid = bids[0];
  const bestAsk = asks[0];
  if (bestBid && bestAsk && new Decimal(bestBid.px).gte(bestAsk.px)) return `the book is crossed (bid ${short(bestBid.px)} >= ask ${short(bestAsk.px)})`;
  return null;
}

/** The price a book stands at: its mid, or the best level of its only side; null for an empty book. */
export function bookCentre(bids: readonly SaneLevel[], asks: readonly SaneLevel[]): Decimal | null {
  const bid = bids[0];
  const ask = asks[0];
  if (bid && ask) return new Decimal(bid.px).plus(ask.px).div(2);
  if (bid) return new Decimal(bid.px);
  if (ask) return new Decimal(ask.px);
  return null;
}

/** Long values are cut in messages: a 309-digit price is shown by its length, not in full. */
function short(text: unknown): string {
  const s = String(text);
  return s.length <= 24 ? s : `${s.slice(0, 12)}…(${s.length} characters)`;
}

function describe(text: unknown): string {
  return typeof text === 'string' ? JSON.stringify(short(text)) : String(text);
}
