/**
 * All mutable simulator state, with the indexes the hot paths need (live orders per account and per
 * market, position holders per market, per-account logs of history rows, fills and funding payments).
 * The records themselves are plain JSON (see model.ts); the indexes are rebuilt on load, never saved.
 *
 * Built for long runs (issue 17): reads walk per-account, newest-first logs (accountLog.ts), history rows
 * keep only what differs from their order (HistoryEntry), nonces are numbers in sorted arrays
 * (nonceSet.ts), and wallet and account strings are shared. With the `retention` setting the oldest
 * rows of each account leave memory (and the state file), and an order whose last row left is forgotten.
 */
import { isTerminalOrderStatus, type ListStatus } from '../../shared/protocol/index.js';
import { d, money, type Decimal } from '../core/numbers.js';
import { compactEntry, entryOf, historyEntry } from '../orders/views.js';
import { AccountLog, type HiddenRows, type LogKeys, type LogPage, type LogQuery } from './accountLog.js';
import { NonceSet } from './nonceSet.js';
import { SnapshotError } from './snapshotError.js';
import { checkLegacyCollections, parseStoreRecord } from './stateSchemas.js';
import type {
  Account,
  DepositRecord,
  FillRow,
  FundingRow,
  HistoryEntry,
  HistoryRecord,
  ListedOrderRow,
  MarginForcedOutcome,
  MarginRequestRecord,
  SimOrder,
  SimPosition,
  TradingKeyRecord,
  WithdrawalForcedOutcome,
  WithdrawalRecord,
} from './model.js';

export interface Counters {
  order: number;
  position: number;
  withdrawal: number;
  deposit: number;
  margin: number;
}

/** Outcomes armed by the control API for the next created item. */
export interface ForcedNext {
  withdrawal: WithdrawalForcedOutcome | null;
  margin: MarginForcedOutcome | null;
  orderFailed: boolean;
}

/** Everything but the per-order collections: written whole at the head of the state file. */
export interface StoreHead {
  counters: Counters;
  accounts: Account[];
  keys: TradingKeyRecord[];
  positions: Record<string, SimPosition[]>;
  published: Record<string, SimPosition[]>;
  deposits: DepositRecord[];
  withdrawals: WithdrawalRecord[];
  withdrawalRequests: Record<string, number[]>;
  margin: MarginRequestRecord[];
  forcedNext: ForcedNext;
}

/**
 * A history row in the state file: [order_id, status, status_at - submitted_at, size, filled_size,
 * avg_fill_price, reason, is_modifying, parent_order_id] (the order itself is saved once, before).
 */
export type HistoryTuple = [string, ListStatus, number, string, string, string | null, string | null, boolean, string | null];

/**
 * The per-order collections, one record at a time, so a state file of a million orders is written and
 * read a line at a time instead of as one string (which V8 cannot even hold past 512 MB). Orders come
 * before the history rows that refer to them.
 */
export type StoreRecord =
  | ['order', SimOrder]
  | ['history', string, HistoryTuple]
  | ['fill', string, FillRow]
  | ['funding', string, FundingRow]
  | ['cloids', string, string[]]
  | ['nonces', string, string[]];

/** The state file's store before version 2: one JSON object, history rows written out in full. */
export interface LegacyStoreSnapshot extends StoreHead {
  nonces: Record<string, string[]>;
  orders: SimOrder[];
  history: Record<string, ListedOrderRow[]>;
  fills: Record<string, FillRow[]>;
  funding: Record<string, FundingRow[]>;
}

/** How much of each account's past the store keeps (config `retention`). */
export interface StoreRetention {
  /** Order-history rows, fills and funding payments kept per account (each); null keeps everything. */
  rows_per_account: number | null;
}

/** Client order ids and nonces are saved in chunks of this many per record line. */
const CHUNK = 10_000;

/** A history row's list status that ends its order: its last row. */
const FINAL_ROW: ReadonlySet<ListStatus> = new Set(['filled', 'partially_filled_cancelled', 'cancelled', 'rejected']);

