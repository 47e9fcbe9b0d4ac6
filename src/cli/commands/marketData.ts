/**
 * `perps book SYM [--sig-figs N] [--depth N]` and `perps price SYM`: the venue's market data of one of the
 * service's markets (asked for by its venue_symbol, never its symbol). The book is grouped as the app's
 * book is: the venue aggregates levels to 2..5 significant figures (l2Book nSigFigs; omitted: full
 * precision), prices are shown with the market's decimals or fewer when the grouping is coarser, and each
 * level carries its running total; the spread is shown as a price and a percentage of the mid.
 */
import type { Command } from 'commander';
import { readBook, readPrice } from '../../main/services/reads/marketData.js';
import { ValidationError } from '../../main/services/errors.js';
import { BOOK_SIG_FIGS, bookPricePlaces, bookSide, bookSpread, type BookSigFigs } from '../../shared/protocol/bookGrouping.js';
import { contextOf, globalsOf } from '../globals.js';
import { fixedPlaces, percent } from '../numbers.js';
import { formatFields, formatTable, formatTime, runAction } from '../output.js';
import { parseIntegerOption } from '../parse.js';

const DEFAULT_DEPTH = 10;
const MAX_DEPTH = 100;

function sigFigsOf(value: string | undefined): BookSigFigs {
  if (value === undefined) return null;
  const n = parseIntegerOption(value, 'sig-figs');
  if (!(BOOK_SIG_FIGS as readonly number[]).includes(n!)) throw new ValidationError(`the venue groups to 2, 3, 4 or 5 significant figures, not ${value}`, { field: 'sig-figs', hint: 'Leave --sig-figs out for full precision.' });
  return n as BookSigFigs;
}

function depthOf(value: string | undefined): number {
  const n = parseIntegerOption(value, 'depth') ?? DEFAULT_DEPTH;
  if (n < 1 || n > MAX_DEPTH) throw new ValidationError(`levels per side: 1 to ${MAX_DEPTH}, not ${value}`, { field: 'depth' });
  return n;
}

interface PrintedLevel {
  side: 'ask' | 'bid';
  price: string;
  size: string;
  total: string;
  orders: number;
}

export function registerMarketDataCommands(program: Command): void {
  program
    .command('book')
    .description("the venue's order book of a market, grouped as in the app (--sig-figs)")
    .argument('<market>', "the service's market symbol")
    .option('--sig-figs <n>', 'group levels to 2, 3, 4 or 5 significant figures (default: full precision)')
    .option('--depth <n>', `levels per side (default ${DEFAULT_DEPTH})`)
    .action(async (symbol: string, opts: { sigFigs?: string; depth?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const nSigFigs = sigFigsOf(opts.sigFigs);
        const depth = depthOf(opts.depth);
        const { market, book } = await readBook(contextOf(g), symbol, nSigFigs);
        const places = bookPricePlaces(market.tick_size, nSigFigs, book.bids[0]?.price ?? book.asks[0]?.price ?? null);
        const asks = bookSide(book.asks, depth);
        const bids = bookSide(book.bids, depth);
        const spread = bookSpread(book.bids[0]?.price, book.asks[0]?.price);
        const level = (l: (typeof asks)[number]) => ({ price: l.price, size: l.size, orders: l.orders, total: l.total.toFixed() });
        const doc = {
          market: market.symbol,
          venue_symbol: market.venue_symbol,
          n_sig_figs: nSigFigs,
          price_places: places,
          asks: asks.map(level),
          bids: bids.map(level),
          spread: spread ? { abs: spread.abs.toFixed(), fraction: spread.fraction.toDecimalPlaces(8).toFixed() } : null,
          at: book.at,
        };
        out.result(doc, () => {
          const sz = (v: string) => fixedPlaces(v, market.sz_decimals);
          // Asks above the spread, worst first, so the best levels meet in the middle as on the app's book.
          const rows: PrintedLevel[] = [
            ...[...asks].reverse().map((l) => ({ side: 'ask' as const, price: fixedPlaces(l.price, places), size: sz(l.size), total: sz(l.total.toFixed()), orders: l.orders })),
            ...bids.map((l) => ({ side: 'bid' as const, price: fixedPlaces(l.price, places), size: sz(l.size), total: sz(l.total.toFixed()), orders: l.orders })),
          ];
          const grouping = nSigFigs === null ? 'full precision' : `grouped to ${nSigFigs} significant figures`;
          return [
            `${market.symbol} order book (venue ${market.venue_symbol}, ${grouping}) at ${formatTime(book.at)}`,
            spread ? `spread ${fixedPlaces(spread.abs, places)} (${percent(spread.fraction, 3)} of the mid)` : 'spread: - (a side is empty)',
            '',
            formatTable(
              rows,
              [
                { header: 'SIDE', value: (r) => r.side },
                { header: 'PRICE', value: (r) => r.price, align: 'right' },
                { header: 'SIZE', value: (r) => r.size, align: 'right' },
                { header: 'TOTAL', value: (r) => r.total, align: 'right' },
                { header: 'ORDERS', value: (r) => String(r.orders), align: 'right' },
              ],
              'the book is empty',
            ),
          ].join('\n');
        });
      });
    });

  program
    .command('price')
    .description('the venue mark of a market')
    .argument('<market>', "the service's market symbol")
    .action(async (symbol: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const { market, mark, at } = await readPrice(contextOf(g), symbol);
        out.result({ market: market.symbol, mark, at }, () => formatFields([[`${market.symbol} mark`, mark], ['venue', market.venue_symbol], ['at', formatTime(at)]]));
      });
    });
}
