/**
 * When the venue's core-spot flow applies to a bridge form, matching main's rules (services/bridge/
 * coreSpotRules.ts, from the spec's Bridge API): a request is a core-spot flow when it asks for the
 * core_spot_swap protocol; that flow starts on venue_evm and ends on venue_core or venue_evm; and only to
 * venue_evm must the amount be worth at least the minimum (100 USD) at the source token's value. A
 * transfer to venue_evm without core_spot_swap is an ordinary bridge, with no minimum.
 */
export const CORE_SPOT_PROTOCOL = 'core_spot_swap';

/** The pair the core-spot flow can serve (core_spot_swap is offered only for it). */
export const coreSpotApplies = (from: string, to: string): boolean => from === 'venue_evm' && (to === 'venue_core' || to === 'venue_evm');

/** Whether main checks the core-spot minimum for this request: `protocols` are the ones actually asked for. */
export function coreSpotMinimumApplies(from: string, to: string, protocols: readonly string[]): boolean {
  return protocols.includes(CORE_SPOT_PROTOCOL) && coreSpotApplies(from, to) && to === 'venue_evm';
}
