/**
 * Bridge API ({bridge_url}, which ends in /v1): GET /quote, POST /encode, GET /bridge/orders.
 * Errors are 400 `{ error: <message> }` (spec: Errors > Bridge API).
 */
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import { json } from '../../runtime/http.js';
import type { Catalog } from '../common/catalog.js';
import { isTxHash } from '../common/evm.js';
import { ParamError, required } from '../common/query.js';
import { parseQuote } from './quote.js';
import { findRoutes, routeJson } from './routes.js';
import { EncodeError, type BridgeRequests } from './requests.js';
import type { BridgeOrders } from './orders.js';

export function createBridgeModule(catalog: Catalog, requests: BridgeRequests, orders: BridgeOrders): RouteModule {
  return {
    handle(req: SimRequest): SimResponse | null {
      try {
        if (req.method === 'GET' && req.path === '/quote') return quote(catalog, requests, req.query);
        if (req.method === 'POST' && req.path === '/encode') return encode(requests, req);
        if (req.method === 'GET' && req.path === '/bridge/orders') return track(orders, req.query);
      } catch (err) {
        if (err instanceof ParamError || err instanceof EncodeError) return json(400, { error: err.message });
        throw err;
      }
      return null;
    },
  };
}

function quote(catalog: Catalog, requests: BridgeRequests, q: URLSearchParams): SimResponse {
  const params = parseQuote(catalog, q);
  if (params.coreSpot && params.toChain.id === 'venue_evm') {
    // Spec: below 100 USD at the source token's value the core-spot flow to venue_evm returns no quotes.
    if (catalog.usdValue(params.fromToken, params.amount).lt(catalog.config.bridge.coreSpotMinUsd)) return json(200, { data: [] });
  }
  const routes = findRoutes(params, catalog);
  const requestId = requests.issue(params, routes);
  const data = routes.map((r) => routeJson(r, params));
  // requestId only when sender and receiver were both given (and something was quoted to encode).
  return json(200, requestId === null ? { data } : { requestId, data });
}

function encode(requests: BridgeRequests, req: SimRequest): SimResponse {
  if (req.bodyError) throw new ParamError(`invalid body: ${req.bodyError}`);
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ParamError('invalid body: expected a JSON object { requestId, quoteIdx }');
  const { requestId, quoteIdx } = body as Record<string, unknown>;
  if (requestId === undefined) throw new ParamError('missing required field: requestId');
  if (typeof requestId !== 'string' || requestId === '') throw new ParamError('invalid requestId: expected a string');
  if (quoteIdx === undefined) throw new ParamError('missing required field: quoteIdx');
  if (typeof quoteIdx !== 'number' || !Number.isSafeInteger(quoteIdx) || quoteIdx < 0) throw new ParamError('invalid quoteIdx: expected a non-negative integer');
  const encoded = requests.encode(requestId, quoteIdx);
  return json(200, { status: 'ok', data: { ...encoded.tx }, requestId: encoded.id });
}

function track(orders: BridgeOrders, q: URLSearchParams): SimResponse {
  const srcTx = required(q, 'src_tx');
  if (!isTxHash(srcTx)) throw new ParamError('invalid src_tx: expected a 0x-prefixed 32-byte transaction hash');
  return json(200, { orders: orders.list(srcTx) });
}
