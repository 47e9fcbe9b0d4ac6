/**
 * The bridge API ({bridge_url}, mainnet only, no key): GET /quote, POST /encode, GET /bridge/orders.
 *
 * Every response is validated with zod. Errors: 400 `no quotes found` is BridgeNoQuotesError (the
 * requestId expired or is unknown: re-quote and encode within 30 seconds), 400 `chain not found` is
 * BridgeChainNotFoundError, any other error answer CompanionApiError. Quotes and order reads are retried
 * on transport failures and 5xx; /encode too, because encoding moves no funds and a repeat only issues
 * another requestId (the transaction is what spends, and it is signed and sent by the caller).
 */
import { BridgeOrdersSchema, BridgeQuoteResponseSchema, type BridgeOrders, type BridgeQuoteResponse } from '../../../shared/protocol/index.js';
import { EncodeResponseSchema, type EncodeResponse } from './schemas.js';
import { CompanionTransport, type CallOptions, type CompanionClientOptions } from './transport.js';

export interface BridgeQuoteQuery {
  /** Lowercase chain ids. */
  fromChain: string;
  toChain: string;
  /** Token address (native placeholder for gas tokens); for toChain venue_core a venue spot token id. */
  fromToken: string;
  toToken: string;
  /** Integer string in the token's smallest unit. */
  amount: string;
  /** Protocol ids to consider; sent comma-separated. */
  protocols: readonly string[];
  /** With both sender and receiver the response carries a requestId; without, it is a rate fetch. */
  sender?: string;
  receiver?: string;
  /** Integer, 100 = 1% (service default 100). */
  slippage?: number;
  /** Partner code: points attribution, and required by the core-spot flow. */
  source?: string;
}

export class BridgeClient {
  private readonly http: CompanionTransport;

  constructor(options: CompanionClientOptions) {
    this.http = new CompanionTransport('bridge', options);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** `data` is ordered as the service returned it: the index in that array is the quoteIdx to encode. */
  quote(q: BridgeQuoteQuery, opts: CallOptions = {}): Promise<BridgeQuoteResponse> {
    const query = {
      fromChain: q.fromChain,
      toChain: q.toChain,
      fromToken: q.fromToken,
      toToken: q.toToken,
      amount: q.amount,
      protocols: q.protocols.join(','),
      sender: q.sender,
      receiver: q.receiver,
      slippage: q.slippage,
      source: q.source,
    };
    return this.http.call('GET', 'GET /quote', '/quote', query, undefined, BridgeQuoteResponseSchema, { ...opts, idempotent: true });
  }

  /** The source-chain transaction `{ to, value, data }` of route `quoteIdx`, and the new requestId /encode issues. */
  encode(requestId: string, quoteIdx: number, opts: CallOptions = {}): Promise<EncodeResponse> {
    if (!Number.isSafeInteger(quoteIdx) || quoteIdx < 0) throw new RangeError(`quoteIdx must be a non-negative integer, got ${quoteIdx}`);
    return this.http.call('POST', 'POST /encode', '/encode', {}, { requestId, quoteIdx }, EncodeResponseSchema, { ...opts, idempotent: true });
  }

  /** Orders created by the source transaction; an empty list means the service has not seen it (yet). */
  orders(srcTx: string, opts: CallOptions = {}): Promise<BridgeOrders> {
    return this.http.call('GET', 'GET /bridge/orders', '/bridge/orders', { src_tx: srcTx }, undefined, BridgeOrdersSchema, { ...opts, idempotent: true });
  }
}
