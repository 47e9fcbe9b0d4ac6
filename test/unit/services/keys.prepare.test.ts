/**
 * The prepare steps of the custody key actions (authorize, renew, revoke) with in-memory fakes: the typed
 * data are exactly what the shared EIP-712 builders give for the prepared body, the digests are the
 * standard EIP-712 hash of them (ethers, an independent implementation), nonces are reserved once and
 * distinct, a refused input takes no nonce, only keys held here are authorized by default (issue 13,
 * point 6), and a submit by another signer is refused before anything is signed.
 */
import { TypedDataEncoder, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/services/errors.js';
import { prepareAuthorize, prepareRenew, prepareRevoke, signAuthorize, submitAuthorize, submitRenew, submitRevoke } from '../../../src/main/services/keys/index.js';
import { authorizeAgentTypedData, digestOf, recoverDigestSigner, revokeAgentTypedData, type TypedData } from '../../../src/shared/eip712/index.js';
import { DAY_MS } from '../../../src/main/services/keys/common.js';
import { CountingSigner, fakeWorld, storedKey } from './fakes.js';

/** The EIP-712 digest as any wallet computes it (ethers), from the typed data alone. */
function standardDigest(data: TypedData): string {
  const types = Object.fromEntries(Object.entries(data.types).filter(([k]) => k !== 'EIP712Domain')) as Record<string, { name: string; type: string }[]>;
  return TypedDataEncoder.hash(data.domain, types, data.message as unknown as Record<string, unknown>);
}

async function refusal(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
}

const NOW = 1_700_000_000_000;

describe('prepareAuthorize', () => {
  it('builds the exact AuthorizeAgent of the register body, with its digest, one reserved nonce and the review', async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ now: NOW, keys: [storedKey(main.address, agent, { name: 'laptop' })] });
    const p = await prepareAuthorize(w.ctx, { wallet: main.address.toLowerCase(), agent, expiresInDays: 30, keyHint: 'hint' });

    expect(w.nonces.issued).toEqual([{ wallet: main.address, nonce: p.body.nonce }]);
    expect(p.body).toEqual({
      wallet_address: main.address,
      agent_wallet_address: agent,
      service_environment: 'Testnet',
      signature_chain_id: 998,
      expires_at: NOW + 30 * DAY_MS,
      nonce: p.body.nonce,
      name: 'laptop',
      key_hint: 'hint',
    });
    expect(p.requests).toHaveLength(1);
    expect(p.requests[0]!.typedData).toEqual(authorizeAgentTypedData(p.body));
    expect(p.requests[0]!.digest).toBe(standardDigest(p.requests[0]!.typedData));
    expect(p).toMatchObject({ action: 'authorize', profile: 'sim', wallet: main.address, signer: { role: 'main-wallet', address: main.address } });
    expect(p.view).toMatchObject({
      wallet: main.address,
      agent,
      environment: 'Testnet',
      chain_id: 998,
      expires_at: NOW + 30 * DAY_MS,
      key_name: 'laptop',
      stored_locally: true,
      clock: 'service',
      warnings: [],
    });
    expect(p.view.summary.join('\n')).toContain(`Authorize trading key ${agent}`);
    expect(main.signed).toHaveLength(0);

    // Two prepares reserve two distinct nonces.
    const again = await prepareAuthorize(w.ctx, { wallet: main.address, agent });
    expect(again.body.nonce).toBeGreaterThan(p.body.nonce);
    expect(again.requests[0]!.digest).not.toBe(p.requests[0]!.digest);
  });

  it('counts the expiry from the caller\'s clock when given one (offline), reading no service clock', async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ now: NOW });
    const mine = NOW - 5 * DAY_MS;
    const p = await prepareAuthorize(w.ctx, { wallet: main.address, agent, now: mine, agentOrigin: 'foreign' });
    expect(p.body.expires_at).toBe(mine + 90 * DAY_MS);
    expect(p.view.clock).toBe('local');
    expect(w.calls).toEqual([]);
  });

  it("refuses an agent this machine does not hold by default (AGENT_NOT_LOCAL): no nonce, nothing signed", async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ now: NOW, keys: [storedKey(main.address, Wallet.createRandom().address)] });
    const err = await refusal(prepareAuthorize(w.ctx, { wallet: main.address, agent }));
    expect(err.code).toBe('AGENT_NOT_LOCAL');
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/nothing was signed/);
    // Another profile's copy of the same key is not this profile's.
    const elsewhere = fakeWorld({ keys: [storedKey(main.address, agent, { environment: 'mainnet' })] });
    expect((await refusal(prepareAuthorize(elsewhere.ctx, { wallet: main.address, agent, agentOrigin: 'local' }))).code).toBe('AGENT_NOT_LOCAL');
    expect(w.nonces.issued).toEqual([]);
    expect(elsewhere.nonces.issued).toEqual([]);
    expect(main.signed).toHaveLength(0);
  });

  it("authorizes a foreign agent only when asked ('foreign'), and the review says plainly what that does", async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ now: NOW });
    const p = await prepareAuthorize(w.ctx, { wallet: main.address, agent, agentOrigin: 'foreign' });
    expect(p.view.stored_locally).toBe(false);
    expect(p.view.warnings).toHaveLength(1);
    expect(p.view.warnings[0]).toMatch(/hands trading rights/);
    expect(p.view.warnings[0]).toMatch(/a key this machine does not hold/);
    expect(p.view.warnings[0]).toContain(agent);
    // A key held here needs no such warning, whatever the option says.
    const local = fakeWorld({ now: NOW, keys: [storedKey(main.address, agent)] });
    expect((await prepareAuthorize(local.ctx, { wallet: main.address, agent, agentOrigin: 'foreign' })).view.warnings).toEqual([]);
  });

  it('refuses bad input before any nonce is taken', async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ keys: [storedKey(main.address, agent)] });
    const cases = [
      { wallet: main.address, agent, expiresInDays: 181 },
      { wallet: main.address, agent, expiresInDays: 0 },
      { wallet: main.address, agent, chainId: -1 },
      { wallet: main.address, agent: main.address, agentOrigin: 'foreign' as const },
      { wallet: '0x1234', agent },
      { wallet: main.address, agent, name: 'n'.repeat(65) },
      { wallet: main.address, agent, keyHint: 'k'.repeat(33) },
    ];
    for (const c of cases) await refusal(prepareAuthorize(w.ctx, c));
    expect(w.nonces.issued).toEqual([]);
    expect(w.calls).toEqual([]);
  });

  it('signAuthorize signs exactly the prepared typed data: the body recovers the wallet; another signer is refused before signing', async () => {
    const main = new CountingSigner();
    const other = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ now: NOW, keys: [storedKey(main.address, agent)] });
    const p = await prepareAuthorize(w.ctx, { wallet: main.address, agent });

    const wrong = await refusal(submitAuthorize(w.ctx, p, other));
    expect(wrong.code).toBe('SIGNER_NOT_WALLET');
    expect(other.signed).toHaveLength(0);
    expect(w.calls).toEqual(['clock']);

    const body = await signAuthorize(p, main);
    expect(main.signed).toEqual([p.requests[0]!.typedData]);
    expect(recoverDigestSigner(digestOf(authorizeAgentTypedData(body)), body.signature)).toBe(main.address);
    expect(body).toMatchObject({ ...p.body });
  });
});

