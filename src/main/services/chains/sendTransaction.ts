/**
 * Sending a prepared transaction ({ to, value, data }, from the bridge's /encode or the aggregator) from the
 * main wallet: an ERC-20 approve first when the allowance is short, then the transaction itself. Before
 * anything is signed, the token balance must cover the amount (a short balance would otherwise spend the
 * approve's gas and then fail). For each transaction: the nonce and the fees come from the chain, the gas
 * limit is the provider's estimate (plus headroom, as wallets add), the gas-token balance is checked
 * against value plus the most gas can cost (for the approve, plus the value the prepared transaction will
 * carry), the transaction is signed by the wallet's transaction signer, broadcast through the chain's
 * JSON-RPC and followed to its receipt. A reverted receipt is an OperationError carrying the hash; a
 * receipt that does not come is the RPC client's RECEIPT_TIMEOUT, whose details name the hash and which
 * transaction it was (`tx`: approve or main).
 */
import { EvmRpcError, type EvmRpcClient, type ReceiptSummary } from '../../api/evm/evmRpc.js';
import type { PreparedTx } from '../../api/companion/schemas.js';
import type { TransactionSigner, UnsignedTransaction } from '../../signers/transactions/transactionSigner.js';
import { OperationError } from '../errors.js';
import { approveData, readAllowance, readTokenBalance } from './erc20.js';

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
  const value = parseWei(input.tx.value);
  let approval: SentTransaction['approval'] = null;
  if (input.approval) {
    progress({ phase: 'checking-allowance', tx: 'approve' });
    const [held, current] = await Promise.all([readTokenBalance(rpc, input.approval.token, signer.address), readAllowance(rpc, input.approval.token, signer.address, input.tx.to)]);
    if (held < input.approval.amount) {
      throw new OperationError('INSUFFICIENT_FUNDS', `${rpc.chain}: ${signer.address} holds ${held} of the token ${input.approval.token}; this transfer needs ${input.approval.amount} (smallest units)`, {
        hint: 'Lower the amount or fund the wallet with the token on this chain; nothing was signed or sent.',
        details: { token: input.approval.token, balance: held.toString(), needed: input.approval.amount.toString() },
      });
    }
    if (current < input.approval.amount) {
      progress({ phase: 'approving', tx: 'approve' });
      // The prepared transaction's value is kept back: an approve the wallet could not follow up on would waste its gas.
      const sent = await signAndSend(rpc, signer, { to: input.approval.token, value: 0n, data: approveData(input.tx.to, input.approval.amount) }, 'approve', progress, input.receiptTimeoutMs, value);
      approval = { ...sent, amount: input.approval.amount.toString(), token: input.approval.token, spender: input.tx.to };
    }
  }
  const main = await signAndSend(rpc, signer, { to: input.tx.to, value, data: input.tx.data }, 'main', progress, input.receiptTimeoutMs, 0n);
  return { chain: rpc.chain, chainId: rpc.chainId.toString(), hash: main.hash, receipt: main.receipt, approval };
}

async function signAndSend(
  rpc: EvmRpcClient,
  signer: TransactionSigner,
  call: { to: string; value: bigint; data: string },
  which: 'approve' | 'main',
  progress: (p: SendProgress) => void,
  receiptTimeoutMs: number | undefined,
  /** Gas-token wei that must be left after this transaction (what the next one will carry as value). */
  reserve: bigint,
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
  const needed = call.value + gasLimit * maxGasPrice + reserve;
  if (balance < needed) {
    const what = reserve > 0n ? `this approval and the ${reserve} wei the transfer then carries need up to ${needed} wei` : `this ${which === 'approve' ? 'approval' : 'transaction'} needs up to ${needed} wei (value plus gas)`;
    throw new OperationError('INSUFFICIENT_FUNDS', `${rpc.chain}: ${from} holds ${balance} wei of the gas token; ${what}`, {
      hint: 'Fund the wallet with the gas token of this chain; nothing was signed or sent.',
      details: { balance_wei: balance.toString(), needed_wei: needed.toString() },
    });
  }
  progress({ phase: 'signing', tx: which });
  const signed = await signer.signTransaction(tx);
  progress({ phase: 'sending', tx: which });
  const hash = await rpc.broadcast(signed);
  progress({ phase: 'confirming', tx: which, hash });
  let receipt: ReceiptSummary;
  try {
    receipt = await rpc.waitForReceipt(hash, receiptTimeoutMs !== undefined ? { timeoutMs: receiptTimeoutMs } : {});
  } catch (err) {
    // Which transaction's receipt did not come: after the main one the transfer may be under way.
    throw err instanceof EvmRpcError ? err.withDetails({ tx_hash: hash, tx: which }) : err;
  }
  if (receipt.status !== 'success') {
    throw new OperationError('TX_REVERTED', `${rpc.chain}: the ${which === 'approve' ? 'approve transaction' : 'transaction'} ${hash} was mined but reverted`, {
      hint: 'Nothing was moved; the gas was spent. Check the chain explorer for the reason before retrying.',
      details: { tx_hash: hash },
    });
  }
  return { hash, receipt };
}
