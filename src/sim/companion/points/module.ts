/**
 * Points API ({platform_url}): GET /v1/point/estimate and GET /v1/point/leaderboard.
 * Errors: the spec shows none for this API; the simulator answers 400 `{ error: <message> }` (the bridge
 * API's shape) with a message naming the parameter.
 */
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import { json } from '../../runtime/http.js';
import type { Catalog } from '../common/catalog.js';
import { Dec, isDecimalString } from '../common/amounts.js';
import { isEvmAddress } from '../common/evm.js';
import { ParamError, required, unixSeconds } from '../common/query.js';
import { computePoints, pointsNumber } from './formula.js';
import type { PointsLedger } from './ledger.js';

export function createPointsModule(catalog: Catalog, ledger: PointsLedger): RouteModule {
  return {
    handle(req: SimRequest): SimResponse | null {
      if (req.method !== 'GET') return null;
      try {
        if (req.path === '/v1/point/estimate') return json(200, estimate(catalog, req.query));
        if (req.path === '/v1/point/leaderboard') return json(200, leaderboard(ledger, req.query));
      } catch (err) {
        if (err instanceof ParamError) return json(400, { error: err.message });
        throw err;
      }
      return null;
    },
  };
}

function chain(catalog: Catalog, q: URLSearchParams, name: string): string {
  const id = required(q, name);
  if (!catalog.chain(id)) throw new ParamError(`invalid ${name}: chain not found`);
  return id;
}

function tokenParam(catalog: Catalog, q: URLSearchParams, name: string, chainId: string): string {
  const v = required(q, name);
  const isCore = catalog.chain(chainId)?.evmChainId === null;
  const ok = isCore ? /^0x[0-9a-fA-F]{32}$/.test(v) : isEvmAddress(v);
  if (!ok) throw new ParamError(`invalid ${name}: expected ${isCore ? 'a venue spot token id' : 'a token address (native placeholder for gas tokens)'}`);
  return v;
}

function usd(q: URLSearchParams, name: string): Dec {
  const v = required(q, name);
  if (!isDecimalString(v)) throw new ParamError(`invalid ${name}: expected a non-negative decimal USD value`);
  return new Dec(v);
}

function estimate(catalog: Catalog, q: URLSearchParams) {
  // Every parameter is required (spec); presence is checked in the spec's order before any format check.
  for (const name of ['user', 'src_chain', 'dst_chain', 'src_token', 'dst_token', 'src_usd', 'dst_usd', 'from', 'source']) required(q, name);
  const user = required(q, 'user');
  if (!isEvmAddress(user)) throw new ParamError('invalid user: expected a wallet address');
  const srcChain = chain(catalog, q, 'src_chain');
  const dstChain = chain(catalog, q, 'dst_chain');
  tokenParam(catalog, q, 'src_token', srcChain);
  tokenParam(catalog, q, 'dst_token', dstChain);
  const srcUsd = usd(q, 'src_usd');
  const dstUsd = usd(q, 'dst_usd');
  // `from` is validated but does not change the estimate: the simulator runs no time-boxed campaigns.
  unixSeconds(required(q, 'from'), 'from');
  const source = required(q, 'source');
  const r = computePoints(catalog.config, catalog, { srcChain, dstChain, srcUsd, dstUsd, source });
  return { point: pointsNumber(r.point), partnerBonus: pointsNumber(r.partnerBonus) };
}

function leaderboard(ledger: PointsLedger, q: URLSearchParams) {
  for (const name of ['user', 'from', 'to']) required(q, name);
  const user = required(q, 'user');
  if (!isEvmAddress(user)) throw new ParamError('invalid user: expected a wallet address');
  const from = unixSeconds(required(q, 'from'), 'from');
  const to = unixSeconds(required(q, 'to'), 'to');
  if (from > to) throw new ParamError('invalid from: must not be after to');
  return ledger.leaderboard(user, from, to);
}
