/**
 * All mutable simulator state, with the indexes the hot paths need (live orders per account and per
 * market, position holders per market). The records themselves are plain JSON (see model.ts); the
 * indexes are rebuilt on load, never saved.
 */
import { isTerminalOrderStatus } from '../../shared/protocol/index.js';
import { d, money, type Decimal } from '../core/numbers.js';
import type {
  Account,
  DepositRecord,
  FillRow,
  FundingRow,
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

export interface StoreSnapshot {
  counters: Counters;
  accounts: Account[];
  keys: TradingKeyRecord[];
  nonces: Record<string, string[]>;
  orders: SimOrder[];
  history: Record<string, ListedOrderRow[]>;
  fills: Record<string, FillRow[]>;
  positions: Record<string, SimPosition[]>;
  published: Record<string, SimPosition[]>;
  funding: Record<string, FundingRow[]>;
  deposits: DepositRecord[];
  withdrawals: WithdrawalRecord[];
  withdrawalRequests: Record<string, number[]>;
  margin: MarginRequestRecord[];
  forcedNext: ForcedNext;
}

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
  readonly nonces = new Map<string, Set<string>>();
  readonly orders = new Map<string, SimOrder>();
  readonly ordersByWallet = new Map<string, SimOrder[]>();
  readonly cloids = new Map<string, Set<string>>();
  readonly liveByWallet = new Map<string, Map<string, SimOrder>>();
  readonly liveByMarket = new Map<string, Map<string, SimOrder>>();
  readonly history = new Map<string, ListedOrderRow[]>();
  readonly fills = new Map<string, FillRow[]>();
  /** Internal truth: wallet -> market -> open position. */
  readonly positions = new Map<string, Map<string, SimPosition>>();
  /** What /positions shows: the truth as of position_lag_ms ago. */
  readonly published = new Map<string, Map<string, SimPosition>>();
  readonly holdersByMarket = new Map<string, Set<string>>();
  readonly funding = new Map<string, FundingRow[]>();
  readonly deposits = new Map<string, DepositRecord>();
  readonly depositsByWallet = new Map<string, DepositRecord[]>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  readonly withdrawalsByWallet = new Map<string, WithdrawalRecord[]>();
  /** Times of signed withdrawal requests per wallet (RATE_LIMITED window). */
  readonly withdrawalRequests = new Map<string, number[]>();
  readonly margin = new Map<string, MarginRequestRecord>();
  forcedNext: ForcedNext = { withdrawal: null, margin: null, orderFailed: false };

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

  addOrder(order: SimOrder): void {
    this.orders.set(order.order_id, order);
    push(this.ordersByWallet, order.wallet, order);
    let set = this.cloids.get(order.wallet);
    if (!set) {
      set = new Set();
      this.cloids.set(order.wallet, set);
    }
    set.add(order.client_order_id);
    this.reindex(order);
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

  addHistory(wallet: string, row: ListedOrderRow): void {
    push(this.history, wallet, row);
  }

  addFill(wallet: string, fill: FillRow): void {
    push(this.fills, wallet, fill);
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
    push(this.funding, wallet, row);
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
      set = new Set();
      this.nonces.set(wallet, set);
    }
    set.add(nonce);
  }

  // ---- persistence ----------------------------------------------------------------------------

  toJSON(): StoreSnapshot {
    const recordOf = <V>(map: Map<string, V[]>): Record<string, V[]> => Object.fromEntries([...map].map(([k, v]) => [k, v]));
    const flatten = (map: Map<string, Map<string, SimPosition>>): Record<string, SimPosition[]> =>
      Object.fromEntries([...map].map(([k, inner]) => [k, [...inner.values()]]));
    return {
      counters: { ...this.counters },
      accounts: [...this.accounts.values()],
      keys: [...this.keys.values()],
      nonces: Object.fromEntries([...this.nonces].map(([k, v]) => [k, [...v]])),
      orders: [...this.orders.values()],
      history: recordOf(this.history),
      fills: recordOf(this.fills),
      positions: flatten(this.positions),
      published: flatten(this.published),
      funding: recordOf(this.funding),
      deposits: [...this.deposits.values()],
      withdrawals: [...this.withdrawals.values()],
      withdrawalRequests: recordOf(this.withdrawalRequests),
      margin: [...this.margin.values()],
      forcedNext: { ...this.forcedNext },
    };
  }

  static fromJSON(s: StoreSnapshot): SimStore {
    const store = new SimStore();
    store.counters = { ...s.counters };
    for (const a of s.accounts) store.accounts.set(a.wallet, a);
    for (const k of s.keys) store.keys.set(`${k.wallet}|${k.agent.toLowerCase()}`, k);
    for (const [w, list] of Object.entries(s.nonces)) store.nonces.set(w, new Set(list));
    for (const o of s.orders) store.addOrder(o);
    for (const [w, rows] of Object.entries(s.history)) store.history.set(w, rows);
    for (const [w, rows] of Object.entries(s.fills)) store.fills.set(w, rows);
    for (const [w, list] of Object.entries(s.positions)) for (const p of list) store.setPosition(w, p, p.market);
    for (const [w, list] of Object.entries(s.published)) for (const p of list) store.publish(w, p.market, p);
    for (const [w, rows] of Object.entries(s.funding)) store.funding.set(w, rows);
    for (const dep of s.deposits) store.addDeposit(dep);
    for (const w of s.withdrawals) store.addWithdrawal(w);
    for (const [w, times] of Object.entries(s.withdrawalRequests)) store.withdrawalRequests.set(w, times);
    for (const m of s.margin) store.margin.set(m.request_id, m);
    store.forcedNext = { ...s.forcedNext };
    return store;
  }
}
