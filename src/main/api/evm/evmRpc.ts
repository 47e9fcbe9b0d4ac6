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
 * never a private key (nothing here ever holds one: transactions arrive already signed). Nor do they carry
 * the URL's path or query: providers put the API key there (https://host/v3/<key>), and messages end up
 * in logs, terminals and bug reports; redactUrl keeps only scheme://host[:port].
 */
import { FetchRequest, JsonRpcProvider, Network, isError, type TransactionReceipt, type TransactionRequest } from 'ethers';
import { DEFAULT_TIMEOUT_MS, httpRequest, type FetchFn } from '../http.js';
import { NetworkError, TimeoutError } from '../errors.js';
import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';

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

export class EvmRpcError extends Error implements ClassifiedError {
  /** Structured extras for --json output and the services (e.g. tx_hash of a receipt that did not come). Never secrets. */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly code: EvmRpcErrorCode,
    readonly chain: string,
    /** The message without the chain prefix (to rebuild the error with more details). */
    readonly reason: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(`${chain}: ${reason}`, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'EvmRpcError';
    this.details = options?.details;
  }

  /** No answer, or no receipt yet, may change; a revert, a wrong chain or a short balance will not. */
  get errorKind(): ErrorKind {
    return this.code === 'RPC_UNREACHABLE' || this.code === 'RECEIPT_TIMEOUT' ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return this.code;
  }

  /** The same failure with more details (the caller knows what the transaction was for). */
  withDetails(extra: Record<string, unknown>): EvmRpcError {
    return new EvmRpcError(this.code, this.chain, this.reason, { cause: this.cause, details: { ...this.details, ...extra } });
  }
}

/**
 * `url` as it may be shown or logged: scheme://host[:port], with `/…` standing for a path, query, fragment
 * or credentials that were there. RPC providers put the API key in the path or the query, so neither is
 * ever printed; the host is enough to tell which endpoint failed.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Not parseable: nothing of it can be shown safely.
    return '(not a URL)';
  }
  const hidden = (u.pathname !== '' && u.pathname !== '/') || u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '';
  return `${u.protocol}//${u.host}${hidden ? '/…' : ''}`;
}

/** `text` with every occurrence of `url` (and of its path, query and credentials) replaced by its redacted form. */
export function scrubUrl(text: string, url: string): string {
  const redacted = redactUrl(url);
  // [form, replacement]: the whole URL becomes its redacted form; a secret part alone becomes an ellipsis.
  const forms: [string, string][] = [
    [url, redacted],
    [url.replace(/\/+$/, ''), redacted],
  ];
  try {
    const u = new URL(url);
    forms.push([u.href, redacted]);
    const rest = u.pathname + u.search + u.hash;
    if (rest.length > 1) forms.push([rest, '/…']);
    if (u.search.length > 1) forms.push([u.search, '?…']);
    // Bare credentials only when long enough not to match ordinary words of the message.
    if (u.username.length >= 6) forms.push([u.username, '…']);
    if (u.password.length >= 6) forms.push([u.password, '…']);
  } catch {
    // An unparseable URL: only its literal forms are replaced.
  }
  let out = text;
  // Longest first, so a whole URL is replaced before its own path is.
  for (const [form, replacement] of forms.filter(([f]) => f.length > 1).sort((a, b) => b[0].length - a[0].length)) out = out.split(form).join(replacement);
  return out;
}

