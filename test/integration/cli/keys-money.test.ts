/**
 * The real `perps` program (src/cli/main.ts's main, in this process: test/support/perpsInProcess.ts) against a simulator over loopback HTTP,
 * with --json: stdout must be exactly one JSON document, and the exit code 0 (success), 1 (the operation
 * failed) or 2 (bad usage or validation; nothing signed or sent). Keys go to the real OS keychain under a
 * test-only service name.
 *
 * The tests share one main wallet and data folder, but none relies on another having run: each first
 * ensures what it starts from, read back through the CLI (a key of the wallet stored here and never
 * authorized; a free balance; a completed withdrawal of 10) and builds only what is missing. In file order
 * the ensures find it in place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TypedDataEncoder, Wallet, encryptKeystoreJsonSync } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { jsonOf } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { SimHarness } from '../support/keysMoney.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (the test fails when it is not exactly one document). */
  json: Record<string, unknown> & { error?: Record<string, unknown> };
}

let h: SimHarness;
const service = testService('cli-keys-money');
const dataDir = tempDir('cli-keys-money');
const main = Wallet.createRandom();

beforeAll(async () => {
  h = await SimHarness.boot();
});

afterAll(async () => {
  await wipeService(service);
  await h.stop();
});

/** The variables a run sets over this process's environment. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PERPS_BASE_URL: h.urls.base_url,
    PERPS_VENUE_URL: h.urls.venue_info_url,
    PERPS_DATA_DIR: dataDir,
    PERPS_KEYCHAIN_SERVICE: service,
    PERPS_TEST_MAIN_KEY: main.privateKey,
    ...extra,
  };
}

async function perps(args: string[], env: Record<string, string> = baseEnv()): Promise<Run> {
  const r = await perpsInProcess(args, env);
  return { ...r, json: args.includes('--json') ? jsonOf(r) : {} };
}

/** A describe block runs several commands against one simulator. */
const SLOW = { timeout: 120_000 };

function nonceFile(dir = dataDir): string {
  const f = path.join(dir, 'nonces.json');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
}

interface DryRunRequest {
  label: string;
  digest: string;
  typed_data: { domain: Record<string, unknown>; types: Record<string, { name: string; type: string }[]>; primaryType: string; message: Record<string, unknown> };
}

/** The EIP-712 digest any wallet computes (ethers) from the typed data a dry run printed. */
function digestOfPrinted(r: DryRunRequest): string {
  const types = Object.fromEntries(Object.entries(r.typed_data.types).filter(([k]) => k !== 'EIP712Domain'));
  return TypedDataEncoder.hash(r.typed_data.domain, types, r.typed_data.message);
}

describe('perps markets / config', SLOW, () => {
  it('prints the live markets and funding configuration', async () => {
    const markets = await perps(['markets', '--json']);
    expect(markets.code).toBe(0);
    expect((markets.json as unknown as { symbol: string }[]).map((m) => m.symbol)).toEqual(h.sim.config.markets.filter((m) => m.is_active).map((m) => m.symbol));
    const config = await perps(['config', '--json']);
    expect(config.code).toBe(0);
    expect(config.json).toMatchObject({
      profile: { name: 'sim', environment: 'Testnet', trading_chain_id: 998, base_url: h.urls.base_url },
      config: { withdrawal: { min_amount: h.sim.config.funding_config.withdrawal.min_amount } },
      deposit: { address: h.sim.config.funding_config.deposit.hypercore.address },
    });
  });

  it('network failure is exit 1, an unconfigured mainnet profile is exit 2', async () => {
    const down = await perps(['--base-url', 'http://127.0.0.1:1/api/v1', 'markets', '--json']);
    expect(down.code).toBe(1);
    expect(down.json.error).toMatchObject({ code: 'NETWORK_ERROR', exit_code: 1 });
    const env = baseEnv();
    delete env['PERPS_BASE_URL'];
    delete env['PERPS_VENUE_URL'];
    const mainnet = await perps(['--profile', 'mainnet', 'config', '--json'], env);
    expect(mainnet.code).toBe(2);
    expect(mainnet.json.error).toMatchObject({ code: 'PROFILE_NOT_CONFIGURED' });
    expect(String(mainnet.json.error?.['message'])).toMatch(/--base-url/);
  });
});

