/**
 * The fat-finger guard of the order prepare step, with no simulator: a limit price (or a MARKET order's
 * explicit bound) that crosses the mark by more than the market's slippage_bps is FAR_PRICE, an order
 * whose notional is above the user's cap (max_order_notional, off by default) is LARGE_ORDER. Without the
 * allowance the order is refused as a ValidationError naming the flag, before any nonce is taken; with it,
 * the review lists what must be confirmed.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/services/errors.js';
import { prepareLegs, prepareOrder } from '../../../src/main/services/orders/index.js';
import { prepareClose, prepareReverse } from '../../../src/main/services/positions/index.js';
import { readPreferences, updatePreferences } from '../../../src/main/services/settings/preferences.js';
import { crossesBeyondBound, exceedsNotionalCap, farPriceBound } from '../../../src/shared/orders/priceGuard.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { MAIN, position, tradingWorld } from './tradingFakes.js';

const TEN_POW_30 = '1' + '0'.repeat(30);
const limit = (over: Record<string, unknown>) => ({ kind: 'single', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.01', limit_price: '59000', leverage: 2, ...over });

describe('the guard rules', () => {
  it('bound is mark x (1 +/- slippage_bps); crossing beyond it is far, at it is not', () => {
    const mark = new Decimal('60000');
    expect(farPriceBound('BUY', mark, 50).toFixed()).toBe('60300');
    expect(farPriceBound('SELL', mark, 50).toFixed()).toBe('59700');
    expect(crossesBeyondBound('BUY', new Decimal('60300'), mark, 50)).toBe(false);
    expect(crossesBeyondBound('BUY', new Decimal('60300.5'), mark, 50)).toBe(true);
    expect(crossesBeyondBound('SELL', new Decimal('59699.5'), mark, 50)).toBe(true);
    // A resting price on the passive side is never far, however far it is.
    expect(crossesBeyondBound('BUY', new Decimal('1'), mark, 50)).toBe(false);
    expect(exceedsNotionalCap(new Decimal('100'), null)).toBe(false);
    expect(exceedsNotionalCap(new Decimal('100'), '100')).toBe(false);
    expect(exceedsNotionalCap(new Decimal('100.01'), '100')).toBe(true);
  });
});

describe('FAR_PRICE', () => {
  it('a limit buy at 10^30 against a short is refused before any nonce (it used to be signed and fill at market)', async () => {
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '-0.1' })] });
    for (const reduceOnly of [true, false]) {
      const err = await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '0.1', limit_price: TEN_POW_30, ...(reduceOnly ? { reduce_only: true, leverage: undefined } : {}) }) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ code: 'FAR_PRICE', kind: 'validation', exitCode: 2 });
      expect((err as ValidationError).message).toMatch(/crosses the mark 60000 by more than BTC's slippage bound of 50 bps \(above 60300\)/);
      expect((err as ValidationError).hint).toContain('--allow-far-price');
    }
    expect(w.nonces.issued).toHaveLength(0);
    expect(w.agent.signed).toHaveLength(0);
  });

  it('a sell limit far below the mark, and a MARKET order with an explicit far bound, are far too', async () => {
    const w = tradingWorld();
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ side: 'SELL', limit_price: '50000' }) })).rejects.toMatchObject({ code: 'FAR_PRICE' });
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.01', limit_price: '70000', leverage: 2 } })).rejects.toMatchObject({ code: 'FAR_PRICE' });
    // Batches (legs given one by one) go through the same step.
    await expect(prepareLegs(w.ctx, { wallet: MAIN, legs: [{ market: 'ETH', side: 'BUY', size: '1', order_type: 'LIMIT', limit_price: '4000', leverage: 2 }] })).rejects.toMatchObject({ code: 'FAR_PRICE', field: 'limit_price' });
    expect(w.nonces.issued).toHaveLength(0);
  });

  it('within the bound, resting on the passive side, and a computed MARKET bound pass with nothing to confirm', async () => {
    const w = tradingWorld();
    for (const intent of [
      limit({ limit_price: '60300' }),
      limit({ limit_price: '1000' }),
      limit({ side: 'SELL', limit_price: '59700' }),
      // Post-only: crossing, it is rejected (post_only_would_take), never executed; the review warns instead.
      limit({ limit_price: '70000', time_in_force: 'ALO' }),
      { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.01', leverage: 2 },
      { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.01', leverage: 2, slippage_bps: 400 },
    ]) {
      const p = await prepareOrder(w.ctx, { wallet: MAIN, intent });
      expect(p.view.confirmations).toEqual([]);
    }
  });

  it('allowed: prepared, and the review lists it for confirmation', async () => {
    const w = tradingWorld();
    const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ limit_price: '61000' }), allow: { farPrice: true } });
    expect(p.view.confirmations).toEqual([{ code: 'FAR_PRICE', message: expect.stringMatching(/^order: the BUY limit price 61000 crosses the mark 60000/) }]);
    expect(p.requests).toHaveLength(1);
  });

  it('a limit close far past the mark is guarded too; a market close is not', async () => {
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '0.1' })] });
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'BTC', price: '50000' })).rejects.toMatchObject({ code: 'FAR_PRICE' });
    expect(w.nonces.issued).toHaveLength(0);
    const allowed = await prepareClose(w.ctx, { wallet: MAIN, market: 'BTC', price: '50000', allow: { farPrice: true } });
    expect(allowed.view.confirmations.map((c) => c.code)).toEqual(['FAR_PRICE']);
    expect((await prepareClose(w.ctx, { wallet: MAIN, market: 'BTC' })).view.confirmations).toEqual([]);
  });
});

describe('LARGE_ORDER', () => {
  it('off by default; a cap refuses an order above it, naming the flag, before any nonce', async () => {
    const w = tradingWorld();
    expect(readPreferences(w.ctx.settings).max_order_notional).toBeNull();
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '1', leverage: 5 }) })).resolves.toBeDefined();
    updatePreferences(w.ctx.settings, { max_order_notional: '50000' });
    const issued = w.nonces.issued.length;
    const err = await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '1', leverage: 5 }) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LARGE_ORDER', kind: 'validation' });
    expect((err as ValidationError).message).toMatch(/notional 59000 USDC is above your cap of 50000 USDC/);
    expect((err as ValidationError).hint).toContain('--allow-large');
    expect(w.nonces.issued).toHaveLength(issued);
    // At or under the cap: no confirmation.
    expect((await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '0.8', leverage: 5 }) })).view.confirmations).toEqual([]);
    const allowed = await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '1', leverage: 5 }), allow: { large: true } });
    expect(allowed.view.confirmations.map((c) => c.code)).toEqual(['LARGE_ORDER']);
  });

  it('counts what opens: bracket legs and reduce-only legs are not exposure; both guards can trip at once', async () => {
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '2' })] });
    updatePreferences(w.ctx.settings, { max_order_notional: '10000' });
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: { kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.1', limit_price: '59000', leverage: 2, tp: { trigger_price: '65000' } } })).resolves.toBeDefined();
    await expect(prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ side: 'SELL', size: '1', limit_price: '61000', reduce_only: true, leverage: undefined }) })).resolves.toBeDefined();
    const both = await prepareOrder(w.ctx, { wallet: MAIN, intent: limit({ size: '1', limit_price: '70000', leverage: 20 }), allow: { farPrice: true, large: true } });
    expect(both.view.confirmations.map((c) => c.code)).toEqual(['FAR_PRICE', 'LARGE_ORDER']);
  });

  it('a reverse whose new entry is above the cap needs the allowance', async () => {
    const w = tradingWorld({ positions: [position({ market: 'BTC', size: '1' })] });
    updatePreferences(w.ctx.settings, { max_order_notional: '10000' });
    await expect(prepareReverse(w.ctx, { wallet: MAIN, market: 'BTC', leverage: 5 })).rejects.toMatchObject({ code: 'LARGE_ORDER' });
    const p = await prepareReverse(w.ctx, { wallet: MAIN, market: 'BTC', leverage: 5, allow: { large: true } });
    expect(p.entry.view.confirmations.map((c) => c.code)).toEqual(['LARGE_ORDER']);
  });

  it('the setting takes a positive decimal or null; anything else changes nothing', () => {
    const w = tradingWorld();
    for (const bad of ['0', '-5', 'abc', '1e6', '']) {
      expect(() => updatePreferences(w.ctx.settings, { max_order_notional: bad })).toThrow(ValidationError);
    }
    expect(readPreferences(w.ctx.settings).max_order_notional).toBeNull();
    expect(updatePreferences(w.ctx.settings, { max_order_notional: '25000.5' }).max_order_notional).toBe('25000.5');
    expect(updatePreferences(w.ctx.settings, { max_order_notional: null }).max_order_notional).toBeNull();
  });
});
