/**
 * The trading API ({base_url} = /api/v1): one RouteModule dispatching every route of the spec to its
 * capability module, wrapping answers in the spec's envelope with SimClock timestamps.
 */
import type { RouteModule, SimRequest, SimResponse } from './runtime/http.js';
import { ApiFailure, Envelope, errorResponse, invalidRequest, okResponse } from './core/response.js';
import { jsonBody } from './core/validate.js';
import type { SimContext } from './context.js';
import { listKeys, register, revoke } from './keys/routes.js';
import { placeOrders } from './orders/place.js';
import { cancelBatch, cancelOne } from './orders/cancel.js';
import { modifyOrder } from './orders/modify.js';
import { requestMargin, marginRequestView } from './money/margin.js';
import { requestWithdrawal } from './money/withdrawals.js';
import * as reads from './reads/accountReads.js';

type Handler = (req: SimRequest, params: string[]) => unknown;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: Handler;
}

const seg = '([^/]+)';

function routes(ctx: SimContext): Route[] {
  const get = (pattern: string, handler: Handler): Route => ({ method: 'GET', pattern: new RegExp(`^${pattern}$`), handler });
  const post = (pattern: string, handler: Handler): Route => ({ method: 'POST', pattern: new RegExp(`^${pattern}$`), handler });
  return [
    get('/markets', () => ctx.markets.records),
    get('/config', () => ctx.config.funding_config),
    post('/auth/register', (req) => register(ctx, jsonBody(req))),
    get('/auth/trading-keys', (req) => listKeys(ctx, req.query)),
    post('/auth/trading-keys/revoke', (req) => revoke(ctx, jsonBody(req))),
    post('/orders', (req) => {
      const r = placeOrders(ctx, jsonBody(req));
      return new Envelope(r.results, r.success);
    }),
    post('/orders/cancel-batch', (req) => {
      const r = cancelBatch(ctx, jsonBody(req));
      return new Envelope(r.results, r.success);
    }),
    get(`/orders/${seg}`, (_req, [id]) => reads.getOrder(ctx, id!)),
    post(`/orders/${seg}/cancel`, (req, [id]) => {
      const r = cancelOne(ctx, id!, jsonBody(req));
      return new Envelope(r, r.status === 'SUBMITTED');
    }),
    post(`/orders/${seg}/modify`, (req, [id]) => {
      const r = modifyOrder(ctx, id!, jsonBody(req));
      return new Envelope(r, r.status === 'SUBMITTED');
    }),
    get('/account/open-orders', (req) => reads.openOrders(ctx, req.query)),
    get('/account/position-triggers', (req) => reads.positionTriggers(ctx, req.query)),
    get('/account/order-history', (req) => reads.orderHistory(ctx, req.query)),
    get('/account/trade-history', (req) => reads.tradeHistory(ctx, req.query)),
    get('/account/funding-history', (req) => reads.fundingHistory(ctx, req.query)),
    post('/account/withdraw', (req) => {
      const r = requestWithdrawal(ctx, jsonBody(req));
      return new Envelope(r, r.status === 'REQUESTED');
    }),
    get(`/account/${seg}/balance`, (_req, [id]) => reads.balance(ctx, id!)),
    get(`/account/${seg}/positions`, (_req, [id]) => reads.positions(ctx, id!)),
    get(`/account/${seg}/deposit-history`, (req, [id]) => reads.depositHistory(ctx, id!, req.query)),
    get(`/account/${seg}/withdrawal-history`, (req, [id]) => reads.withdrawalHistory(ctx, id!, req.query)),
    get(`/withdrawal-history/${seg}`, (_req, [id]) => reads.withdrawalById(ctx, id!)),
    post('/positions/margin', (req) => {
      const r = requestMargin(ctx, jsonBody(req));
      return new Envelope(r, r.status === 'SUBMITTED');
    }),
    get(`/positions/margin/${seg}`, (_req, [id]) => marginRequestView(ctx, id!)),
  ];
}

/**
 * A path segment as the client meant it (%2F and the like decoded). A malformed escape (%ZZ, a lone
 * %, bytes that are not UTF-8) is the client's mistake: 400 naming it, not an exception from the router.
 */
function decodePathParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch (err) {
    if (err instanceof URIError) throw invalidRequest(`path: the segment ${JSON.stringify(raw)} is not valid percent-encoding`);
    throw err;
  }
}

export function createTradingApi(ctx: SimContext): RouteModule {
  const table = routes(ctx);
  return {
    handle(req: SimRequest): SimResponse {
      const now = ctx.clock.now();
      let methodMismatch = false;
      for (const route of table) {
        const m = route.pattern.exec(req.path);
        if (!m) continue;
        if (route.method !== req.method) {
          methodMismatch = true;
          continue;
        }
        try {
          const params = m.slice(1).map(decodePathParam);
          const data = route.handler(req, params);
          if (data instanceof Envelope) return okResponse(data.data, ctx.clock.now(), data.success);
          return okResponse(data, ctx.clock.now());
        } catch (err) {
          if (err instanceof ApiFailure) return errorResponse(err.status, err.code, err.message, ctx.clock.now());
          throw err;
        }
      }
      if (methodMismatch) return errorResponse(404, 'NOT_FOUND', `${req.method} is not served on ${req.path}`, now);
      return errorResponse(404, 'NOT_FOUND', `no route ${req.method} ${req.path}`, now);
    },
  };
}
