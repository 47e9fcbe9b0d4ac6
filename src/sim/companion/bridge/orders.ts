/**
 * Bridge orders: created when a source-chain transaction carrying an encoded request is mined on the
 * simulated chain (the router contract below), tracked by GET /bridge/orders?src_tx=, and settled after
 * the route's estimated time of SimClock time.
 *
 * States are the spec's: pending, then done, refunded or failed. The spec does not show transitions; the
 * simulator moves pending to exactly one terminal state (done by default, or as forced through the control
 * module) and never leaves a terminal state. On done the destination amount is credited to the receiver on
 * the destination chain (EVM chains; venue_core balances belong to the trading simulator, which can listen
 * through `onOrderFinal`) and points are credited to the sender. On refunded the full source value is
 * returned on venue_core, as the spec says refunds land on the venue regardless of destination chain.
 */
import { getAddress } from 'ethers';
import type { SimClock, ScheduledTask } from '../../runtime/clock.js';
import type { SeededRandom } from '../../runtime/random.js';
import type { Catalog } from '../common/catalog.js';
import { isNativeAddress } from '../common/catalog.js';
import { usdString, usdToUnits } from '../common/amounts.js';
import type { RpcService } from '../rpc/module.js';
import { Revert, type ContractHandler, type ExecContext } from '../rpc/ledger.js';
import { decodeCall, pullToken } from '../rpc/erc20.js';
import type { PointsLedger } from '../points/ledger.js';
import { BRIDGE_ROUTER_ABI, type BridgeRequests, type EncodedRequest } from './requests.js';

export type OrderState = 'pending' | 'done' | 'refunded' | 'failed';
export type FinalState = Exclude<OrderState, 'pending'>;

export interface BridgeOrder {
  id: string;
  srcTx: string;
  requestId: string;
  protocol: string;
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  amountIn: string;
  amountOut: string;
  sender: string;
  receiver: string;
  source: string | null;
  state: OrderState;
  createdAt: number;
  dueAt: number;
  updatedAt: number;
  /** Outcome decided by the control module; null means done. */
  forced: FinalState | null;
  dstTx: string | null;
  refund: { chain: string; tokens: { token: string; symbol: string; amount: string }[] } | null;
  failureReason: string | null;
}

export interface OrdersState {
  orders: BridgeOrder[];
  forcedNext: FinalState[];
  forcedByTx: Record<string, FinalState>;
}

export type OrderListener = (order: Readonly<BridgeOrder>) => void;

export class BridgeOrders {
  private orders = new Map<string, BridgeOrder>();
  private forcedNext: FinalState[] = [];
  private forcedByTx = new Map<string, FinalState>();
  private readonly timers = new Map<string, ScheduledTask>();

  constructor(
    private readonly catalog: Catalog,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
    private readonly requests: BridgeRequests,
    private readonly rpc: RpcService,
    private readonly points: PointsLedger,
    private readonly onOrderFinal: OrderListener | undefined,
  ) {}

  /** The router contract on `chainId`: accepts exactly the transactions /encode produced, once each. */
  routerContract(chainId: string): ContractHandler {
    return {
      gas: 120_000n,
      call: (ctx) => {
        this.validate(ctx, chainId);
        return '0x';
      },
      execute: (ctx) => {
        const req = this.validate(ctx, chainId);
        if (ctx.dryRun) return;
        if (!ctx.txHash) throw new Error('bridge invariant: execution without a transaction');
        if (!isNativeAddress(req.fromToken)) pullToken(ctx, req.fromToken, ctx.from, ctx.to, BigInt(req.amount), this.catalog.config.rpc.enforceErc20Allowance);
        req.usedBy = ctx.txHash;
        this.create(req, ctx.txHash, ctx.from);
      },
    };
  }

  private validate(ctx: ExecContext, chainId: string): EncodedRequest {
    const call = decodeCall(BRIDGE_ROUTER_ABI, ctx.data);
    if (!call || call.name !== 'bridge') throw new Revert('function selector was not recognized');
    const req = this.requests.byOrderRef(String(call.args[0]));
    if (!req || req.fromChain !== chainId) throw new Revert('unknown bridge request');
    if (req.usedBy !== null) throw new Revert('bridge request already used');
    // Any edit of the encoded calldata (amount, receiver, minimum) is refused, as a signed quote would be.
    if (ctx.data.toLowerCase() !== req.tx.data.toLowerCase()) throw new Revert('calldata does not match the encoded request');
    if (ctx.value !== BigInt(req.tx.value)) throw new Revert(`wrong value: expected ${req.tx.value} wei`);
    if (!isNativeAddress(req.fromToken)) pullToken({ ...ctx, dryRun: true }, req.fromToken, ctx.from, ctx.to, BigInt(req.amount), this.catalog.config.rpc.enforceErc20Allowance);
    return req;
  }

  private create(req: EncodedRequest, srcTx: string, from: string): void {
    const now = this.clock.now();
    const jitter = this.catalog.config.bridge.etaJitter;
    const factor = 1 - jitter + 2 * jitter * this.random.next();
    const forced = this.forcedByTx.get(srcTx) ?? this.forcedNext.shift() ?? null;
    this.forcedByTx.delete(srcTx);
    const order: BridgeOrder = {
      id: this.random.hex(16),
      srcTx,
      requestId: req.id,
      protocol: req.route.protocol,
      fromChain: req.fromChain,
      toChain: req.toChain,
      fromToken: req.fromToken,
      toToken: req.toToken,
      amountIn: req.amount,
      amountOut: req.route.amountOut,
      sender: from,
      receiver: req.receiver.toLowerCase(),
      source: req.source,
      state: 'pending',
      createdAt: now,
      dueAt: now + Math.round(req.route.etaSeconds * 1000 * factor),
      updatedAt: now,
      forced,
      dstTx: null,
      refund: null,
      failureReason: null,
    };
    this.orders.set(srcTx, order);
    this.arm(order);
  }

