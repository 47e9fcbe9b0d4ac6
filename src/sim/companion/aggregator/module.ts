/**
 * Aggregator API ({aggregator_url}, which ends in /v1): GET /<chain>/swap.
 *
 * Query: tokenIn, tokenOut (addresses, native placeholder allowed), amountIn (integer string, smallest unit),
 * slippage (fraction, e.g. 0.005), receiver (address), all required; source (partner code) optional.
 *
 * Response (the spec does not show it; this is the simulator's shape):
 *   {
 *     quoteId, chain, chainId,
 *     tokenIn: { address, symbol, decimals }, tokenOut: { address, symbol, decimals },
 *     amountIn, amountOut, minAmountOut,        // integer strings, smallest units
 *     slippage, priceImpact,                    // decimal-string fractions
 *     amountInUsd, amountOutUsd,                // decimal strings
 *     feeBps, receiver, source, deadline,       // deadline: Unix seconds the transaction must be mined by
 *     gasEstimate,                              // integer string
 *     tx: { to, data, value }                   // send as is on the chain; value is a decimal wei string
 *   }
 * Errors: 400 `{ error: <message naming the parameter> }`, the bridge API's shape.
 */
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import { json } from '../../runtime/http.js';
import { ParamError } from '../common/query.js';
import type { AggregatorService } from './swap.js';

export function createAggregatorModule(service: AggregatorService): RouteModule {
  return {
    handle(req: SimRequest): SimResponse | null {
      const m = /^\/([^/]+)\/swap$/.exec(req.path);
      if (!m || req.method !== 'GET') return null;
      try {
        return json(200, service.quote(m[1] ?? '', req.query));
      } catch (err) {
        if (err instanceof ParamError) return json(400, { error: err.message });
        throw err;
      }
    },
  };
}
