/**
 * `perps quickstart` and `perps sim faucet`, run by the CLI's own main in this process (test/support/perpsInProcess.ts)
 * against a simulator on loopback on its manual clock (issue 37: the runs keep the simulator's time, so
 * waiting for a deposit to be credited moves that clock instead of waiting), with the real keychain.
 * What a newcomer relies on: one command gives a paper wallet whose key is in the OS keychain, an
 * authorized trading key and credited paper funds, and the next command trades; the paper wallet is
 * refused everywhere but the simulator (exit 2, nothing created, nothing signed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateKey } from '../../../src/main/signers/secp256k1.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { rawKeytar } from '../../support/keychain.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { simClockTime } from '../../support/perpsWorld.js';
import { TradingWorld, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: J;
}
type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function perps(args: string[], profile: 'sim' | 'mainnet' = 'sim', baseUrl = w.sim.urls.base_url): Promise<Run> {
  // The mainnet runs point at the same simulator: whatever they would send must never get that far.
  const globals = ['--profile', profile, '--base-url', baseUrl, '--venue-url', w.sim.urls.venue_info_url, '--data-dir', w.dataDir];
  const r = await perpsInProcess([...globals, ...args], { PERPS_KEYCHAIN_SERVICE: w.keychainService }, { time: simClockTime(w.sim.clock) });
  return { ...r, code: r.code ?? 1, json: args.includes('--json') ? (JSON.parse(r.stdout) as J) : {} };
}

/** The paper wallets this data folder records (settings.json), as the app and the CLI read them. */
function paperWallets(): string[] {
  const file = path.join(w.dataDir, 'settings.json');
  if (!fs.existsSync(file)) return [];
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { vault?: { paperWallets?: { wallet: string }[] } };
  return (settings.vault?.paperWallets ?? []).map((p) => p.wallet);
}

async function deposits(wallet: string): Promise<number> {
  return (await w.ctx.api.depositHistory(accountIdFromWallet(wallet))).deposits.length;
}

beforeAll(async () => {
  w = await TradingWorld.boot('cli-quickstart');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

/** The paper wallet a quickstart made (and its trading key), made now when this data folder records none. */
let made: { wallet: string; agent: string } | undefined;
async function quickstarted(): Promise<{ wallet: string; agent: string }> {
  if (made && paperWallets().includes(made.wallet)) return made;
  const r = await perps(['--json', 'quickstart']);
  expect(r.code, r.stderr).toBe(0);
  made = { wallet: r.json.wallet as string, agent: r.json.agent as string };
  return made;
}

describe('perps quickstart', () => {
  // Each test builds what it needs (issue 37: none relies on another having run first).
  it('makes a paper wallet (key in the OS keychain), authorizes a trading key, funds it, and the next command trades', async () => {
    const recorded = paperWallets();
    const r = await perps(['--json', 'quickstart']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(r.json).sort()).toEqual(['agent', 'default_wallet', 'free_balance', 'wallet']);
    const { wallet, agent } = r.json as { wallet: string; agent: string };
    made = { wallet, agent };
    expect(r.json.free_balance).toBe('10000');

    // The keychain holds the paper wallet's key (and the trading key's), under this test's service.
    const secret = await rawKeytar.getPassword(w.keychainService, `paper-wallet:sim/${wallet.toLowerCase()}`);
    expect(secret).not.toBeNull();
    expect(PrivateKey.fromHex(secret!).address).toBe(wallet);
    expect(await rawKeytar.getPassword(w.keychainService, `sim/${wallet.toLowerCase()}/${agent.toLowerCase()}`)).not.toBeNull();
    // No file in the data folder holds it.
    expect(fs.readFileSync(path.join(w.dataDir, 'settings.json'), 'utf8')).not.toContain(secret!.replace(/^0x/, ''));
    expect(paperWallets()).toEqual([...recorded, wallet]);

    // The service lists the key as authorized by the paper wallet, and the account holds the paper funds.
    expect((await w.ctx.api.tradingKeys(wallet)).map((k) => k.agent_wallet_address)).toEqual([agent]);
    expect((await w.ctx.api.balance(accountIdFromWallet(wallet))).free_balance).toBe('10000');

    // Straight to a trade.
    const m = w.market('BTC');
    const placed = await perps(['--json', 'order', 'place', '--wallet', wallet, '--market', 'BTC', '--side', 'buy', '--size', sizeFor(m, await w.mark('BTC')), '--type', 'market', '--wait']);
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.json.legs[0].final.status).toBe('FILLED');
  });

  it('--reuse keeps the same wallet and its still usable trading key, and adds the amount asked for', async () => {
    const { wallet, agent } = await quickstarted();
    const recorded = paperWallets();
    const before = new Decimal((await w.ctx.api.balance(accountIdFromWallet(wallet))).free_balance);
    const r = await perps(['--json', 'quickstart', '--reuse', '--amount', '2500']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ wallet, agent });
    expect(new Decimal(r.json.free_balance).minus(before).toFixed()).toBe('2500');
    expect(paperWallets()).toEqual(recorded);
  });

  it('the paper wallet signs custody actions on sim with --signer paper', async () => {
    const { wallet } = await quickstarted();
    const r = await perps(['--json', 'withdraw', '--wallet', wallet, '--amount', '5', '--signer', 'paper']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.withdrawal).toMatchObject({ wallet, amount: '5' });
  });

  it('bad input is refused (exit 2) before anything is created', async () => {
    const { wallet } = await quickstarted();
    const count = paperWallets().length;
    for (const [args, code] of [
      [['--amount', '0'], 'INVALID_AMOUNT'],
      [['--amount', '1000001'], 'FAUCET_LIMIT'],
      [['--amount', '1.1234567'], 'INVALID_AMOUNT'],
      // Under the live deposit minimum (GET /config): it would never be credited.
      [['--amount', '0.5'], 'BELOW_MIN'],
      [['--wallet', Wallet.createRandom().address], 'NOT_A_PAPER_WALLET'],
      [['--reuse', '--wallet', wallet], 'USAGE'],
    ] as const) {
      const r = await perps(['--json', 'quickstart', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.json.error.code, args.join(' ')).toBe(code);
    }
    expect(paperWallets().length).toBe(count);
  });

  it('with no simulator to reach it fails (exit 1) before making a wallet', async () => {
    const count = paperWallets().length;
    const r = await perps(['--json', 'quickstart'], 'sim', 'http://127.0.0.1:9/api/v1');
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('NETWORK_ERROR');
    expect(paperWallets().length).toBe(count);
  });
});

describe('perps sim faucet', () => {
  it('credits an existing wallet and waits until it is credited', async () => {
    const target = Wallet.createRandom().address;
    const r = await perps(['--json', 'sim', 'faucet', '--wallet', target, '--amount', '750']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ wallet: target, amount: '750', status: 'CONFIRMED', free_balance: '750' });
    expect(r.json.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await w.ctx.api.balance(accountIdFromWallet(target))).free_balance).toBe('750');
  });

  it('refuses an amount below the deposit minimum or above the faucet limit (exit 2), sending nothing', async () => {
    const target = Wallet.createRandom().address;
    const below = await perps(['--json', 'sim', 'faucet', '--wallet', target, '--amount', '0.5']);
    expect(below.code).toBe(2);
    expect(below.json.error.code).toBe('BELOW_MIN');
    const above = await perps(['--json', 'sim', 'faucet', '--wallet', target, '--amount', '1000000.01']);
    expect(above.code).toBe(2);
    expect(above.json.error.code).toBe('FAUCET_LIMIT');
    expect(await deposits(target)).toBe(0);
  });

  // test/sim/server/cli.test.ts runs `perps sim` itself; here its help keeps its options beside the faucet.
  it('`perps sim --help` keeps the simulator options and lists the faucet', async () => {
    const r = await perps(['sim', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--port <n>/);
    expect(r.stdout).toMatch(/faucet \[options\]/);
  });
});

