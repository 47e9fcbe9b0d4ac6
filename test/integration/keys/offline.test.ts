/**
 * The offline authorization ceremony: the trading key is created where it will trade (data folder B),
 * the main wallet signs the register body elsewhere (data folder A: a keystore, an env key, or an offline
 * wallet answering a signing request), and B submits the body later. Checks before submitting refuse a
 * body that was changed, signed for another environment or already expired, without sending it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet, encryptKeystoreJsonSync } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../../../src/main/profiles/profiles.js';
import { createServiceContext, type ServiceContext } from '../../../src/main/services/serviceContext.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { authorizeTradingKey, buildRegisterBody, createTradingKey, listTradingKeys, submitRegisterBody } from '../../../src/main/services/keys/index.js';
import { KeystoreSigner } from '../../../src/main/signers/keystoreSigner.js';
import { OfflineSigner, type OfflineSigningRequest } from '../../../src/main/signers/offlineSigner.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import type { TypedData } from '../../../src/shared/eip712/index.js';
import { tempDir } from '../../support/keychain.js';
import { DAY_MS, SimHarness, cleanupKeychain, contextFor, newMainWallet } from '../support/keysMoney.js';

let h: SimHarness;
let tradingMachine: ServiceContext;
let walletMachine: ServiceContext;
const services: string[] = [];

beforeAll(async () => {
  h = await SimHarness.boot();
  const b = contextFor(h);
  const a = contextFor(h);
  tradingMachine = b.ctx;
  walletMachine = a.ctx;
  services.push(b.setup.keychainService, a.setup.keychainService);
});

afterAll(async () => {
  await cleanupKeychain(...services);
  await h.stop();
});

/** ethers signs typed data given without the EIP712Domain entry of `types`. */
async function externalSign(wallet: Pick<Wallet, 'signTypedData'>, data: TypedData): Promise<string> {
  const types = Object.fromEntries(Object.entries(data.types).filter(([k]) => k !== 'EIP712Domain'));
  return wallet.signTypedData(data.domain, types as Record<string, { name: string; type: string }[]>, data.message);
}

describe('offline authorization ceremony', () => {
  it('signs with a keystore on one data folder and submits the body from another', async () => {
    const wallet = Wallet.createRandom();
    const dir = tempDir('keystore');
    const file = path.join(dir, 'main.json');
    // A cheap scrypt setting keeps the test fast; the format is the one geth and Foundry write.
    fs.writeFileSync(file, encryptKeystoreJsonSync({ address: wallet.address, privateKey: wallet.privateKey }, 'pw', { scrypt: { N: 1 << 10 } }));
    const signer = await KeystoreSigner.open(file, async () => 'pw');

    const key = await createTradingKey(tradingMachine, { wallet: wallet.address, name: 'desk' });
    const body = await buildRegisterBody(walletMachine, { wallet: wallet.address, agent: key.agent, signer, expiresInDays: 30 });
    // Nothing was registered by signing.
    expect(await tradingMachine.api.tradingKeys(wallet.address)).toEqual([]);
    const bodyFile = path.join(dir, 'register.json');
    fs.writeFileSync(bodyFile, JSON.stringify(body));

    const r = await submitRegisterBody(tradingMachine, JSON.parse(fs.readFileSync(bodyFile, 'utf8')));
    expect(r).toMatchObject({ agent: key.agent, stored_locally: true, already_registered: false, expires_at: body.expires_at });
    expect(tradingMachine.vault.get({ environment: 'sim', wallet: wallet.address, agent: key.agent })?.expires_at).toBe(body.expires_at);
    expect((await tradingMachine.tradingSigner(wallet.address)).address).toBe(key.agent);

    // Submitting the same file again is recognised, not an error.
    const again = await submitRegisterBody(tradingMachine, body);
    expect(again.already_registered).toBe(true);
    expect(await tradingMachine.api.tradingKeys(wallet.address)).toHaveLength(1);
  });

  it('refuses a changed body, a body for another environment and an expired body, sending nothing', async () => {
    const main = newMainWallet();
    const key = await createTradingKey(tradingMachine, { wallet: main.address });
    const body = await buildRegisterBody(walletMachine, { wallet: main.address, agent: key.agent, signer: main.signer, expiresInDays: 1 });

    const changed = await submitRegisterBody(tradingMachine, { ...body, expires_at: body.expires_at + 1 }).catch((e: unknown) => e);
    expect(changed).toBeInstanceOf(ValidationError);
    expect((changed as ValidationError).code).toBe('SIGNATURE_MISMATCH');

    const malformed = await submitRegisterBody(tradingMachine, { ...body, signature: 'nope' }).catch((e: unknown) => e);
    expect((malformed as ValidationError).code).toBe('INVALID_REGISTER_BODY');

    // Signed on the mainnet profile (pointed at the simulator only to read its clock): Mainnet.
    const mainnet = createServiceContext(resolveProfile({ profile: 'mainnet', baseUrl: h.urls.base_url, venueUrl: h.urls.venue_info_url, dataDir: tempDir('mainnet') }, {}), {
      keychainService: services[1]!,
    });
    const mainnetBody = await buildRegisterBody(mainnet, { wallet: main.address, agent: key.agent, signer: main.signer });
    expect(mainnetBody.service_environment).toBe('Mainnet');
    expect(mainnetBody.signature_chain_id).toBe(999);
    const wrongEnv = await submitRegisterBody(tradingMachine, mainnetBody).catch((e: unknown) => e);
    expect((wrongEnv as ValidationError).code).toBe('ENVIRONMENT_MISMATCH');

    await h.advance(2 * DAY_MS);
    tradingMachine.clock.invalidate();
    const expired = await submitRegisterBody(tradingMachine, body).catch((e: unknown) => e);
    expect((expired as ValidationError).code).toBe('BODY_EXPIRED');

    expect(await tradingMachine.api.tradingKeys(main.address)).toEqual([]);
    expect((await listTradingKeys(tradingMachine, main.address)).keys[0]?.status).toBe('NOT_AUTHORIZED');
  });

  it('authorizes through the offline signer: the request shows what is signed, the answer is verified', async () => {
    const wallet = Wallet.createRandom();
    const key = await createTradingKey(tradingMachine, { wallet: wallet.address });
    let request: OfflineSigningRequest | undefined;
    let answer: (data: TypedData) => Promise<string> = (data) => externalSign(wallet, data);
    const offline = new OfflineSigner({
      address: wallet.address,
      sink: async (doc) => {
        request = JSON.parse(doc) as OfflineSigningRequest;
      },
      source: { read: () => answer(request!.typedData) },
    });

    // An answer from the wrong key is caught before anything is sent.
    const stranger = Wallet.createRandom();
    answer = (data) => externalSign(stranger, data);
    const wrong = await authorizeTradingKey(tradingMachine, { wallet: wallet.address, agent: key.agent, signer: offline }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(SignerError);
    expect((wrong as SignerError).code).toBe('SIGNATURE_MISMATCH');
    expect(await tradingMachine.api.tradingKeys(wallet.address)).toEqual([]);

    answer = (data) => externalSign(wallet, data);
    const r = await authorizeTradingKey(tradingMachine, { wallet: wallet.address, agent: key.agent, signer: offline });
    expect(request?.typedData.primaryType).toBe('AuthorizeAgent');
    expect(request?.summary.join('\n')).toMatch(new RegExp(`Authorize trading key ${key.agent}`));
    expect(r.stored_locally).toBe(true);
    expect((await tradingMachine.api.tradingKeys(wallet.address)).map((k) => k.agent_wallet_address)).toEqual([key.agent]);
  });
});
