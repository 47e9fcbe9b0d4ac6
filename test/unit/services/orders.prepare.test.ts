/**
 * The prepare steps of the order flow, with no simulator: every order kind (single, bracket, legs given one
 * by one), modify, cancel, cancel-all, close, reverse and margin. Each builds exactly the typed data the
 * shared EIP-712 builders give for the legs it will send, reserves one distinct nonce per signature, shows
 * the costs computed by the shared trading maths, refuses bad input before any nonce is taken, and signs
 * nothing; submit refuses a Prepared changed after review or signed by another key, before signing.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/services/errors.js';
import { prepareCancel, prepareCancelAll, prepareLegs, prepareModify, prepareOrder, strategyFor, submitOrder, wireLeg } from '../../../src/main/services/orders/index.js';
import { prepareClose, prepareMargin, prepareReverse } from '../../../src/main/services/positions/index.js';
import { updatePreferences } from '../../../src/main/services/settings/preferences.js';
import { signPrepared } from '../../../src/main/services/signing/prepared.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { cancelTypedData, digestOf, bytesToHex, marginTypedData, modifyTypedData, orderTypedData } from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { CountingSigner } from './fakes.js';
import { BTC, ETH, MAIN, listed, position, tradingWorld } from './tradingFakes.js';

const ACCOUNT = accountIdFromWallet(MAIN);
const hex = (d: Uint8Array) => bytesToHex(d);

describe('order strategies', () => {
  const env = { market: BTC, mark: new Decimal('60000'), defaultLeverage: 3, defaultSlippageBps: null };

  it('single: one leg, the default leverage on an opening leg, none on a reduce-only one', () => {
    const s = strategyFor('single');
    const open = s.expand({ kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000' }, env);
    expect(open.labels).toEqual(['order']);
    expect(open.legs[0]).toMatchObject({ market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 3, reduce_only: false });
    const close = s.expand({ kind: 'single', market: 'BTC', side: 'SELL', order_type: 'MARKET', size: '0.1', reduce_only: true }, env);
    expect(close.legs[0]!.leverage).toBeUndefined();
    const given = s.expand({ kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 7 }, { ...env, defaultSlippageBps: 25 });
    expect(given.legs[0]).toMatchObject({ leverage: 7, slippage_bps: 25 });
  });

  it('bracket: an entry and reduce-only whole-position TP/SL legs naming it', () => {
    const b = strategyFor('bracket').expand({ kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', tp: { trigger_price: '65000' }, sl: { trigger_price: '55000' } }, env);
    expect(b.labels).toEqual(['entry', 'tp', 'sl']);
    const [entry, tp, sl] = b.legs;
    expect(entry).toMatchObject({ leverage: 3, reduce_only: false });
    for (const [leg, kind] of [[tp, 'TP'], [sl, 'SL']] as const) {
      expect(leg).toMatchObject({ side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, parent_client_order_id: entry!.client_order_id, trigger: { tpsl: kind, is_market: true } });
    }
  });
});

describe('prepareOrder', () => {
  it('builds the exact typed data of each leg, with distinct reserved nonces, and signs nothing', async () => {
    const w = tradingWorld();
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 5, sl: { trigger_price: '55000' } } });
    expect(p.signer).toEqual({ role: 'trading-key', address: w.agent.address });
    expect(p.legs).toHaveLength(2);
    expect(new Set(p.nonces).size).toBe(2);
    expect(w.nonces.issued.map((n) => String(n.nonce))).toEqual(p.nonces);
    p.legs.forEach((leg, i) => {
      const typed = orderTypedData(ACCOUNT, wireLeg(leg, p.nonces[i]!), 'testnet');
      expect(p.requests[i]!.typedData).toEqual(typed);
      expect(p.requests[i]!.digest).toBe(hex(digestOf(typed)));
      expect(p.view.legs[i]!.digest).toBe(p.requests[i]!.digest);
    });
    expect(w.agent.signed).toHaveLength(0);
    expect(w.calls.some((c) => /^(place|post)/i.test(c))).toBe(false);
  });

  it('prices the review with the shared maths: maker for a resting limit, margin at max(1/leverage, IMR)', async () => {
    const w = tradingWorld();
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '2', limit_price: '2900', leverage: 10 } });
    expect(p.view.legs[0]).toMatchObject({ fee_kind: 'maker', fee_rate: ETH.maker_fee_rate, notional: '5800', fee_estimate: '1.16' });
    // ETH's initial_margin_ratio 0.2 binds harder than 1/10.
    expect(p.view.margin_required).toBe('1160');
    expect(p.view.total_notional).toBe('5800');
  });

  it('leads the review with one plain line per leg, written from the leg as sent', async () => {
    const w = tradingWorld();
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 3, slippage_bps: 50, tp: { trigger_price: '65000' }, sl: { trigger_price: '55000' } } });
    const [entry, tp, sl] = p.view.legs;
    // The worst price is the bound that is signed (60000 + 50 bps on the 0.5 tick).
    expect(p.legs[0]!.limit_price).toBe('60300');
    expect(entry!.description).toBe('Buy 0.1 BTC at market, worst price 60,300, 3x');
    // A fired leg's worst price is 50 bps through its trigger: 65000 x 0.995 and 55000 x 0.995.
    expect(tp!.description).toBe('Sell the whole position when the mark reaches 65,000 (take profit), at market, worst price 64,675, once the entry fills');
    expect(sl!.description).toBe('Sell the whole position when the mark reaches 55,000 (stop loss), at market, worst price 54,725, once the entry fills');
    for (const l of p.view.legs) expect(l.description).not.toMatch(/leverage 0|0x0/);
  });

  it('applies the default leverage from settings (never 0), per market first', async () => {
    const w = tradingWorld();
    updatePreferences(w.ctx.settings, { default_leverage: 2, leverage_by_market: { BTC: 8 } });
    const btc = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.01' } });
    expect(btc.legs[0]!.leverage).toBe(8);
    expect(String((btc.requests[0]!.typedData.message as Record<string, unknown>)['leverage'])).toBe('8');
    const eth = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.1' } });
    expect(eth.legs[0]!.leverage).toBe(2);
  });

  it('refuses an order the free balance cannot pay for, before any nonce is taken', async () => {
    const w = tradingWorld({ freeBalance: '100' });
    const err = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ code: 'INSUFFICIENT_BALANCE', kind: 'validation' });
    expect(w.nonces.issued).toHaveLength(0);
    // A reduce-only order posts no margin: it passes with the same balance.
    const w2 = tradingWorld({ freeBalance: '0', positions: [position({ market: 'BTC', size: '0.1' })] });
    await expect(prepareOrder(w2.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'SELL', order_type: 'LIMIT', size: '0.1', limit_price: '61000', reduce_only: true } })).resolves.toBeDefined();
  });

  it('an order against the open position closes it first: only the rest needs margin', async () => {
    const w = tradingWorld({ freeBalance: '200', positions: [position({ market: 'BTC', size: '-0.1' })] });
    // Buying 0.1 against a 0.1 short opens nothing; buying 0.2 would open 0.1 (3000 at 2x = 1500 USDC).
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 2 } })).resolves.toBeDefined();
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.2', limit_price: '59000', leverage: 2 } })).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
  });

  it('refuses a malformed intent, an unknown market and an off-tick price, naming the field', async () => {
    const w = tradingWorld();
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'ladder', market: 'BTC' } })).rejects.toMatchObject({ code: 'INVALID_INTENT', field: 'kind' });
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '1'.repeat(65), limit_price: '1' } })).rejects.toMatchObject({ field: 'size' });
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'DOGE', side: 'BUY', order_type: 'MARKET', size: '1' } })).rejects.toMatchObject({ code: 'UNKNOWN_MARKET' });
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000.3' } })).rejects.toThrow(/tick_size/);
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000' } })).rejects.toMatchObject({ code: 'INVALID_INTENT' });
    expect(w.nonces.issued).toHaveLength(0);
  });

  it('legs given one by one (a batch) are prepared the same way', async () => {
    const w = tradingWorld();
    const p = await prepareLegs(w.ctx, {
      wallet: MAIN,
      legs: [
        { market: 'BTC', side: 'BUY', size: '0.01', order_type: 'LIMIT', limit_price: '58000', leverage: 2 },
        { market: 'ETH', side: 'SELL', size: '1', order_type: 'LIMIT', limit_price: '3100', time_in_force: 'ALO', leverage: 2 },
      ],
    });
    expect(p.view.kind).toBe('batch');
    expect(p.labels).toEqual(['orders[0]', 'orders[1]']);
    expect(p.view.legs.map((l) => [l.market, l.fee_kind])).toEqual([
      ['BTC', 'maker'],
      ['ETH', 'maker'],
    ]);
  });
});

describe('submit refuses what was not reviewed', () => {
  it('a changed leg, or another key, is refused before anything is signed', async () => {
    const w = tradingWorld();
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 2 } });
    const stranger = new CountingSigner();
    await expect(submitOrder(w.ctx, p, stranger)).rejects.toMatchObject({ code: 'SIGNER_MISMATCH' });
    expect(stranger.signed).toHaveLength(0);
    const typed = p.requests[0]!.typedData;
    const tampered = { ...p, requests: [{ ...p.requests[0]!, typedData: { ...typed, message: { ...(typed.message as Record<string, unknown>), size: '10' } } as typeof typed }] };
    await expect(signPrepared(tampered, w.agent)).rejects.toMatchObject({ code: 'REVIEW_MISMATCH' });
    expect(w.agent.signed).toHaveLength(0);
  });
});

describe('modify, cancel, cancel-all, margin', () => {
  const resting = listed({ order_id: 'o-1', market: 'BTC', side: 'buy', size: '0.1', limit_price: '58000', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false, trigger_price: null, tpsl: null });

  it('modify: the Modify typed data of the path order id with a new client order id', async () => {
    const w = tradingWorld({ open: [resting] });
    const p = await prepareModify(w.ctx, { wallet: MAIN, orderId: 'o-1', price: '57500', size: '0.2' });
    expect(p.view).toMatchObject({ order_id: 'o-1', before: { limit_price: '58000', size: '0.1' }, after: { limit_price: '57500', size: '0.2', trigger_price: '0' } });
    expect(p.requests[0]!.typedData).toEqual(modifyTypedData('o-1', { account_id: ACCOUNT, ...p.fields, nonce: p.nonce }, 'testnet'));
    await expect(prepareModify(w.ctx, { wallet: MAIN, orderId: 'o-1', price: '57500.2', size: '0.2' })).rejects.toThrow(/tick_size/);
  });

  it('cancel: one Cancel over the wallet (not the account id) and the order type read from open-orders', async () => {
    const w = tradingWorld({ open: [resting] });
    const p = await prepareCancel(w.ctx, { wallet: MAIN, orderId: 'o-1' });
    expect(p.route).toBe('single');
    expect(p.targets).toEqual([{ order_id: 'o-1', order_type: 'LIMIT' }]);
    expect(p.requests[0]!.typedData).toEqual(cancelTypedData('o-1', { account: MAIN, order_type: 'LIMIT', nonce: p.nonces[0]! }, 'testnet'));
  });

  it('cancel-all: every open order, leaving the bracket legs that follow a cancelled entry to the service', async () => {
    const leg = listed({ order_id: 'o-2', market: 'BTC', parent_order_id: 'o-1' });
    const armed = listed({ order_id: 'o-3', market: 'ETH', trigger_price: '2800', limit_price: '2790' });
    const w = tradingWorld({ open: [resting, leg, armed] });
    const p = await prepareCancelAll(w.ctx, { wallet: MAIN });
    expect(p.targets.map((t) => [t.order_id, t.order_type])).toEqual([
      ['o-1', 'LIMIT'],
      ['o-3', 'TRIGGER'],
    ]);
    expect(p.followers).toEqual(['o-2']);
    expect(new Set(p.nonces).size).toBe(2);
    const one = await prepareCancelAll(w.ctx, { wallet: MAIN, market: 'ETH' });
    expect(one.targets.map((t) => t.order_id)).toEqual(['o-3']);
  });

  it('margin: UpdateIsolatedMargin with a JSON-integer nonce and a signed canonical amount', async () => {
    const w = tradingWorld();
    const p = await prepareMargin(w.ctx, { wallet: MAIN, market: 'BTC', amount: '-10.50' });
    expect(p.amount).toBe('-10.5');
    expect(p.view.direction).toBe('remove');
    expect(p.requests[0]!.typedData).toEqual(marginTypedData({ account_id: ACCOUNT, market: 'BTC', amount: '-10.5', nonce: p.nonce }, 'testnet'));
    await expect(prepareMargin(w.ctx, { wallet: MAIN, market: 'BTC', amount: '0' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('close and reverse', () => {
  it('close: cancels the armed triggers, then one reduce-only MARKET leg sized to what will be closeable', async () => {
    const sl = listed({ order_id: 't-1', market: 'BTC' });
    const reserve = listed({ order_id: 'l-1', market: 'BTC', order_type: 'LIMIT', time_in_force: 'GTC', size: '0.03', filled_size: '0.01', limit_price: '62000', trigger_price: null, tpsl: null });
    // While a trigger is armed the service shows closeable 0; once it is gone: 0.1 less the 0.02 reserved.
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '0.1', closeable: '0' })], triggers: [sl], open: [sl, reserve] });
    const p = await prepareClose(w.ctx, { wallet: MAIN, market: 'BTC' });
    expect(p.cancel!.targets).toEqual([{ order_id: 't-1', order_type: 'TRIGGER' }]);
    expect(p.order.legs[0]).toMatchObject({ side: 'SELL', size: '0.08', order_type: 'MARKET', reduce_only: true, time_in_force: 'IOC' });
    expect(p.requests.map((r) => r.typedData.primaryType)).toEqual(['Cancel', 'Order']);
    expect(p.view.triggers_to_cancel.map((t) => t.order_id)).toEqual(['t-1']);
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH' })).rejects.toMatchObject({ code: 'NO_OPEN_POSITION' });
  });

  it('reverse: the close, then an opposite MARKET entry at the default leverage, margin counted after the close', async () => {
    const w = tradingWorld({ freeBalance: '0', positions: [position({ market: 'ETH', size: '-1', entry_price: '3000', isolated_margin: '600' })] });
    updatePreferences(w.ctx.settings, { default_leverage: 10 });
    const p = await prepareReverse(w.ctx, { wallet: MAIN, market: 'ETH' });
    expect(p.close.order.legs[0]).toMatchObject({ side: 'BUY', size: '1', reduce_only: true });
    expect(p.entry.legs[0]).toMatchObject({ side: 'BUY', size: '1', leverage: 10, reduce_only: false });
    expect(p.requests).toHaveLength(2);
    expect(new Set(p.requests.map((r) => r.digest)).size).toBe(2);
  });
});
