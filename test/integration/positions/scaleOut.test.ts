/**
 * A scale-out whose re-arm cannot be done at once (issue 35), through the services against the simulator
 * over HTTP: the ladder is placed, then the service stops answering position reads. The submit fails
 * loudly (PROTECTION_NOT_RESTORED, naming the lifted levels and what happens next), the write-ahead record
 * stays in protection/, and the next start's restore re-arms both levels at the same prices, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical } from '../../../src/shared/decimal/index.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import type { TradingContext } from '../../../src/main/services/orders/orderContext.js';
import { hasPendingProtection, prepareOrderIntent, preparePositionTpsl, restorePendingProtection, submitOrderIntent, submitPositionTpsl, waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'ETH';
beforeAll(async () => {
  w = await TradingWorld.boot('scale-out-rearm');
  await w.control('/funding-rate', { market: SYM, rate: '0' });
});
afterAll(async () => {
  await w?.stop();
});

/** The world's context, except that position reads fail once `down` is set (the service unreachable). */
function flakyPositions(ctx: TradingContext, down: { now: boolean }): TradingContext {
  const api = new Proxy(ctx.api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'positions' && typeof value === 'function') {
        return (...args: unknown[]) => (down.now ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1')) : (value as (...a: unknown[]) => unknown).apply(target, args));
      }
      if (prop === 'placeOrders' && typeof value === 'function') {
        return async (...args: unknown[]) => {
          const r = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          down.now = true;
          return r;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Proxy(ctx, { get: (target, prop, receiver) => (prop === 'api' ? api : Reflect.get(target, prop, receiver)) });
}

describe('a scale-out whose re-arm fails', () => {
  it('is reported as PROTECTION_NOT_RESTORED, keeps the record, and the next start re-arms both levels once', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 8), leverage: 3 }] }, { wait: true });
    expect(r.legs[0]!.final?.status).toBe('FILLED');
    const p = await waitForPosition(w.ctx, t.accountId, SYM, (x) => x !== undefined, 'position');
    const tp = priceAt(m, mark, 1.1);
    const sl = priceAt(m, mark, 0.95);
    expect((await submitPositionTpsl(w.ctx, await preparePositionTpsl(w.ctx, { wallet: t.wallet, market: SYM, tp, sl }), await w.ctx.tradingSigner(t.wallet))).ok).toBe(true);

    const down = { now: false };
    const ctx = flakyPositions(w.ctx, down);
    const half = canonical(new Decimal(p!.size).div(2).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_DOWN));
    const prepared = await prepareOrderIntent(ctx, { wallet: t.wallet, intent: { kind: 'scale', market: SYM, side: 'SELL', from_price: priceAt(m, mark, 1.02), to_price: priceAt(m, mark, 1.04), count: 2, total_size: half, reduce_only: true } });
    expect(prepared.lift?.lifted.map((l) => l.kind)).toEqual(['tp', 'sl']);
    const err = (await submitOrderIntent(ctx, prepared, await w.ctx.tradingSigner(t.wallet)).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    expect(err.code).toBe('PROTECTION_NOT_RESTORED');
    expect(err.message).toMatch(/the ETH ladder was placed, but the lifted TP [\d,.]+ and SL [\d,.]+ could not be re-armed now: connect ECONNREFUSED/);
    expect(err.hint).toMatch(/next start of Perps Desk or of any `perps` command re-arms them/);
    expect((await w.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === SYM)).toEqual([]);
    expect(hasPendingProtection(w.dataDir)).toBe(true);
    expect((await t.openOrders(SYM)).filter((o) => o.order_type === 'LIMIT')).toHaveLength(2);

    const { outcomes } = await restorePendingProtection(w.ctx);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.rearmed.map((x) => [x.kind, x.trigger_price])).toEqual([
      ['tp', tp],
      ['sl', sl],
    ]);
    expect(hasPendingProtection(w.dataDir)).toBe(false);
    expect((await restorePendingProtection(w.ctx)).outcomes).toEqual([]);
    expect((await w.ctx.api.positionTriggers(t.wallet)).orders.filter((o) => o.market === SYM).map((o) => o.tpsl).sort()).toEqual(['sl', 'tp']);
  });
});
