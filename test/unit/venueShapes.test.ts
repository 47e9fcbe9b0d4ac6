/**
 * The app's venue client accepts the venue's older and newer shapes (issue 29): meta before and after
 * marginTables / collateralToken / marginTableId, and a subscription confirmation that echoes the
 * subscription as sent (null fields included) or in the venue's older canonical form.
 */
import { describe, expect, it } from 'vitest';
import { MetaAndAssetCtxsSchema, VenueMetaSchema, VenueWsMessageSchema } from '../../src/main/venue/schemas.js';

const ctx = { funding: '0.0000125', openInterest: '10', prevDayPx: '100', dayNtlVlm: '5', premium: '0', oraclePx: '100', markPx: '100', midPx: '100', impactPxs: ['99', '101'], dayBaseVlm: '1' };

describe('venue shapes, old and new', () => {
  it('meta without and with margin tables', () => {
    const older = { universe: [{ name: 'BTC', szDecimals: 5, maxLeverage: 40 }] };
    const newer = {
      universe: [{ name: 'BTC', szDecimals: 5, maxLeverage: 40, marginTableId: 56 }],
      marginTables: [[56, { description: 'tiered 40x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 40 }, { lowerBound: '150000000.0', maxLeverage: 20 }] }]],
      collateralToken: 0,
    };
    expect(VenueMetaSchema.parse(older).universe[0]!.name).toBe('BTC');
    expect(VenueMetaSchema.parse(newer).universe[0]!.maxLeverage).toBe(40);
    expect(MetaAndAssetCtxsSchema.parse([older, [ctx]])[1]).toHaveLength(1);
    expect(MetaAndAssetCtxsSchema.parse([newer, [ctx]])[1]).toHaveLength(1);
    // A universe entry still needs its name and numbers: the newer fields do not loosen that.
    expect(VenueMetaSchema.safeParse({ ...newer, universe: [{ marginTableId: 56 }] }).success).toBe(false);
  });

  it('subscription confirmations echoed as sent or canonical', () => {
    for (const subscription of [{ type: 'l2Book', coin: 'BTC', nSigFigs: null, mantissa: null }, { type: 'l2Book', coin: 'BTC' }]) {
      const parsed = VenueWsMessageSchema.parse({ channel: 'subscriptionResponse', data: { method: 'subscribe', subscription } });
      expect(parsed.channel).toBe('subscriptionResponse');
    }
  });
});
