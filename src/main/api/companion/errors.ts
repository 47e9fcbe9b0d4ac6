/**
 * Typed failures of the bridge, points and aggregator APIs. Their error body is `{ error: <message> }`
 * (spec: Errors > Bridge API); the two bridge messages the spec names get their own classes because the
 * caller acts differently on each: `no quotes found` means the requestId expired or is unknown (re-quote
 * and encode within 30 seconds), `chain not found` means a chain id the service does not know (fix the
 * input; retrying changes nothing). Transport failures stay NetworkError / TimeoutError and shape
 * mismatches DecodeError, as for the trading API.
 */
import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';
import { NetworkError, TimeoutError } from '../errors.js';

export type CompanionApiName = 'bridge' | 'points' | 'aggregator';

/** The companion service answered with an error status. `serverMessage` is its `error` text (or `HTTP n`). */
export class CompanionApiError extends Error implements ClassifiedError {
  constructor(
    readonly api: CompanionApiName,
    /** Route label, e.g. 'GET /quote'. */
    readonly route: string,
    readonly status: number,
    readonly serverMessage: string,
  ) {
    super(`${api} ${route}: HTTP ${status}: ${serverMessage}`);
    this.name = 'CompanionApiError';
  }

  get errorKind(): ErrorKind {
    return this.status >= 500 || this.status === 429 ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return `${this.api.toUpperCase()}_${this.status >= 500 ? 'UNAVAILABLE' : 'REJECTED'}`;
  }
}

/** 400 `no quotes found` from /encode: the requestId expired (30 s lifetime) or is unknown. Re-quote. */
export class BridgeNoQuotesError extends CompanionApiError {
  constructor(route: string, status: number, serverMessage: string) {
    super('bridge', route, status, serverMessage);
    this.name = 'BridgeNoQuotesError';
  }
}

/** 400 `chain not found`: an unrecognized chain id. The input must change; a retry cannot help. */
export class BridgeChainNotFoundError extends CompanionApiError {
  constructor(route: string, status: number, serverMessage: string) {
    super('bridge', route, status, serverMessage);
    this.name = 'BridgeChainNotFoundError';
  }
}

/** The aggregator does not serve the chain in the path (`/<chain>/swap`). */
export class AggregatorChainNotFoundError extends CompanionApiError {
  constructor(route: string, status: number, serverMessage: string) {
    super('aggregator', route, status, serverMessage);
    this.name = 'AggregatorChainNotFoundError';
  }
}

const NO_QUOTES = /^no quotes found$/i;
// The spec's message is exactly `chain not found`; a service may append the id (`chain not found: x`).
const CHAIN_NOT_FOUND = /^chain not found\b/i;

/** The typed error for an error answer of a companion API. */
export function companionErrorOf(api: CompanionApiName, route: string, status: number, serverMessage: string): CompanionApiError {
  const text = serverMessage.trim();
  if (api === 'bridge' && status === 400 && NO_QUOTES.test(text)) return new BridgeNoQuotesError(route, status, text);
  if (status === 400 && CHAIN_NOT_FOUND.test(text)) {
    if (api === 'bridge') return new BridgeChainNotFoundError(route, status, text);
    if (api === 'aggregator') return new AggregatorChainNotFoundError(route, status, text);
  }
  return new CompanionApiError(api, route, status, text);
}

/** Worth another try of an idempotent request: no answer, or a server-side (5xx) failure. */
export function isTransientCompanionFailure(err: unknown): boolean {
  if (err instanceof NetworkError || err instanceof TimeoutError) return true;
  return err instanceof CompanionApiError && err.status >= 500;
}
