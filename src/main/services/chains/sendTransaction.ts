/**
 * Sending a prepared transaction ({ to, value, data }, from the bridge's /encode or the aggregator) from the
 * main wallet: an ERC-20 approve first when the allowance is short, then the transaction itself. For each:
 * the nonce and the fees come from the chain, the gas limit is the provider's estimate (plus headroom, as
 * wallets add), the balance is checked against value plus the most gas can cost before anything is signed,
 * the transaction is signed by the wallet's transaction signer, broadcast through the chain's JSON-RPC and
 * followed to its receipt. A reverted receipt is an OperationError carrying the hash.
 */
import type { EvmRpcClient, ReceiptSummary } from '../../api/evm/evmRpc.js';
import type { PreparedTx } from '../../api/companion/schemas.js';
import type { TransactionSigner, UnsignedTransaction } from '../../signers/transactions/transactionSigner.js';
import { OperationError } from '../errors.js';
import { approveData, readAllowance } from './erc20.js';

/** Added to the provider's estimate: state can move between estimation and inclusion. */
const GAS_HEADROOM_PCT = 20n;

export type SendPhase = 'checking-allowance' | 'approving' | 'signing' | 'sending' | 'confirming';

export interface SendProgress {
  phase: SendPhase;
  /** The transaction's hash once sent. */
  hash?: string;
  /** Which transaction: the approval or the prepared one. */
  tx: 'approve' | 'main';
}

export interface SendPreparedInput {
  rpc: EvmRpcClient;
  signer: TransactionSigner;
  tx: PreparedTx;
  /** The ERC-20 the prepared transaction spends (the spender being tx.to), when it is not the gas token. */
  approval?: { token: string; amount: bigint };
  onProgress?: (p: SendProgress) => void;
  receiptTimeoutMs?: number;
}

export interface SentTransaction {
  chain: string;
  chainId: string;
  hash: string;
  receipt: ReceiptSummary;
  /** The approve transaction sent first, when the allowance was short. */
  approval: { hash: string; receipt: ReceiptSummary; amount: string; token: string; spender: string } | null;
}

export function parseWei(value: string): bigint {
  // /encode's `value` format is not shown by the spec: a decimal or 0x integer string are both accepted.
  return BigInt(value);
}

export async function sendPreparedTransaction(input: SendPreparedInput): Promise<SentTransaction> {
  const { rpc, signer } = input;
  const progress = input.onProgress ?? (() => undefined);
  let approval: SentTransaction['approval'] = null;
  if (input.approval) {
    progress({ phase: 'checking-allowance', tx: 'approve' });
    const current = await readAllowance(rpc, input.approval.token, signer.address, input.tx.to);
    if (current < input.approval.amount) {
      progress({ phase: 'approving', tx: 'approve' });
      const sent = await signAndSend(rpc, signer, { to: input.approval.token, value: 0n, data: approveData(input.tx.to, input.approval.amount) }, 'approve', progress, input.receiptTimeoutMs);
      approval = { ...sent, amount: input.approval.amount.toString(), token: input.approval.token, spender: input.tx.to };
    }
  }
  const main = await signAndSend(rpc, signer, { to: input.tx.to, value: parseWei(input.tx.value), data: input.tx.data }, 'main', progress, input.receiptTimeoutMs);
  return { chain: rpc.chain, chainId: rpc.chainId.toString(), hash: main.hash, receipt: main.receipt, approval };
}

async function signAndSend(
  rpc: EvmRpcClient,
  signer: TransactionSigner,
  call: { to: string; value: bigint; data: string },
  which: 'approve' | 'main',
  progress: (p: SendProgress) => void,
  receiptTimeoutMs: number | undefined,
): Promise<{ hash: string; receipt: ReceiptSummary }> {
  const from = signer.address;
  const [nonce, fees, estimate, balance] = await Promise.all([
    rpc.nonce(from),
    rpc.feeData(),
    rpc.estimateGas({ from, to: call.to, value: call.value, data: call.data }),
    rpc.balance(from),
  ]);
  const gasLimit = estimate + (estimate * GAS_HEADROOM_PCT) / 100n;
  const tx: UnsignedTransaction = { chainId: rpc.chainId, nonce, to: call.to, value: call.value, data: call.data, gasLimit };
  let maxGasPrice: bigint;
  if (fees.maxFeePerGas !== null && fees.maxPriorityFeePerGas !== null) {
    tx.maxFeePerGas = fees.maxFeePerGas;
    tx.maxPriorityFeePerGas = fees.maxPriorityFeePerGas;
    maxGasPrice = fees.maxFeePerGas;
  } else if (fees.gasPrice !== null) {
    tx.gasPrice = fees.gasPrice;
    maxGasPrice = fees.gasPrice;
  } else {
    throw new OperationError('RPC_ERROR', `${rpc.chain}: the RPC reports no fee data`, { hint: 'Check the chain RPC URL.' });
  }
  const needed = call.value + gasLimit * maxGasPrice;
  if (balance < needed) {
    throw new OperationError('INSUFFICIENT_FUNDS', `${rpc.chain}: ${from} holds ${balance} wei of the gas token; this ${which === 'approve' ? 'approval' : 'transaction'} needs up to ${needed} wei (value plus gas)`, {
      hint: 'Fund the wallet with the gas token of this chain; nothing was signed or sent.',
      details: { balance_wei: balance.toString(), needed_wei: needed.toString() },
    });
  }
  progress({ phase: 'signing', tx: which });
  const signed = await signer.signTransaction(tx);
  progress({ phase: 'sending', tx: which });
  const hash = await rpc.broadcast(signed);
  progress({ phase: 'confirming', tx: which, hash });
  const receipt = await rpc.waitForReceipt(hash, receiptTimeoutMs !== undefined ? { timeoutMs: receiptTimeoutMs } : {});
  if (receipt.status !== 'success') {
    throw new OperationError('TX_REVERTED', `${rpc.chain}: the ${which === 'approve' ? 'approve transaction' : 'transaction'} ${hash} was mined but reverted`, {
      hint: 'Nothing was moved; the gas was spent. Check the chain explorer for the reason before retrying.',
      details: { tx_hash: hash },
    });
  }
  return { hash, receipt };
}
