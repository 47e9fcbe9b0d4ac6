/**
 * The simulator's records. Everything here is plain JSON (decimal strings, Unix ms numbers) so the
 * whole state saves to a file and loads back unchanged. Wallets are stored lowercase as map keys and
 * shown checksummed on the wire.
 */
import type { OrderStatus, OrderType, Side, TimeInForce, Tpsl, WithdrawalStatus, DepositStatus, MarginRequestStatus, ListStatus } from '../../shared/protocol/index.js';

export interface Account {
  /** Lowercase wallet. */
  wallet: string;
  /** Free balance: excludes posted margin and funds locked by in-flight withdrawals. */
  free: string;
}

export interface TradingKeyRecord {
  /** Lowercase main wallet the key trades for. */
  wallet: string;
  /** Checksummed agent address. */
  agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  name: string | null;
  key_hint: string | null;
}

export interface OrderTrigger {
  trigger_price: string;
  is_market: boolean;
  tpsl: Tpsl;
}

export interface SimOrder {
  order_id: string;
  /** Lowercase wallet of the account. */
  wallet: string;
  account_id: string;
  client_order_id: string;
  market: string;
  side: Side;
  order_type: OrderType;
  /** Size as submitted; a whole-position trigger ('0') gets the position size when it fires. */
  size: string;
  whole_position: boolean;
  filled_size: string;
  /** Sum of price x size over fills, for avg_fill_price. */
  filled_notional: string;
  fees: string;
  limit_price: string;
  /** Triggers carry IOC (what they sign); server-generated orders carry IOC too. */
  time_in_force: TimeInForce;
  reduce_only: boolean;
  /** As sent and signed; 0 means "not given" (the market's max leverage applies). */
  leverage: number;
  trigger: OrderTrigger | null;
  status: OrderStatus;
  reason: string | null;
  submitted_at: number;
  status_at: number;
  /** Reads answer 404 / omit the order before this time (persist lag). */
  visible_at: number;
  avg_fill_price: string | null;
  /** Set while the order is a bracket leg waiting for its entry (PENDING_PARENT). */
  parent_order_id: string | null;
  /** Permanent link from a bracket leg to its entry (follows the entry through modifies). */
  bracket_entry_id: string | null;
  /** Bracket legs attached to this entry. */
  bracket_legs: string[];
  /** True on a live order while a modify that replaces it is in flight. */
  is_modifying: boolean;
  /** On an order replaced by an accepted modify: the new order's id. The old id is dead from then on. */
  replaced_by: string | null;
  /** On the PENDING_MODIFY order: the order it replaces. */
  replaces: string | null;
  /** Mark at which a trigger fired. */
  fired_at: number | null;
  /** Mark at submit (reference of a MARKET bracket entry). */
  mark_at_submit: string | null;
  /** Armed by POST /sim/order-outcome: the venue cannot route this order (FAILED at the accept step). */
  forced_failure: boolean;
}

/** A row of open-orders / position-triggers / order-history (the spec's Listed order). */
export interface ListedOrderRow {
  order_id: string;
  client_order_id: string;
  market: string;
  side: 'buy' | 'sell';
  size: string;
  filled_size: string;
  limit_price: string;
  order_type: OrderType;
  time_in_force: TimeInForce;
  reduce_only: boolean;
  trigger_price?: string;
  trigger_direction?: 'up' | 'down';
  tpsl?: 'tp' | 'sl';
  is_trigger_market?: boolean;
  status: ListStatus;
  submitted_at: number;
  status_at: number;
  is_modifying: boolean;
  parent_order_id?: string;
  reason?: string;
  avg_fill_price?: string;
}

/**
 * One order-history row as the store keeps it: the order it belongs to, plus only what can differ between
 * that order's rows (orders/views.ts rebuilds the full row when it is read). Market, side, prices, type,
 * time in force, trigger and times of submission are the order's own and never change, so a row does not
 * repeat them: history is the bulk of a long run's memory.
 */
export interface HistoryEntry {
  readonly order: SimOrder;
  readonly status: ListStatus;
  /**
   * status_at minus the order's submitted_at. A small integer is held inline, where a Unix-ms time
   * would be a boxed number of its own on every row.
   */
  readonly after: number;
  readonly size: string;
  readonly filled_size: string;
  readonly avg_fill_price: string | null;
  /** As the row shows it: only on rejected, cancelled and partially_filled_cancelled rows. */
  readonly reason: string | null;
  readonly is_modifying: boolean;
  /** Only on a row written while the order was a bracket leg awaiting its entry. */
  readonly parent_order_id: string | null;
}

/**
 * A row of an account's order history as the store holds it: an entry, or, for the row that ended an
 * order (its terminal row, when it shows exactly the order as it now is), the terminal order itself:
 * a terminal order never changes again, so that row needs nothing of its own (most orders' last row).
 */
export type HistoryRecord = HistoryEntry | SimOrder;

export interface FillRow {
  tid: number;
  order_id: string;
  market: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  fee: string;
  /** Realized PnL on reduce and close fills; null on opening fills. */
  closed_pnl: string | null;
  dir: 'Open Long' | 'Open Short' | 'Close Long' | 'Close Short';
  is_liquidation: boolean;
  filled_at: number;
  /** 'maker' for resting and post-only fills, 'taker' otherwise. */
  liquidity: 'maker' | 'taker';
}

export interface SimPosition {
  id: string;
  market: string;
  /** Signed: positive long, negative short. */
  size: string;
  entry_price: string;
  isolated_margin: string;
  version: number;
  opened_at: number;
  updated_at: number;
}

export interface FundingRow {
  market: string;
  direction: 'LONG' | 'SHORT';
  size: string;
  payment: string;
  funding_rate: string;
  epoch_time: number;
  settled_at: number;
}

export interface DepositRecord {
  id: string;
  wallet: string;
  tx_hash: string;
  amount: string;
  source: 'send' | 'spotTransfer' | 'internalTransfer';
  rail: string;
  status: DepositStatus;
  detected_at: number;
  credited_at: number | null;
}

export type WithdrawalForcedOutcome = 'REFUNDED' | 'FAILED' | 'REJECTED';

export interface WithdrawalRecord {
  withdrawal_id: string;
  wallet: string;
  account_id: string;
  amount: string;
  l1_send_amount: string;
  new_wallet_fee: string;
  /** Checksummed. */
  destination: string;
  rail: 'hypercore' | 'arbitrum';
  destination_chain_id: number | null;
  status: WithdrawalStatus;
  failure_reason: string | null;
  l1_tx_hash: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** True while `amount` is held out of the free balance. */
  locked: boolean;
  forced_outcome: WithdrawalForcedOutcome | null;
}

export type MarginForcedOutcome = 'TRANSFER_DECLINED' | 'DECLINED';

export interface MarginRequestRecord {
  request_id: string;
  wallet: string;
  account_id: string;
  market: string;
  amount: string;
  status: MarginRequestStatus;
  reason: string | null;
  created_at: number;
  resolved_at: number | null;
  visible_at: number;
  forced_outcome: MarginForcedOutcome | null;
}
