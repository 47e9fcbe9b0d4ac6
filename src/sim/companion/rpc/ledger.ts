/**
 * State of one simulated EVM chain: native and ERC-20 balances, nonces, mined transactions and blocks,
 * and the contracts the simulator stands in for (bridge router, aggregator router, configured ERC-20s).
 *
 * Sim choices (the spec says nothing about the chains themselves):
 * - Automine: every accepted transaction is mined at once in its own block, so a receipt exists as soon
 *   as eth_sendRawTransaction answers. Between transactions the head still advances with SimClock time at
 *   the chain's block time (empty blocks), so confirmations grow as time passes.
 * - No mempool: a nonce above the account's next nonce is refused ("nonce too high") instead of queued.
 * - Constant base fee per chain; effective gas price follows EIP-1559 (min(maxFee, baseFee + tip)).
 * - Contract creation and blob / set-code transactions are not supported.
 */
import { Transaction, keccak256, toUtf8Bytes, AbiCoder, getAddress } from 'ethers';
import type { SimClock } from '../../runtime/clock.js';
import type { ChainConfig } from '../config.js';
import { hexQuantity } from '../common/amounts.js';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}

/** A contract call that reverts; becomes JSON-RPC error 3 on eth_call / eth_estimateGas and status 0 when mined. */
export class Revert extends Error {}

export interface ExecContext {
  readonly ledger: EvmChainLedger;
  /** Hash of the transaction being mined; null on eth_call and eth_estimateGas. */
  readonly txHash: string | null;
  /** Lowercase sender. */
  readonly from: string;
  /** Lowercase contract address. */
  readonly to: string;
  readonly value: bigint;
  readonly data: string;
  /** Unix seconds of the block the call executes in. */
  readonly timestamp: number;
  /** When true the handler only validates (eth_estimateGas, pre-checks); it mutates state only when false. */
  readonly dryRun: boolean;
}

export interface ContractHandler {
  /** Execution gas on top of the intrinsic cost. */
  readonly gas: bigint;
  /** eth_call: returns the ABI-encoded result or throws Revert. */
  call(ctx: ExecContext): string;
  /** Validates (throwing Revert) and, unless dryRun, applies the call. Must validate everything before mutating. */
  execute(ctx: ExecContext): void;
}

export interface TxRecord {
  raw: string;
  hash: string;
  from: string;
  blockNumber: number;
  status: 0 | 1;
  gasUsed: string;
  effectiveGasPrice: string;
  revertReason: string | null;
}

export interface BlockRecord {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txs: string[];
  gasUsed: string;
}

export interface LedgerState {
  genesisMs: number;
  lastMined: number;
  balances: Record<string, string>;
  tokenBalances: Record<string, string>;
  allowances: Record<string, string>;
  nonces: Record<string, number>;
  txs: TxRecord[];
  blocks: BlockRecord[];
}

export interface CallRequest {
  from?: string;
  to?: string;
  value?: bigint;
  data: string;
}

const BLOCK_GAS_LIMIT = 30_000_000n;
const ZERO_HASH = '0x' + '0'.repeat(64);
const EMPTY_BLOOM = '0x' + '0'.repeat(512);

export function intrinsicGas(data: string): bigint {
  let gas = 21_000n;
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
}

/** ABI encoding of Error(string), the data nodes return with a revert reason. */
export function revertData(reason: string): string {
  return '0x08c379a0' + AbiCoder.defaultAbiCoder().encode(['string'], [reason]).slice(2);
}

export class EvmChainLedger {
  readonly chainId: bigint;
  readonly baseFee: bigint;
  readonly priorityFee: bigint;
  private readonly contracts = new Map<string, ContractHandler>();
  private genesisMs: number;
  private lastMined: number;
  private balances = new Map<string, bigint>();
  private tokenBalances = new Map<string, bigint>();
  private allowances = new Map<string, bigint>();
  private nonces = new Map<string, number>();
  private txs = new Map<string, TxRecord>();
  private blocks = new Map<number, BlockRecord>();

