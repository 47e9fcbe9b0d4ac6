/**
 * Chaos on the trading API routes only (never on /sim, the venue or the companions), sampled from its
 * own seeded stream so turning chaos on does not shift prices or ids:
 *   error_rate  — answer 500 INTERNAL_ERROR without processing the request;
 *   drop_rate   — process the request, then destroy the connection without an answer (the write
 *                 landed, the client saw a network error);
 *   latency_ms  — wall-clock delay before the request is processed;
 *   persist_lag_ms — applied by the engine: new orders and margin requests read 404 for this long.
 */
import type http from 'node:http';
import type { BeforeRoute } from '../runtime/router.js';
import { sendJson } from '../runtime/http.js';
import type { SeededRandom } from '../runtime/random.js';
import type { SimContext } from '../context.js';
import { errorResponse } from '../core/response.js';

/** Replaces the response's writers so the handler's answer turns into a destroyed socket. */
function dropResponse(res: http.ServerResponse): void {
  const destroy = (): http.ServerResponse => {
    res.socket?.destroy();
    res.destroy();
    return res;
  };
  res.writeHead = destroy as unknown as typeof res.writeHead;
  res.end = destroy as unknown as typeof res.end;
}

export function chaosBeforeRoute(getCtx: () => SimContext, random: SeededRandom, chaosPrefix: string): BeforeRoute {
  return async (_req, res, prefix) => {
    if (prefix !== chaosPrefix) return 'continue';
    const ctx = getCtx();
    const chaos = ctx.chaos;
    if (chaos.latency_ms > 0) await new Promise((resolve) => setTimeout(resolve, chaos.latency_ms));
    if (chaos.error_rate > 0 && random.next() < chaos.error_rate) {
      sendJson(res, errorResponse(500, 'INTERNAL_ERROR', 'simulated server failure (chaos error_rate)', ctx.clock.now()));
      return 'handled';
    }
    if (chaos.drop_rate > 0 && random.next() < chaos.drop_rate) dropResponse(res);
    return 'continue';
  };
}
