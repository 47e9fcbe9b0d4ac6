/**
 * The portfolio use case (issue 27, item 1), shared by the app's Portfolio view and `perps portfolio`:
 * read every record the service keeps for the account, the venue's candles for the marks at each bar and
 * the live state now, and hand them to the pure builder (src/shared/portfolio).
 *
 * The spec's fills and funding payments carry no market, so trade-history and funding-history are read
 * per market (their `market` parameter) and each row is tagged with the market it was read under. Every
 * page is walked; a walk that ends before the `total` the service announced is a missing page, reported
 * with the ledger instead of being passed off as the whole history. The whole read has one deadline and
 * reports its progress (PortfolioReadBudget); a `total` no walk could read is refused at its first page.
 */
import { buildPortfolio, plausibleRecordTime, rangeWindow, type MarketFill, type MarketFunding, type PortfolioCandle, type PortfolioInput, type PortfolioRange, type PortfolioReport } from '../../../shared/portfolio/index.js';
import type { Deposit, Market, Withdrawal } from '../../../shared/protocol/index.js';
import { MAX_PAGE_LIMIT } from '../../api/tradingApiClient.js';
import { OperationError } from '../errors.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { accountHealthView, marksOf } from '../reads/accountHealth.js';

type PortfolioContext = Pick<TradingContext, 'api' | 'config' | 'venue' | 'clock'>;

/** More pages than this is a server ignoring `offset` (2,000,000 rows a market). */
const MAX_PAGES = 10_000;
/** The whole read (every page of every market, the candles, the live state) within this by default. */
export const PORTFOLIO_DEADLINE_MS = 120_000;

export interface PortfolioProgress {
  markets_read: number;
  markets: number;
  pages: number;
  rows: number;
  elapsed_ms: number;
}

export interface PortfolioReadOptions {
  /** The overall deadline of the read (default PORTFOLIO_DEADLINE_MS). */
  deadlineMs?: number;
  /** Called after each page and each market read (the command line's progress line, the app's view). */
  onProgress?: (progress: PortfolioProgress) => void;
  /**
   * Ends the read when it aborts (the app's Cancel): nothing more is asked of the service, and the read
   * fails with PORTFOLIO_CANCELLED (a request in flight is no longer waited for).
   */
  signal?: AbortSignal;
  /** The clock of the deadline (tests). */
  now?: () => number;
}

/**
 * The overall deadline and the progress of one portfolio read (issue 36: a slow service announcing a
 * `total` of 10^15 kept it paging silently, hours from the 10,000-page cap). Checked before every page;
 * a request that hangs is cut by the same deadline (withinDeadline).
 */
