/**
 * Which slice rejections stop a TWAP (src/main/services/algos/twap/twapRejections.ts): a followed market whose
 * live data is held or refused (market_data_frozen, issue 26) is momentary like an unreachable venue, so
 * the TWAP goes on with the next slice; a reason that would meet every slice stops it.
 */
import { describe, expect, it } from 'vitest';
import { explainStop, isMomentaryRejection } from '../../src/main/services/algos/twap/twapRejections.js';

describe('TWAP slice rejections', () => {
  it('a frozen or unreachable market is momentary; margin and unknown reasons stop the TWAP', () => {
    expect(isMomentaryRejection('market_data_frozen')).toBe(true);
    expect(isMomentaryRejection('venue_unreachable')).toBe(true);
    expect(isMomentaryRejection('insufficient_margin')).toBe(false);
    expect(isMomentaryRejection('something_new')).toBe(false);
    expect(isMomentaryRejection(null)).toBe(false);
    expect(explainStop('insufficient_margin', 2, 5)).toContain('slice 2/5 was rejected: insufficient_margin');
  });
});
