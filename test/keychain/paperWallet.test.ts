/**
 * The simulator's paper main wallet against the real OS keychain (a Secret Service in a private D-Bus
 * session, see scripts/test.sh). What users rely on: its key is in the keychain and nowhere in a file, it
 * signs custody actions on the simulator, and it signs nothing on any other profile (refused before the
 * keychain is even read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { simProfile, type Profile } from '../../src/main/profiles/profiles.js';
import { createServiceContext } from '../../src/main/services/serviceContext.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { PaperWalletSigner } from '../../src/main/signers/paperWalletSigner.js';
import { SignerError } from '../../src/main/signers/signerError.js';
import { osKeychain, type Keychain } from '../../src/main/vault/keychain.js';
import { PaperWalletVault, TradingKeyVault, VaultError } from '../../src/main/vault/index.js';
import { authorizeAgentTypedData, digestOf, orderTypedData, recoverDigestSigner, withdrawTypedData } from '../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../src/shared/identity/index.js';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import { filesUnder, rawKeytar, tempDir, testService, wipeService } from '../support/keychain.js';

const services: string[] = [];
const dirs: string[] = [];

/** The real OS keychain, with its reads counted (to show a refusal happens before any read). */
function countingKeychain(): { keychain: Keychain; reads: () => number } {
  let reads = 0;
  return {
    keychain: { ...osKeychain, get: (service, account) => ((reads += 1), osKeychain.get(service, account)) },
    reads: () => reads,
  };
}

function setup(label: string, keychain?: Keychain) {
  const service = testService(label);
  services.push(service);
  const dataDir = tempDir(label);
  dirs.push(dataDir);
  const store = openNodeSettings(dataDir);
  return { service, dataDir, store, vault: new PaperWalletVault({ store, service, ...(keychain ? { keychain } : {}) }) };
}