  private arm(order: BridgeOrder): void {
    this.timers.set(order.srcTx, this.clock.scheduleAt(order.dueAt, () => this.settle(order.srcTx)));
  }

  private settle(srcTx: string): void {
    this.timers.delete(srcTx);
    const order = this.orders.get(srcTx);
    if (!order || order.state !== 'pending') return;
    const state: FinalState = order.forced ?? 'done';
    order.state = state;
    order.updatedAt = this.clock.now();
    if (state === 'done') this.deliver(order);
    else if (state === 'refunded') this.refund(order);
    else order.failureReason = 'destination execution failed; the operator will retry or can be contacted';
    this.onOrderFinal?.(order);
  }

  private deliver(order: BridgeOrder): void {
    order.dstTx = '0x' + this.random.hex(32);
    const amountOut = BigInt(order.amountOut);
    const dst = this.rpc.ledger(order.toChain);
    if (dst) {
      if (isNativeAddress(order.toToken)) dst.credit(order.receiver, amountOut);
      else dst.creditToken(order.toToken, order.receiver, amountOut);
    }
    const from = this.catalog.token(order.fromChain, order.fromToken);
    const to = this.catalog.token(order.toChain, order.toToken);
    if (!from || !to) throw new Error(`bridge invariant: order ${order.id} with unconfigured token`);
    this.points.credit({
      kind: 'bridge',
      ref: order.srcTx,
      user: order.sender,
      at: order.updatedAt,
      srcChain: order.fromChain,
      dstChain: order.toChain,
      srcUsd: this.catalog.usdValue(from, BigInt(order.amountIn)),
      dstUsd: this.catalog.usdValue(to, amountOut),
      source: order.source,
    });
  }

  private refund(order: BridgeOrder): void {
    const from = this.catalog.token(order.fromChain, order.fromToken);
    if (!from) throw new Error(`bridge invariant: order ${order.id} with unconfigured token`);
    const usd = this.catalog.usdValue(from, BigInt(order.amountIn));
    // Refund in the same asset on the venue when it is listed there, otherwise in USDC at full value.
    const core = this.catalog.tokensOn('venue_core');
    const same = core.find((t) => t.asset === from.asset);
    const usdc = core.find((t) => t.symbol === 'USDC');
    const token = same ?? usdc;
    if (!token) throw new Error('bridge config: venue_core lists no USDC to refund in');
    const amount = same ? scale(BigInt(order.amountIn), from.decimals, same.decimals) : usdToUnits(usd, token.decimals, token.usdPrice);
    order.refund = { chain: 'venue_core', tokens: [{ token: token.address, symbol: token.symbol, amount: amount.toString() }] };
  }

  /** Forces the outcome of the order of `srcTx` (pending or not yet seen), or of the next order created. */
  force(target: { srcTx: string } | { next: true }, state: FinalState): 'ok' | 'final' {
    if ('next' in target) {
      this.forcedNext.push(state);
      return 'ok';
    }
    const key = target.srcTx.toLowerCase();
    const order = this.orders.get(key);
    if (!order) {
      this.forcedByTx.set(key, state);
      return 'ok';
    }
    if (order.state !== 'pending') return 'final';
    order.forced = state;
    return 'ok';
  }

  /** The tracking route's view. Unknown hashes give an empty list: the indexer has not seen that transaction. */
  list(srcTx: string): Record<string, unknown>[] {
    const order = this.orders.get(srcTx.toLowerCase());
    if (!order) return [];
    const from = this.catalog.token(order.fromChain, order.fromToken);
    const to = this.catalog.token(order.toChain, order.toToken);
    return [
      {
        id: order.id,
        state: order.state,
        src_tx: order.srcTx,
        dst_tx: order.dstTx,
        request_id: order.requestId,
        protocol: order.protocol,
        src_chain: order.fromChain,
        dst_chain: order.toChain,
        src_token: order.fromToken,
        dst_token: order.toToken,
        amount_in: order.amountIn,
        // Quoted amount while pending, delivered amount once done (the simulator delivers the quote exactly).
        amount_out: order.state === 'refunded' || order.state === 'failed' ? '0' : order.amountOut,
        amount_in_usd: from ? usdString(this.catalog.usdValue(from, BigInt(order.amountIn))) : null,
        amount_out_usd: to && (order.state === 'pending' || order.state === 'done') ? usdString(this.catalog.usdValue(to, BigInt(order.amountOut))) : null,
        sender: getAddress(order.sender),
        receiver: getAddress(order.receiver),
        created_at: order.createdAt,
        updated_at: order.updatedAt,
        ...(order.refund ? { refund: order.refund } : {}),
        ...(order.failureReason ? { failure_reason: order.failureReason } : {}),
      },
    ];
  }

  exportState(): OrdersState {
    return { orders: [...this.orders.values()].map((o) => structuredClone(o)), forcedNext: [...this.forcedNext], forcedByTx: Object.fromEntries(this.forcedByTx) };
  }

  importState(s: OrdersState): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    this.orders = new Map(s.orders.map((o) => [o.srcTx, structuredClone(o)]));
    this.forcedNext = [...s.forcedNext];
    this.forcedByTx = new Map(Object.entries(s.forcedByTx));
    // Pending orders settle at their original due time (on the clock's next run if that has already passed).
    for (const o of this.orders.values()) if (o.state === 'pending') this.arm(o);
  }
}

function scale(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  return toDecimals >= fromDecimals ? amount * 10n ** BigInt(toDecimals - fromDecimals) : amount / 10n ** BigInt(fromDecimals - toDecimals);
}
