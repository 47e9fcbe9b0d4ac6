/** Schemas and the response envelope: typed results, typed errors, and decode errors that name the field. */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  CancelBatchResultSchema,
  DecodeError,
  FundingConfigSchema,
  ListedOrderSchema,
  MarketsSchema,
  OrderRecordSchema,
  PlaceOrdersBodySchema,
  PlaceOrdersResultSchema,
  PositionsSchema,
  TradingKeysSchema,
  WithdrawResultSchema,
  decodeEnvelope,
  parseWith,
} from '../../src/shared/protocol/index.js';

const market = {
  symbol: 'BTC',
  venue_symbol: 'BTC',
  venue_asset_index: 0,
  max_leverage: 50,
  display_max_leverage: 40,
  initial_margin_ratio: '0.02',
  maintenance_margin_ratio: '0.01',
  maker_fee_rate: '0.0002',
  taker_fee_rate: '0.0005',
  min_order_value: '10',
  max_notional: '0',
  max_open_orders: 50,
  slippage_bps: 50,
  tick_size: '0.5',
  sz_decimals: 5,
  px_decimals: 1,
  only_isolated: false,
  is_active: true,
};

const listed = {
  order_id: 'o-1',
  market: 'BTC',
  side: 'sell',
  size: '0',
  filled_size: '0',
  limit_price: '60000',
  order_type: 'TRIGGER',
  time_in_force: 'IOC',
  reduce_only: true,
  trigger_price: '61000',
  trigger_direction: 'down',
  tpsl: 'sl',
  is_trigger_market: true,
  status: 'open',
  submitted_at: 1,
  status_at: 2,
  is_modifying: false,
  parent_order_id: 'o-0',
};

describe('response envelope', () => {
  it('decodes success into typed data', () => {
    const r = decodeEnvelope(200, { success: true, data: [market], timestamp: 5 }, MarketsSchema, 'GET /markets');
    expect(r).toEqual({ ok: true, data: [market], success: true, timestamp: 5 });
  });

  it('decodes an error into a typed error with code, status and message', () => {
    const r = decodeEnvelope(403, { success: false, error: { code: 'FORBIDDEN', message: 'no active key' }, timestamp: 5 }, MarketsSchema, 'x');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(ApiError);
    expect(r.error).toMatchObject({ code: 'FORBIDDEN', status: 403, message: 'no active key' });
  });

  it('keeps the code-less 409 of a replayed nonce as a typed error', () => {
    const r = decodeEnvelope(409, { success: false, error: { message: 'nonce already used' }, timestamp: 1 }, MarketsSchema, 'x');
    expect(r.ok || r.error.isReplayedNonce).toBe(true);
    if (!r.ok) expect(r.error.code).toBeNull();
  });

  it('treats cancel-batch 200 with success:false as a result to read per leg', () => {
    const r = decodeEnvelope(
      200,
      { success: false, data: [{ order_id: 'a', status: 'SUBMITTED' }, { order_id: 'b', status: 'FAILED', reason: 'bad signature' }], timestamp: 1 },
      CancelBatchResultSchema,
      'cancel-batch',
    );
    expect(r.ok && r.success === false && r.data[1]!.status === 'FAILED').toBe(true);
  });

  it('names the malformed field', () => {
    const bad = { ...market, tick_size: 0.5 };
    expect(() => decodeEnvelope(200, { success: true, data: [bad], timestamp: 1 }, MarketsSchema, 'GET /markets')).toThrow(/GET \/markets: \[0\]\.tick_size/);
    expect(() => parseWith(PositionsSchema, { positions: [{ market: 'BTC' }] }, 'positions')).toThrow(DecodeError);
  });
});

describe('resource schemas', () => {
  it('parses unknown future reason codes', () => {
    expect(parseWith(PlaceOrdersResultSchema, [{ order_id: 'x', client_order_id: 'c', status: 'REJECTED', reason: 'some_new_reason_2027' }], 'r')[0]!.reason).toBe(
      'some_new_reason_2027',
    );
    expect(parseWith(OrderRecordSchema, { order_id: 'x', status: 'CANCELLED', reason: 'bracket_whatever_new' }, 'r').reason).toBe('bracket_whatever_new');
  });

  it('parses server-generated order types on reads', () => {
    for (const t of ['LIQUIDATION', 'ORPHAN_LIQUIDATION']) {
      expect(parseWith(ListedOrderSchema, { ...listed, order_type: t, status: 'filled' }, 'row').order_type).toBe(t);
    }
  });

  it('never lets a server-generated type be submitted', () => {
    const leg = { market: 'BTC', side: 'BUY', size: '1', limit_price: '1', order_type: 'LIQUIDATION', client_order_id: 'c', nonce: '1', signature: '0x' + '1'.repeat(130) };
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id: '0x' + 'a'.repeat(40) + '0'.repeat(24), orders: [leg] }, 'body')).toThrow(/orders\[0\]\.order_type/);
  });

  it('requires client_order_id, canonical decimals and 1..20 legs', () => {
    const leg = { market: 'BTC', side: 'BUY', size: '1', limit_price: '1', client_order_id: 'c', nonce: '1', signature: '0x' + '1'.repeat(130) };
    const account_id = '0x' + 'a'.repeat(40) + '0'.repeat(24);
    expect(parseWith(PlaceOrdersBodySchema, { account_id, orders: [leg] }, 'b').orders).toHaveLength(1);
    const { client_order_id: _c, ...noCoid } = leg;
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id, orders: [noCoid] }, 'b')).toThrow(/orders\[0\]\.client_order_id/);
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id, orders: [{ ...leg, size: '1.50' }] }, 'b')).toThrow(/orders\[0\]\.size: expected a canonical decimal/);
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id, orders: [] }, 'b')).toThrow(/at least 1/);
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id, orders: Array(21).fill(leg) }, 'b')).toThrow(/at most 20/);
    expect(() => parseWith(PlaceOrdersBodySchema, { account_id: account_id.slice(0, -2) + '01', orders: [leg] }, 'b')).toThrow(/account_id/);
  });

  it('parses funding config with any rail and a JSON-number trader_share', () => {
    const cfg = {
      deposit: { hypercore: { address: '0x5ec6B8eeF87319d7F9035260faeE6f8eE2405Ae1', min_amount: '5' }, arbitrum: { min_amount: '10' } },
      withdrawal: { min_amount: '2', new_wallet_fee: '1' },
      trader_share: 0.5,
    };
    expect(parseWith(FundingConfigSchema, cfg, 'config').deposit.arbitrum?.min_amount).toBe('10');
    expect(() => parseWith(FundingConfigSchema, { ...cfg, trader_share: '0.5' }, 'config')).toThrow(/trader_share/);
    expect(() => parseWith(FundingConfigSchema, { ...cfg, deposit: { arbitrum: { min_amount: '1' } } }, 'config')).toThrow(/deposit\.hypercore/);
  });

  it('parses trading keys, withdraw results with new_wallet_fee', () => {
    expect(parseWith(TradingKeysSchema, [{ agent_wallet_address: '0x5722d95D2eDeFE258Cf04846c7e29A2116AfEdED', status: 'ACTIVE', created_at: 1, expires_at: 2 }], 'k')).toHaveLength(1);
    expect(parseWith(WithdrawResultSchema, { status: 'REJECTED', reason: 'BELOW_MIN_AFTER_FEE', new_wallet_fee: '1' }, 'w').new_wallet_fee).toBe('1');
  });
});
