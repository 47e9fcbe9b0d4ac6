/**
 * The swap aggregator: same-chain swap quotes with a ready-to-send transaction, and the router contract
 * that executes them on the simulated chain.
 *
 * Sim choices (the spec shows only the query parameters):
 * - Pricing: a wrap or unwrap (same asset) is 1:1 and free; other pairs pay `aggregator.feeBps` plus linear
 *   price impact against `aggregator.depthUsd`.
 * - The transaction carries a deadline `deadlineSeconds` after the quote; the router reverts after it, refuses
 *   calldata that differs from the quote, and executes each quote once.
 * - On execution the receiver gets exactly amountOut (the simulated pool has no drift between quote and
 *   execution) and the sender is credited points, with the partner bonus when `source` is a known code.
 */
import { Interface, getAddress } from 'ethers';
import type { SimClock } from '../../runtime/clock.js';
import type { SeededRandom } from '../../runtime/random.js';
import type { ChainConfig, TokenConfig } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { isNativeAddress } from '../common/catalog.js';
import { Dec, isDecimalString, isUintString, pow10, unitsToUsd, usdString, usdToUnits } from '../common/amounts.js';
import { isEvmAddress } from '../common/evm.js';
import { ParamError, optional, required } from '../common/query.js';
import { Revert, type ContractHandler, type ExecContext } from '../rpc/ledger.js';
import { decodeCall, pullToken } from '../rpc/erc20.js';
import type { PointsLedger } from '../points/ledger.js';

export const AGGREGATOR_ROUTER_ABI = new Interface([
  'function swap(bytes32 quoteId, address tokenIn, address tokenOut, uint256 amountIn, uint256 minAmountOut, address receiver, uint256 deadline) payable',
]);

const SWAP_GAS = 150_000n;
const MAX_IMPACT = new Dec('0.1');

export interface SwapQuote {
  quoteId: string;
  chain: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
  minAmountOut: string;
  receiver: string;
  source: string | null;
  createdAt: number;
  /** Unix seconds. */
  deadline: number;
  tx: { to: string; data: string; value: string };
  executedBy: string | null;
}

export class AggregatorService {
  private swaps = new Map<string, SwapQuote>();

  constructor(
    private readonly catalog: Catalog,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
    private readonly points: PointsLedger,
  ) {}

  /** Validates a GET /<chain>/swap query and returns the quote body. */
  quote(chainId: string, q: URLSearchParams): Record<string, unknown> {
    const chain = this.catalog.chain(chainId);
    if (!chain || chain.evmChainId === null || chain.aggregatorRouter === null) throw new ParamError(`chain not found: ${chainId}`);
    for (const name of ['tokenIn', 'tokenOut', 'amountIn', 'slippage', 'receiver']) required(q, name);
    const tokenIn = this.token(chain, q, 'tokenIn');
    const tokenOut = this.token(chain, q, 'tokenOut');
    if (tokenIn.address.toLowerCase() === tokenOut.address.toLowerCase()) throw new ParamError('invalid tokenOut: must differ from tokenIn');
    const amountRaw = required(q, 'amountIn');
    if (!isUintString(amountRaw) || amountRaw === '0') throw new ParamError('invalid amountIn: expected a positive integer string in the token smallest unit');
    const amountIn = BigInt(amountRaw);
    const slippageRaw = required(q, 'slippage');
    const cfg = this.catalog.config.aggregator;
    if (!isDecimalString(slippageRaw)) throw new ParamError('invalid slippage: expected a fraction such as 0.005');
    const slippage = new Dec(slippageRaw);
    if (slippage.gt(cfg.maxSlippage)) throw new ParamError(`invalid slippage: a fraction at most ${cfg.maxSlippage} (0.005 means 0.5%)`);
    const receiver = required(q, 'receiver');
    if (!isEvmAddress(receiver)) throw new ParamError('invalid receiver: expected an address');
    // source is optional here (sim choice): a swap without a partner code earns base points only.
    const source = optional(q, 'source');

    this.prune();
    const { amountOut, impact, feeBps } = this.price(tokenIn, tokenOut, amountIn);
    if (amountOut <= 0n) throw new ParamError('invalid amountIn: too small to swap');
    const minAmountOut = BigInt(new Dec(amountOut.toString()).mul(new Dec(1).sub(slippage)).toFixed(0, Dec.ROUND_DOWN));
    const quoteId = '0x' + this.random.hex(32);
    const deadline = Math.floor(this.clock.now() / 1000) + cfg.deadlineSeconds;
    const data = AGGREGATOR_ROUTER_ABI.encodeFunctionData('swap', [quoteId, getAddress(tokenIn.address), getAddress(tokenOut.address), amountIn, minAmountOut, getAddress(receiver), deadline]);
    const swap: SwapQuote = {
      quoteId,
      chain: chain.id,
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      amountIn: amountIn.toString(),
      amountOut: amountOut.toString(),
      minAmountOut: minAmountOut.toString(),
      receiver: receiver.toLowerCase(),
      source,
      createdAt: this.clock.now(),
      deadline,
      tx: { to: chain.aggregatorRouter, data, value: isNativeAddress(tokenIn.address) ? amountIn.toString() : '0' },
      executedBy: null,
    };
    this.swaps.set(quoteId, swap);
    return {
      quoteId,
      chain: chain.id,
      chainId: chain.evmChainId,
      tokenIn: tokenJson(tokenIn),
      tokenOut: tokenJson(tokenOut),
      amountIn: swap.amountIn,
      amountOut: swap.amountOut,
      minAmountOut: swap.minAmountOut,
      slippage: slippage.toFixed(),
      amountInUsd: usdString(unitsToUsd(amountIn, tokenIn.decimals, tokenIn.usdPrice)),
      amountOutUsd: usdString(unitsToUsd(amountOut, tokenOut.decimals, tokenOut.usdPrice)),
      priceImpact: impact.toDecimalPlaces(6, Dec.ROUND_UP).toFixed(),
      feeBps,
      receiver: getAddress(receiver),
      source,
      deadline,
      gasEstimate: SWAP_GAS.toString(),
      tx: { ...swap.tx },
    };
  }

