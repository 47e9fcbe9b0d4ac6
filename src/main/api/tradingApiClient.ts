/**
 * The trading API over HTTP: one typed method per route of the spec, envelopes decoded with the shared
 * zod schemas, and the retry rules that keep a signed write from ever executing twice.
 *
 * Reads retry (backoff with full jitter) on network errors, timeouts and 5xx; order(id) and
 * marginRequest(id) also retry the 404 of something just submitted (orders persist asynchronously, and a
 * margin request answers 404 while pending). 4xx are never retried otherwise.
 *
 * Writes are signed by the caller and never re-signed here. When an answer is lost (network error,
 * timeout, 5xx) the identical bytes are sent again, up to the retry budget: the nonce is single-use, so
 * the server processes the body at most once. A 409 on such a resend therefore means the earlier copy
 * landed; it is reported as WriteLandedUnknownResultError and the caller reconciles by reading. A 409 on
 * the first attempt is a genuine replayed nonce (ApiError with status 409).
 */
import { z } from 'zod';
import {
  BalanceSchema,
  CancelBatchResultSchema,
  CancelResultSchema,
  DepositHistorySchema,
  FundingConfigSchema,
  FundingHistorySchema,
  MarginRequestSchema,
  MarketsSchema,
  ModifyResultSchema,
  OpenOrdersSchema,
  OrderHistorySchema,
  OrderRecordSchema,
  PlaceOrdersResultSchema,
  PositionTriggersSchema,
  PositionsSchema,
  RegisterResultSchema,
  TradeHistorySchema,
  TradingKeysSchema,
  WithdrawalHistorySchema,
  WithdrawalSchema,
  WithdrawResultSchema,
  decodeEnvelope,
  type Balance,
  type CancelBatchBody,
  type CancelBatchLegResult,
  type CancelBody,
  type CancelResult,
  type Deposit,
  type Fill,
  type FundingConfig,
  type FundingPayment,
  type LegResult,
  type ListedOrder,
  type MarginBody,
  type MarginRequest,
  type Market,
  type ModifyBody,
  type ModifyResult,
  type OpenOrders,
  type OrderHistory,
  type OrderRecord,
  type PlaceOrdersBody,
  type RegisterBody,
  type RegisterResult,
  type RevokeBody,
  type TradingKey,
  type Withdrawal,
  type WithdrawBody,
  type WithdrawResult,
} from '../../shared/protocol/index.js';
import { NetworkError, TimeoutError, WriteLandedUnknownResultError, isNotFound, isTransientFailure, type HttpMethod } from './errors.js';
import { DEFAULT_TIMEOUT_MS, httpRequest, type FetchFn, type HttpResponse } from './http.js';
import { DEFAULT_RETRY, backoffDelay, realSleep, validateRetryPolicy, withRetry, type RandomFn, type RetryPolicy, type SleepFn } from './retry.js';

export interface TradingApiClientOptions {
  /** The trading API root, including /api/v1. */
  baseUrl: string;
  /** Per-request timeout (one attempt), default 10 s. */
  timeoutMs?: number;
  /** Retry budget of reads and of identical resends of writes. */
  retry?: RetryPolicy;
  fetch?: FetchFn;
  /** Injectable for tests: the wait between attempts and the jitter source. */
  sleep?: SleepFn;
  random?: RandomFn;
  /** Observes every retry (logging, metrics). Never given a request body. */
  onRetry?: (info: ClientRetryInfo) => void;
}

export interface ClientRetryInfo {
  route: string;
  /** 1-based attempt that just failed. */
  attempt: number;
  error: unknown;
  delayMs: number;
}

export interface ReadOptions {
  /** Retry a 404 too (something just submitted that has not persisted yet). */
  retryNotFound?: boolean;
  /** Overrides the client's retry budget for this call. */
  retry?: RetryPolicy;
  signal?: AbortSignal;
}

export interface WriteOptions {
  /** Overrides the client's resend budget for this call (attempts: 1 sends exactly once). */
  retry?: RetryPolicy;
  signal?: AbortSignal;
}

