import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_INTERVALS, CANDLE_INTERVAL_NAMES } from '../../../src/sim/venue/index.js';
import { ASSETS, postInfo, serveVenue, type Message, type Served } from './fixtures.js';

let served: Served;
beforeAll(async () => {
  served = await serveVenue(7);
  served.clock.advance(5 * 60_000);
});
afterAll(async () => {
  await served.close();
});

async function ok(body: unknown): Promise<Message> {
  const res = await served.info(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Message;
}

describe('venue info endpoint over HTTP', () => {
  it('meta lists the universe in venueAssetIndex order', async () => {
    const meta = await ok({ type: 'meta' });
    expect(meta).toEqual({
      universe: [
        { name: 'BTC', szDecimals: 5, maxLeverage: 40, marginTableId: 40 },
        { name: 'ETH', szDecimals: 4, maxLeverage: 25, marginTableId: 25 },
        { name: 'kPEPE', szDecimals: 0, maxLeverage: 10, marginTableId: 10, onlyIsolated: true },
      ],
      // A single-tier table is named by its leverage, as on the venue; USDC (spot token 0) is the collateral.
      marginTables: [
        [10, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 10 }] }],
        [25, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 25 }] }],
        [40, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 40 }] }],
      ],
      collateralToken: 0,
    });
    for (const asset of ASSETS) expect(meta.universe[asset.venueAssetIndex].name).toBe(asset.venueSymbol);
  });

  it('metaAndAssetCtxs pairs the universe with one string-valued context per asset', async () => {
    const [meta, ctxs] = (await ok({ type: 'metaAndAssetCtxs' })) as [Message, Message[]];
    expect(meta.universe).toHaveLength(3);
    expect(ctxs).toHaveLength(3);
    ctxs.forEach((ctx, i) => {
      const asset = ASSETS[i]!;
      expect(Object.keys(ctx).sort()).toEqual(
        ['funding', 'openInterest', 'prevDayPx', 'dayNtlVlm', 'premium', 'oraclePx', 'markPx', 'midPx', 'impactPxs', 'dayBaseVlm'].sort(),
      );
      for (const [key, value] of Object.entries(ctx)) {
        if (key === 'impactPxs') {
          expect(value).toHaveLength(2);
          for (const px of value as string[]) expect(px).toMatch(/^\d+(\.\d+)?$/);
        } else {
          expect(value, key).toMatch(/^-?\d+(\.\d+)?$/);
        }
      }
      expect(ctx.markPx).toBe(served.venue.getMark(asset.venueSymbol));
      expect(ctx.funding).toBe(asset.fundingRate);
      expect(new Decimal(ctx.impactPxs[0]).lte(ctx.midPx)).toBe(true);
      expect(new Decimal(ctx.impactPxs[1]).gte(ctx.midPx)).toBe(true);
      expect(new Decimal(ctx.dayNtlVlm).gt(0)).toBe(true);
    });
  });

  it('allMids maps each coin to the mid of its book', async () => {
    const mids = await ok({ type: 'allMids' });
    expect(Object.keys(mids)).toEqual(['BTC', 'ETH', 'kPEPE']);
    for (const asset of ASSETS) {
      const book = served.venue.getBook(asset.venueSymbol);
      expect(mids[asset.venueSymbol]).toBe(new Decimal(book.bids[0]!.px).plus(book.asks[0]!.px).div(2).toFixed());
    }
  });

  it('l2Book answers the book with px, sz and n, uncrossed, and follows ticks', async () => {
    const first = await ok({ type: 'l2Book', coin: 'ETH' });
    expect(first.coin).toBe('ETH');
    expect(first.time).toBe(served.clock.now());
    const [bids, asks] = first.levels as [Message[], Message[]];
    expect(bids).toHaveLength(10);
    expect(asks).toHaveLength(10);
    for (const level of [...bids, ...asks]) {
      expect(Object.keys(level).sort()).toEqual(['n', 'px', 'sz']);
      expect(typeof level.n).toBe('number');
    }
    expect(new Decimal(bids[0].px).lt(asks[0].px)).toBe(true);
    served.venue.setMark('ETH', '3500');
    const moved = await ok({ type: 'l2Book', coin: 'ETH' });
    expect(new Decimal(moved.levels[0][0].px).lt('3500')).toBe(true);
    expect(new Decimal(moved.levels[1][0].px).gt('3500')).toBe(true);
    for (let i = 0; i < 20; i++) {
      served.clock.advance(1000);
      const book = await ok({ type: 'l2Book', coin: 'BTC' });
      expect(book.time).toBe(served.clock.now());
      expect(new Decimal(book.levels[0][0].px).lt(book.levels[1][0].px)).toBe(true);
    }
  });

  it('l2Book aggregates to nSigFigs, rounding bids down and asks up', async () => {
    served.venue.setMark('BTC', '97123');
    const book = await ok({ type: 'l2Book', coin: 'BTC', nSigFigs: 3 });
    const [bids, asks] = book.levels as [Message[], Message[]];
    for (const level of [...bids, ...asks]) expect(new Decimal(level.px).mod(100).isZero()).toBe(true);
    expect(bids[0].px).toBe('97100');
    expect(asks[0].px).toBe('97200');
    const full = served.venue.getBook('BTC');
    const total = (levels: Message[]): string => levels.reduce((sum: Decimal, l: Message) => sum.plus(l.sz), new Decimal(0)).toFixed();
    expect(total(bids)).toBe(total(full.bids));
    expect(total(asks)).toBe(total(full.asks));
    const five = await ok({ type: 'l2Book', coin: 'BTC', nSigFigs: 5, mantissa: 5 });
    for (const level of five.levels[0]) expect(new Decimal(level.px).mod(5).isZero()).toBe(true);
  });

  it('candleSnapshot answers contiguous consistent candles for every interval', async () => {
    const now = served.clock.now();
    for (const interval of CANDLE_INTERVAL_NAMES) {
      const width = CANDLE_INTERVALS[interval];
      const candles = (await ok({ type: 'candleSnapshot', req: { coin: 'BTC', interval, startTime: now - 100 * width, endTime: now } })) as Message[];
      expect(candles.length, interval).toBeGreaterThanOrEqual(100);
      expect(candles.length, interval).toBeLessThanOrEqual(101);
      candles.forEach((c: Message, i: number) => {
        expect(Object.keys(c).sort()).toEqual(['T', 'c', 'h', 'i', 'l', 'n', 'o', 's', 't', 'v']);
        expect(typeof c.t).toBe('number');
        expect(typeof c.n).toBe('number');
        for (const key of ['o', 'c', 'h', 'l', 'v']) expect(typeof c[key]).toBe('string');
        expect(c.T).toBe(c.t + width - 1);
        expect(new Decimal(c.h).gte(Decimal.max(c.o, c.c))).toBe(true);
        expect(new Decimal(c.l).lte(Decimal.min(c.o, c.c))).toBe(true);
        if (i > 0) expect(c.t - candles[i - 1].t).toBe(width);
      });
      expect(candles[candles.length - 1].c).toBe(served.venue.getMark('BTC'));
    }
    // endTime is optional and defaults to now.
    const open = (await ok({ type: 'candleSnapshot', req: { coin: 'ETH', interval: '1h', startTime: now - 3 * 3_600_000 } })) as Message[];
    expect(open.length).toBeGreaterThanOrEqual(3);
  });

  it('fundingHistory answers hourly entries', async () => {
    const now = served.clock.now();
    const history = (await ok({ type: 'fundingHistory', coin: 'ETH', startTime: now - 10 * 3_600_000 })) as Message[];
    expect(history).toHaveLength(10);
    for (const entry of history) {
      expect(entry).toEqual({ coin: 'ETH', fundingRate: '-0.00002', premium: expect.stringMatching(/^-?\d/) as unknown, time: expect.any(Number) as unknown });
      expect(entry.time % 3_600_000).toBe(0);
    }
    const bounded = (await ok({ type: 'fundingHistory', coin: 'ETH', startTime: now - 10 * 3_600_000, endTime: now - 5 * 3_600_000 })) as Message[];
    expect(bounded).toHaveLength(5);
  });

  it('answers an unknown coin the way the venue does', async () => {
    expect(await ok({ type: 'l2Book', coin: 'DOGE' })).toBeNull();
    expect(await ok({ type: 'candleSnapshot', req: { coin: 'DOGE', interval: '1m', startTime: 0, endTime: Date.now() } })).toEqual([]);
    expect(await ok({ type: 'fundingHistory', coin: 'DOGE', startTime: 0 })).toEqual([]);
  });

  it('answers unknown types and malformed bodies with the venue error strings', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'nope' }, /unknown variant `nope`/],
      [{}, /missing field `type`/],
      [[1, 2], /invalid type: sequence/],
      [{ type: 'l2Book' }, /missing field `coin`/],
      [{ type: 'l2Book', coin: 5 }, /invalid value: integer `5` for field `coin`/],
      [{ type: 'l2Book', coin: 'BTC', nSigFigs: 7 }, /nSigFigs/],
      [{ type: 'l2Book', coin: 'BTC', nSigFigs: 4, mantissa: 2 }, /mantissa/],
      [{ type: 'candleSnapshot', req: { coin: 'BTC', interval: '7m', startTime: 0 } }, /interval/],
      [{ type: 'candleSnapshot', coin: 'BTC' }, /missing field `req`/],
      [{ type: 'fundingHistory', coin: 'BTC', startTime: 1.5 }, /startTime/],
    ];
    for (const [body, detail] of cases) {
      const res = await served.info(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(typeof res.body).toBe('string');
      expect(res.body).toMatch(/^Failed to deserialize the JSON body into the target type: /);
      expect(res.body, JSON.stringify(body)).toMatch(detail);
    }
  });

  it('answers a body that is not JSON with 400, like the venue', async () => {
    const res = await postInfo(served.running.origin, undefined, '{"type": "meta"');
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/^Failed to parse the request body as JSON/);
    const empty = await postInfo(served.running.origin, undefined, '');
    expect(empty.status).toBe(400);
  });

  it('only answers POST at its root', async () => {
    const get = await fetch(`${served.running.origin}/info`);
    expect(get.status).toBe(405);
    const other = await fetch(`${served.running.origin}/info/else`, { method: 'POST', body: '{"type":"meta"}' });
    expect(other.status).toBe(404);
  });
});