/** Shared by every order that has no bracket legs (most): one frozen array instead of one per order. */
const NO_LEGS: string[] = Object.freeze([]) as unknown as string[];

const historyKeys: LogKeys<HistoryRecord> = {
  market: (r) => ('order' in r ? r.order : r).market,
  time: (r) => ('order' in r ? r.order.submitted_at + r.after : r.status_at),
};
const fillKeys = { market: (f: FillRow) => f.market, time: (f: FillRow) => f.filled_at };
const fundingKeys = { market: (f: FundingRow) => f.market, time: (f: FundingRow) => f.epoch_time };

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function nested<K1, K2, V>(map: Map<K1, Map<K2, V>>, key: K1): Map<K2, V> {
  let inner = map.get(key);
  if (!inner) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

export class SimStore {
  counters: Counters = { order: 0, position: 0, withdrawal: 0, deposit: 0, margin: 0 };
  readonly accounts = new Map<string, Account>();
  /** Key: `${wallet}|${agent lowercase}`. */
  readonly keys = new Map<string, TradingKeyRecord>();
  /** Key: `${scope}:${wallet}` (see auth/nonces.ts). */
  readonly nonces = new Map<string, NonceSet>();
  readonly orders = new Map<string, SimOrder>();
  /** Every client order id each account used (modify refuses a reused one), kept even for forgotten orders. */
  readonly cloids = new Map<string, Set<string>>();
  readonly liveByWallet = new Map<string, Map<string, SimOrder>>();
  readonly liveByMarket = new Map<string, Map<string, SimOrder>>();
  readonly history = new Map<string, AccountLog<HistoryRecord>>();
  readonly fills = new Map<string, AccountLog<FillRow>>();
  /** Internal truth: wallet -> market -> open position. */
  readonly positions = new Map<string, Map<string, SimPosition>>();
  /** What /positions shows: the truth as of position_lag_ms ago. */
  readonly published = new Map<string, Map<string, SimPosition>>();
  readonly holdersByMarket = new Map<string, Set<string>>();
  readonly funding = new Map<string, AccountLog<FundingRow>>();
  readonly deposits = new Map<string, DepositRecord>();
  readonly depositsByWallet = new Map<string, DepositRecord[]>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  readonly withdrawalsByWallet = new Map<string, WithdrawalRecord[]>();
  /** Times of signed withdrawal requests per wallet (RATE_LIMITED window). */
  readonly withdrawalRequests = new Map<string, number[]>();
  readonly margin = new Map<string, MarginRequestRecord>();
  forcedNext: ForcedNext = { withdrawal: null, margin: null, orderFailed: false };
  /**
   * The longest persist lag any order was given (visible_at - submitted_at): a row older than that is
   * visible for sure, so reads check visibility only among the newest rows.
   */
  private maxPersistLag = 0;
  /** One instance of each wallet and account id string, whatever request spelled it. */
  private readonly strings = new Map<string, string>();

  constructor(readonly retention: StoreRetention = { rows_per_account: null }) {}

  // ---- ids ------------------------------------------------------------------------------------

  nextOrderId(): string {
    // Numeric strings like the venue's order ids, well clear of small numbers a test might guess.
    return String(100_000_000 + ++this.counters.order);
  }

  nextPositionId(): string {
    return String(++this.counters.position);
  }

  nextWithdrawalId(): string {
    return `wd_${String(++this.counters.withdrawal).padStart(8, '0')}`;
  }

  nextDepositId(): string {
    return `dep_${String(++this.counters.deposit).padStart(8, '0')}`;
  }

  nextMarginId(): string {
    return `mr_${String(++this.counters.margin).padStart(8, '0')}`;
  }

  // ---- balances -------------------------------------------------------------------------------

  account(wallet: string): Account {
    let a = this.accounts.get(wallet);
    if (!a) {
      a = { wallet, free: '0' };
      this.accounts.set(wallet, a);
    }
    return a;
  }

  free(wallet: string): Decimal {
    return d(this.accounts.get(wallet)?.free ?? '0');
  }

  addFree(wallet: string, delta: Decimal): void {
    const a = this.account(wallet);
    a.free = money(d(a.free).plus(delta));
  }

  // ---- orders ---------------------------------------------------------------------------------

  /** The one stored instance of a wallet or account id string (requests parse a new one each time). */
  intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  addOrder(order: SimOrder): void {
    order.wallet = this.intern(order.wallet);
    order.account_id = this.intern(order.account_id);
    if (order.bracket_legs.length === 0) order.bracket_legs = NO_LEGS;
    this.orders.set(order.order_id, order);
    this.useCloid(order.wallet, order.client_order_id);
    this.maxPersistLag = Math.max(this.maxPersistLag, order.visible_at - order.submitted_at);
    this.reindex(order);
  }

  private useCloid(wallet: string, cloid: string): void {
    let set = this.cloids.get(wallet);
    if (!set) {
      set = new Set();
      this.cloids.set(wallet, set);
    }
    set.add(cloid);
  }

  /** Keeps the live indexes in step with an order's status; call after every status change. */
  reindex(order: SimOrder): void {
    if (isTerminalOrderStatus(order.status)) {
      this.liveByWallet.get(order.wallet)?.delete(order.order_id);
      this.liveByMarket.get(order.market)?.delete(order.order_id);
    } else {
      nested(this.liveByWallet, order.wallet).set(order.order_id, order);
      nested(this.liveByMarket, order.market).set(order.order_id, order);
    }
  }

  liveOf(wallet: string): Iterable<SimOrder> {
    return this.liveByWallet.get(wallet)?.values() ?? [];
  }

  liveInMarket(market: string): SimOrder[] {
    return [...(this.liveByMarket.get(market)?.values() ?? [])];
  }

  /** Writes the order's history row for `status`, as the order is now. */
  addHistory(order: SimOrder, status: ListStatus): void {
    this.appendHistory(historyEntry(order, status));
  }

  private appendHistory(entry: HistoryEntry): void {
    const log = logOf(this.history, entry.order.wallet, historyKeys);
    log.append(compactEntry(entry));
    if (this.retention.rows_per_account !== null) log.trimTo(this.retention.rows_per_account, (e) => this.rowLeft(e));
  }

  /**
   * A history row left memory (retention): when it was its order's last (terminal) row, the order is
   * forgotten too, unless a bracket leg still waits on it. Its client order id and nonces stay used.
   */
  private rowLeft(row: HistoryRecord): void {
    const entry = entryOf(row);
    const order = entry.order;
    if (!FINAL_ROW.has(entry.status) || !isTerminalOrderStatus(order.status)) return;
    if (order.bracket_legs.some((id) => this.orders.get(id)?.status === 'PENDING_PARENT')) return;
    this.orders.delete(order.order_id);
  }

  addFill(wallet: string, fill: FillRow): void {
    const log = logOf(this.fills, wallet, fillKeys);
    log.append(fill);
    if (this.retention.rows_per_account !== null) log.trimTo(this.retention.rows_per_account);
  }

  /**
   * A page of an account's order history, newest first. Rows of orders still inside their persist lag
   * are skipped (and not counted), as every read skips those orders.
   */
  historyPage(wallet: string, query: LogQuery, now: number): LogPage<HistoryRecord> {
    const log = this.history.get(wallet);
    if (!log) return { rows: [], total: 0 };
    const hidden: HiddenRows<HistoryRecord> = { since: now - this.maxPersistLag, hides: (r) => ('order' in r ? r.order : r).visible_at > now };
    return log.page(query, hidden);
  }

  fillsPage(wallet: string, query: LogQuery): LogPage<FillRow> {
    return this.fills.get(wallet)?.page(query) ?? { rows: [], total: 0 };
  }

  fundingPage(wallet: string, query: LogQuery): LogPage<FundingRow> {
    return this.funding.get(wallet)?.page(query) ?? { rows: [], total: 0 };
  }

  // ---- positions ------------------------------------------------------------------------------

  position(wallet: string, market: string): SimPosition | undefined {
    return this.positions.get(wallet)?.get(market);
  }

  setPosition(wallet: string, position: SimPosition | null, market: string): void {
    if (position) {
      nested(this.positions, wallet).set(market, position);
      let holders = this.holdersByMarket.get(market);
      if (!holders) {
        holders = new Set();
        this.holdersByMarket.set(market, holders);
      }
      holders.add(wallet);
    } else {
      this.positions.get(wallet)?.delete(market);
      this.holdersByMarket.get(market)?.delete(wallet);
    }
  }

  holders(market: string): string[] {
    return [...(this.holdersByMarket.get(market) ?? [])];
  }

  publish(wallet: string, market: string, view: SimPosition | null): void {
    if (view) nested(this.published, wallet).set(market, view);
    else this.published.get(wallet)?.delete(market);
  }

  addFunding(wallet: string, row: FundingRow): void {
    const log = logOf(this.funding, wallet, fundingKeys);
    log.append(row);
    if (this.retention.rows_per_account !== null) log.trimTo(this.retention.rows_per_account);
  }

  // ---- money ----------------------------------------------------------------------------------

  addDeposit(dep: DepositRecord): void {
    this.deposits.set(dep.id, dep);
    push(this.depositsByWallet, dep.wallet, dep);
  }

  addWithdrawal(w: WithdrawalRecord): void {
    this.withdrawals.set(w.withdrawal_id, w);
    push(this.withdrawalsByWallet, w.wallet, w);
  }

  // ---- nonces ---------------------------------------------------------------------------------

  nonceUsed(wallet: string, nonce: string): boolean {
    return this.nonces.get(wallet)?.has(nonce) ?? false;
  }

  useNonce(wallet: string, nonce: string): void {
    let set = this.nonces.get(wallet);
    if (!set) {
      set = new NonceSet();
      this.nonces.set(wallet, set);
    }
    set.add(nonce);
  }

  // ---- persistence ----------------------------------------------------------------------------

  /** Everything but the per-order collections (see records()). */
  head(): StoreHead {
    const recordOf = <V>(map: Map<string, V[]>): Record<string, V[]> => Object.fromEntries([...map].map(([k, v]) => [k, v]));
    const flatten = (map: Map<string, Map<string, SimPosition>>): Record<string, SimPosition[]> =>
      Object.fromEntries([...map].map(([k, inner]) => [k, [...inner.values()]]));
    return {
      counters: { ...this.counters },
      accounts: [...this.accounts.values()],
      keys: [...this.keys.values()],
      positions: flatten(this.positions),
      published: flatten(this.published),
      deposits: [...this.deposits.values()],
      withdrawals: [...this.withdrawals.values()],
      withdrawalRequests: recordOf(this.withdrawalRequests),
      margin: [...this.margin.values()],
      forcedNext: { ...this.forcedNext },
    };
  }

  /** The per-order collections, a record at a time: orders, then history rows, fills, funding, client order ids, nonces. */
  *records(): Generator<StoreRecord> {
    for (const order of this.orders.values()) yield ['order', order];
    for (const [wallet, log] of this.history) {
      for (const row of log.rows()) {
        const e = entryOf(row);
        yield ['history', wallet, [e.order.order_id, e.status, e.after, e.size, e.filled_size, e.avg_fill_price, e.reason, e.is_modifying, e.parent_order_id]];
      }
    }
    for (const [wallet, log] of this.fills) for (const f of log.rows()) yield ['fill', wallet, f];
    for (const [wallet, log] of this.funding) for (const f of log.rows()) yield ['funding', wallet, f];
    for (const [wallet, set] of this.cloids) yield* chunked('cloids', wallet, set.values());
    for (const [key, set] of this.nonces) yield* chunked('nonces', key, set.values());
  }

  /**
   * A store from a validated head (parseEngineHead) and its records as a state file holds them (in the
   * order records() gives them): each is validated (parseStoreRecord) as it is read, before it is used.
   */
  static load(head: StoreHead, records: Iterable<readonly unknown[]>, retention?: StoreRetention): SimStore {
    const store = new SimStore(retention);
    store.counters = { ...head.counters };
    for (const a of head.accounts) store.accounts.set(a.wallet, a);
    for (const k of head.keys) store.keys.set(`${k.wallet}|${k.agent.toLowerCase()}`, k);
    for (const [w, list] of Object.entries(head.positions)) for (const p of list) store.setPosition(w, p, p.market);
    for (const [w, list] of Object.entries(head.published)) for (const p of list) store.publish(w, p.market, p);
    for (const dep of head.deposits) store.addDeposit(dep);
    for (const w of head.withdrawals) store.addWithdrawal(w);
    for (const [w, times] of Object.entries(head.withdrawalRequests)) store.withdrawalRequests.set(w, times);
    for (const m of head.margin) store.margin.set(m.request_id, m);
    store.forcedNext = { ...head.forcedNext };
    for (const record of records) store.addRecord(parseStoreRecord(record));
    return store;
  }

  private addRecord(record: StoreRecord): void {
    switch (record[0]) {
      case 'order':
        this.addOrder(record[1]);
        return;
      case 'history': {
        const [id, status, after, size, filled_size, avg_fill_price, reason, is_modifying, parent_order_id] = record[2];
        const order = this.orders.get(id);
        if (!order) throw new SnapshotError(`history row of unknown order ${id}`);
        if (order.wallet !== record[1]) throw new SnapshotError(`history row of order ${id} filed under another account`);
        this.appendHistory({ order, status, after, size, filled_size, avg_fill_price, reason, is_modifying, parent_order_id });
        return;
      }
      case 'fill':
        this.addFill(this.intern(record[1]), record[2]);
        return;
      case 'funding':
        this.addFunding(this.intern(record[1]), record[2]);
        return;
      case 'cloids':
        for (const cloid of record[2]) this.useCloid(this.intern(record[1]), cloid);
        return;
      case 'nonces':
        for (const nonce of record[2]) this.useNonce(record[1], nonce);
        return;
      default:
        throw new SnapshotError(`unknown state record ${JSON.stringify((record as unknown[])[0])}`);
    }
  }
}

/** The records of a state file written before version 2 (one object, history rows written out in full). */
export function* legacyRecords(s: LegacyStoreSnapshot): Generator<StoreRecord> {
  // Read from the file unvalidated: its collections are checked when the restore reads the first record.
  checkLegacyCollections(s);
  // Rows of an order that was never stored were never shown: they are left out, as before.
  const known = new Set(s.orders.map((o) => o.order_id));
  for (const o of s.orders) yield ['order', o];
  for (const [w, rows] of Object.entries(s.history)) {
    for (const r of rows) {
      if (!known.has(r.order_id)) continue;
      yield ['history', w, [r.order_id, r.status, r.status_at - r.submitted_at, r.size, r.filled_size, r.avg_fill_price ?? null, r.reason ?? null, r.is_modifying, r.parent_order_id ?? null]];
    }
  }
  for (const [w, rows] of Object.entries(s.fills)) for (const f of rows) yield ['fill', w, f];
  for (const [w, rows] of Object.entries(s.funding)) for (const f of rows) yield ['funding', w, f];
  for (const [key, list] of Object.entries(s.nonces)) yield ['nonces', key, list];
}

function logOf<R>(map: Map<string, AccountLog<R>>, wallet: string, keys: LogKeys<R>): AccountLog<R> {
  let log = map.get(wallet);
  if (!log) {
    log = new AccountLog(keys);
    map.set(wallet, log);
  }
  return log;
}

function* chunked(kind: 'cloids' | 'nonces', key: string, values: Iterable<string>): Generator<StoreRecord> {
  let chunk: string[] = [];
  for (const v of values) {
    chunk.push(v);
    if (chunk.length === CHUNK) {
      yield [kind, key, chunk];
      chunk = [];
    }
  }
  if (chunk.length > 0) yield [kind, key, chunk];
}
