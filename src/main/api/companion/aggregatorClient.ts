/**
 * The swap aggregator ({aggregator_url}): GET /<chain>/swap. The spec gives the query (tokenIn, tokenOut,
 * amountIn in smallest units, slippage as a fraction such as 0.005, receiver, source) and not the
 * response; the client requires the transaction to send (`tx: { to, value, data }`) and reads the output
 * amounts when present (schemas.ts). A quote is a read: retried on transport failures and 5xx.
 */
import { SwapQuoteSchema, type SwapQuote } from './schemas.js';
import { CompanionTransport, type CallOptions, type CompanionClientOptions } from './transport.js';

export interface SwapQuery {
  /** Lowercase chain id, the path segment. */
  chain: string;
  tokenIn: string;
  tokenOut: string;
  /** Integer string, smallest unit. */
  amountIn: string;
  /** Fraction as a decimal string (0.005 = 0.5%): sent as typed, never through a float. */
  slippage: string;
  receiver: string;
  /** Partner code for bonus points. */
  source: string;
}

export class AggregatorClient {
  private readonly http: CompanionTransport;

  constructor(options: CompanionClientOptions) {
    this.http = new CompanionTransport('aggregator', options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  swap(q: SwapQuery, opts: CallOptions = {}): Promise<SwapQuote> {
    const { chain, ...query } = q;
    const path = `/${encodeURIComponent(chain)}/swap`;
    return this.http.call('GET', 'GET /<chain>/swap', path, { ...query }, undefined, SwapQuoteSchema, { ...opts, idempotent: true });
  }
}
