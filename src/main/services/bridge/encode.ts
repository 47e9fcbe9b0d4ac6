/**
 * Encoding the chosen route within the requestId's lifetime (spec: a quote's requestId is valid for 30
 * seconds; /encode then issues a different requestId).
 *
 * A quote close to its end (by the local clock) is renewed before /encode is asked; and when /encode still
 * answers `no quotes found` (expired or unknown: the service's clock decides), the same parameters are
 * quoted again and the same protocol's route is encoded from the new quote. A re-quoted route must still
 * deliver at least the first quote's amount less the slippage tolerance; a worse one is not taken
 * silently, and a route that disappeared is reported, never swapped for another protocol.
 */
import { BridgeNoQuotesError } from '../../api/companion/errors.js';
import type { PreparedTx } from '../../api/companion/schemas.js';
import { OperationError, ValidationError } from '../errors.js';
import { companionFailure } from '../companion/companionFailures.js';
import { DEFAULT_SLIPPAGE_BPS } from './params.js';
import { requestQuote, type BridgeQuote, type BridgeQuoteDeps } from './quotes.js';
import type { BridgeRoute } from './routes.js';

/** Spec, Limits: Bridge requestId lifetime. */
export const REQUEST_ID_LIFETIME_MS = 30_000;
/** Renew a quote this close to its end instead of racing it (network time, clock differences). */
export const ENCODE_MARGIN_MS = 5_000;
export const DEFAULT_MAX_REQUOTES = 2;

export interface EncodedBridge {
  /** The requestId /encode issued (different from the quote's). */
  requestId: string;
  tx: PreparedTx;
  /** The route actually encoded (from a re-quote when there was one). */
  route: BridgeRoute;
  /** The quote it came from. */
  quote: BridgeQuote;
  /** How many times the parameters were quoted again before the encode succeeded. */
  requotes: number;
}

export interface EncodeOptions {
  maxRequotes?: number;
  onRequote?: (info: { reason: 'expiring' | 'no_quotes_found'; attempt: number }) => void;
}

export async function encodeRoute(deps: BridgeQuoteDeps, quote: BridgeQuote, route: BridgeRoute, options: EncodeOptions = {}): Promise<EncodedBridge> {
  if (quote.requestId === null) {
    throw new ValidationError('this quote has no requestId: a quote to encode needs both sender and receiver', { field: 'sender' });
  }
  const maxRequotes = options.maxRequotes ?? DEFAULT_MAX_REQUOTES;
  const floor = minimumOut(route.amountOut, quote.params.slippageBps ?? DEFAULT_SLIPPAGE_BPS);
  let q = quote;
  let r = route;
  let requotes = 0;
  const requote = async (reason: 'expiring' | 'no_quotes_found'): Promise<void> => {
    requotes++;
    options.onRequote?.({ reason, attempt: requotes });
    q = await requestQuote(deps, quote.params, { coreSpot: quote.coreSpot, sourceUsdValue: quote.sourceUsdValue });
    r = sameRoute(q, route, floor);
  };
  for (;;) {
    if (deps.now() - q.quotedAt >= REQUEST_ID_LIFETIME_MS - ENCODE_MARGIN_MS && requotes < maxRequotes) await requote('expiring');
    const requestId = q.requestId;
    if (requestId === null) throw new OperationError('NO_ROUTES', 'the re-quote returned no requestId (no route to encode)');
    try {
      const encoded = await deps.bridge.encode(requestId, r.quoteIdx);
      return { requestId: encoded.requestId, tx: encoded.data, route: r, quote: q, requotes };
    } catch (err) {
      if (!(err instanceof BridgeNoQuotesError)) throw companionFailure(err);
      if (requotes >= maxRequotes) {
        throw new OperationError('QUOTE_EXPIRED', `the bridge kept answering 'no quotes found' after ${requotes} re-quote(s)`, {
          status: err.status,
          cause: err,
          hint: 'The requestId expired before /encode reached the service (30 seconds). Check the connection and the system clock, then try again.',
        });
      }
      await requote('no_quotes_found');
    }
  }
}

/** amountOut less the slippage tolerance, rounded down (integers only). */
export function minimumOut(amountOut: string, slippageBps: number): bigint {
  return (BigInt(amountOut) * BigInt(10_000 - slippageBps)) / 10_000n;
}

function sameRoute(q: BridgeQuote, previous: BridgeRoute, floor: bigint): BridgeRoute {
  const candidates = q.ranked.filter((x) => x.protocol === previous.protocol);
  const best = candidates[0];
  if (!best) {
    throw new OperationError('ROUTE_GONE', `the re-quote no longer offers a route through ${previous.protocol}`, {
      hint: 'Quote again and choose among the routes offered now.',
    });
  }
  if (BigInt(best.amountOut) < floor) {
    throw new OperationError('ROUTE_WORSENED', `the re-quote through ${previous.protocol} delivers ${best.amountOut}, below ${floor} (the first quote ${previous.amountOut} less the slippage tolerance)`, {
      hint: 'Quote again and decide on the new amount.',
      details: { first_amount_out: previous.amountOut, new_amount_out: best.amountOut },
    });
  }
  return best;
}