export class PortfolioReadBudget {
  readonly progress: PortfolioProgress = { markets_read: 0, markets: 0, pages: 0, rows: 0, elapsed_ms: 0 };
  private readonly started: number;
  private readonly deadlineMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PortfolioReadOptions = {}) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.deadlineMs = options.deadlineMs ?? PORTFOLIO_DEADLINE_MS;
    if (!Number.isSafeInteger(this.deadlineMs) || this.deadlineMs < 1) throw new RangeError('deadlineMs must be a positive integer');
  }

  get remainingMs(): number {
    return this.deadlineMs - (this.now() - this.started);
  }

  /** Throws PORTFOLIO_CANCELLED once the read was cancelled, PORTFOLIO_DEADLINE once the deadline has passed. */
  check(): void {
    if (this.options.signal?.aborted) throw this.cancelled();
    if (this.remainingMs <= 0) throw this.expired();
  }

  cancelled(): OperationError {
    const p = this.progress;
    return new OperationError('PORTFOLIO_CANCELLED', `the portfolio read was cancelled after ${p.pages} page(s), ${p.rows} row(s), ${p.markets_read} of ${p.markets} market(s)`, {
      kind: 'rejected',
      hint: 'Nothing was changed. Read it again when you want the report.',
    });
  }

  /** A page of `rows` rows was read. */
  page(rows: number): void {
    this.progress.pages++;
    this.progress.rows += rows;
    this.report();
  }

  marketRead(): void {
    this.progress.markets_read++;
    this.report();
  }

  expired(): OperationError {
    const p = this.progress;
    return new OperationError(
      'PORTFOLIO_DEADLINE',
      `the portfolio read stopped after ${Math.round(this.deadlineMs / 1000)} s: ${p.pages} page(s), ${p.rows} row(s), ${p.markets_read} of ${p.markets} market(s) read; the service answers too slowly for a whole history`,
      { kind: 'transient', hint: 'Try again when the service answers faster; nothing was changed.' },
    );
  }

  /**
   * Starts `start` if the deadline has not passed (nothing is asked after it), and returns its answer, or
   * PORTFOLIO_DEADLINE when the deadline comes first (a request that never answers).
   */
  async within<T>(start: () => Promise<T>): Promise<T> {
    this.check();
    const work = start();
    work.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const signal = this.options.signal;
    let onAbort: (() => void) | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.expired()), Math.max(1, this.remainingMs));
      timer.unref?.();
      if (signal) {
        onAbort = () => reject(this.cancelled());
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  private report(): void {
    this.progress.elapsed_ms = this.now() - this.started;
    this.options.onProgress?.({ ...this.progress });
  }
}
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
export async function readEveryPage<T>(
  what: string,
  fetchPage: (offset: number, limit: number) => Promise<{ items: T[]; total: number }>,
  identity: (row: T) => string,
  issues: string[],
  budget: PortfolioReadBudget = new PortfolioReadBudget(),
): Promise<T[]> {
  const rows: T[] = [];
  const seen = new Set<string>();
  let pages = 0;
  let total = 0;
  for (let walk = 0; walk < 3; walk++) {
    let offset = 0;
    let firstTotal: number | null = null;
    for (;;) {
      if (pages++ >= MAX_PAGES) throw new Error(`${what}: page walk stopped after ${MAX_PAGES} pages: the server seems to ignore offset`);
      const page = await budget.within(() => fetchPage(offset, MAX_PAGE_LIMIT));
      total = page.total;
      firstTotal ??= total;
      // A total no walk can read (10^15 rows) is refused at once, not paged toward for hours.
      if (total > MAX_PAGES * MAX_PAGE_LIMIT) {
        throw new OperationError('PORTFOLIO_UNREADABLE', `${what}: the service announces ${total} rows, more than the ${MAX_PAGES * MAX_PAGE_LIMIT} a history read takes; nothing was read past the first page`);
      }
      budget.page(page.items.length);
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

export async function readPortfolioRecords(ctx: Pick<TradingContext, 'api' | 'config'>, walletInput: string, budget: PortfolioReadBudget = new PortfolioReadBudget()): Promise<PortfolioRecords> {
  const { wallet, accountId } = walletIds(walletInput);
  const markets = await budget.within(() => ctx.config.markets());
  budget.progress.markets = markets.length;
  const issues: string[] = [];
  const perMarket = await mapLimited(markets, MARKETS_AT_ONCE, async (m) => {
    const query = { wallet, market: m.symbol };
    const [fills, funding] = await Promise.all([
      readEveryPage(`trade-history of ${m.symbol}`, (offset, limit) => ctx.api.tradeHistory({ ...query, offset, limit }).then((p) => ({ items: p.fills, total: p.total })), (f) => f.tid, issues, budget),
      readEveryPage(`funding-history of ${m.symbol}`, (offset, limit) => ctx.api.fundingHistory({ ...query, offset, limit }).then((p) => ({ items: p.payments, total: p.total })), (p) => String(p.epoch_time), issues, budget),
    ]);
    budget.marketRead();
    return { fills: fills.map((f) => ({ ...f, market: m.symbol })), funding: funding.map((p) => ({ ...p, market: m.symbol })) };
  });
  const [deposits, withdrawals] = await budget.within(() => Promise.all([ctx.api.allDepositHistory(accountId), ctx.api.allWithdrawalHistory(accountId)]));
  return { wallet, markets, fills: perMarket.flatMap((r) => r.fills), funding: perMarket.flatMap((r) => r.funding), deposits, withdrawals, issues };
}

/** The oldest plausibly dated record (an absurd date, flagged by the ledger, never starts "all"). */
function firstRecordAt(r: PortfolioRecords, now: number): number | null {
  let first = Number.POSITIVE_INFINITY;
  const take = (t: number): void => {
    if (plausibleRecordTime(t, now)) first = Math.min(first, t);
  };
  for (const f of r.fills) take(f.filled_at);
  for (const p of r.funding) take(p.settled_at);
  for (const d of r.deposits) take(d.credited_at ?? d.detected_at);
  for (const w of r.withdrawals) take(w.created_at);
  return Number.isFinite(first) ? first : null;
}

/**
 * Everything the builder needs besides the records: the range's candles of every traded market (joined
 * on venue_symbol), the live balance and positions, the live marks and the live equity computed exactly
 * as account:health computes it from them.
 */
export async function portfolioInput(ctx: PortfolioContext, records: PortfolioRecords, range: PortfolioRange, budget: PortfolioReadBudget = new PortfolioReadBudget()): Promise<PortfolioInput> {
  const { wallet, accountId } = walletIds(records.wallet);
  const now = await budget.within(() => ctx.clock.now());
  const window = rangeWindow(range, now, firstRecordAt(records, now));
  const bySymbol = new Map(records.markets.map((m) => [m.symbol, m]));
  const traded = [...new Set(records.fills.map((f) => f.market))].map((s) => bySymbol.get(s)!);
  const [balance, { positions }, candleLists] = await budget.within(() =>
    Promise.all([
      ctx.api.balance(accountId),
      ctx.api.positions(accountId),
      mapLimited(traded, MARKETS_AT_ONCE, (m) => ctx.venue.candleSnapshot({ coin: m.venue_symbol, interval: window.interval, startTime: window.start, endTime: now })),
    ]),
  );
  const held = [...new Set([...traded.map((m) => m.symbol), ...positions.map((p) => p.market)])].map((s) => bySymbol.get(s)).filter((m): m is Market => m !== undefined);
  const marks = await budget.within(() => marksOf(ctx, held, undefined));
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
/**
 * The portfolio of a wallet over a range, with the ledger checked against the service now; the whole
 * read within one deadline (options.deadlineMs), its progress reported as it goes.
 */
export async function readPortfolio(ctx: PortfolioContext, wallet: string, range: PortfolioRange, options: PortfolioReadOptions = {}): Promise<PortfolioReport> {
  const budget = new PortfolioReadBudget(options);
  return buildPortfolio(await portfolioInput(ctx, await readPortfolioRecords(ctx, wallet, budget), range, budget));
}

