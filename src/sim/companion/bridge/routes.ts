/**
 * Route finding and pricing for bridge quotes.
 *
 * The spec names the protocols and their roles but not which pairs each serves or what they cost, so the
 * simulator uses the rules below (sim choices), with economics from config:
 * - rail_canonical: USDC to USDC between EVM chains.
 * - rail_native_assets: the native asset or its wrapper to the same asset between EVM chains.
 * - rail_fast: any token to a token of the same asset between EVM chains.
 * - rail_size: any pair between EVM chains (cross-chain swap), above its minUsd.
 * - rail_gas: any token to a destination gas token between EVM chains, below its maxUsd.
 * - core_bridge: USDC from arbitrum or venue_evm to USDC on venue_core.
 * - core_spot_swap: from venue_evm to venue_core or venue_evm through the venue's spot book (the core-spot flow).
 * - swap_evm: same-chain swap on any EVM chain; swap_aggregator: same-chain swap on venue_evm;
 *   swap_wrap: native <-> wrapped native on one chain, 1:1.
 * A same-asset rail can be combined with one requested swap leg on the source or destination chain
 * (e.g. ETH on arbitrum -> swap_evm -> USDC -> rail_fast -> USDC on base); the route's crossProtocol is the rail.
 * Each requested protocol yields at most one route (its best); routes are returned best amountOut first.
 */
import type { ChainConfig, ProtocolConfig, ProtocolId, TokenConfig } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { Dec, minusBps, pow10, unitsToUsd, usdString, usdToUnits } from '../common/amounts.js';

export interface RouteStep {
  protocol: ProtocolId;
  fromToken: TokenConfig;
  toToken: TokenConfig;
  amountIn: bigint;
  amountOut: bigint;
  feeUsd: Dec;
  impact: Dec;
}

export interface Route {
  crossProtocol: ProtocolConfig;
  steps: RouteStep[];
  amountIn: bigint;
  amountOut: bigint;
  minAmountOut: bigint;
  etaSeconds: number;
}

export interface RouteQuery {
  fromChain: ChainConfig;
  toChain: ChainConfig;
  fromToken: TokenConfig;
  toToken: TokenConfig;
  amount: bigint;
  protocols: ProtocolId[];
  slippageBps: number;
}

const SAME_ASSET_RAILS: ReadonlySet<ProtocolId> = new Set(['rail_canonical', 'rail_native_assets', 'rail_fast', 'core_bridge']);
const SWAP_LEGS: readonly ProtocolId[] = ['swap_evm', 'swap_aggregator', 'swap_wrap'];
/** Price impact never exceeds this fraction: deeper trades would be refused by a real venue anyway. */
const MAX_IMPACT = new Dec('0.1');

function isEvm(chain: ChainConfig | undefined): boolean {
  return chain !== undefined && chain.evmChainId !== null;
}

/** Whether protocol `p` serves `from -> to` as a single leg. */
export function supportsDirect(p: ProtocolId, from: TokenConfig, to: TokenConfig, catalog: Catalog): boolean {
  const cross = from.chain !== to.chain;
  const bothEvm = isEvm(catalog.chain(from.chain)) && isEvm(catalog.chain(to.chain));
  const sameToken = !cross && from.address.toLowerCase() === to.address.toLowerCase();
  if (sameToken) return false;
  const sameAsset = from.asset === to.asset;
  const nativeish = (t: TokenConfig) => t.kind === 'native' || t.kind === 'wrapped';
  switch (p) {
    case 'rail_canonical':
      return cross && bothEvm && from.symbol === 'USDC' && to.symbol === 'USDC';
    case 'rail_native_assets':
      return cross && bothEvm && sameAsset && nativeish(from) && nativeish(to);
    case 'rail_fast':
      return cross && bothEvm && sameAsset;
    case 'rail_size':
      return cross && bothEvm;
    case 'rail_gas':
      return cross && bothEvm && to.kind === 'native';
    case 'core_bridge':
      return to.chain === 'venue_core' && (from.chain === 'arbitrum' || from.chain === 'venue_evm') && from.symbol === 'USDC' && to.symbol === 'USDC';
    case 'core_spot_swap':
      return from.chain === 'venue_evm' && (to.chain === 'venue_core' || to.chain === 'venue_evm');
    case 'swap_evm':
      return !cross && bothEvm;
    case 'swap_aggregator':
      return !cross && from.chain === 'venue_evm';
    case 'swap_wrap':
      return !cross && sameAsset && ((from.kind === 'native' && to.kind === 'wrapped') || (from.kind === 'wrapped' && to.kind === 'native'));
  }
}

/** Prices one leg; null when the protocol's USD bounds exclude it or nothing would arrive. */
function priceLeg(p: ProtocolConfig, from: TokenConfig, to: TokenConfig, amountIn: bigint): RouteStep | null {
  const inUsd = unitsToUsd(amountIn, from.decimals, from.usdPrice);
  if (p.minUsd !== null && inUsd.lt(p.minUsd)) return null;
  if (p.maxUsd !== null && inUsd.gt(p.maxUsd)) return null;
  const feeUsd = inUsd.mul(p.feeBps).div(10_000).add(p.fixedFeeUsd);
  let amountOut: bigint;
  let impact = new Dec(0);
  if (from.asset === to.asset && from.usdPrice === to.usdPrice) {
    // Same asset: convert units exactly so a wrap or a fee-free rail never loses a unit to rounding.
    const scaled = to.decimals >= from.decimals ? amountIn * pow10(to.decimals - from.decimals) : amountIn / pow10(from.decimals - to.decimals);
    amountOut = scaled - usdToUnitsCeil(feeUsd, to);
  } else {
    // Different assets: linear price impact against the protocol's liquidity depth.
    impact = Dec.min(MAX_IMPACT, inUsd.div(p.depthUsd));
    const outUsd = inUsd.mul(new Dec(1).sub(impact)).sub(feeUsd);
    amountOut = usdToUnits(outUsd, to.decimals, to.usdPrice);
  }
  if (amountOut <= 0n) return null;
  return { protocol: p.id, fromToken: from, toToken: to, amountIn, amountOut, feeUsd, impact };
}

