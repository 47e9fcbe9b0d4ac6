/**
 * One decimal grammar for the feed as for every input (src/shared/decimal): the followed venue's prices
 * (priceSanity), its wire schemas (upstreamSchemas) and the simulator's own decimal checks (priceWalk's
 * DECIMAL_PATTERN) accept exactly the decimal texts the shared grammar accepts, and refuse the rest, so a
 * text the client would refuse can never become a simulated price.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNED_DECIMAL_TEXT } from '../../src/shared/decimal/decimal.js';
import { priceProblem } from '../../src/shared/feed/priceSanity.js';
import { allMidsSchema } from '../../src/sim/venue/follow/upstreamSchemas.js';
import { DECIMAL_PATTERN } from '../../src/sim/venue/priceWalk.js';

/** Texts near the grammar's edges: the ones a hand-written /^-?\d+(\.\d+)?$/ let through are first. */
const EDGES = ['007', '00.5', '-00', '0', '97000.0', '0.5', '-0.5', '1.', '.5', '1e5', '+1', ' 1', '1 ', '١٢', '0x10', 'NaN', 'Infinity', ''];

describe('the feed speaks the shared decimal grammar', () => {
  it('leading zeros are refused where the old pattern took them; plain decimals pass everywhere', () => {
    for (const text of EDGES) {
      const shared = SIGNED_DECIMAL_TEXT.test(text);
      expect(DECIMAL_PATTERN.test(text), text).toBe(shared);
      expect(allMidsSchema.safeParse({ BTC: text }).success, text).toBe(shared);
      // priceProblem names a grammar failure as "not a decimal string"; other failures (not positive,
      // below a tick) are about the value, not the text.
      expect(/not a decimal string/.test(priceProblem(text, '0.1') ?? ''), text).toBe(!shared);
    }
    expect(SIGNED_DECIMAL_TEXT.test('007')).toBe(false);
    expect(SIGNED_DECIMAL_TEXT.test('97000.0')).toBe(true);
  });

  it('for any text, all three answer as the shared grammar does', () => {
    const decimalish = fc.stringMatching(/^[-+0-9.eE ]{0,12}$/);
    fc.assert(
      fc.property(fc.oneof(decimalish, fc.string({ maxLength: 12 })), (text) => {
        const shared = SIGNED_DECIMAL_TEXT.test(text);
        expect(DECIMAL_PATTERN.test(text)).toBe(shared);
        expect(allMidsSchema.safeParse({ BTC: text }).success).toBe(shared);
        expect(/not a decimal string/.test(priceProblem(text, '0.1') ?? '')).toBe(!shared);
      }),
      { numRuns: 2_000 },
    );
  });
});
