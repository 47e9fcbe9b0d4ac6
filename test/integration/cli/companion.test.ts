/**
 * `perps bridge`, `perps points` and `perps swap`, run by the CLI's own main in this process (test/support/perpsWorld.ts) with
 * --json against a simulator on loopback. The simulator's clock is manual and lives in this process: the
 * test moves it between commands (and while a `--wait` run polls), so bridge orders settle on demand.
 * Contract checked: exactly one JSON document on stdout, exit 0 on success, 1 when the operation failed
 * (including a bridge that ended refunded or failed), 2 on bad usage or a refused input.
 */
import fs from 'node:fs';
import path from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perpsOn } from '../../support/perpsWorld.js';
import { CompanionWorld, ETH, tokenOf } from '../companion/companionWorld.js';
import { PROXY_KEY, RpcProxy, closedPort, recordingServer } from '../companion/bridgeRpcProxy.js';

let w: CompanionWorld;
let proxy: RpcProxy;
const wallet = Wallet.createRandom();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: J;
}
type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// No keychain here: the wallet signs from the environment (`--signer env:PERPS_TEST_WALLET_KEY`).
const run = perpsOn(() => ({ sim: w.sim, dataDir: w.dataDir, keychainService: 'perps-desk-test-companion-unused' }));

/** `perps --json ARGS`: exactly one JSON document on stdout (perpsOn parses the whole of it). */
function perps(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return run(['--json', ...args], { PERPS_TEST_WALLET_KEY: wallet.privateKey, ...env });
}

/** Runs a command that waits on the simulated clock, moving that clock until it exits. */
async function perpsWhileAdvancing(args: string[], stepMs = 10_000): Promise<Run> {
  let done = false;
  const run = perps(args).finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (!done) await w.advance(stepMs);
  }
  return run;
}

const ethToBase = ['--from-chain', 'arbitrum', '--to-chain', 'base', '--from-token', 'native', '--to-token', 'native', '--amount', '0.1', '--decimals', '18'];

beforeAll(async () => {
  w = await CompanionWorld.boot('cli-companion');
  proxy = await RpcProxy.start(`${w.origin}/rpc`);
  await w.fund('arbitrum', wallet.address, 3n * ETH);
  await w.fund('venue_evm', wallet.address, 10n * ETH);
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await w?.stop();
});

