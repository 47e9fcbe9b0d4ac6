/**
 * The configured ERC-20 tokens as simulated contracts: enough of the standard for wallets and the
 * bridge / aggregator flows (balanceOf, allowance, decimals, symbol, name, totalSupply, transfer, approve,
 * transferFrom). Balances come from config, the control module's faucet and bridge / swap deliveries.
 */
import { Interface } from 'ethers';
import type { TokenConfig } from '../config.js';
import { Revert, type ContractHandler, type ExecContext } from './ledger.js';

export const ERC20_ABI = new Interface([
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function totalSupply() view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
]);

/** A nominal supply: the simulator mints deliveries, so the real figure has no meaning here. */
const TOTAL_SUPPLY = 10n ** 30n;

export function decodeCall(abi: Interface, data: string): ReturnType<Interface['parseTransaction']> {
  try {
    return abi.parseTransaction({ data });
  } catch (err) {
    // Undecodable calldata is what a real contract would revert on; the reason is kept for the caller.
    throw new Revert(`invalid calldata: ${(err as Error).message}`);
  }
}

export function erc20Contract(token: TokenConfig): ContractHandler {
  const address = token.address.toLowerCase();
  return {
    gas: 35_000n,
    call(ctx: ExecContext): string {
      const call = decodeCall(ERC20_ABI, ctx.data);
      if (!call) throw new Revert('function selector was not recognized');
      const fn = call.fragment;
      switch (call.name) {
        case 'balanceOf':
          return ERC20_ABI.encodeFunctionResult(fn, [ctx.ledger.tokenBalance(address, String(call.args[0]))]);
        case 'allowance':
          return ERC20_ABI.encodeFunctionResult(fn, [ctx.ledger.allowance(address, String(call.args[0]), String(call.args[1]))]);
        case 'decimals':
          return ERC20_ABI.encodeFunctionResult(fn, [token.decimals]);
        case 'symbol':
          return ERC20_ABI.encodeFunctionResult(fn, [token.symbol]);
        case 'name':
          return ERC20_ABI.encodeFunctionResult(fn, [`${token.symbol} (simulated)`]);
        case 'totalSupply':
          return ERC20_ABI.encodeFunctionResult(fn, [TOTAL_SUPPLY]);
        default:
          // State-changing functions answer eth_call with their would-be result after validation.
          this.execute(ctx);
          return ERC20_ABI.encodeFunctionResult(fn, [true]);
      }
    },
    execute(ctx: ExecContext): void {
      if (ctx.value !== 0n) throw new Revert('ERC20: non-payable function');
      const call = decodeCall(ERC20_ABI, ctx.data);
      if (!call) throw new Revert('function selector was not recognized');
      const l = ctx.ledger;
      switch (call.name) {
        case 'transfer': {
          const [to, amount] = [String(call.args[0]), BigInt(call.args[1] as bigint)];
          if (l.tokenBalance(address, ctx.from) < amount) throw new Revert('ERC20: transfer amount exceeds balance');
          if (!ctx.dryRun) l.transferToken(address, ctx.from, to, amount);
          return;
        }
        case 'approve': {
          if (!ctx.dryRun) l.setAllowance(address, ctx.from, String(call.args[0]), BigInt(call.args[1] as bigint));
          return;
        }
        case 'transferFrom': {
          const [from, to, amount] = [String(call.args[0]), String(call.args[1]), BigInt(call.args[2] as bigint)];
          const allowed = l.allowance(address, from, ctx.from);
          if (allowed < amount) throw new Revert('ERC20: insufficient allowance');
          if (l.tokenBalance(address, from) < amount) throw new Revert('ERC20: transfer amount exceeds balance');
          if (!ctx.dryRun) {
            l.setAllowance(address, from, ctx.from, allowed - amount);
            l.transferToken(address, from, to, amount);
          }
          return;
        }
        default:
          throw new Revert(`${call.name} is a view function`);
      }
    },
  };
}

/**
 * Pulls `amount` of an ERC-20 from `owner` to `spender` (a router) as transferFrom would, checking
 * balance and, when enforced, allowance. Validates in dry runs, moves tokens otherwise.
 */
export function pullToken(ctx: ExecContext, token: string, owner: string, spender: string, amount: bigint, enforceAllowance: boolean): void {
  const l = ctx.ledger;
  const allowed = l.allowance(token, owner, spender);
  if (enforceAllowance && allowed < amount) throw new Revert('ERC20: insufficient allowance');
  if (l.tokenBalance(token, owner) < amount) throw new Revert('ERC20: transfer amount exceeds balance');
  if (ctx.dryRun) return;
  if (enforceAllowance) l.setAllowance(token, owner, spender, allowed - amount);
  l.transferToken(token, owner, spender, amount);
}