  constructor(
    readonly chain: ChainConfig,
    private readonly clock: SimClock,
  ) {
    if (chain.evmChainId === null) throw new Error(`chain ${chain.id} is not an EVM chain`);
    this.chainId = BigInt(chain.evmChainId);
    this.baseFee = BigInt(chain.baseFeeWei);
    this.priorityFee = BigInt(chain.priorityFeeWei);
    this.genesisMs = clock.now();
    this.lastMined = chain.startBlock;
  }

  registerContract(address: string, handler: ContractHandler): void {
    this.contracts.set(address.toLowerCase(), handler);
  }

  isContract(address: string): boolean {
    return this.contracts.has(address.toLowerCase());
  }

  // ---- balances ----

  balance(address: string): bigint {
    return this.balances.get(address.toLowerCase()) ?? 0n;
  }

  credit(address: string, amount: bigint): void {
    const k = address.toLowerCase();
    this.balances.set(k, (this.balances.get(k) ?? 0n) + amount);
  }

  private debit(address: string, amount: bigint): void {
    const k = address.toLowerCase();
    const have = this.balances.get(k) ?? 0n;
    if (have < amount) throw new Error(`ledger invariant: debit of ${amount} from ${k} with ${have}`);
    this.balances.set(k, have - amount);
  }

  tokenBalance(token: string, owner: string): bigint {
    return this.tokenBalances.get(`${token.toLowerCase()}:${owner.toLowerCase()}`) ?? 0n;
  }

  creditToken(token: string, owner: string, amount: bigint): void {
    const k = `${token.toLowerCase()}:${owner.toLowerCase()}`;
    this.tokenBalances.set(k, (this.tokenBalances.get(k) ?? 0n) + amount);
  }

  /** Moves tokens; the caller has checked the balance (handlers validate before mutating). */
  transferToken(token: string, from: string, to: string, amount: bigint): void {
    const have = this.tokenBalance(token, from);
    if (have < amount) throw new Error(`ledger invariant: token transfer of ${amount} from ${from} with ${have}`);
    this.tokenBalances.set(`${token.toLowerCase()}:${from.toLowerCase()}`, have - amount);
    this.creditToken(token, to, amount);
  }

  allowance(token: string, owner: string, spender: string): bigint {
    return this.allowances.get(`${token.toLowerCase()}:${owner.toLowerCase()}:${spender.toLowerCase()}`) ?? 0n;
  }

  setAllowance(token: string, owner: string, spender: string, amount: bigint): void {
    this.allowances.set(`${token.toLowerCase()}:${owner.toLowerCase()}:${spender.toLowerCase()}`, amount);
  }

  nonce(address: string): number {
    return this.nonces.get(address.toLowerCase()) ?? 0;
  }

  // ---- blocks ----

  /** Latest block: the last mined one, or later if SimClock time has produced empty blocks since. */
  head(): number {
    const byTime = this.chain.startBlock + Math.floor((this.clock.now() - this.genesisMs) / this.chain.blockTimeMs);
    return Math.max(this.lastMined, byTime);
  }

  block(n: number): BlockRecord | null {
    if (n < 0 || n > this.head()) return null;
    const mined = this.blocks.get(n);
    if (mined) return mined;
    return { number: n, hash: this.blockHash(n), parentHash: n === 0 ? ZERO_HASH : this.blockHash(n - 1), timestamp: this.blockTimestamp(n), txs: [], gasUsed: '0' };
  }

  blockByHash(hash: string): BlockRecord | null {
    const h = hash.toLowerCase();
    for (const b of this.blocks.values()) if (b.hash === h) return b;
    // Empty blocks are derived, not stored: only recent ones are worth scanning for.
    const head = this.head();
    for (let n = head; n >= Math.max(0, head - 256); n--) if (this.blockHash(n) === h) return this.block(n);
    return null;
  }

  private blockHash(n: number): string {
    return this.blocks.get(n)?.hash ?? keccak256(toUtf8Bytes(`sim-block:${this.chain.id}:${n}`));
  }