  private token(chain: ChainConfig, q: URLSearchParams, name: string): TokenConfig {
    const v = required(q, name);
    if (!isEvmAddress(v)) throw new ParamError(`invalid ${name}: expected a token address or the native placeholder`);
    const t = this.catalog.token(chain.id, v);
    if (!t) throw new ParamError(`invalid ${name}: token not found on ${chain.id}`);
    return t;
  }

  private price(tokenIn: TokenConfig, tokenOut: TokenConfig, amountIn: bigint): { amountOut: bigint; impact: Dec; feeBps: number } {
    if (tokenIn.asset === tokenOut.asset && tokenIn.usdPrice === tokenOut.usdPrice) {
      const out = tokenOut.decimals >= tokenIn.decimals ? amountIn * pow10(tokenOut.decimals - tokenIn.decimals) : amountIn / pow10(tokenIn.decimals - tokenOut.decimals);
      return { amountOut: out, impact: new Dec(0), feeBps: 0 };
    }
    const cfg = this.catalog.config.aggregator;
    const inUsd = unitsToUsd(amountIn, tokenIn.decimals, tokenIn.usdPrice);
    const impact = Dec.min(MAX_IMPACT, inUsd.div(cfg.depthUsd));
    const outUsd = inUsd.mul(new Dec(1).sub(impact)).mul(10_000 - cfg.feeBps).div(10_000);
    return { amountOut: usdToUnits(outUsd, tokenOut.decimals, tokenOut.usdPrice), impact, feeBps: cfg.feeBps };
  }

  /** Quotes past their deadline and never executed can no longer run: drop them. */
  private prune(): void {
    const nowSec = Math.floor(this.clock.now() / 1000);
    for (const [id, s] of this.swaps) if (s.executedBy === null && s.deadline < nowSec) this.swaps.delete(id);
  }

  routerContract(chainId: string): ContractHandler {
    return {
      gas: SWAP_GAS,
      call: (ctx) => {
        this.validate(ctx, chainId);
        return '0x';
      },
      execute: (ctx) => {
        const swap = this.validate(ctx, chainId);
        if (ctx.dryRun) return;
        if (!ctx.txHash) throw new Error('aggregator invariant: execution without a transaction');
        if (!isNativeAddress(swap.tokenIn)) pullToken(ctx, swap.tokenIn, ctx.from, ctx.to, BigInt(swap.amountIn), this.catalog.config.rpc.enforceErc20Allowance);
        swap.executedBy = ctx.txHash;
        const amountOut = BigInt(swap.amountOut);
        if (isNativeAddress(swap.tokenOut)) ctx.ledger.credit(swap.receiver, amountOut);
        else ctx.ledger.creditToken(swap.tokenOut, swap.receiver, amountOut);
        const tIn = this.catalog.token(chainId, swap.tokenIn);
        const tOut = this.catalog.token(chainId, swap.tokenOut);
        if (!tIn || !tOut) throw new Error(`aggregator invariant: swap ${swap.quoteId} with unconfigured token`);
        this.points.credit({
          kind: 'swap',
          ref: ctx.txHash,
          user: ctx.from,
          at: this.clock.now(),
          srcChain: chainId,
          dstChain: chainId,
          srcUsd: this.catalog.usdValue(tIn, BigInt(swap.amountIn)),
          dstUsd: this.catalog.usdValue(tOut, amountOut),
          source: swap.source,
        });
      },
    };
  }

  private validate(ctx: ExecContext, chainId: string): SwapQuote {
    const call = decodeCall(AGGREGATOR_ROUTER_ABI, ctx.data);
    if (!call || call.name !== 'swap') throw new Revert('function selector was not recognized');
    const swap = this.swaps.get(String(call.args[0]).toLowerCase());
    if (!swap || swap.chain !== chainId) throw new Revert('unknown quote');
    if (swap.executedBy !== null) throw new Revert('quote already executed');
    if (ctx.data.toLowerCase() !== swap.tx.data.toLowerCase()) throw new Revert('calldata does not match the quote');
    if (ctx.timestamp > swap.deadline) throw new Revert('deadline passed');
    if (ctx.value !== BigInt(swap.tx.value)) throw new Revert(`wrong value: expected ${swap.tx.value} wei`);
    if (!isNativeAddress(swap.tokenIn)) pullToken({ ...ctx, dryRun: true }, swap.tokenIn, ctx.from, ctx.to, BigInt(swap.amountIn), this.catalog.config.rpc.enforceErc20Allowance);
    return swap;
  }

  exportState(): SwapQuote[] {
    return [...this.swaps.values()].map((s) => structuredClone(s));
  }

  importState(s: SwapQuote[]): void {
    this.swaps = new Map(s.map((x) => [x.quoteId, structuredClone(x)]));
  }
}

function tokenJson(t: TokenConfig) {
  return { address: t.address, symbol: t.symbol, decimals: t.decimals };
}