describe('perps bridge / points / swap', () => {
  it('bridge quote: routes best first, with a requestId when a sender is given', async () => {
    const r = await perps(['bridge', 'quote', ...ethToBase, '--protocols', 'rail_size,rail_fast,rail_native_assets', '--sender', wallet.address, '--source', 'perpsdesk']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.request_id).toMatch(/\S/);
    expect(r.json.params).toMatchObject({ fromChain: 'arbitrum', amount: (ETH / 10n).toString(), protocols: ['rail_size', 'rail_fast', 'rail_native_assets'], source: 'perpsdesk' });
    const outs = (r.json.routes as J[]).map((x) => BigInt(x.amount_out as string));
    expect(outs.length).toBeGreaterThan(1);
    expect([...outs].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(outs);
    expect(r.json.best).toEqual(r.json.routes[0]);
  });

  it("bridge quote: an unknown chain is the service's CHAIN_NOT_FOUND (exit 1); a core-spot rule is refused locally (exit 2)", async () => {
    const unknown = await perps(['bridge', 'quote', '--from-chain', 'solana', '--to-chain', 'base', '--from-token', 'native', '--to-token', 'native', '--amount', '1', '--protocols', 'rail_fast']);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatchObject({ code: 'CHAIN_NOT_FOUND', status: 400, exit_code: 1 });
    const coreSpot = await perps(['bridge', 'quote', ...ethToBase, '--protocols', 'core_spot_swap', '--source', 'perpsdesk']);
    expect(coreSpot.code).toBe(2);
    expect(coreSpot.json.error).toMatchObject({ code: 'CORE_SPOT_RULE', exit_code: 2 });
    const minimum = await perps(['bridge', 'quote', '--from-chain', 'venue_evm', '--to-chain', 'venue_evm', '--from-token', 'native', '--to-token', tokenOf('venue_evm', 'USDC'), '--amount', '1', '--protocols', 'core_spot_swap', '--source', 'perpsdesk', '--usd-value', '40']);
    expect(minimum.code).toBe(2);
    expect(minimum.json.error.code).toBe('CORE_SPOT_MINIMUM');
    const usage = await perps(['bridge', 'quote', ...ethToBase]);
    expect(usage.code).toBe(2);
    expect(usage.json.error.code).toBe('USAGE');
  });

  it('bridge send with an env signer, then bridge track: pending, then done once the simulated time passes', async () => {
    const sent = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--source', 'perpsdesk', '--src-usd', '300', '--dst-usd', '299']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(/automation only/);
    expect(sent.json).toMatchObject({ from_chain: 'arbitrum', to_chain: 'base', sender: wallet.address, receiver: wallet.address, route: { protocol: 'rail_fast' }, order: null });
    expect(sent.json.transaction.receipt.status).toBe('success');
    expect(sent.json.points.partnerBonus).toBeGreaterThan(0);
    const srcTx = sent.json.src_tx as string;

    const pending = await perps(['bridge', 'track', '--src-tx', srcTx]);
    expect(pending.code).toBe(0);
    expect(pending.json).toMatchObject({ src_tx: srcTx, state: 'pending' });
    await w.advance(60_000);
    const done = await perps(['bridge', 'track', '--src-tx', srcTx, '--wait']);
    expect(done.code).toBe(0);
    expect(done.json.state).toBe('done');
    expect(done.json.orders[0]).toMatchObject({ state: 'done', src_tx: srcTx });

    const now = Math.floor(w.sim.clock.now() / 1000);
    const lb = await perps(['points', 'leaderboard', '--user', wallet.address, '--from', String(now - 3600), '--to', String(now), '--partner', 'perpsdesk']);
    expect(lb.code, lb.stderr).toBe(0);
    expect(lb.json.point).toBeGreaterThan(0);
    expect(lb.json.partnerBonus).toBeGreaterThan(0);
  });

  it('bridge send --wait ends refunded (exit 1, the result document still printed); track --wait of a failed order exits 1', async () => {
    await w.forceOutcome({ next: true }, 'refunded');
    const r = await perpsWhileAdvancing(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--wait', '--poll', '1s']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.order).toMatchObject({ state: 'refunded' });
    expect(r.json.src_tx).toMatch(/^0x[0-9a-f]{64}$/);

    const sent = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast']);
    expect(sent.code, sent.stderr).toBe(0);
    await w.forceOutcome({ src_tx: sent.json.src_tx as string }, 'failed');
    const failed = await perpsWhileAdvancing(['bridge', 'track', '--src-tx', sent.json.src_tx as string, '--wait', '--poll', '1s']);
    expect(failed.code).toBe(1);
    expect(failed.json.state).toBe('failed');
  });

  it('bridge send: the offline signer is refused for transactions (exit 2); a bad hash is refused (exit 2)', async () => {
    const offline = await perps(['--signer', 'offline', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast']);
    expect(offline.code).toBe(2);
    expect(offline.json.error.code).toBe('SIGNER_UNSUPPORTED');
    const none = await perps(['bridge', 'send', ...ethToBase, '--protocols', 'rail_fast']);
    expect(none.code).toBe(2);
    expect(none.json.error.code).toBe('SIGNER_REQUIRED');
    const badHash = await perps(['bridge', 'track', '--src-tx', '0x1234']);
    expect(badHash.code).toBe(2);
  });

  it('points estimate with the partner code from the environment', async () => {
    const r = await perps(['points', 'estimate', '--user', wallet.address, '--src-chain', 'arbitrum', '--dst-chain', 'base', '--src-token', 'native', '--dst-token', 'native', '--src-usd', '1000', '--dst-usd', '998'], { PERPS_PARTNER_CODE: 'perpsdesk' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ source: 'perpsdesk' });
    expect(r.json.point).toBeGreaterThan(0);
    expect(r.json.partnerBonus).toBeGreaterThan(0);
    const missing = await perps(['points', 'estimate', '--user', wallet.address, '--src-chain', 'arbitrum', '--dst-chain', 'base', '--src-token', 'native', '--dst-token', 'native', '--src-usd', '1', '--dst-usd', '1']);
    expect(missing.code).toBe(2);
    expect(missing.json.error.code).toBe('PARTNER_CODE_REQUIRED');
  });

  it('swap: quote only, then executed with the env signer', async () => {
    const usdc = tokenOf('venue_evm', 'USDC');
    const args = ['swap', '--chain', 'venue_evm', '--token-in', 'native', '--token-out', usdc, '--amount-in', '1.5', '--decimals', '18', '--slippage', '0.005', '--source', 'perpsdesk'];
    const q = await perps([...args, '--quote-only', '--receiver', wallet.address]);
    expect(q.code, q.stderr).toBe(0);
    expect(q.json.quote.amountOut).toMatch(/^\d+$/);
    const r = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r.json.transaction.receipt.status).toBe('success');
    expect(r.json.params).toMatchObject({ chain: 'venue_evm', amountIn: (3n * ETH / 2n).toString(), slippage: '0.005', source: 'perpsdesk', receiver: wallet.address });
  });

  it('bridge send and swap --dry-run: everything up to the first signature, the transactions that would be signed printed (exit 0); nothing is sent', async () => {
    const arbitrum = new JsonRpcProvider(`${w.origin}/rpc/arbitrum`, undefined, { cacheTimeout: -1, staticNetwork: true });
    const venue = new JsonRpcProvider(`${w.origin}/rpc/venue_evm`, undefined, { cacheTimeout: -1, staticNetwork: true });
    try {
      const before = { arbitrum: await arbitrum.getTransactionCount(wallet.address), venue: await venue.getTransactionCount(wallet.address), balance: await arbitrum.getBalance(wallet.address) };
      const bridge = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--source', 'perpsdesk', '--dry-run']);
      expect(bridge.code, bridge.stderr).toBe(0);
      expect(bridge.json).toMatchObject({
        dry_run: true,
        action: 'bridge',
        signer: { role: 'main-wallet', address: wallet.address },
        requests: [],
        view: { from_chain: 'arbitrum', to_chain: 'base', amount: (ETH / 10n).toString(), sender: wallet.address, receiver: wallet.address, route: { protocol: 'rail_fast' } },
      });
      expect(BigInt(bridge.json.view.min_amount_out as string)).toBeLessThanOrEqual(BigInt(bridge.json.view.route.amount_out as string));
      expect(bridge.json.view.transactions).toEqual([
        expect.objectContaining({ tx: 'main', to: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), value: (ETH / 10n).toString(), gas_limit: expect.stringMatching(/^[1-9]\d*$/) }),
      ]);

      const usdc = tokenOf('venue_evm', 'USDC');
      const swap = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'swap', '--chain', 'venue_evm', '--token-in', 'native', '--token-out', usdc, '--amount-in', '0.5', '--decimals', '18', '--slippage', '0.005', '--source', 'perpsdesk', '--dry-run']);
      expect(swap.code, swap.stderr).toBe(0);
      expect(swap.json).toMatchObject({ dry_run: true, action: 'swap', requests: [], view: { chain: 'venue_evm', amount_in: (ETH / 2n).toString(), token_out: usdc, receiver: wallet.address } });
      expect(swap.json.view.amount_out).toMatch(/^\d+$/);
      expect(swap.json.view.transactions).toEqual([expect.objectContaining({ tx: 'main', value: (ETH / 2n).toString() })]);

      // Nothing was signed or broadcast on either chain.
      expect(await arbitrum.getTransactionCount(wallet.address)).toBe(before.arbitrum);
      expect(await venue.getTransactionCount(wallet.address)).toBe(before.venue);
      expect(await arbitrum.getBalance(wallet.address)).toBe(before.balance);

      // A dry run has nothing to wait for, and is not a quote-only run.
      const wait = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--dry-run', '--wait']);
      expect(wait.code).toBe(2);
      expect(wait.json.error.code).toBe('USAGE');
    } finally {
      arbitrum.destroy();
      venue.destroy();
    }
  });

  it('bridge rpc set / list / clear, stored in the settings of the data folder, printed without path or query', async () => {
    const set = await perps(['bridge', 'rpc', 'set', 'arbitrum', `${w.origin}/rpc/arbitrum/`]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toEqual({ chain: 'arbitrum', rpc_url: `${w.origin}/…`, chain_id: '42161' });
    const list = await perps(['bridge', 'rpc', 'list']);
    expect((list.json.chains as J[]).find((c) => c.chain === 'arbitrum')).toEqual({ chain: 'arbitrum', rpc_url: `${w.origin}/…`, stored: true });
    const shown = await perps(['bridge', 'rpc', 'list', '--show-secrets']);
    expect((shown.json.chains as J[]).find((c) => c.chain === 'arbitrum')).toEqual({ chain: 'arbitrum', rpc_url: `${w.origin}/rpc/arbitrum`, stored: true });
    expect(fs.readFileSync(path.join(w.dataDir, 'settings.json'), 'utf8')).toContain('/rpc/arbitrum');
    const bad = await perps(['bridge', 'rpc', 'set', 'arbitrum', 'not a url']);
    expect(bad.code).toBe(2);
    const wrong = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--rpc-url', `${w.origin}/rpc/base`]);
    expect(wrong.code).toBe(1);
    expect(wrong.json.error.code).toBe('WRONG_CHAIN');
    const cleared = await perps(['bridge', 'rpc', 'clear', 'arbitrum']);
    expect(cleared.json).toEqual({ chain: 'arbitrum', removed: true });
  });

  it('bridge rpc set asks the URL for its chain first: another chain, no node, or venue_core store nothing; a key is never printed', async () => {
    const settingsFile = path.join(w.dataDir, 'settings.json');
    const before = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : '';
    const otherChain = await perps(['bridge', 'rpc', 'set', 'arbitrum', proxy.url('base')]);
    expect(otherChain.code).toBe(1);
    expect(otherChain.json.error.code).toBe('WRONG_CHAIN');
    const closed = `http://127.0.0.1:${await closedPort()}/v3/${PROXY_KEY}`;
    const nobody = await perps(['bridge', 'rpc', 'set', 'arbitrum', closed]);
    expect(nobody.code).toBe(1);
    expect(nobody.json.error.code).toBe('RPC_UNREACHABLE');
    const core = await perps(['bridge', 'rpc', 'set', 'venue_core', proxy.url('arbitrum')]);
    expect(core.code).toBe(2);
    for (const r of [otherChain, nobody, core]) expect(r.stdout + r.stderr).not.toContain(PROXY_KEY);
    expect(fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : '').toBe(before);

    const ok = await perps(['bridge', 'rpc', 'set', 'arbitrum', proxy.url('arbitrum')]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toEqual({ chain: 'arbitrum', rpc_url: `${proxy.origin}/…`, chain_id: '42161' });
    expect(ok.stdout + ok.stderr).not.toContain(PROXY_KEY);
    const list = await perps(['bridge', 'rpc', 'list']);
    expect(list.stdout).not.toContain(PROXY_KEY);
    expect((await perps(['bridge', 'rpc', 'clear', 'arbitrum'])).json.removed).toBe(true);
  });

  it('bridge send whose receipt does not come within --receipt-timeout: exit 1 RECEIPT_TIMEOUT, the error naming the src_tx to track', async () => {
    proxy.hook = (c) => (c.method === 'eth_getTransactionReceipt' ? { result: null } : undefined);
    let r: Run;
    try {
      r = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', 'bridge', 'send', ...ethToBase, '--protocols', 'rail_fast', '--rpc-url', proxy.url('arbitrum'), '--receipt-timeout', '1s']);
    } finally {
      proxy.hook = null;
    }
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'RECEIPT_TIMEOUT', exit_code: 1, tx: 'main' });
    const srcTx = r.json.error.src_tx as string;
    expect(srcTx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r.json.error.tx_hash).toBe(srcTx);
    expect(r.json.error.message).toContain(srcTx);
    expect(r.json.error.hint).toContain(`perps bridge track --src-tx ${srcTx}`);
    expect(r.stdout + r.stderr).not.toContain(PROXY_KEY);
    // The transaction was mined: its order is at the bridge.
    const tracked = await perps(['bridge', 'track', '--src-tx', srcTx]);
    expect(tracked.json.state).toBe('pending');
  });

  it('points leaderboard with --from after --to: exit 2, nothing sent', async () => {
    const rec = await recordingServer();
    try {
      const r = await perps(['points', 'leaderboard', '--user', wallet.address, '--from', '1700003600', '--to', '1700000000', '--platform-url', rec.url]);
      expect(r.code).toBe(2);
      expect(r.json.error).toMatchObject({ code: 'VALIDATION_ERROR', exit_code: 2 });
      expect(r.json.error.message).toMatch(/from .* is after to/);
      expect(rec.requests).toEqual([]);
    } finally {
      await rec.stop();
    }
  });

  it('swap with no partner code: exit 2 PARTNER_CODE_REQUIRED, nothing asked or sent', async () => {
    const rec = await recordingServer();
    const p = new JsonRpcProvider(`${w.origin}/rpc/venue_evm`, undefined, { cacheTimeout: -1, staticNetwork: true });
    try {
      const nonce = await p.getTransactionCount(wallet.address);
      const args = ['swap', '--chain', 'venue_evm', '--token-in', 'native', '--token-out', tokenOf('venue_evm', 'USDC'), '--amount-in', '1', '--decimals', '18', '--slippage', '0.005', '--aggregator-url', rec.url, '--platform-url', rec.url];
      const r = await perps(['--signer', 'env:PERPS_TEST_WALLET_KEY', ...args], { PERPS_PARTNER_CODE: '' });
      expect(r.code).toBe(2);
      expect(r.json.error).toMatchObject({ code: 'PARTNER_CODE_REQUIRED', exit_code: 2 });
      expect(rec.requests).toEqual([]);
      expect(await p.getTransactionCount(wallet.address)).toBe(nonce);
    } finally {
      p.destroy();
      await rec.stop();
    }
  });
});