describe('on a mainnet profile', () => {
  it('quickstart and the faucet are refused (exit 2) and nothing is created or sent', async () => {
    const wallets = paperWallets();
    const service = (await rawKeytar.findCredentials(w.keychainService)).length;
    const r = await perps(['--json', 'quickstart'], 'mainnet');
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: 'NOT_SIM_PROFILE', exit_code: 2 });
    expect(paperWallets()).toEqual(wallets);
    expect((await rawKeytar.findCredentials(w.keychainService)).length).toBe(service);

    const target = Wallet.createRandom().address;
    const faucet = await perps(['--json', 'sim', 'faucet', '--wallet', target, '--amount', '10'], 'mainnet');
    expect(faucet.code).toBe(2);
    expect(faucet.json.error.code).toBe('NOT_SIM_PROFILE');
    expect(await deposits(target)).toBe(0);
  });

  it('the paper wallet signs nothing there: a signed file is never written, and no withdrawal is sent', async () => {
    const { wallet } = await quickstarted();
    const out = path.join(w.dataDir, 'register-mainnet.json');
    const authorize = await perps(['--json', 'keys', 'authorize', '--wallet', wallet, '--agent', Wallet.createRandom().address, '--signer', 'paper', '--out', out], 'mainnet');
    expect(authorize.code).toBe(2);
    expect(authorize.json.error.code).toBe('PAPER_WALLET_SIM_ONLY');
    expect(fs.existsSync(out)).toBe(false);

    const withdrawals = (await w.ctx.api.withdrawalHistory(accountIdFromWallet(wallet))).withdrawals.length;
    const outW = path.join(w.dataDir, 'withdraw-mainnet.json');
    const withdraw = await perps(['--json', 'withdraw', '--wallet', wallet, '--amount', '5', '--signer', 'paper', '--out', outW], 'mainnet');
    expect(withdraw.code).toBe(2);
    expect(withdraw.json.error.code).toBe('PAPER_WALLET_SIM_ONLY');
    expect(fs.existsSync(outW)).toBe(false);
    expect((await w.ctx.api.withdrawalHistory(accountIdFromWallet(wallet))).withdrawals.length).toBe(withdrawals);
  });
});
