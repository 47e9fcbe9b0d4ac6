/**
 * One EVM chain's JSON-RPC endpoint (the URL the user set for that chain), through ethers'
 * JsonRpcProvider: chain id, balances, nonce, fee data, gas estimation, eth_call, broadcast and receipts.
 *
 * The chain id is read once with a plain eth_chainId before the provider exists, then pinned as the
 * provider's static network. That way a wrong URL fails fast with a typed error instead of ethers'
 * background detection loop (which retries forever and prints to stdout), and a URL that points at
 * another chain than the one named is refused before anything is signed for it.
 *
 * Failures are EvmRpcError with a code the services switch on. Messages carry ethers' short message and
 * never a private key (nothing here ever holds one: transactions arrive already signed).
 */
import { FetchRequest, JsonRpcProvider, Network, isError, type TransactionReceipt, type TransactionRequest } from 'ethers';
import { DEFAULT_TIMEOUT_MS, httpRequest, type FetchFn } from '../http.js';
import { NetworkError, TimeoutError } from '../errors.js';

export type EvmRpcErrorCode =
  /** No usable answer from the endpoint (refused, DNS, timeout, not JSON-RPC). */
  | 'RPC_UNREACHABLE'
  /** The endpoint serves another chain than the one it was set for. */
  | 'WRONG_CHAIN'
  /** The call or transaction would revert (estimateGas / eth_call), or the mined transaction failed. */
  | 'REVERTED'
  /** The sender cannot pay value plus gas. */
  | 'INSUFFICIENT_FUNDS'
  /** The nonce was used already or the transaction is known (a resend). */
  | 'NONCE_CONFLICT'
  /** No receipt within the wait. */
  | 'RECEIPT_TIMEOUT'
  /** Any other JSON-RPC error. */
  | 'RPC_ERROR';

