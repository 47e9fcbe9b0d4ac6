/**
 * When the Bridge form warns about the core-spot minimum: exactly when main checks it
 * (services/bridge/coreSpotRules.ts): core_spot_swap asked for, from venue_evm, to venue_evm. Any other
 * transfer to venue_evm is an ordinary bridge with no minimum.
 */
import { describe, expect, it } from 'vitest';
import { coreSpotApplies, coreSpotMinimumApplies } from '../../src/renderer/src/features/bridge/coreSpot.js';
import { checkCoreSpotRules, validateQuoteInput } from '../../src/main/services/bridge/index.js';
import { ValidationError } from '../../src/main/services/errors.js';

const EVM_USDC = '0x' + '11'.repeat(20);
const CORE_USDC = '0x' + '22'.repeat(16);

describe('core-spot minimum in the Bridge form', () => {
  it.each([
    ['venue_evm', 'venue_evm', ['core_spot_swap'], true],
    ['venue_evm', 'venue_evm', ['rail_fast', 'core_spot_swap'], true],
    ['venue_evm', 'venue_evm', ['swap_aggregator'], false],
    ['arbitrum', 'venue_evm', ['rail_fast'], false],
    ['arbitrum', 'venue_evm', ['core_spot_swap'], false],
    ['venue_evm', 'venue_core', ['core_spot_swap'], false],
    ['venue_evm', 'base', ['core_spot_swap'], false],
  ] as const)('%s -> %s with %j: %s', (from, to, protocols, expected) => {
    expect(coreSpotMinimumApplies(from, to, protocols)).toBe(expected);
  });

  it("matches main's check: the minimum is refused exactly where the form warns", async () => {
    for (const [from, to] of [
      ['venue_evm', 'venue_evm'],
      ['venue_evm', 'venue_core'],
      ['arbitrum', 'venue_evm'],
    ] as const) {
      for (const protocols of [['core_spot_swap'], ['rail_fast']]) {
        // The form only sends core_spot_swap for the pair the flow serves.
        const sent = protocols.filter((p) => p !== 'core_spot_swap' || coreSpotApplies(from, to));
        if (sent.length === 0) continue;
        const params = validateQuoteInput({ fromChain: from, toChain: to, fromToken: 'native', toToken: to === 'venue_core' ? CORE_USDC : EVM_USDC, amount: '1', protocols: sent, source: 'perpsdesk' });
        const refused = await checkCoreSpotRules(params, { sourceUsdValue: '50' }).then(
          () => false,
          (e: unknown) => e instanceof ValidationError && e.code === 'CORE_SPOT_MINIMUM',
        );
        expect(refused, `${from} -> ${to} ${sent.join(',')}`).toBe(coreSpotMinimumApplies(from, to, sent));
      }
    }
  });
});