describe('perps keys', SLOW, () => {
  let agent = '';

  /**
   * A key of `main` stored in this data folder and never authorized, as `keys list` shows it: the shared
   * one, or a new one (`keys new`) when it is gone (revoked) or authorized.
   */
  async function ensureUnauthorizedKey(): Promise<string> {
    const list = await perps(['keys', 'list', '--wallet', main.address, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const keys = list.json['keys'] as { agent: string; status: string }[];
    if (agent !== '' && keys.some((k) => k.agent.toLowerCase() === agent.toLowerCase() && k.status === 'NOT_AUTHORIZED')) return agent;
    const created = await perps(['keys', 'new', '--wallet', main.address, '--json']);
    expect(created.code, created.stderr).toBe(0);
    agent = created.json['agent'] as string;
    return agent;
  }

  it('keys new prints the new address (bare in human mode)', async () => {
    const human = await perps(['keys', 'new', '--wallet', main.address, '--name', 'human']);
    expect(human.code).toBe(0);
    expect(human.stdout.trim()).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const r = await perps(['keys', 'new', '--wallet', main.address, '--json']);
    expect(r.code).toBe(0);
    agent = r.json['agent'] as string;
    expect(agent).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(r.json).toMatchObject({ wallet: main.address, environment: 'sim', expires_at: null });
  });

  it('usage and validation errors exit 2 and sign and send nothing', async () => {
    await ensureUnauthorizedKey();
    const before = nonceFile();
    const [tooLong, missing, noSigner, ledger, badAddress, unknown] = await Promise.all([
      perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--expires-in', '181d', '--json']),
      perps(['keys', 'authorize', '--wallet', main.address, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']),
      perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--json']),
      perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', 'ledger:no-such-scheme:0', '--json']),
      perps(['keys', 'list', '--wallet', '0x1234', '--json']),
      perps(['nonsense', '--json']),
    ]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.json.error).toMatchObject({ code: 'INVALID_EXPIRY', exit_code: 2 });
    expect(missing.code).toBe(2);
    expect(missing.json.error).toMatchObject({ code: 'USAGE' });
    expect(noSigner.code).toBe(2);
    expect(noSigner.json.error).toMatchObject({ code: 'SIGNER_REQUIRED' });
    // The Ledger signer exists now; a malformed derivation path is still bad usage, refused before any device.
    expect(ledger.code).toBe(2);
    expect(ledger.json.error).toMatchObject({ code: 'INVALID_LEDGER_PATH', exit_code: 2 });
    expect(badAddress.code).toBe(2);
    expect(unknown.code).toBe(2);
    expect(nonceFile()).toBe(before);
    const list = await perps(['keys', 'list', '--wallet', main.address, '--json']);
    expect((list.json['keys'] as { status: string }[]).every((k) => k.status === 'NOT_AUTHORIZED')).toBe(true);
  });

  it('--dry-run prints what authorize, renew and revoke would sign (exit 0, no --signer needed); nothing is sent', async () => {
    await ensureUnauthorizedKey();
    const listBefore = await perps(['keys', 'list', '--wallet', main.address, '--json']);
    const auth = await perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--expires-in', '30d', '--dry-run', '--json']);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.json).toMatchObject({
      dry_run: true,
      action: 'authorize',
      signer: { role: 'main-wallet', address: main.address },
      view: { wallet: main.address, agent, environment: 'Testnet', chain_id: 998, stored_locally: true, warnings: [] },
    });
    const [request] = auth.json['requests'] as DryRunRequest[];
    expect(request).toMatchObject({ label: 'AuthorizeAgent', typed_data: { primaryType: 'AuthorizeAgent', domain: { name: 'Service Perps', version: '2', chainId: 998 }, message: { user: main.address, agent } } });
    expect(request!.digest).toBe(digestOfPrinted(request!));

    // An agent this data folder does not hold: the ceremony's case, said plainly.
    const foreign = Wallet.createRandom().address;
    const human = await perps(['keys', 'authorize', '--wallet', main.address, '--agent', foreign, '--dry-run']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/DRY RUN: nothing was signed or sent/);
    expect(human.stdout).toMatch(/hands trading rights .* to a key this machine does not hold/);
    expect(human.stdout).toMatch(/digest: 0x[0-9a-f]{64}/);
    const foreignJson = await perps(['keys', 'authorize', '--wallet', main.address, '--agent', foreign, '--dry-run', '--json']);
    expect((foreignJson.json['view'] as { warnings: string[] }).warnings[0]).toMatch(/does not hold/);

    const renew = await perps(['keys', 'renew', '--wallet', main.address, '--agent', agent, '--dry-run', '--json']);
    expect(renew.code, renew.stderr).toBe(0);
    expect(renew.json).toMatchObject({ action: 'renew', view: { previous_expires_at: null } });
    const revoke = await perps(['keys', 'revoke', '--wallet', main.address, '--agent', agent, '--dry-run', '--json']);
    expect(revoke.code, revoke.stderr).toBe(0);
    const [revokeRequest] = revoke.json['requests'] as DryRunRequest[];
    expect(revokeRequest).toMatchObject({ label: 'RevokeAgent', typed_data: { primaryType: 'RevokeAgent' } });
    expect(revokeRequest!.digest).toBe(digestOfPrinted(revokeRequest!));

    // Nothing reached the service, and the local key is still there.
    expect((await perps(['keys', 'list', '--wallet', main.address, '--json'])).json).toEqual(listBefore.json);
  });

  it('authorize, list, revoke', async () => {
    await ensureUnauthorizedKey();
    const auth = await perps(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--expires-in', '30d', '--json']);
    expect(auth.code).toBe(0);
    expect(auth.json).toMatchObject({ agent, wallet: main.address, stored_locally: true });
    expect(auth.stderr).toMatch(/automation only/);
    const list = await perps(['keys', 'list', '--wallet', main.address, '--json']);
    expect(list.code).toBe(0);
    expect(list.json['keys']).toContainEqual(expect.objectContaining({ agent, status: 'ACTIVE', listed: true, expires_at: auth.json['expires_at'] }));
    const revoke = await perps(['keys', 'revoke', '--wallet', main.address, '--agent', agent, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']);
    expect(revoke.code).toBe(0);
    expect(revoke.json).toMatchObject({ revoked: true, deleted_locally: true });
    const after = await perps(['keys', 'list', '--wallet', main.address, '--json']);
    expect((after.json['keys'] as { agent: string }[]).map((k) => k.agent)).not.toContain(agent);
  });

  it('offline ceremony: authorize --out with a keystore on one data folder, keys submit on another', async () => {
    const wallet = Wallet.createRandom();
    const walletDir = tempDir('cli-wallet-machine');
    const keystore = path.join(walletDir, 'main.json');
    fs.writeFileSync(keystore, encryptKeystoreJsonSync({ address: wallet.address, privateKey: wallet.privateKey }, 'secret', { scrypt: { N: 1 << 10 } }));
    const tradingEnv = baseEnv({ PERPS_DATA_DIR: tempDir('cli-trading-machine') });
    const created = await perps(['keys', 'new', '--wallet', wallet.address, '--json'], tradingEnv);
    const newAgent = created.json['agent'] as string;

    const out = path.join(walletDir, 'register.json');
    const signed = await perps(
      ['keys', 'authorize', '--wallet', wallet.address, '--agent', newAgent, '--signer', `keystore:${keystore}`, '--out', out, '--json'],
      baseEnv({ PERPS_DATA_DIR: walletDir, PERPS_KEYSTORE_PASSWORD: 'secret' }),
    );
    expect(signed.code).toBe(0);
    expect(signed.json).toMatchObject({ out, agent: newAgent, submitted: false });
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ wallet_address: wallet.address, agent_wallet_address: newAgent, service_environment: 'Testnet' });

    const wrongPassword = await perps(
      ['keys', 'authorize', '--wallet', wallet.address, '--agent', newAgent, '--signer', `keystore:${keystore}`, '--out', out + '2', '--json'],
      baseEnv({ PERPS_DATA_DIR: walletDir, PERPS_KEYSTORE_PASSWORD: 'wrong' }),
    );
    expect(wrongPassword.code).toBe(2);
    expect(wrongPassword.json.error).toMatchObject({ code: 'WRONG_PASSWORD' });

    const submitted = await perps(['keys', 'submit', out, '--json'], tradingEnv);
    expect(submitted.code).toBe(0);
    expect(submitted.json).toMatchObject({ agent: newAgent, stored_locally: true, already_registered: false });
    const list = await perps(['keys', 'list', '--wallet', wallet.address, '--json'], tradingEnv);
    expect(list.json['keys']).toEqual([expect.objectContaining({ agent: newAgent, status: 'ACTIVE', stored_locally: true })]);
  });
});

describe('perps withdraw / balance / history', SLOW, () => {
  /** `main`'s free balance, as `perps balance` reads it. */
  async function freeBalance(): Promise<Decimal> {
    const balance = await perps(['balance', '--wallet', main.address, '--json']);
    expect(balance.code, balance.stderr).toBe(0);
    return new Decimal(balance.json['free_balance'] as string);
  }

  /**
   * At least `min` free: a deposit of 100 when short. The withdrawals here take 10 at most twice, so
   * `main` is funded by exactly one deposit of 100 in any order (the history test counts on it).
   */
  async function ensureFunded(min: string): Promise<void> {
    if ((await freeBalance()).lt(min)) await h.fund(main.address, '100');
  }

  function withdrawTenAndWait(): Promise<Run> {
    return h.advanceDuring(perps(['withdraw', '--wallet', main.address, '--amount', '10', '--signer', 'env:PERPS_TEST_MAIN_KEY', '--wait', '--json']), 500, 50);
  }

  /** A COMPLETED withdrawal of 10 in `main`'s history (the one 'withdraws and waits' makes), made when there is none. */
  async function ensureWithdrewTen(): Promise<void> {
    const history = (await perps(['history', 'withdrawals', '--wallet', main.address, '--json'])).json['withdrawals'] as { amount: string; status: string }[];
    if (history.some((w) => w.amount === '10' && w.status === 'COMPLETED')) return;
    await ensureFunded('10');
    const r = await withdrawTenAndWait();
    expect(r.code, r.stderr).toBe(0);
  }

  it('withdraws and waits to COMPLETED', async () => {
    await ensureFunded('10');
    const before = await freeBalance();
    const r = await withdrawTenAndWait();
    expect(r.code).toBe(0);
    expect(r.json['withdrawal']).toMatchObject({ amount: '10', status: 'COMPLETED', phase: 'DONE' });
    // The wallet deposited: it has history, so no new-wallet fee is previewed (nor charged: the full 10 left).
    expect(r.json['check']).toMatchObject({ fee_preview: null });
    expect(r.json['withdrawal']).toMatchObject({ l1_send_amount: '10' });
    expect(JSON.stringify(r.json)).not.toMatch(/"signature"/);
    const balance = await perps(['balance', '--wallet', main.address, '--json']);
    expect(balance.code).toBe(0);
    // The full 10 left the free balance (90 of the one deposit of 100 when this runs first).
    expect(balance.json).toMatchObject({ wallet: main.address, free_balance: before.minus('10').toFixed() });
  });

  it('a validation error (over the free balance) exits 2 and signs and sends nothing', async () => {
    const before = nonceFile();
    const historyBefore = (await perps(['history', 'withdrawals', '--wallet', main.address, '--json'])).json['withdrawals'] as unknown[];
    const r = await perps(['withdraw', '--wallet', main.address, '--amount', '1000', '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']);
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', exit_code: 2 });
    expect(r.stderr).not.toMatch(/automation only/); // the signer was never even opened
    const bad = await perps(['withdraw', '--wallet', main.address, '--amount', '1.0000001', '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']);
    expect(bad.code).toBe(2);
    expect(nonceFile()).toBe(before);
    const historyAfter = (await perps(['history', 'withdrawals', '--wallet', main.address, '--json'])).json['withdrawals'] as unknown[];
    expect(historyAfter).toEqual(historyBefore);
  });

  it('--dry-run checks and prints the Withdraw that would be signed (exit 0, no --signer needed); nothing is sent', async () => {
    await ensureFunded('3.5');
    const historyBefore = (await perps(['history', 'withdrawals', '--wallet', main.address, '--json'])).json['withdrawals'] as unknown[];
    const r = await perps(['withdraw', '--wallet', main.address, '--amount', '3.5', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      dry_run: true,
      action: 'withdraw',
      signer: { role: 'main-wallet', address: main.address },
      view: { amount: '3.5', amount_base_units: '3500000', destination: main.address, checked: true, min_amount: h.sim.config.funding_config.withdrawal.min_amount },
    });
    const [request] = r.json['requests'] as DryRunRequest[];
    expect(request).toMatchObject({ label: 'Withdraw', typed_data: { primaryType: 'Withdraw', message: { user: main.address, amount: '3500000' } } });
    expect(request!.digest).toBe(digestOfPrinted(request!));
    // The checks still refuse (exit 2), and a dry run has nothing to wait for.
    const over = await perps(['withdraw', '--wallet', main.address, '--amount', '100000', '--dry-run', '--json']);
    expect(over.json.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', exit_code: 2 });
    const wait = await perps(['withdraw', '--wallet', main.address, '--amount', '3.5', '--dry-run', '--wait', '--json']);
    expect(wait.json.error).toMatchObject({ code: 'USAGE', exit_code: 2 });
    expect((await perps(['history', 'withdrawals', '--wallet', main.address, '--json'])).json['withdrawals']).toEqual(historyBefore);
    expect((await perps(['withdraw', '--wallet', main.address, '--resume', '--json'])).json).toEqual({ withdrawals: [], damaged: [] });
  });

  it('a withdrawal record that is not one is named by `withdraw --resume` (text and --json), never resent, and fails nothing', async () => {
    const folder = path.join(dataDir, 'withdrawals');
    fs.mkdirSync(folder, { recursive: true });
    const torn = path.join(folder, 'torn-record.json');
    fs.writeFileSync(torn, '{"intent_id": "torn", "phase": "SIGNED", "body": {"sig', { mode: 0o600 });
    try {
      const json = await perps(['withdraw', '--wallet', main.address, '--resume', '--json']);
      expect(json.code, json.stderr).toBe(0);
      expect(json.json).toEqual({ withdrawals: [], damaged: [{ file: torn, reason: expect.stringMatching(/^its file is not valid JSON/) }] });
      const text = await perps(['withdraw', '--wallet', main.address, '--resume']);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toContain('warning: the withdrawal record torn-record.json is damaged and was not resumed: its file is not valid JSON');
    } finally {
      fs.rmSync(torn);
    }
  });

  it('an amount longer than 64 characters is refused as INVALID_AMOUNT (exit 2) before anything is signed, even when only signing (--out)', async () => {
    const before = nonceFile();
    const out = path.join(tempDir('cli-long-amount'), 'withdrawal.json');
    const huge = '9'.repeat(80);
    const [signOnly, online] = await Promise.all([
      perps(['withdraw', '--wallet', main.address, '--amount', huge, '--out', out, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']),
      perps(['withdraw', '--wallet', main.address, '--amount', '1'.repeat(65), '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json']),
    ]);
    for (const r of [signOnly, online]) {
      expect(r.code).toBe(2);
      expect(r.json.error).toMatchObject({ code: 'INVALID_AMOUNT', exit_code: 2 });
      expect(r.stderr).not.toMatch(/automation only/); // the signer was never opened
    }
    expect(fs.existsSync(out)).toBe(false);
    expect(nonceFile()).toBe(before);
  });

  it('a submit-time rejection exits 1 with its reason', async () => {
    // ABOVE_MAX passes every local check (minimum, free balance) and only the service refuses it. (A
    // wallet withdrawing to itself has deposited, so it has history and never meets BELOW_MIN_AFTER_FEE.)
    const fresh = Wallet.createRandom();
    const maxPerTx = h.sim.config.withdrawal_limits.max_per_tx;
    const amount = new Decimal(maxPerTx).plus(1).toFixed();
    await h.fund(fresh.address, amount);
    const r = await perps(['withdraw', '--wallet', fresh.address, '--amount', amount, '--signer', 'env:PERPS_FRESH', '--json'], baseEnv({ PERPS_FRESH: fresh.privateKey }));
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'ABOVE_MAX', exit_code: 1 });
  });

  it('history deposits and withdrawals, as JSON and as CSV', async () => {
    await ensureWithdrewTen();
    const deposits = await perps(['history', 'deposits', '--wallet', main.address, '--json']);
    expect(deposits.code).toBe(0);
    expect(deposits.json['deposits']).toEqual([expect.objectContaining({ amount: '100', status: 'CONFIRMED' })]);
    const csv = await perps(['history', 'withdrawals', '--wallet', main.address, '--csv']);
    expect(csv.code).toBe(0);
    // One CSV writer for every export (the app's too): RFC 4180, every record ended by CRLF.
    expect(csv.stdout.endsWith('\r\n')).toBe(true);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('withdrawal_id,amount,l1_send_amount,destination,status,failure_reason,l1_tx_hash,created_at,completed_at');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',10,');
    const both = await perps(['history', 'withdrawals', '--wallet', main.address, '--csv', '--json']);
    expect(both.code).toBe(2);
  });
});
