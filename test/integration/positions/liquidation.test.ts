/**
 * The liquidation estimate (src/shared/protocol/riskMath.ts) against the simulator over real HTTP: a
 * position is opened with a real order, read back from /positions, its estimate computed from size, entry,
 * isolated margin and the market's maintenance_margin_ratio (from /markets), and then the venue mark is set
 * through the simulator's control API. On the tick grid the estimate falls between two ticks: at the tick
 * on the safe side the position survives; at the next tick past the estimate it is liquidated (a
 * LIQUIDATION order, an is_liquidation fill, the position gone). Long and short, at several leverages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, roundToStep } from '../../../src/shared/decimal/index.js';
import { liquidationPrice } from '../../../src/shared/protocol/riskMath.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { readPosition, waitForPosition } from '../../../src/main/services/positions/index.js';
import { TradingWorld, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const MARKETS = ['ETH', 'BTC', 'SOL'];

beforeAll(async () => {
  w = await TradingWorld.boot('liquidation');
  // Funding is paid into isolated margin hourly and the sim clock moves with the waits: a zero rate keeps
  // the margin (and so the estimate) fixed while the marks are moved.
  for (const m of MARKETS) await w.control('/funding-rate', { market: m, rate: '0' });
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

const CASES: { market: string; side: 'BUY' | 'SELL'; leverage: number }[] = [
  { market: 'ETH', side: 'BUY', leverage: 10 },
  { market: 'ETH', side: 'SELL', leverage: 10 },
  { market: 'BTC', side: 'BUY', leverage: 25 },
  { market: 'SOL', side: 'SELL', leverage: 3 },
];

describe('the liquidation estimate against the simulator', () => {
  for (const c of CASES) {
    const label = `${c.side === 'BUY' ? 'long' : 'short'} ${c.market} at ${c.leverage}x`;
    it(`${label}: one tick on the safe side of the estimate survives, one tick past it is liquidated`, async () => {
      const t = await w.trader();
      const market = (await w.ctx.api.markets()).find((m) => m.symbol === c.market)!;
      const mark = await w.mark(c.market);
      const placed = await placeOrders(w.ctx, { wallet: t.wallet, legs: [{ market: c.market, side: c.side, size: sizeFor(market, mark, 5), leverage: c.leverage }] }, { wait: true });
      expect(placed.legs[0]!.final?.status).toBe('FILLED');
      const pos = (await waitForPosition(w.ctx, t.accountId, c.market, (p) => p !== undefined, 'the position'))!;
      const long = c.side === 'BUY';
      expect(new Decimal(pos.size).isPos()).toBe(long);

      const liq = liquidationPrice(pos, market.maintenance_margin_ratio)!;
      expect(liq).not.toBeNull();
      // Marks live on the tick grid: the tick at or just inside the estimate, and the next one past it.
      const safe = roundToStep(liq, market.tick_size, long ? 'up' : 'down');
      const past = long ? safe.minus(market.tick_size) : safe.plus(market.tick_size);
      expect(long ? past.lt(liq) : past.gt(liq)).toBe(true);

      await w.setMark(c.market, safe.toFixed());
      await w.advance(2_000);
      const survived = await readPosition(w.ctx, t.accountId, c.market);
      expect(survived, `the position should survive at ${safe.toFixed()} (estimate ${liq.toFixed()})`).toMatchObject({ id: pos.id, size: pos.size, version: pos.version });
      expect((await w.ctx.api.tradeHistory({ wallet: t.wallet, market: c.market })).fills.some((f) => f.is_liquidation)).toBe(false);

      await w.setMark(c.market, past.toFixed());
      await waitForPosition(w.ctx, t.accountId, c.market, (p) => p === undefined, `the position to be liquidated at ${past.toFixed()} (estimate ${liq.toFixed()})`);
      const fills = (await w.ctx.api.tradeHistory({ wallet: t.wallet, market: c.market })).fills;
      const liquidation = fills.find((f) => f.is_liquidation);
      expect(liquidation).toMatchObject({ price: past.toFixed(), dir: long ? 'Close Long' : 'Close Short' });
      expect(new Decimal(liquidation!.size).eq(new Decimal(pos.size).abs())).toBe(true);
      const history = await t.history();
      expect(history.some((o) => o.order_type === 'LIQUIDATION' && o.market === c.market)).toBe(true);
    });
  }
});
