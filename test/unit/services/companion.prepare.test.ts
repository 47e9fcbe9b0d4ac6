/**
 * The prepare steps of the companion sends (bridge, swap) with in-memory fakes of the bridge, the
 * aggregator and the chain's JSON-RPC: everything up to the first signature is done (quote, encode, the
 * approve decided, balances checked, gas estimated) and shown in the view, nothing is signed or
 * broadcast, bad input is refused before anything is asked, and a submit by a transaction signer other
 * than the prepared sender is refused before anything is opened or signed.
 */
import { Interface, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { CompanionContext } from '../../../src/main/services/companion/companionContext.js';
import { OperationError, ValidationError, toAppError } from '../../../src/main/services/errors.js';
import { minimumOut, prepareBridgeSend, submitBridgeSend } from '../../../src/main/services/bridge/index.js';
import { approveData } from '../../../src/main/services/chains/erc20.js';
import { prepareSwap, submitSwap } from '../../../src/main/services/swap/index.js';
import type { TransactionSigner, UnsignedTransaction } from '../../../src/main/signers/transactions/transactionSigner.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../src/shared/protocol/index.js';
import { SIM_PROFILE } from './fakes.js';

const ERC20 = new Interface(['function allowance(address owner, address spender) view returns (uint256)', 'function balanceOf(address owner) view returns (uint256)']);
const ROUTER = Wallet.createRandom().address;
const TOKEN = Wallet.createRandom().address;
const GWEI = 1_000_000_000n;

interface Chain {
  gas: bigint;
  token: bigint;
  allowance: bigint;
  estimate: bigint;
}

/** A CompanionContext over fakes; `log` records every call to the bridge, the aggregator and the RPC. */
function world(chain: Partial<Chain> = {}) {
  const state: Chain = { gas: 10n ** 18n, token: 0n, allowance: 0n, estimate: 100_000n, ...chain };
  const log: string[] = [];
  const rpcClient = {
    chain: 'arbitrum',
    chainId: 42161n,
    async feeData() {
      log.push('rpc feeData');
      return { maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI, gasPrice: null };
    },
    async balance() {
      log.push('rpc balance');
      return state.gas;
    },
    async estimateGas(tx: { to: string }) {
      log.push(`rpc estimateGas ${tx.to}`);
      return state.estimate;
    },
    async call(tx: { data: string }) {
      const parsed = ERC20.parseTransaction({ data: tx.data })!;
      log.push(`rpc call ${parsed.name}`);
      return ERC20.encodeFunctionResult(parsed.name, [parsed.name === 'allowance' ? state.allowance : state.token]);
    },
    async broadcast() {
      log.push('rpc broadcast');
      throw new Error('not in these tests');
    },
    destroy() {
      log.push('rpc destroy');
    },
  };
  const ctx = {
    profile: SIM_PROFILE,
    now: () => 1_000_000,
    async rpc(chainId: string) {
      log.push(`rpc open ${chainId}`);
      return rpcClient;
    },
    bridge: {
      async quote(q: { sender?: string; receiver?: string }) {
        log.push(`bridge quote ${q.sender} ${q.receiver}`);
        return {
          requestId: 'req-1',
          data: [
            { amountOut: '990000', crossProtocol: { id: 'rail_size' } },
            { amountOut: '995000', crossProtocol: { id: 'rail_fast' } },
          ],
        };
      },
      async encode(requestId: string, quoteIdx: number) {
        log.push(`bridge encode ${requestId} ${quoteIdx}`);
        return { status: 'ok', requestId: 'enc-1', data: { to: ROUTER, value: '0', data: '0xabcdef01' } };
      },
    },
    aggregator: {
      async swap(q: { amountIn: string }) {
        log.push(`aggregator swap ${q.amountIn}`);
        return { tx: { to: ROUTER, value: '0', data: '0x12345678' }, amountOut: '2000', minAmountOut: '1990' };
      },
    },
  } as unknown as CompanionContext;
  return { ctx, log, state };
}

class CountingTxSigner implements TransactionSigner {
  readonly kind = 'env' as const;
  readonly address = Wallet.createRandom().address;
  readonly signed: UnsignedTransaction[] = [];
  async signTransaction(tx: UnsignedTransaction): Promise<string> {
    this.signed.push(tx);
    throw new Error('not in these tests');
  }
}

const bridgeInput = (sender: string, over: Record<string, unknown> = {}) => ({
  sender,
  fromChain: 'arbitrum',
  toChain: 'base',
  fromToken: 'native',
  toToken: 'native',
  amount: '1000000',
  protocols: ['rail_fast', 'rail_size'],
  ...over,
});

async function failure<E extends Error>(p: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}

describe('prepareBridgeSend', () => {
  it('quotes for the sender, encodes the best route and plans the one transaction to sign; nothing is signed or broadcast', async () => {
    const { ctx, log } = world();
    const sender = Wallet.createRandom().address;
    const p = await prepareBridgeSend(ctx, bridgeInput(sender.toLowerCase(), { slippageBps: 50 }));
    expect(p).toMatchObject({ action: 'bridge', profile: 'sim', wallet: sender, sender, signer: { role: 'main-wallet', address: sender }, requests: [], approval: null });
    expect(p.view).toMatchObject({
      from_chain: 'arbitrum',
      to_chain: 'base',
      from_token: NATIVE_TOKEN_PLACEHOLDER,
      amount: '1000000',
      sender,
      // Receiver policy unchanged: it defaults to the sender.
      receiver: sender,
      route: { quote_idx: 1, protocol: 'rail_fast', amount_out: '995000' },
      alternatives: [{ quote_idx: 0, protocol: 'rail_size', amount_out: '990000' }],
      min_amount_out: minimumOut('995000', 50).toString(),
      slippage_bps: 50,
      request_id: 'enc-1',
      requotes: 0,
      gas_balance: (10n ** 18n).toString(),
      token_balance: null,
      warnings: [],
    });
    expect(p.view.transactions).toEqual([
      { tx: 'main', to: ROUTER, value: '0', data: '0xabcdef01', data_bytes: 4, gas_limit: '120000', max_gas_price: (2n * GWEI).toString(), max_gas_cost: (120_000n * 2n * GWEI).toString() },
    ]);
    expect(log).toEqual([
      'rpc open arbitrum',
      `bridge quote ${sender} ${sender}`,
      'bridge encode req-1 1',
      'rpc feeData',
      'rpc balance',
      `rpc estimateGas ${ROUTER}`,
      'rpc destroy',
    ]);
  });

  it('plans an ERC-20 approve of exactly the amount first when the allowance is short (the transfer\'s gas is estimated after it)', async () => {
    const { ctx } = world({ token: 5_000_000n, allowance: 10n });
    const sender = Wallet.createRandom().address;
    const p = await prepareBridgeSend(ctx, bridgeInput(sender, { fromToken: TOKEN, toToken: Wallet.createRandom().address }));
    expect(p.approval).toEqual({ token: TOKEN, amount: '1000000' });
    expect(p.plan.approval).toEqual({ token: TOKEN, spender: ROUTER, amount: '1000000', current_allowance: '10' });
    expect(p.view.transactions.map((t) => [t.tx, t.to, t.gas_limit])).toEqual([
      ['approve', TOKEN, '120000'],
      ['main', ROUTER, null],
    ]);
    expect(p.view.transactions[0]!.data).toBe(approveData(ROUTER, 1_000_000n));
    expect(p.view.token_balance).toBe('5000000');

    // Enough allowance already: no approve.
    const { ctx: approved } = world({ token: 5_000_000n, allowance: 1_000_000n });
    const q = await prepareBridgeSend(approved, bridgeInput(sender, { fromToken: TOKEN, toToken: Wallet.createRandom().address }));
    expect(q.view.transactions.map((t) => t.tx)).toEqual(['main']);
  });

  it('refuses what the wallet cannot pay for (INSUFFICIENT_FUNDS) before anything is signed', async () => {
    const sender = Wallet.createRandom().address;
    const short = world({ token: 999_999n });
    const tokenErr = await failure(prepareBridgeSend(short.ctx, bridgeInput(sender, { fromToken: TOKEN, toToken: Wallet.createRandom().address })), OperationError);
    expect(tokenErr.code).toBe('INSUFFICIENT_FUNDS');
    expect(tokenErr.details).toMatchObject({ balance: '999999', needed: '1000000' });
    const poor = world({ gas: 1000n });
    const gasErr = await failure(prepareBridgeSend(poor.ctx, bridgeInput(sender)), OperationError);
    expect(gasErr.code).toBe('INSUFFICIENT_FUNDS');
    expect(gasErr.hint).toMatch(/nothing was signed or sent/);
    // The RPC client is released either way.
    expect(short.log.at(-1)).toBe('rpc destroy');
    expect(poor.log.at(-1)).toBe('rpc destroy');
  });

  it('refuses bad input before the bridge or the RPC is asked anything', async () => {
    const { ctx, log } = world();
    const sender = Wallet.createRandom().address;
    await failure(prepareBridgeSend(ctx, bridgeInput(sender, { fromChain: 'Arbitrum' })), ValidationError);
    await failure(prepareBridgeSend(ctx, bridgeInput(sender, { amount: '1.5' })), ValidationError);
    await failure(prepareBridgeSend(ctx, bridgeInput('0x1234')), ValidationError);
    // A bad USD value for the points estimate is the decimal parser's validation error (exit 2).
    const usd = await prepareBridgeSend(ctx, { ...bridgeInput(sender), pointsUsd: { src: 'lots', dst: '1' }, source: 'perpsdesk' }).catch((e: unknown) => e);
    expect(toAppError(usd)).toMatchObject({ kind: 'validation', exitCode: 2 });
    expect(log).toEqual([]);
  });

  it('submit refuses a transaction signer other than the prepared sender before anything is opened or signed', async () => {
    const { ctx, log } = world();
    const sender = Wallet.createRandom().address;
    const p = await prepareBridgeSend(ctx, bridgeInput(sender));
    const before = log.length;
    const other = new CountingTxSigner();
    const err = await failure(submitBridgeSend(ctx, p, other), ValidationError);
    expect(err.code).toBe('SIGNER_MISMATCH');
    expect(other.signed).toEqual([]);
    expect(log.slice(before)).toEqual([]);
    // Nor another profile's.
    const mainnet = { ...ctx, profile: { ...SIM_PROFILE, name: 'mainnet' } } as CompanionContext;
    expect((await failure(submitBridgeSend(mainnet, p, other), ValidationError)).code).toBe('PROFILE_MISMATCH');
  });
});

describe('prepareSwap', () => {
  const swapInput = (sender: string, over: Record<string, unknown> = {}) => ({
    sender,
    chain: 'arbitrum',
    tokenIn: 'native',
    tokenOut: TOKEN,
    amountIn: '1000',
    slippage: '0.005',
    source: 'perpsdesk',
    ...over,
  });

  it('quotes with the partner code and plans the transactions to sign; the view shows what it delivers', async () => {
    const { ctx, log } = world();
    const sender = Wallet.createRandom().address;
    const p = await prepareSwap(ctx, swapInput(sender));
    expect(p).toMatchObject({ action: 'swap', sender, signer: { role: 'main-wallet', address: sender }, requests: [], approval: null });
    expect(p.view).toMatchObject({ chain: 'arbitrum', amount_in: '1000', amount_out: '2000', min_amount_out: '1990', receiver: sender, source: 'perpsdesk', reviewed_min_amount_out: null });
    expect(p.view.transactions).toEqual([expect.objectContaining({ tx: 'main', to: ROUTER, data: '0x12345678', gas_limit: '120000' })]);
    expect(log).not.toContain('rpc broadcast');
  });

  it('holds the fresh quote to the reviewed minimum: below it is SWAP_QUOTE_WORSENED before any gas or balance is read', async () => {
    const { ctx, log } = world();
    const sender = Wallet.createRandom().address;
    const reviewed = { tx: { to: ROUTER, value: '0', data: '0x' }, amountOut: '2100', minAmountOut: '2001' };
    const err = await failure(prepareSwap(ctx, { ...swapInput(sender), reviewed }), OperationError);
    expect(err.code).toBe('SWAP_QUOTE_WORSENED');
    expect(log.filter((l) => l.startsWith('rpc estimateGas') || l === 'rpc balance')).toEqual([]);
    const ok = await prepareSwap(ctx, { ...swapInput(sender), reviewed: { ...reviewed, minAmountOut: '1999' } });
    expect(ok.view.reviewed_min_amount_out).toBe('1999');
  });

  it('submit refuses a transaction signer other than the prepared sender before anything is opened or signed', async () => {
    const { ctx, log } = world();
    const p = await prepareSwap(ctx, swapInput(Wallet.createRandom().address));
    const before = log.length;
    const other = new CountingTxSigner();
    expect((await failure(submitSwap(ctx, p, other), ValidationError)).code).toBe('SIGNER_MISMATCH');
    expect(other.signed).toEqual([]);
    expect(log.slice(before)).toEqual([]);
  });
});