function usdToUnitsCeil(usd: Dec, token: TokenConfig): bigint {
  if (usd.lte(0)) return 0n;
  return BigInt(usd.div(token.usdPrice).mul(new Dec(pow10(token.decimals).toString())).toFixed(0, Dec.ROUND_UP));
}

function chainOf(steps: RouteStep[], q: RouteQuery, p: ProtocolConfig, catalog: Catalog): Route {
  const last = steps[steps.length - 1];
  if (!last) throw new Error('route without steps');
  const eta = steps.reduce((s, st) => s + (catalog.protocol(st.protocol)?.etaSeconds ?? 0), 0);
  return { crossProtocol: p, steps, amountIn: q.amount, amountOut: last.amountOut, minAmountOut: minusBps(last.amountOut, BigInt(q.slippageBps)), etaSeconds: eta };
}

/** Two legs: a swap then the rail, or the rail then a swap; the best of all combinations. */
function composite(p: ProtocolConfig, q: RouteQuery, swaps: ProtocolConfig[], catalog: Catalog): Route | null {
  let best: Route | null = null;
  const consider = (steps: (RouteStep | null)[]) => {
    if (steps.some((s) => s === null)) return;
    const r = chainOf(steps as RouteStep[], q, p, catalog);
    if (!best || r.amountOut > best.amountOut) best = r;
  };
  for (const mid of catalog.tokensOn(q.fromChain.id)) {
    if (!supportsDirect(p.id, mid, q.toToken, catalog)) continue;
    for (const s of swaps) {
      if (!supportsDirect(s.id, q.fromToken, mid, catalog)) continue;
      const first = priceLeg(s, q.fromToken, mid, q.amount);
      consider([first, first && priceLeg(p, mid, q.toToken, first.amountOut)]);
    }
  }
  for (const mid of catalog.tokensOn(q.toChain.id)) {
    if (!supportsDirect(p.id, q.fromToken, mid, catalog)) continue;
    for (const s of swaps) {
      if (!supportsDirect(s.id, mid, q.toToken, catalog)) continue;
      const first = priceLeg(p, q.fromToken, mid, q.amount);
      consider([first, first && priceLeg(s, mid, q.toToken, first.amountOut)]);
    }
  }
  return best;
}

export function findRoutes(q: RouteQuery, catalog: Catalog): Route[] {
  const requested = q.protocols.map((id) => catalog.protocol(id)).filter((p): p is ProtocolConfig => p !== undefined);
  const swaps = requested.filter((p) => SWAP_LEGS.includes(p.id));
  const routes: Route[] = [];
  for (const p of requested) {
    let route: Route | null = null;
    if (supportsDirect(p.id, q.fromToken, q.toToken, catalog)) {
      const leg = priceLeg(p, q.fromToken, q.toToken, q.amount);
      if (leg) route = chainOf([leg], q, p, catalog);
    } else if (SAME_ASSET_RAILS.has(p.id) && q.fromChain.id !== q.toChain.id) {
      route = composite(p, q, swaps, catalog);
    }
    if (route) routes.push(route);
  }
  // Best output first; ties keep the order the protocols were requested in (sort is stable).
  return routes.sort((a, b) => (a.amountOut === b.amountOut ? 0 : a.amountOut > b.amountOut ? -1 : 1));
}

function tokenJson(t: TokenConfig) {
  return { chain: t.chain, address: t.address, symbol: t.symbol, decimals: t.decimals };
}

/** A quote element as served: the spec's amountOut and crossProtocol.id, plus the fields a real aggregator shows. */
export function routeJson(r: Route, q: RouteQuery): Record<string, unknown> {
  const inUsd = unitsToUsd(r.amountIn, q.fromToken.decimals, q.fromToken.usdPrice);
  const outUsd = unitsToUsd(r.amountOut, q.toToken.decimals, q.toToken.usdPrice);
  const feeUsd = r.steps.reduce((s, st) => s.add(st.feeUsd), new Dec(0));
  const impact = r.steps.reduce((s, st) => s.add(st.impact), new Dec(0));
  return {
    amountIn: r.amountIn.toString(),
    amountOut: r.amountOut.toString(),
    minAmountOut: r.minAmountOut.toString(),
    crossProtocol: { id: r.crossProtocol.id, name: r.crossProtocol.name },
    fromChain: q.fromChain.id,
    toChain: q.toChain.id,
    fromToken: tokenJson(q.fromToken),
    toToken: tokenJson(q.toToken),
    amountInUsd: usdString(inUsd),
    amountOutUsd: usdString(outUsd),
    feeUsd: usdString(feeUsd),
    priceImpact: impact.toDecimalPlaces(6, Dec.ROUND_UP).toFixed(),
    slippage: q.slippageBps,
    estimatedTimeSeconds: r.etaSeconds,
    steps: r.steps.map((s) => ({
      protocol: s.protocol,
      fromChain: s.fromToken.chain,
      toChain: s.toToken.chain,
      fromToken: s.fromToken.address,
      toToken: s.toToken.address,
      amountIn: s.amountIn.toString(),
      amountOut: s.amountOut.toString(),
    })),
  };
}
