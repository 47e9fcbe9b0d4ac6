/**
 * The join of /markets records to venue data: on venue_asset_index or venue_symbol, never on symbol.
 * (venueClients.sim.test.ts joins the simulator's real /markets to its venue; these pin the rule with
 * records built to tempt a symbol match.)
 */
import { describe, expect, it } from 'vitest';
import { VenueSymbolIndex, joinMarkets, joinMids, type VenueAssetCtx, type VenueMeta } from '../../../src/main/venue/index.js';
import type { Market } from '../../../src/shared/protocol/index.js';

function market(symbol: string, venue_symbol: string, venue_asset_index: number): Market {
  return {
    symbol,
    venue_symbol,
    venue_asset_index,
    max_leverage: 10,
    display_max_leverage: 10,
    initial_margin_ratio: '0.1',
    maintenance_margin_ratio: '0.05',
    maker_fee_rate: '0.0002',
    taker_fee_rate: '0.0005',
    min_order_value: '10',
    max_notional: '0',
    max_open_orders: 50,
    slippage_bps: 50,
    tick_size: '0.000001',
    sz_decimals: 0,
    px_decimals: 6,
    only_isolated: false,
    is_active: true,
  };
}

function ctx(markPx: string): VenueAssetCtx {
  return { funding: '0', openInterest: '0', prevDayPx: markPx, dayNtlVlm: '0', premium: '0', oraclePx: markPx, markPx, midPx: markPx, impactPxs: [markPx, markPx], dayBaseVlm: '0' };
}

// The venue lists a coin literally named PEPE (another asset) as well as kPEPE: a symbol match would be wrong.
const meta: VenueMeta = {
  universe: [
    { name: 'BTC', szDecimals: 5, maxLeverage: 40 },
    { name: 'PEPE', szDecimals: 0, maxLeverage: 3 },
    { name: 'kPEPE', szDecimals: 0, maxLeverage: 10 },
  ],
};
const ctxs = [ctx('97000'), ctx('0.5'), ctx('0.012345')];

describe('joinMarkets', () => {
  it('joins a market whose symbol differs from its venue_symbol to the venue coin, not to the coin named like its symbol', () => {
    const pepe = market('PEPE', 'kPEPE', 2);
    const { joined, unjoined, bySymbol } = joinMarkets([pepe], meta, ctxs);
    expect(unjoined).toEqual([]);
    expect(joined).toHaveLength(1);
    const j = bySymbol.get('PEPE')!;
    expect(j.asset.name).toBe('kPEPE');
    expect(j.assetIndex).toBe(2);
    expect(j.ctx?.markPx).toBe('0.012345');
    expect(j.joinedOn).toBe('venue_asset_index');
  });

  it('falls back to venue_symbol when the index is not in the universe', () => {
    const { bySymbol } = joinMarkets([market('PEPE', 'kPEPE', 40)], meta, ctxs);
    const j = bySymbol.get('PEPE')!;
    expect(j.asset.name).toBe('kPEPE');
    expect(j.assetIndex).toBe(2);
    expect(j.ctx?.markPx).toBe('0.012345');
    expect(j.joinedOn).toBe('venue_symbol');
  });

  it('never uses a symbol-only match: symbol BTC with an unknown venue coin stays unjoined although the venue lists BTC', () => {
    const { joined, unjoined } = joinMarkets([market('BTC', 'XBT', 99)], meta, ctxs);
    expect(joined).toEqual([]);
    expect(unjoined).toHaveLength(1);
    expect(unjoined[0]!.reason).toMatch(/neither asset index 99 nor coin XBT/);
  });

  it('a market whose symbol names another venue coin joins its own venue coin', () => {
    // Service symbol "PEPE" but venue coin BTC at index 0: the venue's PEPE (index 1) must not be used.
    const { bySymbol } = joinMarkets([market('PEPE', 'BTC', 0)], meta, ctxs);
    expect(bySymbol.get('PEPE')!.asset.name).toBe('BTC');
    expect(bySymbol.get('PEPE')!.ctx?.markPx).toBe('97000');
  });

  it('contradicting keys (index names another coin than venue_symbol) are left unjoined, not guessed', () => {
    const { joined, unjoined } = joinMarkets([market('PEPE', 'kPEPE', 1)], meta, ctxs);
    expect(joined).toEqual([]);
    expect(unjoined[0]!.reason).toMatch(/venue asset 1 is PEPE, but the market's venue_symbol is kPEPE/);
  });

  it('without ctxs, joined markets carry ctx null', () => {
    expect(joinMarkets([market('PEPE', 'kPEPE', 2)], meta).joined[0]!.ctx).toBeNull();
  });
});

describe('joinMids and VenueSymbolIndex', () => {
  it('look mids up under venue_symbol only', () => {
    const markets = [market('PEPE', 'kPEPE', 2), market('BTC', 'XBT', 99)];
    const mids = joinMids(markets, { PEPE: '0.5', kPEPE: '0.0123', BTC: '97000' });
    expect(Object.fromEntries(mids)).toEqual({ PEPE: '0.0123' });
  });

  it('routes venue coins back to service markets and service symbols to venue coins', () => {
    const index = new VenueSymbolIndex([market('PEPE', 'kPEPE', 2)]);
    expect(index.marketForCoin('kPEPE')?.symbol).toBe('PEPE');
    expect(index.marketForCoin('PEPE')).toBeUndefined();
    expect(index.coinFor('PEPE')).toBe('kPEPE');
    expect(index.coinFor('kPEPE')).toBeUndefined();
  });
});
