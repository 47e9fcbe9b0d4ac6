/**
 * What sending a prepared transaction ({ to, value, data }: a bridge's /encode or an aggregator swap) from
 * the main wallet will take, read before anything is signed: whether an ERC-20 approve must go first (the
 * allowance of the transaction's target is short), the token and gas-token balances, and the gas each
 * transaction is estimated to use. The prepare steps of bridge and swap show it for review, and refuse
 * what the wallet cannot pay for (INSUFFICIENT_FUNDS, nothing signed or sent) with the same checks
 * sendTransaction.ts repeats at submit, when nonces, fees and balances are read again.
 *
 * The transaction that follows an approve cannot be estimated yet (it would spend an allowance that does
 * not exist until the approve is mined), so its gas is left open (null) and estimated at submit.
 */
import type { EvmRpcClient } from '../../api/evm/evmRpc.js';
import type { PreparedTx } from '../../api/companion/schemas.js';
import { sameAddress } from '../../../shared/identity/index.js';
import { OperationError, ValidationError } from '../errors.js';
import { approveData, readAllowance, readTokenBalance } from './erc20.js';
import { parseWei } from './sendTransaction.js';

/** Added to the provider's estimate, as sendTransaction.ts does: state can move between estimation and inclusion. */
const GAS_HEADROOM_PCT = 20n;

/** One transaction the wallet will sign, as a person reviews it (integers as decimal strings). */
export interface PlannedTransaction {
  /** The approve sent first, or the transaction itself. */
  tx: 'approve' | 'main';
  to: string;
  /** Wei. */
  value: string;
  data: string;
  /** Length of `data` in bytes. */
  data_bytes: number;
  /** The provider's estimate plus headroom; null when it can only be estimated after the approve. */
  gas_limit: string | null;
  /** The most a unit of gas may cost (maxFeePerGas, or gasPrice on a chain without a base fee). */
  max_gas_price: string;
  /** gas_limit * max_gas_price: the most the gas can cost; null with gas_limit. */
  max_gas_cost: string | null;
}

export interface TransactionPlan {
  chain: string;
  chain_id: string;
  from: string;
  /** The approve that goes first, when the allowance is short; null otherwise (or for the gas token). */
  approval: { token: string; spender: string; amount: string; current_allowance: string } | null;
  transactions: PlannedTransaction[];
  /** Gas-token balance of `from`, wei. */
  gas_balance: string;
  /** Balance of the token spent, smallest units (null when the gas token is spent). */
  token_balance: string | null;
}

export interface PlanInput {
  rpc: EvmRpcClient;
  from: string;
  tx: PreparedTx;
  /** The ERC-20 the transaction spends (the spender being tx.to), when it is not the gas token. */
  approval?: { token: string; amount: bigint };
}

/** Reads, checks and describes what sending `tx` from `from` takes; signs and sends nothing. */
export async function planTransaction(input: PlanInput): Promise<TransactionPlan> {
  const { rpc, from, tx } = input;
  const value = parseWei(tx.value);
  let approval: TransactionPlan['approval'] = null;
  let tokenBalance: bigint | null = null;
  if (input.approval) {
    const [held, current] = await Promise.all([readTokenBalance(rpc, input.approval.token, from), readAllowance(rpc, input.approval.token, from, tx.to)]);
    tokenBalance = held;
    if (held < input.approval.amount) {
      throw new OperationError('INSUFFICIENT_FUNDS', `${rpc.chain}: ${from} holds ${held} of the token ${input.approval.token}; this transfer needs ${input.approval.amount} (smallest units)`, {
        hint: 'Lower the amount or fund the wallet with the token on this chain; nothing was signed or sent.',
        details: { token: input.approval.token, balance: held.toString(), needed: input.approval.amount.toString() },
      });
    }
    if (current < input.approval.amount) approval = { token: input.approval.token, spender: tx.to, amount: input.approval.amount.toString(), current_allowance: current.toString() };
  }
  const approveCall = approval ? { to: approval.token, value: 0n, data: approveData(tx.to, input.approval!.amount) } : null;
  const [fees, balance, firstEstimate] = await Promise.all([
    rpc.feeData(),
    rpc.balance(from),
    // The first transaction to be signed is the one that can be estimated now.
    rpc.estimateGas(approveCall ? { from, ...approveCall } : { from, to: tx.to, value, data: tx.data }),
  ]);
  // As sendTransaction.ts signs: EIP-1559 fees when the chain reports both, else the legacy gas price.
  const maxGasPrice = fees.maxFeePerGas !== null && fees.maxPriorityFeePerGas !== null ? fees.maxFeePerGas : fees.gasPrice;
  if (maxGasPrice === null) throw new OperationError('RPC_ERROR', `${rpc.chain}: the RPC reports no fee data`, { hint: 'Check the chain RPC URL.' });
  const firstLimit = firstEstimate + (firstEstimate * GAS_HEADROOM_PCT) / 100n;
  // The first transaction's value and gas, plus the value the transaction after an approve carries.
  const needed = (approveCall ? 0n : value) + firstLimit * maxGasPrice + (approveCall ? value : 0n);
  if (balance < needed) {
    const what = approveCall
      ? `the approval and the ${value} wei the transfer then carries need up to ${needed} wei`
      : `this transaction needs up to ${needed} wei (value plus gas)`;
    throw new OperationError('INSUFFICIENT_FUNDS', `${rpc.chain}: ${from} holds ${balance} wei of the gas token; ${what}`, {
      hint: 'Fund the wallet with the gas token of this chain; nothing was signed or sent.',
      details: { balance_wei: balance.toString(), needed_wei: needed.toString() },
    });
  }
  const planned = (which: 'approve' | 'main', call: { to: string; value: bigint; data: string }, limit: bigint | null): PlannedTransaction => ({
    tx: which,
    to: call.to,
    value: call.value.toString(),
    data: call.data,
    data_bytes: Math.max(0, (call.data.length - 2) / 2),
    gas_limit: limit?.toString() ?? null,
    max_gas_price: maxGasPrice.toString(),
    max_gas_cost: limit === null ? null : (limit * maxGasPrice).toString(),
  });
  const main = { to: tx.to, value, data: tx.data };
  return {
    chain: rpc.chain,
    chain_id: rpc.chainId.toString(),
    from,
    approval,
    transactions: approveCall ? [planned('approve', approveCall, firstLimit), planned('main', main, null)] : [planned('main', main, firstLimit)],
    gas_balance: balance.toString(),
    token_balance: tokenBalance?.toString() ?? null,
  };
}

/** A prepared transfer is sent only by the wallet it was planned for (its balances, allowance, nonce). */
export function assertPlannedSender(sender: string, signerAddress: string, what: string): void {
  if (!sameAddress(signerAddress, sender)) {
    throw new ValidationError(`the signer is ${signerAddress}, but this ${what} was prepared for ${sender}; nothing was signed or sent`, {
      field: 'signer',
      code: 'SIGNER_MISMATCH',
      hint: 'Prepare it again with the connected wallet.',
    });
  }
}
