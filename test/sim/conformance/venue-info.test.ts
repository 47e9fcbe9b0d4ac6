/**
 * The venue's public market data, as the trading API's markets join to it.
 * Spec: "What the service does" (market data is read from the venue's own public interfaces; join on
 * venue_symbol or venue_asset_index, never on symbol; venue funding is hourly; GET /markets serves
 * no mark prices).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ctx, D, HOUR_MS, ceilTick, type J } from './support/fixtures.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await Ctx.boot();
});
afterAll(async () => {
  await ctx?.stop();
});

describe('joining /markets to the venue', () => {
  it('every market is found in the venue universe at venue_asset_index under venue_symbol', async () => {
    const res = await ctx.venueInfo({ type: 'meta' });
    expect(res.status).toBe(200);
    const universe = res.body.universe as J[];
    for (const mk of ctx.markets) {
      const entry = universe[mk.venue_asset_index];
      expect(entry?.name, mk.symbol).toBe(mk.venue_symbol);
      expect(entry.szDecimals).toBe(mk.sz_decimals);
    }
  });

  it('asset contexts are index-aligned with the universe and carry mark, oracle and funding', async () => {
    const res = await ctx.venueInfo({ type: 'metaAndAssetCtxs' });
    expect(res.status).toBe(200);
    const [meta, ctxs] = res.body as [J, J[]];
    expect(ctxs).toHaveLength(meta.universe.length);
    for (const c of ctxs) {
      for (const k of ['markPx', 'oraclePx', 'funding']) expect(typeof c[k], k).toBe('string');
      expect(D(c.markPx).gt(0)).toBe(true);
    }
  });

  it('mids are keyed by venue_symbol, not by symbol', async () => {
    const res = await ctx.venueInfo({ type: 'allMids' });
    expect(res.status).toBe(200);
    for (const mk of ctx.markets) expect(typeof res.body[mk.venue_symbol], mk.venue_symbol).toBe('string');
  });
});

describe('the control mark is the venue mark', () => {
  it('POST /sim/mark moves the mark the venue serves (on the tick grid)', async () => {
    const mk = ctx.defaultMarket;
    const current = await ctx.mark(mk.symbol);
    const target = ceilTick(current.mul(1.01), mk.tick_size);
    await ctx.setMark(mk.symbol, target);
    expect((await ctx.mark(mk.symbol)).eq(target)).toBe(true);
  });

  it('the book straddles the mark: best bid below best ask, on the tick grid', async () => {
    const mk = ctx.defaultMarket;
    const book = await ctx.book(mk.symbol);
    const bid = D(book.bids[0]!.px);
    const ask = D(book.asks[0]!.px);
    expect(bid.lt(ask)).toBe(true);
    expect(bid.mod(mk.tick_size).isZero()).toBe(true);
    expect(ask.mod(mk.tick_size).isZero()).toBe(true);
  });
});

describe('venue funding is hourly', () => {
  it('funding history entries are one hour apart', async () => {
    const mk = ctx.defaultMarket;
    await ctx.advance(3 * HOUR_MS);
    const res = await ctx.venueInfo({ type: 'fundingHistory', coin: mk.venue_symbol, startTime: ctx.now() - 3 * HOUR_MS });
    expect(res.status).toBe(200);
    const times = (res.body as J[]).map((e) => e.time as number);
    expect(times.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(HOUR_MS);
  });
});
