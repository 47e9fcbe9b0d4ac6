/**
 * An in-memory trading service for the prepare steps of the order flow (orders, modify, cancel, close,
 * reverse, margin): live markets, venue marks, the account's balance, positions, open orders and armed
 * triggers, and a trading key that counts what it signs. Every read is recorded in `calls`; no write
 * route exists here at all, so a prepare step that tried to send would throw.
 */
import { Wallet } from 'ethers';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { LiveConfig } from '../../../src/main/services/liveConfig.js';
import type { ListedOrder, Market, Position } from '../../../src/shared/protocol/index.js';
import { CountingSigner, FakeNonces, FakeSettings, SIM_PROFILE } from './fakes.js';

export const MAIN = Wallet.createRandom().address;

export function market(over: Partial<Market> & Pick<Market, 'symbol' | 'venue_asset_index'>): Market {
  return {
    venue_symbol: over.symbol,
    max_leverage: 20,
    display_max_leverage: 20,
    initial_margin_ratio: '0.05',
    maintenance_margin_ratio: '0.025',
    maker_fee_rate: '0.0002',
    taker_fee_rate: '0.0005',
    min_order_value: '10',
    max_notional: '0',
    max_open_orders: 50,
    slippage_bps: 50,
    tick_size: '0.5',
    sz_decimals: 4,
    px_decimals: 1,
    only_isolated: true,
    is_active: true,
    ...over,
  };
}

export const BTC = market({ symbol: 'BTC', venue_asset_index: 0 });
export const ETH = market({ symbol: 'ETH', venue_asset_index: 1, tick_size: '0.01', px_decimals: 2, sz_decimals: 3, max_leverage: 10, initial_margin_ratio: '0.2' });

export interface TradingWorldOptions {
  marks?: Record<string, string>;
  freeBalance?: string;
  positions?: Position[];
  open?: ListedOrder[];
  triggers?: ListedOrder[];
}

export function tradingWorld(options: TradingWorldOptions = {}) {
  const calls: string[] = [];
  const markets = [BTC, ETH];
  const marks = { BTC: '60000', ETH: '3000', ...options.marks };
  const settings = new FakeSettings();
  const nonces = new FakeNonces();
  const agent = new CountingSigner();
  const open = options.open ?? [];
  const api = {
    async markets() {
      calls.push('markets');
      return markets;
    },
    async balance(accountId: string) {
      calls.push('balance');
      return { account: accountId, free_balance: options.freeBalance ?? '100000' };
    },
    async positions() {
      calls.push('positions');
      return { positions: options.positions ?? [] };
    },
    async openOrders(q: { market?: string }) {
      calls.push(`openOrders ${q.market ?? ''}`);
      const rows = open.filter((o) => q.market === undefined || o.market === q.market);
      return { orders: rows.slice(0, 1), total: rows.length };
    },
    async allOpenOrders(q: { market?: string }) {
      calls.push(`allOpenOrders ${q.market ?? ''}`);
      return open.filter((o) => q.market === undefined || o.market === q.market);
    },
    async positionTriggers() {
      calls.push('positionTriggers');
      return { orders: options.triggers ?? [], total: (options.triggers ?? []).length };
    },
    // What fired and how it ended (a stop's protection state, issue 35): nothing by default.
    async orderHistory() {
      calls.push('orderHistory');
      return { orders: [], limit: 200, offset: 0, total: 0 };
    },
    async tradeHistory() {
      calls.push('tradeHistory');
      return { fills: [], limit: 200, offset: 0, total: 0 };
    },
  };
  const venue = {
    async metaAndAssetCtxs() {
      calls.push('venue');
      const ctx = (markPx: string) => ({ funding: '0.0001', openInterest: '10', prevDayPx: markPx, dayNtlVlm: '0', oraclePx: markPx, markPx });
      return [{ universe: markets.map((m) => ({ name: m.venue_symbol, szDecimals: m.sz_decimals, maxLeverage: m.max_leverage })) }, markets.map((m) => ctx(marks[m.symbol as 'BTC' | 'ETH']))];
    },
  };
  const ctx = {
    profile: SIM_PROFILE,
    api,
    venue,
    config: new LiveConfig(api as never),
    nonces,
    settings,
    sleep: async () => undefined,
    clock: { now: async () => 1_700_000_000_000, invalidate() {} },
    vault: { list: () => [], get: () => undefined },
    async tradingSigner() {
      calls.push('tradingSigner');
      return agent;
    },
  } as unknown as ServiceContext;
  return { ctx, calls, nonces, agent, settings };
}

/** A listed order row (open-orders, position-triggers). */
export function listed(over: Partial<ListedOrder> & Pick<ListedOrder, 'order_id' | 'market'>): ListedOrder {
  return {
    side: 'sell',
    size: '0',
    filled_size: '0',
    limit_price: '50000',
    order_type: 'TRIGGER',
    time_in_force: null,
    reduce_only: true,
    trigger_price: '55000',
    trigger_direction: 'down',
    tpsl: 'sl',
    is_trigger_market: true,
    status: 'open',
    submitted_at: 1,
    status_at: 1,
    is_modifying: false,
    ...over,
  } as ListedOrder;
}

export function position(over: Partial<Position> & Pick<Position, 'market' | 'size'>): Position {
  return { id: `p-${over.market}`, entry_price: '60000', isolated_margin: '300', closeable: over.size.replace('-', ''), status: 'OPEN', version: 1, ...over } as Position;
}