  private blockTimestamp(n: number): number {
    const mined = this.blocks.get(n);
    if (mined) return mined.timestamp;
    const byTime = Math.floor((this.genesisMs + (n - this.chain.startBlock) * this.chain.blockTimeMs) / 1000);
    // An empty block after a mined one never goes back in time.
    const prev = this.blocks.get(this.lastMined);
    return n > this.lastMined && prev ? Math.max(byTime, prev.timestamp) : byTime;
  }

  blockJson(b: BlockRecord, fullTxs: boolean): Record<string, unknown> {
    return {
      number: hexQuantity(b.number),
      hash: b.hash,
      parentHash: b.parentHash,
      nonce: '0x0000000000000000',
      sha3Uncles: keccak256('0xc0'),
      logsBloom: EMPTY_BLOOM,
      transactionsRoot: keccak256(toUtf8Bytes(`txroot:${b.hash}`)),
      stateRoot: keccak256(toUtf8Bytes(`stateroot:${b.hash}`)),
      receiptsRoot: keccak256(toUtf8Bytes(`receiptroot:${b.hash}`)),
      miner: '0x0000000000000000000000000000000000000000',
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: '0x220',
      gasLimit: hexQuantity(BLOCK_GAS_LIMIT),
      gasUsed: hexQuantity(BigInt(b.gasUsed)),
      timestamp: hexQuantity(b.timestamp),
      baseFeePerGas: hexQuantity(this.baseFee),
      mixHash: ZERO_HASH,
      uncles: [],
      transactions: fullTxs ? b.txs.map((h) => this.txJson(h)) : b.txs,
    };
  }

  // ---- transactions ----

  tx(hash: string): TxRecord | undefined {
    return this.txs.get(hash.toLowerCase());
  }

  txJson(hash: string): Record<string, unknown> | null {
    const rec = this.tx(hash);
    if (!rec) return null;
    const tx = Transaction.from(rec.raw);
    const block = this.block(rec.blockNumber);
    const sig = tx.signature;
    if (!sig || !block) throw new Error(`ledger invariant: stored tx ${rec.hash} without signature or block`);
    const out: Record<string, unknown> = {
      hash: rec.hash,
      type: hexQuantity(tx.type ?? 0),
      chainId: hexQuantity(tx.chainId),
      nonce: hexQuantity(tx.nonce),
      blockHash: block.hash,
      blockNumber: hexQuantity(rec.blockNumber),
      transactionIndex: hexQuantity(block.txs.indexOf(rec.hash)),
      from: getAddress(rec.from),
      to: tx.to,
      value: hexQuantity(tx.value),
      gas: hexQuantity(tx.gasLimit),
      // Mined transactions report the price actually paid.
      gasPrice: hexQuantity(BigInt(rec.effectiveGasPrice)),
      input: tx.data,
      r: sig.r,
      s: sig.s,
      v: hexQuantity(tx.type === 0 ? sig.networkV ?? BigInt(sig.v) : BigInt(sig.yParity)),
    };
    if (tx.type !== 0) {
      out.yParity = hexQuantity(sig.yParity);
      out.accessList = tx.accessList ?? [];
    }
    if (tx.type === 2) {
      out.maxFeePerGas = hexQuantity(tx.maxFeePerGas ?? 0n);
      out.maxPriorityFeePerGas = hexQuantity(tx.maxPriorityFeePerGas ?? 0n);
    }
    return out;
  }

  receiptJson(hash: string): Record<string, unknown> | null {
    const rec = this.tx(hash);
    if (!rec) return null;
    const tx = Transaction.from(rec.raw);
    const block = this.block(rec.blockNumber);
    if (!block) throw new Error(`ledger invariant: stored tx ${rec.hash} without block`);
    return {
      transactionHash: rec.hash,
      transactionIndex: hexQuantity(block.txs.indexOf(rec.hash)),
      blockHash: block.hash,
      blockNumber: hexQuantity(rec.blockNumber),
      from: getAddress(rec.from),
      to: tx.to,
      cumulativeGasUsed: hexQuantity(BigInt(block.gasUsed)),
      gasUsed: hexQuantity(BigInt(rec.gasUsed)),
      effectiveGasPrice: hexQuantity(BigInt(rec.effectiveGasPrice)),
      contractAddress: null,
      // The simulated contracts emit no events; clients track bridge orders through the bridge API.
      logs: [],
      logsBloom: EMPTY_BLOOM,
      status: hexQuantity(rec.status),
      type: hexQuantity(tx.type ?? 0),
    };
  }

