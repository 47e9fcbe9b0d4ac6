/**
 * The portfolio use case (issue 27, item 1), shared by the app's Portfolio view and `perps portfolio`:
 * read every record the service keeps for the account, the venue's candles for the marks at each bar and
 * the live state now, and hand them to the pure builder (src/shared/portfolio).
 *
 * The spec's fills and funding payments carry no market, so trade-history and funding-history are read
 * per market (their `market` parameter) and each row is tagged with the market it was read under. Every
 * page is walked; a walk that ends before the `total` the service announced is a missing page, reported
 * with the ledger instead of being passed off as the whole history.
 */
import { buildPortfolio, rangeWindow, type MarketFill, type MarketFunding, type PortfolioCandle, type PortfolioInput, type PortfolioRange, type PortfolioReport } from '../../../shared/portfolio/index.js';
import type { Deposit, Market, Withdrawal } from '../../../shared/protocol/index.js';
import { MAX_PAGE_LIMIT } from '../../api/tradingApiClient.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { accountHealthView, marksOf } from '../reads/accountHealth.js';

type PortfolioContext = Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock'>;

/** More pages than this is a server ignoring `offset` (2,000,000 rows a market). */
const MAX_PAGES = 10_000;
/**
 * Markets read at the same time: a venue lists a hundred or more, and two walks each at once would be a
 * burst of hundreds of requests at the service.
 */
const MARKETS_AT_ONCE = 4;

/** `fn` over `items`, at most `limit` running at once, results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Every page of one paginated read, de-duplicated. Rows are newest first, so a row arriving during the
 * walk shifts the rest (one repeats, the new one is not seen): when the walk ends with fewer rows than
 * the `total` and that total moved meanwhile, it is walked again (rows already read are kept once). Fewer
 * rows than a steady `total` is a missing page, reported.
 */
export async function readEveryPage<T>(what: string, fetchPage: (offset: number, limit: number) => Promise<{ items: T[]; total: number }>, identity: (row: T) => string, issues: string[]): Promise<T[]> {
  const rows: T[] = [];
  const seen = new Set<string>();
  let pages = 0;
  let total = 0;
  for (let walk = 0; walk < 3; walk++) {
    let offset = 0;
    let firstTotal: number | null = null;
    for (;;) {
      if (pages++ >= MAX_PAGES) throw new Error(`${what}: page walk stopped after ${MAX_PAGES} pages: the server seems to ignore offset`);
      const page = await fetchPage(offset, MAX_PAGE_LIMIT);
      total = page.total;
      firstTotal ??= total;
      for (const row of page.items) {
        const id = identity(row);
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push(row);
      }
      offset += page.items.length;
      if (page.items.length === 0 || offset >= total) break;
    }
    if (rows.length >= total || total === firstTotal) break;
  }
  if (rows.length < total) issues.push(`${what}: ${rows.length} of ${total} rows could be read (a page is missing)`);
  return rows;
}

/** The records of one account (every market), read from the service. */
export interface PortfolioRecords {
  wallet: string;
  markets: Market[];
  fills: MarketFill[];
  funding: MarketFunding[];
  deposits: Deposit[];
  withdrawals: Withdrawal[];
  issues: string[];
}

export async function readPortfolioRecords(ctx: Pick<TradingContext, 'api' | 'config'>, walletInput: string): Promise<PortfolioRecords> {
  const { wallet, accountId } = walletIds(walletInput);
  const markets = await ctx.config.markets();
  const issues: string[] = [];
  const perMarket = await mapLimited(markets, MARKETS_AT_ONCE, async (m) => {
    const query = { wallet, market: m.symbol };
    const [fills, funding] = await Promise.all([
      readEveryPage(`trade-history of ${m.symbol}`, (offset, limit) => ctx.api.tradeHistory({ ...query, offset, limit }).then((p) => ({ items: p.fills, total: p.total })), (f) => f.tid, issues),
      readEveryPage(`funding-history of ${m.symbol}`, (offset, limit) => ctx.api.fundingHistory({ ...query, offset, limit }).then((p) => ({ items: p.payments, total: p.total })), (p) => String(p.epoch_time), issues),
    ]);
    return { fills: fills.map((f) => ({ ...f, market: m.symbol })), funding: funding.map((p) => ({ ...p, market: m.symbol })) };
  });
  const [deposits, withdrawals] = await Promise.all([ctx.api.allDepositHistory(accountId), ctx.api.allWithdrawalHistory(accountId)]);
  return { wallet, markets, fills: perMarket.flatMap((r) => r.fills), funding: perMarket.flatMap((r) => r.funding), deposits, withdrawals, issues };
}

function firstRecordAt(r: PortfolioRecords): number | null {
  let first = Number.POSITIVE_INFINITY;
  for (const f of r.fills) first = Math.min(first, f.filled_at);
  for (const p of r.funding) first = Math.min(first, p.settled_at);
  for (const d of r.deposits) first = Math.min(first, d.credited_at ?? d.detected_at);
  for (const w of r.withdrawals) first = Math.min(first, w.created_at);
  return Number.isFinite(first) ? first : null;
}

/**
 * Everything the builder needs besides the records: the range's candles of every traded market (joined
 * on venue_symbol), the live balance and positions, the live marks and the live equity computed exactly
 * as account:health computes it from them.
 */
export async function portfolioInput(ctx: PortfolioContext, records: PortfolioRecords, range: PortfolioRange): Promise<PortfolioInput> {
  const { wallet, accountId } = walletIds(records.wallet);
  const now = await ctx.clock.now();
  const window = rangeWindow(range, now, firstRecordAt(records));
  const bySymbol = new Map(records.markets.map((m) => [m.symbol, m]));
  const traded = [...new Set(records.fills.map((f) => f.market))].map((s) => bySymbol.get(s)!);
  const [balance, { positions }, candleLists] = await Promise.all([
    ctx.api.balance(accountId),
    ctx.api.positions(accountId),
    mapLimited(traded, MARKETS_AT_ONCE, (m) => ctx.venue.candleSnapshot({ coin: m.venue_symbol, interval: window.interval, startTime: window.start, endTime: now })),
  ]);
  const held = [...new Set([...traded.map((m) => m.symbol), ...positions.map((p) => p.market)])].map((s) => bySymbol.get(s)).filter((m): m is Market => m !== undefined);
  const marks = await marksOf(ctx, held, undefined);
  const health = accountHealthView(wallet, balance.free_balance, positions, bySymbol, marks, now);
  const candles = new Map<string, PortfolioCandle[]>(traded.map((m, i) => [m.symbol, candleLists[i]!.map((c) => ({ t: c.t, o: c.o, c: c.c }))]));
  return {
    window,
    fills: records.fills,
    funding: records.funding,
    deposits: records.deposits,
    withdrawals: records.withdrawals,
    candles,
    marks,
    feeRates: bySymbol,
    service: { free_balance: balance.free_balance, positions, equity: health.equity },
    readIssues: records.issues,
  };
}

/** The portfolio of a wallet over a range, with the ledger checked against the service now. */
export async function readPortfolio(ctx: PortfolioContext, wallet: string, range: PortfolioRange): Promise<PortfolioReport> {
  return buildPortfolio(await portfolioInput(ctx, await readPortfolioRecords(ctx, wallet), range));
}

