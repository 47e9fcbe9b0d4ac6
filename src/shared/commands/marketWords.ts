/**
 * A typed word as a market of the live list (GET /markets, never a list of our own): the symbol or the
 * venue's name for it ("kpepe" is PEPE where the venue calls it kPEPE), without regard to case. Only an
 * exact match trades; a word that only begins one or more symbols is reported (did you mean / which one),
 * never guessed.
 */
import type { Market } from '../protocol/schemas/config.js';

/** What the parser needs of a market: its names and the price and size rules it checks. */
export type CommandMarket = Pick<Market, 'symbol' | 'venue_symbol' | 'tick_size' | 'px_decimals' | 'sz_decimals' | 'min_order_value' | 'max_notional'>;

export type MarketLookup<M extends CommandMarket> = { status: 'found'; market: M } | { status: 'ambiguous'; choices: string[] } | { status: 'unknown'; suggestion: string | null };

const names = (m: CommandMarket): string[] => [m.symbol.toLowerCase(), m.venue_symbol.toLowerCase()];

export function lookupMarket<M extends CommandMarket>(word: string, markets: readonly M[]): MarketLookup<M> {
  const w = word.toLowerCase();
  const exact = markets.filter((m) => names(m).includes(w));
  if (exact.length === 1) return { status: 'found', market: exact[0]! };
  if (exact.length > 1) return { status: 'ambiguous', choices: exact.map((m) => m.symbol) };
  const begins = markets.filter((m) => names(m).some((n) => n.startsWith(w)));
  if (begins.length > 1) return { status: 'ambiguous', choices: begins.slice(0, 5).map((m) => m.symbol) };
  return { status: 'unknown', suggestion: begins[0]?.symbol ?? null };
}