  /** eth_sendRawTransaction: validates like a node's txpool would, then mines the transaction. */
  sendRaw(raw: string): string {
    let tx: Transaction;
    try {
      tx = Transaction.from(raw);
    } catch (err) {
      throw new RpcError(-32000, `rlp: invalid transaction: ${(err as Error).message}`);
    }
    if (!tx.signature || !tx.from) throw new RpcError(-32000, 'invalid sender: transaction is not signed');
    const hash = tx.hash;
    if (!hash) throw new RpcError(-32000, 'invalid transaction: no hash');
    if (tx.type !== 0 && tx.type !== 1 && tx.type !== 2) throw new RpcError(-32000, `transaction type not supported: ${tx.type}`);
    if (tx.chainId === 0n) throw new RpcError(-32000, 'only replay-protected (EIP-155) transactions allowed over RPC');
    if (tx.chainId !== this.chainId) throw new RpcError(-32000, `invalid chain id for signer: have ${tx.chainId} want ${this.chainId}`);
    if (this.txs.has(hash.toLowerCase())) throw new RpcError(-32000, 'already known');
    const from = tx.from.toLowerCase();
    const expected = this.nonce(from);
    if (tx.nonce < expected) throw new RpcError(-32000, `nonce too low: address ${tx.from}, tx: ${tx.nonce} state: ${expected}`);
    if (tx.nonce > expected) throw new RpcError(-32000, `nonce too high: address ${tx.from}, tx: ${tx.nonce} state: ${expected}`);
    if (!tx.to) throw new RpcError(-32000, 'contract creation is not supported by the simulator');
    const intrinsic = intrinsicGas(tx.data);
    if (tx.gasLimit < intrinsic) throw new RpcError(-32000, `intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`);
    if (tx.gasLimit > BLOCK_GAS_LIMIT) throw new RpcError(-32000, 'exceeds block gas limit');

    let feeCap: bigint;
    let effective: bigint;
    if (tx.type === 2) {
      const maxFee = tx.maxFeePerGas ?? 0n;
      const tip = tx.maxPriorityFeePerGas ?? 0n;
      if (tip > maxFee) throw new RpcError(-32000, `max priority fee per gas higher than max fee per gas: tip ${tip}, maxFee ${maxFee}`);
      if (maxFee < this.baseFee) throw new RpcError(-32000, `max fee per gas less than block base fee: maxFeePerGas: ${maxFee} baseFee: ${this.baseFee}`);
      feeCap = maxFee;
      effective = maxFee < this.baseFee + tip ? maxFee : this.baseFee + tip;
    } else {
      const price = tx.gasPrice ?? 0n;
      if (price < this.baseFee) throw new RpcError(-32000, `transaction underpriced: gas price ${price} below base fee ${this.baseFee}`);
      feeCap = price;
      effective = price;
    }
    const cost = tx.gasLimit * feeCap + tx.value;
    const balance = this.balance(from);
    if (balance < cost) throw new RpcError(-32000, `insufficient funds for gas * price + value: address ${tx.from} have ${balance} want ${cost}`);

    // Mine: fee and nonce always apply; value moves and the contract runs only if execution succeeds.
    const to = tx.to.toLowerCase();
    const number = this.head() + 1;
    const nowSec = Math.floor(this.clock.now() / 1000);
    const prevTs = this.blockTimestamp(number - 1);
    const timestamp = Math.max(nowSec, prevTs);
    const handler = this.contracts.get(to);
    const needed = intrinsic + (handler ? handler.gas : 0n);
    let status: 0 | 1 = 1;
    let gasUsed = needed;
    let revertReason: string | null = null;
    const ctx: ExecContext = { ledger: this, txHash: hash.toLowerCase(), from, to, value: tx.value, data: tx.data, timestamp, dryRun: false };
    if (tx.gasLimit < needed) {
      status = 0;
      gasUsed = tx.gasLimit;
      revertReason = 'out of gas';
    } else if (handler) {
      try {
        // Dry run first so a revert leaves no partial state; then apply.
        handler.execute({ ...ctx, dryRun: true });
      } catch (err) {
        if (!(err instanceof Revert)) throw err;
        status = 0;
        revertReason = err.message;
      }
    }
    this.debit(from, gasUsed * effective);
    this.nonces.set(from, expected + 1);
    if (status === 1) {
      this.debit(from, tx.value);
      this.credit(to, tx.value);
    }
    const record: TxRecord = { raw, hash: hash.toLowerCase(), from, blockNumber: number, status, gasUsed: gasUsed.toString(), effectiveGasPrice: effective.toString(), revertReason };
    const block: BlockRecord = { number, hash: keccak256(toUtf8Bytes(`sim-mined:${this.chain.id}:${number}:${record.hash}`)), parentHash: this.blockHash(number - 1), timestamp, txs: [record.hash], gasUsed: gasUsed.toString() };
    this.txs.set(record.hash, record);
    this.blocks.set(number, block);
    this.lastMined = number;
    // The contract runs after the transaction is recorded, so services it notifies can read the mined tx.
    if (status === 1 && handler) handler.execute(ctx);
    return record.hash;
  }