export interface PageQuery {
  limit?: number;
  offset?: number;
}
export interface TimeRange {
  /** Unix ms. */
  from?: number;
  to?: number;
}
export interface OpenOrdersQuery extends PageQuery, TimeRange {
  wallet: string;
  market?: string;
}
export interface WalletHistoryQuery extends PageQuery {
  wallet: string;
  market?: string;
}
export type AccountHistoryQuery = PageQuery & TimeRange;

/** POST /orders and cancel-batch: the envelope's success (true only if every item succeeded) and the items. */
export interface BatchResult<T> {
  success: boolean;
  legs: T[];
}
export type PlaceOrdersResult = BatchResult<LegResult>;
export type CancelBatchResult = BatchResult<CancelBatchLegResult>;

export type PositionTriggers = OpenOrders;
export type TradeHistory = z.infer<typeof TradeHistorySchema>;
export type FundingHistory = z.infer<typeof FundingHistorySchema>;
export type DepositHistory = z.infer<typeof DepositHistorySchema>;
export type WithdrawalHistory = z.infer<typeof WithdrawalHistorySchema>;
export type Positions = z.infer<typeof PositionsSchema>;

/** The spec's cap on `limit` of the wallet-keyed paginated reads; walkers use it to need the fewest pages. */
export const MAX_PAGE_LIMIT = 200;
/** A walk that needs more pages than this is a server ignoring `offset`, not real data. */
const MAX_PAGES = 10_000;

/** The revoke response's data is not described by the spec: accept any payload. */
const AnyData = z.unknown();

