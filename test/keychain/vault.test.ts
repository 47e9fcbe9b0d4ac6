/**
 * The trading-key vault against the real OS keychain (a Secret Service in a private D-Bus session, see
 * scripts/test.sh). What users rely on: a key survives restarts, never lands in a file, and is gone
 * from the keychain when deleted.
 */
import fs from 'node:fs';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { TradingKeySigner } from '../../src/main/signers/tradingKeySigner.js';
import { TradingKeyVault, VaultError } from '../../src/main/vault/index.js';
import { bytesToHex, digestOf, orderTypedData, recoverDigestSigner, withdrawTypedData } from '../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../src/shared/identity/index.js';
import { filesUnder, rawKeytar, tempDir, testService, vaultInChild, wipeService } from '../support/keychain.js';

const services: string[] = [];
function setup(label: string) {
  const service = testService(label);
  services.push(service);
  const dataDir = tempDir(label);
  const vault = new TradingKeyVault({ store: openNodeSettings(dataDir), service });
  return { service, dataDir, vault };
}

afterEach(async () => {
  for (const s of services.splice(0)) await wipeService(s);
});

const wallet = Wallet.createRandom().address;

function sampleOrder(agentWallet: string) {
  return orderTypedData(
    accountIdFromWallet(agentWallet),
    { market: 'BTC', side: 'BUY', size: '0.01', limit_price: '65000', order_type: 'LIMIT', time_in_force: 'GTC', nonce: '1763700002000', leverage: 5 },
    'testnet',
  );
}

describe('trading-key vault on the real keychain', () => {
  it('creates a key whose signatures recover to its address, and lists its metadata', async () => {
    const { vault, service } = setup('create');
    const meta = await vault.create({ environment: 'sim', wallet, name: 'desk' });
    expect(meta).toMatchObject({ environment: 'sim', wallet, name: 'desk', expires_at: null });
    expect(meta.agent).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(vault.list({ environment: 'sim' })).toEqual([meta]);
    expect(vault.list({ environment: 'mainnet' })).toEqual([]);

    const td = sampleOrder(wallet);
    const sig = await vault.signTypedData(meta, td);
    expect(recoverDigestSigner(digestOf(td), sig)).toBe(meta.agent);

    // The keychain entry is namespaced by environment, wallet and agent.
    const accounts = (await rawKeytar.findCredentials(service)).map((c) => c.account);
    expect(accounts).toEqual([`sim/${wallet.toLowerCase()}/${meta.agent.toLowerCase()}`]);
  });

  it('still signs after a process restart (key created in one process, used in another)', async () => {
    const { service, dataDir } = setup('restart');
    const created = await vaultInChild(['create', dataDir, service, 'sim', wallet]);
    expect(created.ok).toBe(true);
    const agent = (created.out as { agent: string }).agent;
    const digest = bytesToHex(digestOf(sampleOrder(wallet)));
    const signed = await vaultInChild(['sign', dataDir, service, 'sim', wallet, agent, digest]);
    expect(signed.ok).toBe(true);
    const sig = (signed.out as { signature: string }).signature;
    expect(recoverDigestSigner(digestOf(sampleOrder(wallet)), sig)).toBe(agent);
    // And a third process lists it from the settings store.
    const listed = await vaultInChild(['list', dataDir, service, 'sim', wallet]);
    expect((listed.out as { agent: string }[]).map((m) => m.agent)).toEqual([agent]);
  });

  it('never writes the private key to any file under the settings folder', async () => {
    const { vault, service, dataDir } = setup('nofile');
    const metas = [await vault.create({ environment: 'sim', wallet }), await vault.create({ environment: 'mainnet', wallet })];
    vault.setExpiry(metas[0]!, Date.now() + 86_400_000);
    await vault.signTypedData(metas[0]!, sampleOrder(wallet));
    for (const meta of metas) {
      const secret = await rawKeytar.getPassword(service, TradingKeyVault.entryName(meta));
      expect(secret).toMatch(/^0x[0-9a-f]{64}$/);
      const bare = secret!.slice(2);
      const files = filesUnder(dataDir);
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const text = fs.readFileSync(f, 'utf8').toLowerCase();
        expect(text.includes(bare)).toBe(false);
        expect(fs.readFileSync(f).includes(Buffer.from(bare, 'hex'))).toBe(false);
      }
    }
  });

  it('delete removes the key from the keychain and its metadata; signing then fails with KEY_NOT_FOUND', async () => {
    const { vault, service } = setup('delete');
    const meta = await vault.create({ environment: 'sim', wallet });
    const entry = TradingKeyVault.entryName(meta);
    expect(await rawKeytar.getPassword(service, entry)).not.toBeNull();
    expect(await vault.delete(meta)).toBe(true);
    expect(await rawKeytar.getPassword(service, entry)).toBeNull();
    expect(vault.list()).toEqual([]);
    await expect(vault.signTypedData(meta, sampleOrder(wallet))).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
    expect(await vault.delete(meta)).toBe(false);
  });

  it('a fresh vault instance (cold cache) reads the key back from the keychain', async () => {
    const { vault, service, dataDir } = setup('cold');
    const meta = await vault.create({ environment: 'sim', wallet });
    const again = new TradingKeyVault({ store: openNodeSettings(dataDir), service });
    const td = sampleOrder(wallet);
    expect(recoverDigestSigner(digestOf(td), await again.signTypedData(meta, td))).toBe(meta.agent);
  });

  it('refuses bad input with a typed error and changes nothing', async () => {
    const { vault, service } = setup('bad');
    await expect(vault.create({ environment: 'sim', wallet: '0x1234' })).rejects.toBeInstanceOf(VaultError);
    await expect(vault.create({ environment: 'Sim Env', wallet })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(vault.create({ environment: 'sim', wallet, name: 'x'.repeat(65) })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(vault.list()).toEqual([]);
    expect(await rawKeytar.findCredentials(service)).toEqual([]);
  });

  it('a trading-key signer signs order flow and refuses custody actions', async () => {
    const { vault } = setup('signer');
    const meta = await vault.create({ environment: 'sim', wallet });
    const signer = new TradingKeySigner(vault, meta);
    const td = sampleOrder(wallet);
    expect(recoverDigestSigner(digestOf(td), await signer.signTypedData(td))).toBe(meta.agent);
    const withdraw = withdrawTypedData({ account_id: accountIdFromWallet(wallet), amount: '25', nonce: '1', signature_chain_id: 998 }, 'Testnet');
    await expect(signer.signTypedData(withdraw)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('no vault method result carries the private key', async () => {
    const { vault, service } = setup('noleak');
    const meta = await vault.create({ environment: 'sim', wallet });
    const secret = (await rawKeytar.getPassword(service, TradingKeyVault.entryName(meta)))!.slice(2);
    const results = [meta, vault.list(), vault.get(meta), vault.setExpiry(meta, Date.now() + 1000), await vault.signDigest(meta, new Uint8Array(32).fill(1))];
    expect(JSON.stringify(results).toLowerCase().includes(secret)).toBe(false);
  });
});
