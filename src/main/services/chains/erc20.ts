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

/**
 * One view call of an ERC-20 function, decoded; BAD_TOKEN when the address does not answer it as an ERC-20
 * token would. `from` is the owner where the call is about one (some nodes simulate calls from it).
 */
async function callToken(rpc: EvmRpcClient, token: string, fn: 'allowance' | 'balanceOf' | 'decimals' | 'symbol', args: unknown[], from?: string): Promise<unknown> {
  const raw = await rpc.call({ to: token, data: ERC20.encodeFunctionData(fn, args), ...(from !== undefined ? { from } : {}) });
  try {
    return ERC20.decodeFunctionResult(fn, raw)[0] as unknown;
  } catch (err) {
    throw new OperationError('BAD_TOKEN', `${rpc.chain}: ${token} did not answer ${fn}() as an ERC-20 token`, { cause: err, hint: 'Check the token address for this chain.' });
  }
}

export async function readAllowance(rpc: EvmRpcClient, token: string, owner: string, spender: string): Promise<bigint> {
  return BigInt((await callToken(rpc, token, 'allowance', [owner, spender], owner)) as bigint);
}

/** balanceOf(owner) of an ERC-20, in its smallest units. */
export async function readTokenBalance(rpc: EvmRpcClient, token: string, owner: string): Promise<bigint> {
  return BigInt((await callToken(rpc, token, 'balanceOf', [owner], owner)) as bigint);
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
  const decimals = Number(await callToken(rpc, token, 'decimals', []));
  const symbol = String(await callToken(rpc, token, 'symbol', []));
  const balance = owner === null ? null : BigInt((await callToken(rpc, token, 'balanceOf', [owner])) as bigint);
  return { symbol, decimals, balance };
}
