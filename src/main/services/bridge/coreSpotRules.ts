/**
 * The core-spot flow rules (spec, Bridge API), checked before the service is asked, so a request the
 * service would refuse or answer with no quotes never leaves the app:
 *   - fromChain must be venue_evm (the source transaction goes through the venue's EVM RPC);
 *   - toChain must be venue_core or venue_evm;
 *   - to venue_core, toToken is a venue token id (checked for every venue_core destination in params.ts);
 *   - to venue_evm, the amount must be worth at least 100 USD at the source token's value, or no quotes
 *     come back. The value comes from the caller (a USD value or a price source): prices are never built in;
 *   - `source` carries the partner code.
 * A request is a core-spot flow when it asks for the venue-native spot swap leg (core_spot_swap).
 */
import { Decimal } from '../../../shared/decimal/index.js';
import { decimalInput } from '../decimalInput.js';
import { ValidationError } from '../errors.js';
import { VENUE_CORE, VENUE_EVM } from '../chains/chainIds.js';
import type { BridgeQuoteParams, UsdValuer } from './params.js';

export const CORE_SPOT_PROTOCOL = 'core_spot_swap';
/** Spec, Limits: minimum value on the core-spot flow to the venue's EVM chain (a rule of the spec, not a price). */
export const CORE_SPOT_MIN_USD = '100';

export function isCoreSpotFlow(params: Pick<BridgeQuoteParams, 'protocols'>): boolean {
  return params.protocols.includes(CORE_SPOT_PROTOCOL);
}

export interface CoreSpotCheck {
  coreSpot: boolean;
  /** The USD value the 100 USD minimum was checked against (venue_evm destination only). */
  sourceUsdValue: string | null;
}

const RULE = 'core-spot flow';

export async function checkCoreSpotRules(params: BridgeQuoteParams, value: { sourceUsdValue?: string | undefined; priceSource?: UsdValuer | undefined }): Promise<CoreSpotCheck> {
  if (!isCoreSpotFlow(params)) return { coreSpot: false, sourceUsdValue: null };
  if (params.fromChain !== VENUE_EVM) {
    throw new ValidationError(`the ${RULE} starts on ${VENUE_EVM}, not ${params.fromChain}`, { field: 'fromChain', code: 'CORE_SPOT_RULE', hint: `Bridge to ${VENUE_EVM} first, or leave ${CORE_SPOT_PROTOCOL} out of the protocols.` });
  }
  if (params.toChain !== VENUE_CORE && params.toChain !== VENUE_EVM) {
    throw new ValidationError(`the ${RULE} ends on ${VENUE_CORE} or ${VENUE_EVM}, not ${params.toChain}`, { field: 'toChain', code: 'CORE_SPOT_RULE' });
  }
  if (params.source === undefined) {
    throw new ValidationError(`the ${RULE} needs the partner code in source`, { field: 'source', code: 'CORE_SPOT_RULE', hint: 'Pass --source CODE or set PERPS_PARTNER_CODE.' });
  }
  if (params.toChain !== VENUE_EVM) return { coreSpot: true, sourceUsdValue: null };
  let usd: string;
  if (value.sourceUsdValue !== undefined) usd = value.sourceUsdValue;
  else if (value.priceSource) usd = await value.priceSource({ chain: params.fromChain, token: params.fromToken, amount: params.amount });
  else {
    throw new ValidationError(`the ${RULE} to ${VENUE_EVM} needs the USD value of the amount, to check the ${CORE_SPOT_MIN_USD} USD minimum`, {
      field: 'usdValue',
      code: 'USD_VALUE_REQUIRED',
      hint: 'Give the amount\'s USD value at the source token\'s price (--usd-value).',
    });
  }
  const d = decimalInput(usd, 'usdValue');
  if (d.lt(new Decimal(CORE_SPOT_MIN_USD))) {
    throw new ValidationError(`the ${RULE} to ${VENUE_EVM} needs at least ${CORE_SPOT_MIN_USD} USD at the source token's value; this amount is worth ${d.toFixed()} USD`, {
      field: 'amount',
      code: 'CORE_SPOT_MINIMUM',
      hint: 'Raise the amount; below the minimum the service returns no quotes.',
    });
  }
  return { coreSpot: true, sourceUsdValue: d.toFixed() };
}
