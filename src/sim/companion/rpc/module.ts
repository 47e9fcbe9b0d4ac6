/**
 * A minimal EVM JSON-RPC endpoint per chain, mounted so that `/<chain>` (e.g. `/arbitrum`) is one node.
 * It carries what ethers v6 JsonRpcProvider and Wallet.sendTransaction need, plus reads for balances,
 * transactions and receipts. Requests may be single or batched (ethers batches by default).
 *
 * Errors use the JSON-RPC 2.0 shape `{ jsonrpc, id, error: { code, message, data? } }` with HTTP 200, as nodes
 * do: -32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params,
 * -32000 transaction / state errors with geth's wording (ethers maps those texts to its error codes),
 * 3 for reverts (with Error(string) data).
 *
 * Sim choices: state is not versioned by block, so a block tag other than latest/pending reads the current
 * state; there are no logs, filters or subscriptions.
 */
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import type { SimClock } from '../../runtime/clock.js';
import type { Catalog } from '../common/catalog.js';
import { hexQuantity } from '../common/amounts.js';
import { isEvmAddress } from '../common/evm.js';
import { EvmChainLedger, RpcError, type CallRequest, type LedgerState } from './ledger.js';
import { erc20Contract } from './erc20.js';

type JsonRpcId = string | number | null;

interface JsonRpcReply {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

const NOT_FOUND_CHAIN = -32601;

export class RpcService {
  private readonly ledgers = new Map<string, EvmChainLedger>();

  constructor(
    private readonly catalog: Catalog,
    clock: SimClock,
  ) {
    for (const chain of catalog.evmChains()) {
      const ledger = new EvmChainLedger(chain, clock);
      for (const t of catalog.tokensOn(chain.id)) if (t.kind !== 'native') ledger.registerContract(t.address, erc20Contract(t));
      this.ledgers.set(chain.id, ledger);
    }
    this.applyConfiguredBalances();
  }

  private applyConfiguredBalances(): void {
    for (const b of this.catalog.config.rpc.balances) this.fund(b.chain, b.address, BigInt(b.amount), b.token);
  }

  ledger(chain: string): EvmChainLedger | undefined {
    return this.ledgers.get(chain);
  }

  /** Faucet: adds native balance, or an ERC-20 balance when `token` is given (it must be a configured token). */
  fund(chain: string, address: string, amount: bigint, token?: string): bigint {
    const ledger = this.ledgers.get(chain);
    if (!ledger) throw new Error(`no EVM chain ${chain}`);
    if (token === undefined) {
      ledger.credit(address, amount);
      return ledger.balance(address);
    }
    const t = this.catalog.token(chain, token);
    if (!t || t.kind === 'native') throw new Error(`no ERC-20 ${token} on ${chain}`);
    ledger.creditToken(t.address, address, amount);
    return ledger.tokenBalance(t.address, address);
  }

  exportState(): Record<string, LedgerState> {
    return Object.fromEntries([...this.ledgers].map(([id, l]) => [id, l.exportState()]));
  }

