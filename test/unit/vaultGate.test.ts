/**
 * The vault guard at signing time (issue 36, item 11): once the gate is closed (a debugging door opened,
 * src/main/shell/debugAccess.ts), no signer that holds a key signs, whether it got the key from the
 * keychain before (trading keys, paper wallets) or holds it itself (env-key and keystore main wallets, for
 * typed data and transactions); the keys already unlocked are locked at once, by the first check or the
 * watcher, before any signature is asked for. The keychain is an in-memory stand-in (keytar is not loaded).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { EnvKeySigner } from '../../src/main/signers/envKeySigner.js';
import { KeystoreSigner } from '../../src/main/signers/keystoreSigner.js';
import type { UnsignedTransaction } from '../../src/main/signers/transactions/transactionSigner.js';
import { PaperWalletVault, TradingKeyVault, type Keychain } from '../../src/main/vault/index.js';
import { setVaultGate } from '../../src/main/vault/keychain.js';
import { orderTypedData, withdrawTypedData } from '../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../src/shared/identity/index.js';

const CLOSED = 'Perps Desk was started with a way for another program to control it (an open inspector), so the vault stays closed';

function memoryKeychain(): Keychain & { reads: number } {
  const entries = new Map<string, string>();
  const k = {
    reads: 0,
    get: async (service: string, account: string) => {
      k.reads++;
      return entries.get(`${service}/${account}`) ?? null;
    },
    set: async (service: string, account: string, secret: string) => void entries.set(`${service}/${account}`, secret),
    delete: async (service: string, account: string) => entries.delete(`${service}/${account}`),
    accounts: async () => [],
  };
  return k;
}

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-gate-'));
  dirs.push(d);
  return d;
}

afterEach(() => {
  setVaultGate(() => null);
  vi.useRealTimers();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const order = (wallet: string) =>
  orderTypedData(accountIdFromWallet(wallet), { market: 'BTC', side: 'BUY', size: '0.01', limit_price: '65000', order_type: 'LIMIT', time_in_force: 'GTC', nonce: '1763700002000', leverage: 5 }, 'testnet');
const withdrawal = (wallet: string) => withdrawTypedData({ account_id: accountIdFromWallet(wallet), amount: '25', nonce: '1763700001000', signature_chain_id: 998 }, 'Testnet');
const tx: UnsignedTransaction = { chainId: 42161n, nonce: 0, to: '0x' + '1'.repeat(40), value: 1n, data: '0x', gasLimit: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e as { code: string; message: string },
  );
  expect(err, 'expected a refusal').not.toBeNull();
  return err!;
}

describe('the vault guard closes signing at signing time', () => {
  it('a trading key unlocked before the gate closed signs no more; once open again it is read from the keychain afresh', async () => {
    const keychain = memoryKeychain();
    const vault = new TradingKeyVault({ store: openNodeSettings(dataDir()), keychain, service: 'test' });
    const wallet = Wallet.createRandom().address;
    const meta = await vault.create({ environment: 'sim', wallet });
    const ref = { environment: 'sim', wallet, agent: meta.agent };
    await vault.signTypedData(ref, order(wallet));
    expect(keychain.reads).toBe(0);
    setVaultGate(() => CLOSED);
    expect(await refusal(vault.signTypedData(ref, order(wallet)))).toMatchObject({ code: 'VAULT_CLOSED' });
    setVaultGate(() => null);
    await expect(vault.signTypedData(ref, order(wallet))).resolves.toMatch(/^0x[0-9a-f]{130}$/);
    // The key it held was locked when the gate was found closed: this signature read the keychain again.
    expect(keychain.reads).toBe(1);
  });

  it('a paper wallet the same', async () => {
    const keychain = memoryKeychain();
    const vault = new PaperWalletVault({ store: openNodeSettings(dataDir()), keychain, service: 'test' });
    const { wallet } = await vault.create('sim');
    setVaultGate(() => CLOSED);
    expect(await refusal(vault.signTypedData('sim', wallet, withdrawal(wallet)))).toMatchObject({ code: 'VAULT_CLOSED' });
    setVaultGate(() => null);
    await vault.signTypedData('sim', wallet, withdrawal(wallet));
    expect(keychain.reads).toBe(1);
  });

  it('an env-key main wallet signs neither typed data nor a transaction, and stays locked after the gate opens', async () => {
    const key = Wallet.createRandom();
    const signer = EnvKeySigner.fromEnv('PERPS_TEST_KEY', { env: { PERPS_TEST_KEY: key.privateKey }, logger: { warn: () => undefined } });
    await signer.signTypedData(withdrawal(key.address));
    setVaultGate(() => CLOSED);
    expect(await refusal(signer.signTypedData(withdrawal(key.address)))).toMatchObject({ code: 'VAULT_CLOSED', message: expect.stringContaining('vault stays closed') });
    expect(await refusal(signer.transactionSigner().signTransaction(tx))).toMatchObject({ code: 'VAULT_CLOSED' });
    setVaultGate(() => null);
    expect(await refusal(signer.signTypedData(withdrawal(key.address)))).toMatchObject({ code: 'VAULT_CLOSED', message: expect.stringContaining('connect the wallet again') });
  });

  it('a keystore main wallet the same', async () => {
    const key = Wallet.createRandom();
    const file = path.join(dataDir(), 'wallet.json');
    fs.writeFileSync(file, await encryptKeystoreJson({ address: key.address, privateKey: key.privateKey }, 'pw', { scrypt: { N: 1 << 10 } }));
    const signer = await KeystoreSigner.open(file, async () => 'pw');
    await signer.signTypedData(withdrawal(key.address));
    setVaultGate(() => CLOSED);
    expect(await refusal(signer.signTypedData(withdrawal(key.address)))).toMatchObject({ code: 'VAULT_CLOSED' });
    expect(await refusal(signer.transactionSigner().signTransaction(tx))).toMatchObject({ code: 'VAULT_CLOSED' });
    setVaultGate(() => null);
    expect(await refusal(signer.signTypedData(withdrawal(key.address)))).toMatchObject({ code: 'VAULT_CLOSED' });
  });

  it('the watcher locks unlocked keys at once, before any signature is asked for', async () => {
    vi.useFakeTimers();
    const keychain = memoryKeychain();
    const vault = new TradingKeyVault({ store: openNodeSettings(dataDir()), keychain, service: 'test' });
    const wallet = Wallet.createRandom().address;
    const meta = await vault.create({ environment: 'sim', wallet });
    const key = Wallet.createRandom();
    const envSigner = EnvKeySigner.fromEnv('PERPS_TEST_KEY', { env: { PERPS_TEST_KEY: key.privateKey }, logger: { warn: () => undefined } });
    const { watchVaultGate } = await import('../../src/main/vault/vaultGate.js');
    const stop = watchVaultGate(1000);
    try {
      // A door opens and closes again between two ticks of nobody signing: the watcher saw it.
      let open = false;
      setVaultGate(() => (open ? null : CLOSED));
      vi.advanceTimersByTime(1000);
      open = true;
      vi.useRealTimers();
      await vault.signTypedData({ environment: 'sim', wallet, agent: meta.agent }, order(wallet));
      expect(keychain.reads).toBe(1);
      expect(await refusal(envSigner.signTypedData(withdrawal(key.address)))).toMatchObject({ code: 'VAULT_CLOSED' });
    } finally {
      stop();
    }
  });
});