export class EvmRpcError extends Error {
  constructor(
    readonly code: EvmRpcErrorCode,
    readonly chain: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${chain}: ${message}`, options);
    this.name = 'EvmRpcError';
  }
}

export interface EvmRpcOptions {
  /** The chain's id in the spec's vocabulary (arbitrum, venue_evm, ...): for messages. */
  chain: string;
  url: string;
  /** When given, the endpoint must report this EIP-155 chain id. */
  expectedChainId?: bigint;
  /** Per request, default 10 s. */
  timeoutMs?: number;
  /** How often a receipt is polled for; default 1 s. */
  pollingIntervalMs?: number;
  /** For the initial eth_chainId only (tests count requests); the provider uses its own fetch. */
  fetch?: FetchFn;
}

export interface ReceiptSummary {
  hash: string;
  status: 'success' | 'reverted';
  blockNumber: number;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
}

export interface FeeData {
  /** EIP-1559 fields when the chain reports a base fee; else gasPrice only. */
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  gasPrice: bigint | null;
}

export class EvmRpcClient {
  private constructor(
    readonly chain: string,
    readonly url: string,
    readonly chainId: bigint,
    private readonly provider: JsonRpcProvider,
  ) {}

  /** Reads the endpoint's chain id, checks it, and returns a client pinned to it. */
  static async open(options: EvmRpcOptions): Promise<EvmRpcClient> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const chainId = await readChainId(options.chain, options.url, timeoutMs, options.fetch ?? fetch);
    if (options.expectedChainId !== undefined && chainId !== options.expectedChainId) {
      throw new EvmRpcError(
        'WRONG_CHAIN',
        options.chain,
        `the RPC endpoint ${options.url} serves chain id ${chainId}, not ${options.expectedChainId}: it is set for the wrong chain`,
      );
    }
    const request = new FetchRequest(options.url);
    request.timeout = timeoutMs;
    const network = Network.from(chainId);
    // cacheTimeout -1: a read right after a send must see the new state (nonce, allowance), not a cached one.
    const provider = new JsonRpcProvider(request, network, {
      staticNetwork: network,
      cacheTimeout: -1,
      pollingInterval: options.pollingIntervalMs ?? 1_000,
    });
    return new EvmRpcClient(options.chain, options.url, chainId, provider);
  }

  balance(address: string): Promise<bigint> {
    return this.wrap('reading the balance', () => this.provider.getBalance(address));
  }

  /** The next nonce, counting transactions still pending. */
  nonce(address: string): Promise<number> {
    return this.wrap('reading the nonce', () => this.provider.getTransactionCount(address, 'pending'));
  }

  feeData(): Promise<FeeData> {
    return this.wrap('reading fee data', async () => {
      const f = await this.provider.getFeeData();
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas, gasPrice: f.gasPrice };
    });
  }

  /** The provider's gas estimate; a transaction that would revert is REVERTED with the node's reason. */
  estimateGas(tx: TransactionRequest): Promise<bigint> {
    return this.wrap('estimating gas', () => this.provider.estimateGas(tx));
  }

  call(tx: TransactionRequest): Promise<string> {
    return this.wrap('eth_call', () => this.provider.call(tx));
  }

  /** Sends a signed transaction; returns its hash. */
  broadcast(signedTx: string): Promise<string> {
    return this.wrap('sending the transaction', async () => (await this.provider.broadcastTransaction(signedTx)).hash);
  }

  /** Waits for the receipt (one confirmation by default). */
  async waitForReceipt(hash: string, options: { confirmations?: number; timeoutMs?: number } = {}): Promise<ReceiptSummary> {
    const receipt: TransactionReceipt | null = await this.wrap('waiting for the receipt', () =>
      this.provider.waitForTransaction(hash, options.confirmations ?? 1, options.timeoutMs ?? 300_000),
    );
    if (receipt === null) throw new EvmRpcError('RECEIPT_TIMEOUT', this.chain, `no receipt for ${hash} yet`);
    return {
      hash: receipt.hash,
      status: receipt.status === 1 ? 'success' : 'reverted',
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.gasPrice,
    };
  }

  /** Stops the provider's timers so a finished command can exit. */
  destroy(): void {
    this.provider.destroy();
  }

  private async wrap<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw toEvmRpcError(this.chain, what, err);
    }
  }
}

/** Maps ethers' error codes to EvmRpcError; anything unrecognised stays an RPC_ERROR with its cause. */
export function toEvmRpcError(chain: string, what: string, err: unknown): EvmRpcError {
  if (err instanceof EvmRpcError) return err;
  const short = typeof err === 'object' && err !== null && 'shortMessage' in err && typeof err.shortMessage === 'string' ? err.shortMessage : err instanceof Error ? err.message : String(err);
  const reason = isError(err, 'CALL_EXCEPTION') && err.reason ? `: ${err.reason}` : '';
  const opts = { cause: err };
  if (isError(err, 'CALL_EXCEPTION')) return new EvmRpcError('REVERTED', chain, `${what}: the transaction would revert${reason} (${short})`, opts);
  if (isError(err, 'INSUFFICIENT_FUNDS')) return new EvmRpcError('INSUFFICIENT_FUNDS', chain, `${what}: insufficient funds for value plus gas (${short})`, opts);
  if (isError(err, 'NONCE_EXPIRED') || isError(err, 'REPLACEMENT_UNDERPRICED') || isError(err, 'TRANSACTION_REPLACED')) {
    return new EvmRpcError('NONCE_CONFLICT', chain, `${what}: ${short}`, opts);
  }
  if (isError(err, 'TIMEOUT')) return new EvmRpcError('RECEIPT_TIMEOUT', chain, `${what}: timed out (${short})`, opts);
  if (isError(err, 'NETWORK_ERROR') || isError(err, 'SERVER_ERROR')) return new EvmRpcError('RPC_UNREACHABLE', chain, `${what}: ${short}`, opts);
  return new EvmRpcError('RPC_ERROR', chain, `${what}: ${short}`, opts);
}

async function readChainId(chain: string, url: string, timeoutMs: number, fetchFn: FetchFn): Promise<bigint> {
  let res;
  try {
    res = await httpRequest(fetchFn, { method: 'POST', url, timeoutMs, readOnly: true, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
  } catch (err) {
    if (err instanceof NetworkError || err instanceof TimeoutError) {
      throw new EvmRpcError('RPC_UNREACHABLE', chain, `the RPC endpoint ${url} did not answer eth_chainId (${err.message})`, { cause: err });
    }
    throw err;
  }
  const body = res.body as { result?: unknown } | undefined;
  const result = typeof body === 'object' && body !== null ? body.result : undefined;
  if (res.status !== 200 || typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) {
    throw new EvmRpcError('RPC_UNREACHABLE', chain, `the RPC endpoint ${url} is not an EVM JSON-RPC node (eth_chainId answered HTTP ${res.status})`);
  }
  return BigInt(result);
}