  importState(s: Record<string, LedgerState>): void {
    for (const [id, ledger] of this.ledgers) {
      const st = s[id];
      if (!st) throw new Error(`snapshot has no state for chain ${id}`);
      ledger.importState(st);
    }
  }
}

export function createRpcModule(service: RpcService): RouteModule {
  return {
    handle(req: SimRequest): SimResponse | null {
      const chain = req.path.replace(/^\/+|\/+$/g, '');
      if (chain.includes('/')) return null;
      const ledger = service.ledger(chain);
      if (!ledger) return { status: 404, body: errorReply(null, NOT_FOUND_CHAIN, `chain not found: ${chain}`) };
      if (req.method !== 'POST') return { status: 405, body: errorReply(null, -32600, 'invalid request: JSON-RPC needs POST') };
      if (req.bodyError) return { status: 200, body: errorReply(null, -32700, `parse error: ${req.bodyError}`) };
      const body = req.body;
      if (Array.isArray(body)) {
        if (body.length === 0) return { status: 200, body: errorReply(null, -32600, 'invalid request: empty batch') };
        return { status: 200, body: body.map((item) => dispatch(ledger, item)) };
      }
      return { status: 200, body: dispatch(ledger, body) };
    },
  };
}

function errorReply(id: JsonRpcId, code: number, message: string, data?: string): JsonRpcReply {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function dispatch(ledger: EvmChainLedger, item: unknown): JsonRpcReply {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return errorReply(null, -32600, 'invalid request');
  const o = item as Record<string, unknown>;
  const id: JsonRpcId = typeof o.id === 'string' || typeof o.id === 'number' ? o.id : null;
  if (o.jsonrpc !== '2.0' || typeof o.method !== 'string') return errorReply(id, -32600, 'invalid request');
  const params = o.params === undefined ? [] : o.params;
  if (!Array.isArray(params)) return errorReply(id, -32602, 'invalid params: expected an array');
  try {
    return { jsonrpc: '2.0', id, result: run(ledger, o.method, params) };
  } catch (err) {
    if (err instanceof RpcError) return errorReply(id, err.code, err.message, err.data);
    throw err;
  }
}

function run(l: EvmChainLedger, method: string, p: unknown[]): unknown {
  switch (method) {
    case 'eth_chainId':
      return hexQuantity(l.chainId);
    case 'net_version':
      return l.chainId.toString();
    case 'web3_clientVersion':
      return 'perps-desk-sim/companion';
    case 'eth_blockNumber':
      return hexQuantity(l.head());
    case 'eth_gasPrice':
      return hexQuantity(l.baseFee + l.priorityFee);
    case 'eth_maxPriorityFeePerGas':
      return hexQuantity(l.priorityFee);
    case 'eth_getBalance':
      blockTag(l, p[1]);
      return hexQuantity(l.balance(address(p[0], 'address')));
    case 'eth_getTransactionCount':
      blockTag(l, p[1]);
      return hexQuantity(l.nonce(address(p[0], 'address')));
    case 'eth_getCode':
      blockTag(l, p[1]);
      // A stand-in bytecode so wallets see the routers and tokens as contracts.
      return l.isContract(address(p[0], 'address')) ? '0x6080604052348015600f57600080fd5b50' : '0x';
    case 'eth_getBlockByNumber': {
      const n = blockTag(l, p[0]);
      const b = l.block(n);
      return b ? l.blockJson(b, bool(p[1], 'full transactions flag')) : null;
    }
    case 'eth_getBlockByHash': {
      const b = l.blockByHash(hash(p[0]));
      return b ? l.blockJson(b, bool(p[1], 'full transactions flag')) : null;
    }
    case 'eth_feeHistory':
      return feeHistory(l, p);
    case 'eth_estimateGas':
      return hexQuantity(l.estimateGas(callRequest(p[0])));
    case 'eth_call':
      blockTag(l, p[1]);
      return l.call(callRequest(p[0]));
    case 'eth_sendRawTransaction': {
      const raw = p[0];
      if (typeof raw !== 'string' || !/^0x([0-9a-fA-F]{2})+$/.test(raw)) throw new RpcError(-32602, 'invalid params: raw transaction must be hex data');
      return l.sendRaw(raw);
    }
    case 'eth_getTransactionByHash':
      return l.txJson(hash(p[0]));
    case 'eth_getTransactionReceipt':
      return l.receiptJson(hash(p[0]));
    default:
      throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
  }
}

function address(v: unknown, what: string): string {
  if (typeof v !== 'string' || !isEvmAddress(v)) throw new RpcError(-32602, `invalid params: ${what} must be an address`);
  return v;
}

function hash(v: unknown): string {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(v)) throw new RpcError(-32602, 'invalid params: expected a 32-byte hash');
  return v;
}

function bool(v: unknown, what: string): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new RpcError(-32602, `invalid params: ${what} must be a boolean`);
  return v;
}

function quantity(v: unknown, what: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(v)) throw new RpcError(-32602, `invalid params: ${what} must be a hex quantity`);
  return BigInt(v);
}

/** Resolves a block tag or number; an omitted tag means latest. */
function blockTag(l: EvmChainLedger, v: unknown): number {
  if (v === undefined || v === 'latest' || v === 'pending' || v === 'safe' || v === 'finalized') return l.head();
  if (v === 'earliest') return 0;
  if (typeof v === 'object' && v !== null && 'blockNumber' in v) return blockTag(l, (v as { blockNumber: unknown }).blockNumber);
  const n = quantity(v, 'block');
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RpcError(-32602, 'invalid params: block number too large');
  return Number(n);
}

function callRequest(v: unknown): CallRequest {
  if (typeof v !== 'object' || v === null) throw new RpcError(-32602, 'invalid params: expected a call object');
  const o = v as Record<string, unknown>;
  const data = o.data ?? o.input ?? '0x';
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new RpcError(-32602, 'invalid params: data must be hex');
  const req: CallRequest = { data };
  if (o.from !== undefined && o.from !== null) req.from = address(o.from, 'from');
  if (o.to !== undefined && o.to !== null) req.to = address(o.to, 'to');
  if (o.value !== undefined && o.value !== null) req.value = quantity(o.value, 'value');
  return req;
}

function feeHistory(l: EvmChainLedger, p: unknown[]): unknown {
  const count = Number(quantity(p[0], 'block count'));
  if (count < 1 || count > 1024) throw new RpcError(-32602, 'invalid params: block count must be 1..1024');
  const newest = blockTag(l, p[1]);
  const percentiles = p[2] ?? [];
  if (!Array.isArray(percentiles) || percentiles.some((x) => typeof x !== 'number' || x < 0 || x > 100)) throw new RpcError(-32602, 'invalid params: reward percentiles must be numbers 0..100');
  const n = Math.min(count, newest + 1);
  const oldest = newest - n + 1;
  const ratios: number[] = [];
  for (let b = oldest; b <= newest; b++) ratios.push(Number(l.block(b)?.gasUsed ?? '0') / 30_000_000);
  return {
    oldestBlock: hexQuantity(oldest),
    baseFeePerGas: Array.from({ length: n + 1 }, () => hexQuantity(l.baseFee)),
    gasUsedRatio: ratios,
    ...(percentiles.length > 0 ? { reward: Array.from({ length: n }, () => percentiles.map(() => hexQuantity(l.priorityFee))) } : {}),
  };
}