describe('prepareRenew', () => {
  it('renews only a key stored here (KEY_NOT_FOUND otherwise, no nonce); the review carries the previous expiry', async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const previous = NOW + 3 * DAY_MS;
    const w = fakeWorld({ now: NOW, keys: [storedKey(main.address, agent, { expires_at: previous })] });
    const missing = await refusal(prepareRenew(w.ctx, { wallet: main.address, agent: Wallet.createRandom().address }));
    expect(missing.code).toBe('KEY_NOT_FOUND');
    expect(w.nonces.issued).toEqual([]);

    const p = await prepareRenew(w.ctx, { wallet: main.address, agent, expiresInDays: 60 });
    expect(p.action).toBe('renew');
    expect(p.view).toMatchObject({ action: 'renew', previous_expires_at: previous, expires_at: NOW + 60 * DAY_MS, stored_locally: true, warnings: [] });
    expect(p.requests[0]!.typedData).toEqual(authorizeAgentTypedData(p.body));
    expect(p.requests[0]!.digest).toBe(standardDigest(p.requests[0]!.typedData));
    expect(w.nonces.issued).toHaveLength(1);

    const other = new CountingSigner();
    expect((await refusal(submitRenew(w.ctx, p, other))).code).toBe('SIGNER_NOT_WALLET');
    expect(other.signed).toHaveLength(0);
  });
});

describe('prepareRevoke', () => {
  it('builds the exact RevokeAgent with its digest for any agent of the wallet; another signer is refused before signing', async () => {
    const main = new CountingSigner();
    const agent = Wallet.createRandom().address;
    const w = fakeWorld({ keys: [storedKey(main.address, agent, { name: 'old laptop', expires_at: NOW })] });
    const p = await prepareRevoke(w.ctx, { wallet: main.address, agent, chainId: 42 });
    expect(p.body).toEqual({ wallet_address: main.address, agent_wallet_address: agent, service_environment: 'Testnet', signature_chain_id: 42, nonce: p.body.nonce });
    expect(p.requests[0]!.typedData).toEqual(revokeAgentTypedData(p.body));
    expect(p.requests[0]!.digest).toBe(standardDigest(p.requests[0]!.typedData));
    expect(p.view).toMatchObject({ action: 'revoke', agent, stored_locally: true, key_name: 'old laptop', expires_at: NOW, chain_id: 42 });
    expect(w.nonces.issued).toEqual([{ wallet: main.address, nonce: p.body.nonce }]);

    // A key held on another machine can be revoked too (a lost laptop's key).
    const foreign = await prepareRevoke(w.ctx, { wallet: main.address, agent: Wallet.createRandom().address });
    expect(foreign.view.stored_locally).toBe(false);
    expect(foreign.body.nonce).toBeGreaterThan(p.body.nonce);

    const other = new CountingSigner();
    expect((await refusal(submitRevoke(w.ctx, p, other))).code).toBe('SIGNER_NOT_WALLET');
    expect(other.signed).toHaveLength(0);
    expect(w.vault.keys).toHaveLength(1);
  });

  it('refuses bad input before any nonce is taken', async () => {
    const w = fakeWorld();
    await refusal(prepareRevoke(w.ctx, { wallet: 'nope', agent: Wallet.createRandom().address }));
    await refusal(prepareRevoke(w.ctx, { wallet: Wallet.createRandom().address, agent: Wallet.createRandom().address, chainId: 0 }));
    expect(w.nonces.issued).toEqual([]);
  });
});
