/**
 * Bridge quotes: inputs validated and the core-spot rules checked before the service is asked, then
 * GET /quote, its routes ranked by amountOut and protocol. The local time of the quote is kept, so the
 * encode step knows how much of the requestId's 30 seconds is left.
 */
import type { BridgeClient } from '../../api/companion/bridgeClient.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { checkCoreSpotRules } from './coreSpotRules.js';
import { validateQuoteInput, type BridgeQuoteInput, type BridgeQuoteParams } from './params.js';
import { rankRoutes, routesOf, type BridgeRoute } from './routes.js';

export interface BridgeQuoteDeps {
  bridge: BridgeClient;
  now(): number;
}

export interface BridgeQuote {
  /** Null when sender or receiver was not given (a rate fetch) or nothing was quoted. */
  requestId: string | null;
  /** Local time (ms) the answer arrived: the requestId lives 30 seconds from about then. */
  quotedAt: number;
  params: BridgeQuoteParams;
  /** In the service's order (quoteIdx = index). */
  routes: BridgeRoute[];
  /** Best first. */
  ranked: BridgeRoute[];
  coreSpot: boolean;
  /** The USD value the core-spot minimum was checked against, when it applied. */
  sourceUsdValue: string | null;
}

/** Validates, applies the core-spot rules, and quotes. Nothing is sent when a check fails. */
export async function quoteBridge(deps: BridgeQuoteDeps, input: BridgeQuoteInput): Promise<BridgeQuote> {
  const params = validateQuoteInput(input);
  const check = await checkCoreSpotRules(params, { sourceUsdValue: input.sourceUsdValue, priceSource: input.priceSource });
  return requestQuote(deps, params, check);
}

/** GET /quote with already validated parameters (a re-quote repeats exactly these). */
export async function requestQuote(deps: BridgeQuoteDeps, params: BridgeQuoteParams, check: { coreSpot: boolean; sourceUsdValue: string | null }): Promise<BridgeQuote> {
  const res = await withCompanionFailures(() =>
    deps.bridge.quote({
      fromChain: params.fromChain,
      toChain: params.toChain,
      fromToken: params.fromToken,
      toToken: params.toToken,
      amount: params.amount,
      protocols: params.protocols,
      ...(params.sender !== undefined ? { sender: params.sender } : {}),
      ...(params.receiver !== undefined ? { receiver: params.receiver } : {}),
      ...(params.slippageBps !== undefined ? { slippage: params.slippageBps } : {}),
      ...(params.source !== undefined ? { source: params.source } : {}),
    }),
  );
  const routes = routesOf(res.data);
  return {
    requestId: res.requestId ?? null,
    quotedAt: deps.now(),
    params,
    routes,
    ranked: rankRoutes(routes, params.protocols),
    coreSpot: check.coreSpot,
    sourceUsdValue: check.sourceUsdValue,
  };
}
