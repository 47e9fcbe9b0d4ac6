/**
 * The main wallet's transaction signers: env key and keystore (ethers Wallet inside, never revealed), and
 * the Ledger one assembled from the device's { r, s, v } with resolution off. The Ledger is the software
 * app emulator of ./ledger/support for the app check, and a stand-in for hw-app-eth's signTransaction that
 * signs the unsigned payload it is given with the test seed's key (the emulator has no transaction APDUs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SigningKey, Transaction, Wallet, encryptKeystoreJson, keccak256 } from 'ethers';
import { describe, expect, it } from 'vitest';
import { LedgerTransactionSigner, WalletTransactionSigner, verifySignedTransaction, type UnsignedTransaction } from '../../../src/main/signers/transactions/index.js';
import { LedgerError } from '../../../src/main/signers/ledger/ledgerErrors.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import { EnvKeySigner } from '../../../src/main/signers/envKeySigner.js';
import { KeystoreSigner } from '../../../src/main/signers/keystoreSigner.js';
import { EthAppEmulator, walletAt } from './ledger/support/ethAppEmulator.js';

const KEY = '0x' + '4c'.repeat(32);
const tx: UnsignedTransaction = {
  chainId: 42161n,
  nonce: 7,
  to: '0x1111111111111111111111111111111111111111',
  value: 10n ** 17n,
  data: '0xabcdef',
  gasLimit: 150_000n,
  maxFeePerGas: 30_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
};

describe('WalletTransactionSigner', () => {
  it('env: signs an EIP-1559 transaction that recovers the wallet; the key never shows', async () => {
    const warnings: string[] = [];
    const s = WalletTransactionSigner.fromEnv('K', { env: { K: KEY.slice(2) }, logger: { warn: (m) => warnings.push(m) } });
    expect(s.address).toBe(new Wallet(KEY).address);
    expect(warnings).toHaveLength(1);
    const signed = await s.signTransaction(tx);
    const parsed = Transaction.from(signed);
    expect(parsed).toMatchObject({ type: 2, chainId: 42161n, nonce: 7, to: tx.to, value: tx.value, data: tx.data, from: s.address });
    expect(JSON.stringify(s)).not.toContain(KEY.slice(2));
    expect(String(s)).not.toContain(KEY.slice(2));
  });

  it('env: legacy gasPrice when the chain has no base fee', async () => {
    const s = WalletTransactionSigner.fromEnv('K', { env: { K: KEY }, logger: { warn: () => undefined } });
    const { maxFeePerGas: _a, maxPriorityFeePerGas: _b, ...legacy } = tx;
    const parsed = Transaction.from(await s.signTransaction({ ...legacy, gasPrice: 5n }));
    expect(parsed.type).toBe(0);
    expect(parsed.gasPrice).toBe(5n);
  });

  it('env: missing or malformed keys are typed errors that do not quote the value', () => {
    expect(() => WalletTransactionSigner.fromEnv('K', { env: {} })).toThrow(expect.objectContaining({ code: 'ENV_KEY_MISSING' }));
    const bad = 'zz'.repeat(32);
    try {
      WalletTransactionSigner.fromEnv('K', { env: { K: bad } });
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'ENV_KEY_INVALID' });
      expect((err as Error).message).not.toContain(bad);
    }
    expect(() => WalletTransactionSigner.fromEnv('K', { env: { K: '00'.repeat(32) } })).toThrow(expect.objectContaining({ code: 'ENV_KEY_INVALID' }));
  });

  it('keystore: opens with the password, refuses a wrong one and a non-keystore file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-txsigner-'));
    try {
      const w = new Wallet(KEY);
      const file = path.join(dir, 'k.json');
      fs.writeFileSync(file, await encryptKeystoreJson({ address: w.address, privateKey: w.privateKey }, 'secret', { scrypt: { N: 1024 } }));
      const s = await WalletTransactionSigner.fromKeystore(file, async () => 'secret');
      expect(s.kind).toBe('keystore');
      expect(Transaction.from(await s.signTransaction(tx)).from).toBe(w.address);
      await expect(WalletTransactionSigner.fromKeystore(file, async () => 'nope')).rejects.toMatchObject({ code: 'WRONG_PASSWORD' });
      fs.writeFileSync(path.join(dir, 'x.json'), '{}');
      await expect(WalletTransactionSigner.fromKeystore(path.join(dir, 'x.json'), async () => 'secret')).rejects.toMatchObject({ code: 'KEYSTORE_INVALID' });
      await expect(WalletTransactionSigner.fromKeystore(path.join(dir, 'missing.json'), async () => 'secret')).rejects.toMatchObject({ code: 'KEYSTORE_UNREADABLE' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('verifySignedTransaction refuses another signer or other fields', async () => {
    const other = new Wallet('0x' + '5d'.repeat(32));
    const signedByOther = await other.signTransaction(Transaction.from({ ...tx, type: 2 }));
    expect(() => verifySignedTransaction(signedByOther, tx, new Wallet(KEY).address)).toThrow(SignerError);
    const signedOtherNonce = await new Wallet(KEY).signTransaction(Transaction.from({ ...tx, nonce: 8, type: 2 }));
    expect(() => verifySignedTransaction(signedOtherNonce, tx, new Wallet(KEY).address)).toThrow(/differs/);
  });
});

describe('the unlocked custody signers as transaction signers (the app signs bridges and swaps with them)', () => {
  it('env and keystore signers sign exactly what ethers would (deterministic k), without exposing the key', async () => {
    const expected = await new Wallet(KEY).signTransaction(Transaction.from({ ...tx, type: 2 }));
    const env = EnvKeySigner.fromEnv('K', { env: { K: KEY }, logger: { warn: () => undefined } }).transactionSigner();
    expect(env.kind).toBe('env');
    expect(await env.signTransaction(tx)).toBe(expected);
    expect(JSON.stringify(env)).not.toContain(KEY.slice(2, 20));

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-tx-keystore-'));
    const file = path.join(dir, 'k.json');
    fs.writeFileSync(file, await encryptKeystoreJson({ address: new Wallet(KEY).address, privateKey: KEY }, 'pw', { scrypt: { N: 1024 } }));
    const keystore = (await KeystoreSigner.open(file, async () => 'pw')).transactionSigner();
    expect(keystore).toMatchObject({ kind: 'keystore', address: new Wallet(KEY).address });
    expect(await keystore.signTransaction({ ...tx, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, gasPrice: 5n })).toBe(
      await new Wallet(KEY).signTransaction(Transaction.from({ ...tx, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, gasPrice: 5n, type: 0 })),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('LedgerTransactionSigner', () => {
  const PATH = "m/44'/60'/0'/0/0";
  const device = walletAt(PATH);

  /** hw-app-eth's signTransaction as the device would answer it: r, s and v (y-parity for typed transactions). */
  function fakeEth(key: SigningKey, calls: { path: string; raw: string; resolution: unknown }[]) {
    return {
      signTransaction: async (p: string, rawTxHex: string, resolution?: unknown) => {
        calls.push({ path: p, raw: rawTxHex, resolution });
        const sig = key.sign(keccak256('0x' + rawTxHex));
        return { r: sig.r.slice(2), s: sig.s.slice(2), v: sig.yParity === 0 ? '00' : '01' };
      },
    } as unknown as ConstructorParameters<typeof LedgerTransactionSigner>[0]['eth'];
  }

  it('sends the unsigned payload with resolution off and assembles a transaction that recovers the wallet', async () => {
    const calls: { path: string; raw: string; resolution: unknown }[] = [];
    const s = new LedgerTransactionSigner({ transport: new EthAppEmulator(), path: PATH, address: device.address, eth: fakeEth(device.signingKey, calls) });
    const signed = await s.signTransaction(tx);
    expect(Transaction.from(signed).from).toBe(device.address);
    expect(calls).toEqual([{ path: "44'/60'/0'/0/0", raw: Transaction.from({ ...tx, type: 2 }).unsignedSerialized.slice(2), resolution: null }]);
  });

  it('a device holding another seed is caught before anything is returned', async () => {
    const s = new LedgerTransactionSigner({ transport: new EthAppEmulator(), path: PATH, address: device.address, eth: fakeEth(new SigningKey('0x' + '77'.repeat(32)), []) });
    await expect(s.signTransaction(tx)).rejects.toMatchObject({ code: 'SIGNATURE_MISMATCH' });
    await expect(s.signTransaction(tx)).rejects.toBeInstanceOf(LedgerError);
  });

  it('the Ethereum app must be open', async () => {
    const s = new LedgerTransactionSigner({ transport: new EthAppEmulator({ appName: 'BOLOS' }), path: PATH, address: device.address, eth: fakeEth(device.signingKey, []) });
    await expect(s.signTransaction(tx)).rejects.toMatchObject({ code: 'ETH_APP_NOT_OPEN' });
  });
});
