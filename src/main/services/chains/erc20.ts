/** The two ERC-20 calls a send needs: read the allowance of a spender, and approve one. */
import { Interface } from 'ethers';
import type { EvmRpcClient } from '../../api/evm/evmRpc.js';
import { OperationError } from '../errors.js';

const ERC20 = new Interface(['function allowance(address owner, address spender) view returns (uint256)', 'function approve(address spender, uint256 amount) returns (bool)']);

export async function readAllowance(rpc: EvmRpcClient, token: string, owner: string, spender: string): Promise<bigint> {
  const data = ERC20.encodeFunctionData('allowance', [owner, spender]);
  const raw = await rpc.call({ to: token, data, from: owner });
  try {
    const [value] = ERC20.decodeFunctionResult('allowance', raw);
    return BigInt(value as bigint);
  } catch (err) {
    throw new OperationError('BAD_TOKEN', `${rpc.chain}: ${token} did not answer allowance() as an ERC-20 token`, { cause: err, hint: 'Check the token address for this chain.' });
  }
}

/** Calldata of approve(spender, amount): exactly the amount needed, never an unlimited allowance. */
export function approveData(spender: string, amount: bigint): string {
  return ERC20.encodeFunctionData('approve', [spender, amount]);
}
