/**
 * Comparing the routes of a quote. The best route delivers the most (amountOut, compared as integers,
 * never as floats); among equal amounts the protocol listed first in the request wins, then the
 * protocol id, so the choice is stable. Each route keeps its quoteIdx: the index in the service's array,
 * which is what /encode takes, whatever order routes are shown in.
 */
import type { BridgeQuoteElement } from '../../../shared/protocol/index.js';
import { OperationError, ValidationError } from '../errors.js';

export interface BridgeRoute {
  /** Index in the quote's `data` array: the value /encode takes. */
  quoteIdx: number;
  /** crossProtocol.id. */
  protocol: string;
  /** Integer string, smallest unit of the destination token. */
  amountOut: string;
  /** The quote element as returned (fields beyond the spec's two are the service's). */
  element: BridgeQuoteElement;
}

export function routesOf(data: readonly BridgeQuoteElement[]): BridgeRoute[] {
  return data.map((element, quoteIdx) => ({ quoteIdx, protocol: element.crossProtocol.id, amountOut: element.amountOut, element }));
}

/** Negative when `a` is the better route. */
export function compareRoutes(a: BridgeRoute, b: BridgeRoute, protocolOrder: readonly string[] = []): number {
  const ao = BigInt(a.amountOut);
  const bo = BigInt(b.amountOut);
  if (ao !== bo) return ao > bo ? -1 : 1;
  const rank = (p: string): number => {
    const i = protocolOrder.indexOf(p);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  if (rank(a.protocol) !== rank(b.protocol)) return rank(a.protocol) - rank(b.protocol);
  return a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : a.quoteIdx - b.quoteIdx;
}

/** Best first. */
export function rankRoutes(routes: readonly BridgeRoute[], protocolOrder: readonly string[] = []): BridgeRoute[] {
  return [...routes].sort((a, b) => compareRoutes(a, b, protocolOrder));
}

/** The route to encode: the best one, or the best of the named protocol. */
export function chooseRoute(routes: readonly BridgeRoute[], options: { protocol?: string | undefined; protocolOrder?: readonly string[] } = {}): BridgeRoute {
  if (routes.length === 0) {
    throw new OperationError('NO_ROUTES', 'the bridge returned no route for this transfer', {
      hint: 'Try other protocols, another amount (some rails have minimums or maximums) or other tokens.',
    });
  }
  const candidates = options.protocol === undefined ? routes : routes.filter((r) => r.protocol === options.protocol);
  const best = rankRoutes(candidates, options.protocolOrder)[0];
  if (!best) {
    throw new ValidationError(`no route through ${options.protocol}; the quote offers ${[...new Set(routes.map((r) => r.protocol))].join(', ')}`, { field: 'protocol' });
  }
  return best;
}
