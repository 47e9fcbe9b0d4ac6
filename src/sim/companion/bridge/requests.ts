/**
 * Bridge quote request ids and /encode.
 *
 * A quote with both sender and receiver gets a requestId that lives `requestIdLifetimeMs` (spec: 30 s) of
 * SimClock time. /encode turns (requestId, quoteIdx) into the source-chain transaction and issues a new
 * requestId (spec), which identifies the encoded request and, through the calldata, the order it creates.
 *
 * Sim choices: a requestId is valid while less than the lifetime has elapsed (at exactly 30 s it is gone); it
 * may be encoded more than once while valid (each encode is a separate transaction); the encoded transaction
 * itself does not expire, but the router accepts each encoded request only once.
 */
import { Interface, keccak256, toUtf8Bytes, getAddress } from 'ethers';
import type { SimClock } from '../../runtime/clock.js';
import type { SeededRandom } from '../../runtime/random.js';
import type { ChainId, ProtocolId } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { isNativeAddress } from '../common/catalog.js';
import type { Route } from './routes.js';
import type { QuoteParams } from './quote.js';

/**
 * The simulated router's entry point. The spec only says the transaction is assembled by /encode; this
 * signature is the simulator's: `orderRef` ties the transaction to its encoded request.
 */
export const BRIDGE_ROUTER_ABI = new Interface(['function bridge(bytes32 orderRef, address fromToken, uint256 amountIn, address receiver, uint256 minAmountOut) payable']);

export interface StoredRoute {
  protocol: ProtocolId;
  amountOut: string;
  minAmountOut: string;
  etaSeconds: number;
}

export interface StoredQuote {
  id: string;
  createdAt: number;
  expiresAt: number;
  fromChain: ChainId;
  toChain: ChainId;
  fromToken: string;
  toToken: string;
  amount: string;
  sender: string;
  receiver: string;
  source: string | null;
  routes: StoredRoute[];
}

export interface EncodedRequest {
  /** The requestId issued by /encode. */
  id: string;
  quoteId: string;
  quoteIdx: number;
  createdAt: number;
  orderRef: string;
  fromChain: ChainId;
  toChain: ChainId;
  fromToken: string;
  toToken: string;
  amount: string;
  sender: string;
  receiver: string;
  source: string | null;
  route: StoredRoute;
  tx: { to: string; value: string; data: string };
  /** Hash of the source transaction that consumed this request; null until one is mined. */
  usedBy: string | null;
}

export interface RequestsState {
  quotes: StoredQuote[];
  encoded: EncodedRequest[];
}

export class EncodeError extends Error {}

/** A UUID v4-shaped id from the seeded generator, so runs with the same seed issue the same ids. */
export function uuid(random: SeededRandom): string {
  const h = random.hex(16);
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class BridgeRequests {
  private quotes = new Map<string, StoredQuote>();
  private encoded = new Map<string, EncodedRequest>();
  private byRef = new Map<string, string>();

  constructor(
    private readonly catalog: Catalog,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
  ) {}

  /** Stores the quote and returns its requestId; null when it is only a rate fetch or nothing was quoted. */
  issue(params: QuoteParams, routes: Route[]): string | null {
    this.prune();
    if (params.sender === null || params.receiver === null || routes.length === 0) return null;
    const now = this.clock.now();
    const quote: StoredQuote = {
      id: uuid(this.random),
      createdAt: now,
      expiresAt: now + this.catalog.config.bridge.requestIdLifetimeMs,
      fromChain: params.fromChain.id,
      toChain: params.toChain.id,
      fromToken: params.fromToken.address,
      toToken: params.toToken.address,
      amount: params.amount.toString(),
      sender: params.sender,
      receiver: params.receiver,
      source: params.source,
      routes: routes.map((r) => ({ protocol: r.crossProtocol.id, amountOut: r.amountOut.toString(), minAmountOut: r.minAmountOut.toString(), etaSeconds: r.etaSeconds })),
    };
    this.quotes.set(quote.id, quote);
    return quote.id;
  }

  encode(requestId: string, quoteIdx: number): EncodedRequest {
    this.prune();
    const quote = this.quotes.get(requestId);
    // The spec's message for an expired or unknown requestId.
    if (!quote || this.clock.now() >= quote.expiresAt) throw new EncodeError('no quotes found');
    const route = quote.routes[quoteIdx];
    if (!route) throw new EncodeError(`invalid quoteIdx: the quote has ${quote.routes.length} element(s)`);
    const chain = this.catalog.chain(quote.fromChain);
    if (!chain || chain.bridgeRouter === null) throw new Error(`bridge invariant: quote ${quote.id} from a chain without router`);
    const id = uuid(this.random);
    const orderRef = keccak256(toUtf8Bytes(`sim-bridge-order:${id}`));
    const data = BRIDGE_ROUTER_ABI.encodeFunctionData('bridge', [orderRef, getAddress(quote.fromToken), BigInt(quote.amount), getAddress(quote.receiver), BigInt(route.minAmountOut)]);
    const encoded: EncodedRequest = {
      id,
      quoteId: quote.id,
      quoteIdx,
      createdAt: this.clock.now(),
      orderRef,
      fromChain: quote.fromChain,
      toChain: quote.toChain,
      fromToken: quote.fromToken,
      toToken: quote.toToken,
      amount: quote.amount,
      sender: quote.sender,
      receiver: quote.receiver,
      source: quote.source,
      route,
      // value: decimal string of wei (the spec does not show its format); the amount for a native source.
      tx: { to: chain.bridgeRouter, value: isNativeAddress(quote.fromToken) ? quote.amount : '0', data },
      usedBy: null,
    };
    this.encoded.set(id, encoded);
    this.byRef.set(orderRef, id);
    return encoded;
  }

  byOrderRef(orderRef: string): EncodedRequest | undefined {
    const id = this.byRef.get(orderRef.toLowerCase());
    return id === undefined ? undefined : this.encoded.get(id);
  }

  /** Expired quotes can never be encoded again: drop them so a long run does not accumulate them. */
  private prune(): void {
    const now = this.clock.now();
    for (const [id, q] of this.quotes) if (now >= q.expiresAt) this.quotes.delete(id);
  }

  exportState(): RequestsState {
    return { quotes: [...this.quotes.values()].map((q) => structuredClone(q)), encoded: [...this.encoded.values()].map((e) => structuredClone(e)) };
  }

  importState(s: RequestsState): void {
    this.quotes = new Map(s.quotes.map((q) => [q.id, structuredClone(q)]));
    this.encoded = new Map(s.encoded.map((e) => [e.id, structuredClone(e)]));
    this.byRef = new Map(s.encoded.map((e) => [e.orderRef.toLowerCase(), e.id]));
  }
}