  /** eth_call */
  call(req: CallRequest): string {
    if (!req.to) throw new RpcError(-32602, 'invalid params: missing "to"');
    const handler = this.contracts.get(req.to.toLowerCase());
    if (!handler) return '0x';
    return this.runReverting(() => handler.call(this.ctxFor(req)));
  }

  /** eth_estimateGas: intrinsic gas plus the contract's execution gas, after a dry run that must not revert. */
  estimateGas(req: CallRequest): bigint {
    if (!req.to) throw new RpcError(-32000, 'contract creation is not supported by the simulator');
    const value = req.value ?? 0n;
    if (req.from && value > this.balance(req.from)) throw new RpcError(-32000, `insufficient funds for transfer: address ${req.from}`);
    const handler = this.contracts.get(req.to.toLowerCase());
    if (!handler) return intrinsicGas(req.data);
    this.runReverting(() => handler.execute(this.ctxFor(req)));
    return intrinsicGas(req.data) + handler.gas;
  }

  private ctxFor(req: CallRequest): ExecContext {
    return {
      ledger: this,
      txHash: null,
      from: (req.from ?? '0x0000000000000000000000000000000000000000').toLowerCase(),
      to: (req.to ?? '').toLowerCase(),
      value: req.value ?? 0n,
      data: req.data,
      timestamp: Math.max(Math.floor(this.clock.now() / 1000), this.blockTimestamp(this.head())),
      dryRun: true,
    };
  }

  private runReverting<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof Revert) throw new RpcError(3, `execution reverted: ${err.message}`, revertData(err.message));
      throw err;
    }
  }

  // ---- state ----

  exportState(): LedgerState {
    return {
      genesisMs: this.genesisMs,
      lastMined: this.lastMined,
      balances: mapOut(this.balances),
      tokenBalances: mapOut(this.tokenBalances),
      allowances: mapOut(this.allowances),
      nonces: Object.fromEntries(this.nonces),
      txs: [...this.txs.values()],
      blocks: [...this.blocks.values()],
    };
  }

  importState(s: LedgerState): void {
    this.genesisMs = s.genesisMs;
    this.lastMined = s.lastMined;
    this.balances = mapIn(s.balances);
    this.tokenBalances = mapIn(s.tokenBalances);
    this.allowances = mapIn(s.allowances);
    this.nonces = new Map(Object.entries(s.nonces));
    this.txs = new Map(s.txs.map((t) => [t.hash, { ...t }]));
    this.blocks = new Map(s.blocks.map((b) => [b.number, { ...b, txs: [...b.txs] }]));
  }
}

function mapOut(m: Map<string, bigint>): Record<string, string> {
  return Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));
}

function mapIn(r: Record<string, string>): Map<string, bigint> {
  return new Map(Object.entries(r).map(([k, v]) => [k, BigInt(v)]));
}
