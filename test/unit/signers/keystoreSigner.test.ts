import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeystoreSigner } from '../../../src/main/signers/keystoreSigner.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import { ethersRecover, withdrawData } from './fixtures.js';

const PASSWORD = 'correct horse battery staple';
let dir: string;
let file: string;
let wallet: Wallet;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'perps-keystore-'));
  wallet = new Wallet(Wallet.createRandom().privateKey);
  // A tiny scrypt cost keeps the test fast; the format and the MAC check are the same as with real costs.
  const json = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, PASSWORD, { scrypt: { N: 16 } });
  file = path.join(dir, 'wallet.json');
  await fs.writeFile(file, json);
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('KeystoreSigner', () => {
  it('opens with the password asked for, exposes the keystore address and signs typed data ethers verifies', async () => {
    let asked = 0;
    const signer = await KeystoreSigner.open(file, async () => {
      asked++;
      return PASSWORD;
    });
    expect(asked).toBe(1);
    expect(signer.kind).toBe('keystore');
    expect(signer.address).toBe(wallet.address);
    expect(await KeystoreSigner.addressOf(file)).toBe(wallet.address);
    const data = withdrawData(wallet.address);
    const sig = await signer.signTypedData(data);
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(ethersRecover(data, sig)).toBe(wallet.address);
  });

  it('never reveals the key or the password when serialised', async () => {
    const signer = await KeystoreSigner.open(file, async () => PASSWORD);
    const text = JSON.stringify(signer) + String(signer) + JSON.stringify(Object.entries(signer));
    expect(text.toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());
    expect(text).not.toContain(PASSWORD);
  });

  it('a wrong password is a typed WRONG_PASSWORD error that does not echo the password', async () => {
    const err = await KeystoreSigner.open(file, async () => 'not the password').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignerError);
    expect((err as SignerError).code).toBe('WRONG_PASSWORD');
    expect((err as SignerError).message).not.toContain('not the password');
  });

  it('a missing file and a file that is not a keystore are typed errors', async () => {
    const missing = await KeystoreSigner.open(path.join(dir, 'nope.json'), async () => PASSWORD).catch((e: unknown) => e);
    expect((missing as SignerError).code).toBe('KEYSTORE_UNREADABLE');
    const other = path.join(dir, 'other.json');
    await fs.writeFile(other, JSON.stringify({ hello: 'world' }));
    const invalid = await KeystoreSigner.open(other, async () => PASSWORD).catch((e: unknown) => e);
    expect((invalid as SignerError).code).toBe('KEYSTORE_INVALID');
  });
});