export class TradingApiClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: FetchFn;
  private readonly sleep: SleepFn;
  private readonly random: RandomFn;
  private readonly onRetry: ((info: ClientRetryInfo) => void) | undefined;

  constructor(options: TradingApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = validateRetryPolicy(options.retry ?? DEFAULT_RETRY);
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.onRetry = options.onRetry;
  }

  // ---- configuration --------------------------------------------------------------------------------

  markets(opts?: ReadOptions): Promise<Market[]> {
    return this.read('GET /markets', '/markets', {}, MarketsSchema, opts);
  }

  config(opts?: ReadOptions): Promise<FundingConfig> {
    return this.read('GET /config', '/config', {}, FundingConfigSchema, opts);
  }

  // ---- trading keys -----------------------------------------------------------------------------------

  async register(body: RegisterBody, opts?: WriteOptions): Promise<RegisterResult> {
    return (await this.write('POST /auth/register', '/auth/register', body, RegisterResultSchema, opts)).data;
  }

  tradingKeys(wallet: string, opts?: ReadOptions): Promise<TradingKey[]> {
    return this.read('GET /auth/trading-keys', '/auth/trading-keys', { wallet }, TradingKeysSchema, opts);
  }

  /** Resolves once the service accepted the revocation (the spec shows no response payload). */
  async revoke(body: RevokeBody, opts?: WriteOptions): Promise<void> {
    await this.write('POST /auth/trading-keys/revoke', '/auth/trading-keys/revoke', body, AnyData, opts);
  }

  // ---- orders -----------------------------------------------------------------------------------------

  /** Legs are index-aligned with body.orders; read each leg's status, not just `success`. */
  async placeOrders(body: PlaceOrdersBody, opts?: WriteOptions): Promise<PlaceOrdersResult> {
    const r = await this.write('POST /orders', '/orders', body, PlaceOrdersResultSchema, opts);
    return { success: r.success, legs: r.data };
  }

  /** Retries the 404 of a just-submitted order by default (persistence is asynchronous). */
  order(orderId: string, opts?: ReadOptions): Promise<OrderRecord> {
    return this.read('GET /orders/{orderId}', `/orders/${seg(orderId)}`, {}, OrderRecordSchema, { retryNotFound: true, ...opts });
  }

  /** Asynchronous: SUBMITTED means queued; confirm through open-orders or position-triggers. */
  async cancel(orderId: string, body: CancelBody, opts?: WriteOptions): Promise<CancelResult> {
    return (await this.write('POST /orders/{orderId}/cancel', `/orders/${seg(orderId)}/cancel`, body, CancelResultSchema, opts)).data;
  }

  /** May answer success:false at HTTP 200 when some legs FAILED: read the legs. */
  async cancelBatch(body: CancelBatchBody, opts?: WriteOptions): Promise<CancelBatchResult> {
    const r = await this.write('POST /orders/cancel-batch', '/orders/cancel-batch', body, CancelBatchResultSchema, opts);
    return { success: r.success, legs: r.data };
  }

  /** Success returns the new order's id; the old id is dead. */
  async modify(orderId: string, body: ModifyBody, opts?: WriteOptions): Promise<ModifyResult> {
    return (await this.write('POST /orders/{orderId}/modify', `/orders/${seg(orderId)}/modify`, body, ModifyResultSchema, opts)).data;
  }

  // ---- account reads ----------------------------------------------------------------------------------

  balance(accountId: string, opts?: ReadOptions): Promise<Balance> {
    return this.read('GET /account/{account_id}/balance', `/account/${seg(accountId)}/balance`, {}, BalanceSchema, opts);
  }

  positions(accountId: string, opts?: ReadOptions): Promise<Positions> {
    return this.read('GET /account/{account_id}/positions', `/account/${seg(accountId)}/positions`, {}, PositionsSchema, opts);
  }

  openOrders(query: OpenOrdersQuery, opts?: ReadOptions): Promise<OpenOrders> {
    return this.read('GET /account/open-orders', '/account/open-orders', { ...query }, OpenOrdersSchema, opts);
  }

  /** Unpaginated by the spec: every armed reduce-only TP/SL of the wallet. */
  positionTriggers(wallet: string, opts?: ReadOptions): Promise<PositionTriggers> {
    return this.read('GET /account/position-triggers', '/account/position-triggers', { wallet }, PositionTriggersSchema, opts);
  }

  orderHistory(query: WalletHistoryQuery, opts?: ReadOptions): Promise<OrderHistory> {
    return this.read('GET /account/order-history', '/account/order-history', { ...query }, OrderHistorySchema, opts);
  }

  tradeHistory(query: WalletHistoryQuery, opts?: ReadOptions): Promise<TradeHistory> {
    return this.read('GET /account/trade-history', '/account/trade-history', { ...query }, TradeHistorySchema, opts);
  }

  fundingHistory(query: WalletHistoryQuery, opts?: ReadOptions): Promise<FundingHistory> {
    return this.read('GET /account/funding-history', '/account/funding-history', { ...query }, FundingHistorySchema, opts);
  }

  depositHistory(accountId: string, query: AccountHistoryQuery = {}, opts?: ReadOptions): Promise<DepositHistory> {
    return this.read('GET /account/{account_id}/deposit-history', `/account/${seg(accountId)}/deposit-history`, { ...query }, DepositHistorySchema, opts);
  }

  withdrawalHistory(accountId: string, query: AccountHistoryQuery = {}, opts?: ReadOptions): Promise<WithdrawalHistory> {
    return this.read('GET /account/{account_id}/withdrawal-history', `/account/${seg(accountId)}/withdrawal-history`, { ...query }, WithdrawalHistorySchema, opts);
  }

  withdrawal(withdrawalId: string, opts?: ReadOptions): Promise<Withdrawal> {
    return this.read('GET /withdrawal-history/{withdrawalId}', `/withdrawal-history/${seg(withdrawalId)}`, {}, WithdrawalSchema, opts);
  }

  // ---- margin and withdrawal ----------------------------------------------------------------------

  /** A business rejection is HTTP 200 with status REJECTED and a reason. */
  async adjustMargin(body: MarginBody, opts?: WriteOptions): Promise<MarginRequest> {
    return (await this.write('POST /positions/margin', '/positions/margin', body, MarginRequestSchema, opts)).data;
  }

  /**
   * Retries the 404 of a pending request by default. When the budget runs out while it is still
   * pending, the 404 ApiError is thrown (isNotFound(err)): "not applied yet", not "unknown request".
   */
  marginRequest(requestId: string, opts?: ReadOptions): Promise<MarginRequest> {
    return this.read('GET /positions/margin/{requestId}', `/positions/margin/${seg(requestId)}`, {}, MarginRequestSchema, { retryNotFound: true, ...opts });
  }

  /** A validation rejection is HTTP 200 with status REJECTED and a reason. */
  async withdraw(body: WithdrawBody, opts?: WriteOptions): Promise<WithdrawResult> {
    return (await this.write('POST /account/withdraw', '/account/withdraw', body, WithdrawResultSchema, opts)).data;
  }

  // ---- page walkers ---------------------------------------------------------------------------------

  /**
   * Pages of open orders, 200 rows at a time, until `total` is reached. Rows are newest first, so rows
   * created during the walk push older ones to later offsets: a row may repeat, none is skipped.
   */
  openOrdersPages(query: Omit<OpenOrdersQuery, 'limit' | 'offset'>, opts?: ReadOptions): AsyncGenerator<ListedOrder[]> {
    return walkByTotal((offset, limit) => this.openOrders({ ...query, offset, limit }, opts).then((p) => ({ items: p.orders, total: p.total })));
  }

  orderHistoryPages(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): AsyncGenerator<ListedOrder[]> {
    return walkByTotal((offset, limit) => this.orderHistory({ ...query, offset, limit }, opts).then((p) => ({ items: p.orders, total: p.total })));
  }

  tradeHistoryPages(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): AsyncGenerator<Fill[]> {
    return walkByTotal((offset, limit) => this.tradeHistory({ ...query, offset, limit }, opts).then((p) => ({ items: p.fills, total: p.total })));
  }

  fundingHistoryPages(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): AsyncGenerator<FundingPayment[]> {
    return walkByTotal((offset, limit) => this.fundingHistory({ ...query, offset, limit }, opts).then((p) => ({ items: p.payments, total: p.total })));
  }

  /** Deposit history has no `total`: the walk ends at the first page shorter than the limit. */
  depositHistoryPages(accountId: string, query: TimeRange = {}, opts?: ReadOptions): AsyncGenerator<Deposit[]> {
    return walkUntilShort((offset, limit) => this.depositHistory(accountId, { ...query, offset, limit }, opts).then((p) => p.deposits));
  }

  withdrawalHistoryPages(accountId: string, query: TimeRange = {}, opts?: ReadOptions): AsyncGenerator<Withdrawal[]> {
    return walkUntilShort((offset, limit) => this.withdrawalHistory(accountId, { ...query, offset, limit }, opts).then((p) => p.withdrawals));
  }

  allOpenOrders(query: Omit<OpenOrdersQuery, 'limit' | 'offset'>, opts?: ReadOptions): Promise<ListedOrder[]> {
    return collect(this.openOrdersPages(query, opts));
  }

  /** One row per status change, so an order id repeats; rows are not de-duplicated. */
  allOrderHistory(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): Promise<ListedOrder[]> {
    return collect(this.orderHistoryPages(query, opts));
  }

  /** De-duplicated by `tid` (the venue's trade id), which a page shift during the walk can repeat. */
  async allTradeHistory(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): Promise<Fill[]> {
    const seen = new Set<string>();
    return (await collect(this.tradeHistoryPages(query, opts))).filter((f) => !seen.has(f.tid) && seen.add(f.tid));
  }

  allFundingHistory(query: Omit<WalletHistoryQuery, 'limit' | 'offset'>, opts?: ReadOptions): Promise<FundingPayment[]> {
    return collect(this.fundingHistoryPages(query, opts));
  }

  allDepositHistory(accountId: string, query: TimeRange = {}, opts?: ReadOptions): Promise<Deposit[]> {
    return collect(this.depositHistoryPages(accountId, query, opts));
  }

  allWithdrawalHistory(accountId: string, query: TimeRange = {}, opts?: ReadOptions): Promise<Withdrawal[]> {
    return collect(this.withdrawalHistoryPages(accountId, query, opts));
  }

  // ---- transport --------------------------------------------------------------------------------------

  private send(method: HttpMethod, path: string, query: Record<string, unknown>, body: string | undefined, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const url = this.baseUrl + path + queryString(query);
    return httpRequest(this.fetchFn, { method, url, timeoutMs: this.timeoutMs, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
  }

  private async read<S extends z.ZodType>(route: string, path: string, query: Record<string, unknown>, schema: S, opts: ReadOptions = {}): Promise<z.infer<S>> {
    return withRetry(
      async () => {
        const res = await this.send('GET', path, query, undefined, opts.signal);
        const decoded = decodeEnvelope(res.status, res.body, schema, route);
        if (!decoded.ok) throw decoded.error;
        return decoded.data;
      },
      {
        policy: opts.retry ?? this.retry,
        shouldRetry: (err) => isTransientFailure(err) || (opts.retryNotFound === true && isNotFound(err)),
        sleep: this.sleep,
        random: this.random,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onRetry: (info) => this.onRetry?.({ route, ...info }),
      },
    );
  }

  /**
   * Sends a signed body, serialised once so every resend is byte-identical. Resends happen only after a
   * lost answer; the first 409 after one is the proof the write landed.
   */
  private async write<S extends z.ZodType>(
    route: string,
    path: string,
    body: unknown,
    schema: S,
    opts: WriteOptions = {},
  ): Promise<{ data: z.infer<S>; success: boolean }> {
    const bytes = JSON.stringify(body);
    const policy = opts.retry ?? this.retry;
    let firstFailure: Error | undefined;
    for (let attempt = 1; ; attempt++) {
      let failure: Error;
      try {
        const res = await this.send('POST', path, {}, bytes, opts.signal);
        const decoded = decodeEnvelope(res.status, res.body, schema, route);
        if (decoded.ok) return { data: decoded.data, success: decoded.success };
        if (decoded.error.status === 409 && firstFailure) throw new WriteLandedUnknownResultError(route, attempt, firstFailure, decoded.error);
        // A 5xx may or may not have been processed; resending the same nonce is safe either way.
        if (decoded.error.status < 500) throw decoded.error;
        failure = decoded.error;
      } catch (err) {
        if (!(err instanceof NetworkError || err instanceof TimeoutError)) throw err;
        failure = err;
      }
      if (attempt >= policy.attempts || opts.signal?.aborted) throw failure;
      firstFailure ??= failure;
      const delayMs = backoffDelay(attempt - 1, policy, this.random);
      this.onRetry?.({ route, attempt, error: failure, delayMs });
      await this.sleep(delayMs, opts.signal);
    }
  }
}

/** A path segment: ids come from servers and users, so they are encoded, never trusted as path text. */
function seg(value: string): string {
  return encodeURIComponent(value);
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function* walkByTotal<T>(fetchPage: (offset: number, limit: number) => Promise<{ items: T[]; total: number }>): AsyncGenerator<T[]> {
  let offset = 0;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const { items, total } = await fetchPage(offset, MAX_PAGE_LIMIT);
    if (items.length > 0) yield items;
    offset += items.length;
    // `total` is re-read on every page (it moves while we walk); an empty page ends a shrinking list.
    if (items.length === 0 || offset >= total) return;
  }
  throw new Error(`page walk stopped after ${MAX_PAGES} pages: the server seems to ignore offset`);
}

async function* walkUntilShort<T>(fetchPage: (offset: number, limit: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let offset = 0;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const items = await fetchPage(offset, MAX_PAGE_LIMIT);
    if (items.length > 0) yield items;
    offset += items.length;
    if (items.length < MAX_PAGE_LIMIT) return;
  }
  throw new Error(`page walk stopped after ${MAX_PAGES} pages: the server seems to ignore offset`);
}

async function collect<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(...page);
  return out;
}

