/** The ERC-20 calls a send needs (the balance, the allowance of a spender, approve one) and what a token picker shows. */
import { Interface } from 'ethers';
import type { EvmRpcClient } from '../../api/evm/evmRpc.js';
import { OperationError } from '../errors.js';

const ERC20 = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function balanceOf(address owner) view returns (uint256)',
]);

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

/** balanceOf(owner) of an ERC-20, in its smallest units. */
export async function readTokenBalance(rpc: EvmRpcClient, token: string, owner: string): Promise<bigint> {
  const raw = await rpc.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]), from: owner });
  try {
    const [value] = ERC20.decodeFunctionResult('balanceOf', raw);
    return BigInt(value as bigint);
  } catch (err) {
    throw new OperationError('BAD_TOKEN', `${rpc.chain}: ${token} did not answer balanceOf() as an ERC-20 token`, { cause: err, hint: 'Check the token address for this chain.' });
  }
}

/** Calldata of approve(spender, amount): exactly the amount needed, never an unlimited allowance. */
export function approveData(spender: string, amount: bigint): string {
  return ERC20.encodeFunctionData('approve', [spender, amount]);
}

export interface TokenMetadata {
  symbol: string;
  decimals: number;
  /** Balance of `owner` in smallest units, when an owner was given. */
  balance: bigint | null;
}

/** symbol(), decimals() and balanceOf(owner) of an ERC-20; BAD_TOKEN when the address does not answer as one. */
export async function readTokenMetadata(rpc: EvmRpcClient, token: string, owner: string | null): Promise<TokenMetadata> {
  const call = async (fn: 'decimals' | 'symbol' | 'balanceOf', args: unknown[]): Promise<unknown> => {
    const raw = await rpc.call({ to: token, data: ERC20.encodeFunctionData(fn, args) });
    try {
      return ERC20.decodeFunctionResult(fn, raw)[0] as unknown;
    } catch (err) {
      throw new OperationError('BAD_TOKEN', `${rpc.chain}: ${token} did not answer ${fn}() as an ERC-20 token`, { cause: err, hint: 'Check the token address for this chain.' });
    }
  };
  const decimals = Number(await call('decimals', []));
  const symbol = String(await call('symbol', []));
  const balance = owner === null ? null : BigInt((await call('balanceOf', [owner])) as bigint);
  return { symbol, decimals, balance };
}