/** How long a sent transaction's receipt is waited for by default. */
export const DEFAULT_RECEIPT_TIMEOUT_MS = 300_000;

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
  private destroyed = false;

  private constructor(
    readonly chain: string,
    readonly url: string,
    readonly chainId: bigint,
    private readonly provider: JsonRpcProvider,
    private readonly pollingIntervalMs: number,
  ) {}

  /** Reads the endpoint's chain id, checks it, and returns a client pinned to it. */
  static async open(options: EvmRpcOptions): Promise<EvmRpcClient> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const chainId = await readChainId(options.chain, options.url, timeoutMs, options.fetch ?? fetch);
    if (options.expectedChainId !== undefined && chainId !== options.expectedChainId) {
      throw new EvmRpcError(
        'WRONG_CHAIN',
        options.chain,
        `the RPC endpoint ${redactUrl(options.url)} serves chain id ${chainId}, not ${options.expectedChainId}: it is set for the wrong chain`,
      );
    }
    const request = new FetchRequest(options.url);
    request.timeout = timeoutMs;
    const network = Network.from(chainId);
    const pollingIntervalMs = options.pollingIntervalMs ?? 1_000;
    // cacheTimeout -1: a read right after a send must see the new state (nonce, allowance), not a cached one.
    const provider = new JsonRpcProvider(request, network, {
      staticNetwork: network,
      cacheTimeout: -1,
      pollingInterval: pollingIntervalMs,
    });
    return new EvmRpcClient(options.chain, options.url, chainId, provider, pollingIntervalMs);
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

  /**
   * Waits for the receipt (one confirmation by default), polling eth_getTransactionReceipt. A failed read
   * during the wait is retried until the deadline, since the transaction is already sent and the node may
   * come back; the last such failure is named if the wait runs out. Running out is RECEIPT_TIMEOUT with
   * the hash in the message and in `details.tx_hash`, so whoever reports it can say what to track.
   * (ethers' own waitForTransaction prints read failures to stdout and can leave a rejection unhandled.)
   */
  async waitForReceipt(hash: string, options: { confirmations?: number; timeoutMs?: number } = {}): Promise<ReceiptSummary> {
    const confirmations = options.confirmations ?? 1;
    const timeoutMs = options.timeoutMs ?? DEFAULT_RECEIPT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    let lastFailure: EvmRpcError | null = null;
    for (;;) {
      // A client closed under the wait (the command or the app is finishing) stops it instead of polling on.
      if (this.destroyed) throw new EvmRpcError('RPC_ERROR', this.chain, `stopped waiting for the receipt of ${hash}: the RPC client was closed`, { details: { tx_hash: hash } });
      try {
        const receipt: TransactionReceipt | null = await this.provider.getTransactionReceipt(hash);
        lastFailure = null;
        if (receipt !== null && (confirmations <= 1 || (await receipt.confirmations()) >= confirmations)) {
          return {
            hash: receipt.hash,
            status: receipt.status === 1 ? 'success' : 'reverted',
            blockNumber: receipt.blockNumber,
            gasUsed: receipt.gasUsed,
            effectiveGasPrice: receipt.gasPrice,
          };
        }
      } catch (err) {
        lastFailure = toEvmRpcError(this.chain, 'reading the receipt', err, this.url);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new EvmRpcError(
          'RECEIPT_TIMEOUT',
          this.chain,
          `no receipt for the transaction ${hash} within ${formatSeconds(timeoutMs)}${lastFailure ? ` (last read failed: ${lastFailure.reason})` : ''}; it was sent and may still be mined`,
          { details: { tx_hash: hash }, ...(lastFailure ? { cause: lastFailure } : {}) },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollingIntervalMs, left)));
    }
  }

  /** Stops the provider's timers so a finished command can exit. */
  destroy(): void {
    this.destroyed = true;
    this.provider.destroy();
  }

  private async wrap<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw toEvmRpcError(this.chain, what, err, this.url);
    }
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Maps ethers' error codes to EvmRpcError; anything unrecognised stays an RPC_ERROR with its cause. A
 * TIMEOUT here is a request the endpoint did not answer in time (RPC_UNREACHABLE): RECEIPT_TIMEOUT is only
 * ever raised by waitForReceipt, which knows the transaction was sent. With `url`, any trace of it in
 * ethers' message is redacted.
 */
export function toEvmRpcError(chain: string, what: string, err: unknown, url?: string): EvmRpcError {
  if (err instanceof EvmRpcError) return err;
  const raw = typeof err === 'object' && err !== null && 'shortMessage' in err && typeof err.shortMessage === 'string' ? err.shortMessage : err instanceof Error ? err.message : String(err);
  const short = url === undefined ? raw : scrubUrl(raw, url);
  const reason = isError(err, 'CALL_EXCEPTION') && err.reason ? `: ${err.reason}` : '';
  const opts = { cause: err };
  if (isError(err, 'CALL_EXCEPTION')) return new EvmRpcError('REVERTED', chain, `${what}: the transaction would revert${reason} (${short})`, opts);
  if (isError(err, 'INSUFFICIENT_FUNDS')) return new EvmRpcError('INSUFFICIENT_FUNDS', chain, `${what}: insufficient funds for value plus gas (${short})`, opts);
  if (isError(err, 'NONCE_EXPIRED') || isError(err, 'REPLACEMENT_UNDERPRICED') || isError(err, 'TRANSACTION_REPLACED')) {
    return new EvmRpcError('NONCE_CONFLICT', chain, `${what}: ${short}`, opts);
  }
  if (isError(err, 'TIMEOUT')) return new EvmRpcError('RPC_UNREACHABLE', chain, `${what}: the RPC endpoint did not answer in time (${short})`, opts);
  if (isError(err, 'NETWORK_ERROR') || isError(err, 'SERVER_ERROR')) return new EvmRpcError('RPC_UNREACHABLE', chain, `${what}: ${short}`, opts);
  return new EvmRpcError('RPC_ERROR', chain, `${what}: ${short}`, opts);
}

async function readChainId(chain: string, url: string, timeoutMs: number, fetchFn: FetchFn): Promise<bigint> {
  const shown = redactUrl(url);
  let res;
  try {
    res = await httpRequest(fetchFn, { method: 'POST', url, timeoutMs, readOnly: true, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
  } catch (err) {
    if (err instanceof NetworkError || err instanceof TimeoutError) {
      // The transport's message names the full URL: it is rebuilt without it, and the error is not kept as
      // the cause, since a cause gets printed by whoever inspects it and would carry the key along.
      const prefix = `${err.method} ${err.url}: `;
      const detail = err instanceof TimeoutError ? `no answer within ${err.timeoutMs} ms` : scrubUrl(err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message, url);
      throw new EvmRpcError('RPC_UNREACHABLE', chain, `the RPC endpoint ${shown} did not answer eth_chainId (${detail})`);
    }
    throw err;
  }
  const body = res.body as { result?: unknown } | undefined;
  const result = typeof body === 'object' && body !== null ? body.result : undefined;
  if (res.status !== 200 || typeof result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(result)) {
    throw new EvmRpcError('RPC_UNREACHABLE', chain, `the RPC endpoint ${shown} is not an EVM JSON-RPC node (eth_chainId answered HTTP ${res.status})`);
  }
  return BigInt(result);
}