afterEach(async () => {
  for (const s of services.splice(0)) await wipeService(s);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const SIM = { name: 'sim', environment: 'Testnet', baseUrl: 'http://127.0.0.1:8645/api/v1' };
const MAINNET = { name: 'mainnet', environment: 'Mainnet', baseUrl: 'https://service.invalid/api/v1' };

function authorize(wallet: string, environment: 'Testnet' | 'Mainnet') {
  return authorizeAgentTypedData({
    wallet_address: wallet,
    agent_wallet_address: Wallet.createRandom().address,
    service_environment: environment,
    signature_chain_id: 421614,
    expires_at: Date.now() + 86_400_000,
    nonce: Date.now(),
  });
}

describe('paper wallet in the real keychain', () => {
  it('is created on the sim profile with its key only in the keychain, marked paper and bound to sim', async () => {
    const { vault, service, dataDir } = setup('paper-create');
    const meta = await vault.create('sim');
    expect(meta).toMatchObject({ paper: true, environment: 'sim' });
    expect(meta.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);

    // One keychain entry, under the paper prefix, holding the key of exactly that address.
    const creds = await rawKeytar.findCredentials(service);
    expect(creds.map((c) => c.account)).toEqual([`paper-wallet:sim/${meta.wallet.toLowerCase()}`]);
    expect(PrivateKey.fromHex(creds[0]!.password).address).toBe(meta.wallet);

    // The settings file carries the metadata and never the key.
    const settings = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { vault: { paperWallets: unknown[] } };
    expect(settings.vault.paperWallets).toEqual([meta]);
    for (const file of filesUnder(dataDir)) expect(fs.readFileSync(file, 'utf8')).not.toContain(creds[0]!.password.replace(/^0x/, ''));

    // Listed on sim only; another profile has no such wallet.
    expect(vault.list('sim')).toEqual([meta]);
    expect(vault.list('mainnet')).toEqual([]);
    expect(vault.get('mainnet', meta.wallet)).toBeUndefined();
    // The trading keys never see it.
    expect(new TradingKeyVault({ store: openNodeSettings(dataDir), service }).list()).toEqual([]);
  });

  it('is refused on any profile but sim, and nothing reaches the keychain', async () => {
    const { vault, service } = setup('paper-mainnet');
    await expect(vault.create('mainnet')).rejects.toMatchObject({ name: 'VaultError', code: 'VALIDATION_ERROR' });
    expect(await rawKeytar.findCredentials(service)).toEqual([]);
    expect(vault.list('sim')).toEqual([]);
  });

  it('signs custody actions on sim that recover the wallet, after a restart too (the key is read back from the keychain)', async () => {
    const { vault, service, store } = setup('paper-sign');
    const { wallet } = await vault.create('sim');
    const signer = new PaperWalletSigner(vault, wallet, () => SIM);
    const td = authorize(wallet, 'Testnet');
    expect(recoverDigestSigner(digestOf(td), await signer.signTypedData(td))).toBe(wallet);

    // A new process: a fresh vault over the same settings and keychain service.
    const again = new PaperWalletSigner(new PaperWalletVault({ store, service }), wallet, () => SIM);
    const withdraw = withdrawTypedData({ account_id: accountIdFromWallet(wallet), amount: '25', nonce: String(Date.now()), signature_chain_id: 421614 }, 'Testnet');
    expect(recoverDigestSigner(digestOf(withdraw), await again.signTypedData(withdraw))).toBe(wallet);
  });

  it('signs nothing when a mainnet profile is in force: refused before the keychain is read', async () => {
    const counting = countingKeychain();
    const { vault, store } = setup('paper-refuse', counting.keychain);
    const { wallet } = await vault.create('sim');
    // A fresh vault (nothing cached in memory) over the same counted keychain and store.
    const fresh = new PaperWalletVault({ store, service: vault.service, keychain: counting.keychain });
    let active: { name: string; environment: string; baseUrl: string } = MAINNET;
    const signer = new PaperWalletSigner(fresh, wallet, () => active);

    for (const td of [authorize(wallet, 'Mainnet'), authorize(wallet, 'Testnet')]) {
      const err = await signer.signTypedData(td).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignerError);
      expect(err).toMatchObject({ code: 'PAPER_WALLET_SIM_ONLY', errorKind: 'validation' });
    }
    expect(counting.reads()).toBe(0);

    // The vault itself refuses another profile too.
    await expect(fresh.signTypedData('mainnet', wallet, authorize(wallet, 'Mainnet'))).rejects.toBeInstanceOf(VaultError);
    expect(counting.reads()).toBe(0);

    // Back on sim, a message signed for Mainnet is still refused; an order is not a main wallet's to sign.
    active = SIM;
    await expect(signer.signTypedData(authorize(wallet, 'Mainnet'))).rejects.toMatchObject({ code: 'PAPER_WALLET_SIM_ONLY' });
    const order = orderTypedData(
      accountIdFromWallet(wallet),
      { market: 'BTC', side: 'BUY', size: '0.01', limit_price: '65000', order_type: 'LIMIT', time_in_force: 'GTC', nonce: '1763700002000', leverage: 5 },
      'testnet',
    );
    await expect(signer.signTypedData(order)).rejects.toMatchObject({ code: 'PAPER_WALLET_UNSUPPORTED' });
    expect(counting.reads()).toBe(0);
    // And the one legitimate signature reads the keychain once.
    await signer.signTypedData(authorize(wallet, 'Testnet'));
    expect(counting.reads()).toBe(1);
  });

  it("the services' paperSigner refuses a mainnet profile and an address that is not a paper wallet", async () => {
    const { service, dataDir } = setup('paper-ctx');
    const simCtx = createServiceContext(simProfile({ base_url: 'http://127.0.0.1:9/api/v1', venue_info_url: 'http://127.0.0.1:9/venue/info' }, dataDir), { keychainService: service });
    const { wallet } = await simCtx.paperWallets.create('sim');
    expect(simCtx.paperSigner(wallet)).toMatchObject({ kind: 'paper', address: wallet });
    expect(() => simCtx.paperSigner(Wallet.createRandom().address)).toThrow(expect.objectContaining({ code: 'NOT_A_PAPER_WALLET', kind: 'validation' }));

    const mainnet: Profile = { ...simCtx.profile, name: 'mainnet', network: 'mainnet', environment: 'Mainnet', tradingChainId: 999 };
    const mainCtx = createServiceContext(mainnet, { keychainService: service });
    expect(() => mainCtx.paperSigner(wallet)).toThrow(expect.objectContaining({ code: 'PAPER_WALLET_SIM_ONLY', kind: 'validation', exitCode: 2 }));
    expect(mainCtx.paperWallets.list('mainnet')).toEqual([]);
  });

  it('signs nothing for a sim profile whose service is not on loopback, checked on the URL before the keychain is read (issue 26.19)', async () => {
    const counting = countingKeychain();
    const { vault, store, service, dataDir } = setup('paper-remote', counting.keychain);
    const { wallet } = await vault.create('sim');
    const fresh = new PaperWalletVault({ store, service: vault.service, keychain: counting.keychain });
    // Private, link-local, public and named hosts: none is this machine. These are only parsed, never contacted.
    for (const baseUrl of ['http://10.1.2.3:8645/api/v1', 'http://192.168.1.5:8645/api/v1', 'http://169.254.1.1/api/v1', 'https://93.184.216.34/api/v1', 'http://sim.example:8645/api/v1', 'http://[fe80::1]:8645/api/v1', 'http://127.0.0.1.nip.io/api/v1']) {
      const signer = new PaperWalletSigner(fresh, wallet, () => ({ ...SIM, baseUrl }));
      await expect(signer.signTypedData(authorize(wallet, 'Testnet')), baseUrl).rejects.toMatchObject({ code: 'PAPER_WALLET_SIM_ONLY', errorKind: 'validation', message: expect.stringContaining(baseUrl) });
      const ctx = createServiceContext(simProfile({ base_url: baseUrl, venue_info_url: 'http://127.0.0.1:9/venue/info' }, dataDir), { keychainService: service, keychain: counting.keychain });
      expect(() => ctx.paperSigner(wallet), baseUrl).toThrow(expect.objectContaining({ code: 'PAPER_WALLET_SIM_ONLY', kind: 'validation', exitCode: 2, field: 'base-url' }));
    }
    expect(counting.reads()).toBe(0);
    // Loopback in every spelling is this machine: the signature goes through.
    for (const baseUrl of ['http://127.0.0.1:8645/api/v1', 'http://127.9.8.7:1/api/v1', 'http://localhost:8645/api/v1', 'http://[::1]:8645/api/v1']) {
      const signer = new PaperWalletSigner(fresh, wallet, () => ({ ...SIM, baseUrl }));
      const td = authorize(wallet, 'Testnet');
      expect(recoverDigestSigner(digestOf(td), await signer.signTypedData(td))).toBe(wallet);
    }
  });
});
