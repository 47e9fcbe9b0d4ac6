/**
 * The trading-key lifecycle against the simulator over loopback HTTP, with keys in the real OS keychain:
 * create -> authorize -> trade -> renew -> expire (simulator clock) -> revoke, the refusals that happen
 * before anything is signed, and the spec's way of explaining a 403 (listed -> payload mismatch; not
 * listed -> wrong wallet/environment, expired or revoked).
 *
 * The lifecycle tests share one wallet and key, but none relies on another having run: each first
 * ensures the key state it starts from, read back through listTradingKeys (never authorized, ACTIVE with
 * a given time left, EXPIRED), and builds it on a new wallet and key when the shared one has moved on
 * (a revoke deletes it; an expiry or renewal cannot be undone). In file order the ensures find each state
 * the test before left, so they cost a listing each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type PlaceOrdersBody } from '../../../src/shared/protocol/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { orderTypedData } from '../../../src/shared/eip712/index.js';
import { canonical, parseDecimal } from '../../../src/shared/decimal/index.js';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { OperationError, ValidationError } from '../../../src/main/services/errors.js';
import {
  authorizeTradingKey,
  createTradingKey,
  explainForbidden,
  explainIfForbidden,
  keysDueForRenewal,
  listTradingKeys,
  renewTradingKey,
  revokeTradingKey,
} from '../../../src/main/services/keys/index.js';
import { rawKeytar } from '../../support/keychain.js';
import { DAY_MS, SimHarness, cleanupKeychain, contextFor, newMainWallet, type MainWallet } from '../support/keysMoney.js';
import type { Signer } from '../../../src/main/signers/signer.js';
import { sameAddress } from '../../../src/shared/identity/index.js';
import type { TradingKeyRow } from '../../../src/main/services/keys/list.js';

let h: SimHarness;
let ctx: ServiceContext;
let service: string;

beforeAll(async () => {
  h = await SimHarness.boot();
  const c = contextFor(h);
  ctx = c.ctx;
  service = c.setup.keychainService;
});

afterAll(async () => {
  await cleanupKeychain(service);
  await h.stop();
});

/** A POST /orders body with one limit leg signed by `signer`, optionally carrying a different price than the one signed. */
async function signedOrder(wallet: string, signer: Signer, tamper = false): Promise<PlaceOrdersBody> {
  const market = (await ctx.config.markets()).find((m) => m.is_active)!;
  const accountId = accountIdFromWallet(wallet);
  const price = canonical(parseDecimal(market.tick_size).mul(10));
  const leg = {
    market: market.symbol,
    side: 'BUY' as const,
    size: canonical(parseDecimal('1').div(parseDecimal('10').pow(market.sz_decimals))),
    limit_price: price,
    order_type: 'LIMIT' as const,
    time_in_force: 'GTC' as const,
    nonce: String(await ctx.nonces.next(wallet)),
  };
  const signature = await signer.signTypedData(orderTypedData(accountId, leg, ctx.profile.network));
  const sent = tamper ? { ...leg, limit_price: canonical(parseDecimal(price).mul(2)) } : leg;
  return { account_id: accountId, orders: [{ ...sent, client_order_id: `c-${leg.nonce}`, signature }] };
}

function send(body: PlaceOrdersBody): Promise<unknown> {
  return ctx.api.placeOrders(body, { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
}

async function sendOrder(wallet: string, signer: Signer, tamper = false): Promise<unknown> {
  return send(await signedOrder(wallet, signer, tamper));
}

async function expect403(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(403);
  return err as ApiError;
}

describe('trading key lifecycle', () => {
  let main: MainWallet;
  let agent = '';

  beforeAll(() => {
    main = newMainWallet();
  });

  /** The shared key as listTradingKeys shows it; undefined when there is none (not made yet, or revoked). */
  async function sharedKey(): Promise<TradingKeyRow | undefined> {
    if (agent === '') return undefined;
    return (await listTradingKeys(ctx, main.address)).keys.find((k) => sameAddress(k.agent, agent));
  }

  /** A wallet with no key at all, local or listed: the shared one, or a new one when it has keys. */
  async function ensureWalletWithoutKeys(): Promise<void> {
    if ((await listTradingKeys(ctx, main.address)).keys.length > 0) main = newMainWallet();
  }

  /** The shared key stored here and never authorized: a new wallet and key when it is anything else. */
  async function ensureUnauthorizedKey(): Promise<void> {
    if ((await sharedKey())?.status === 'NOT_AUTHORIZED') return;
    main = newMainWallet();
    agent = (await createTradingKey(ctx, { wallet: main.address, name: 'lifecycle' })).agent;
  }

  /**
   * The shared key ACTIVE and stored here, with a time left (ms, by the service's clock) that `fits`;
   * otherwise a new key authorized for `days` (default: the service default, 90).
   */
  async function ensureActiveKey(fits: (leftMs: number) => boolean = () => true, days?: number): Promise<void> {
    const key = await sharedKey();
    if (key?.status === 'ACTIVE' && key.stored_locally && key.expires_at !== null && fits(key.expires_at - (await ctx.clock.now()))) return;
    await ensureUnauthorizedKey();
    await authorizeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, ...(days === undefined ? {} : { expiresInDays: days }) });
  }

  /** The shared key stored here and EXPIRED: a one-day key run past its expiry on the simulator clock. */
  async function ensureExpiredKey(): Promise<void> {
    if ((await sharedKey())?.status === 'EXPIRED') return;
    await ensureActiveKey((left) => left <= DAY_MS, 1);
    await h.advance(DAY_MS + 60_000);
    ctx.clock.invalidate();
  }

  it('creates a key in the keychain; it lists as NOT_AUTHORIZED and cannot trade yet', async () => {
    await ensureWalletWithoutKeys();
    const meta = await createTradingKey(ctx, { wallet: main.address, name: 'lifecycle' });
    agent = meta.agent;
    expect(meta.expires_at).toBeNull();
    const entries = await rawKeytar.findCredentials(service);
    expect(entries.map((e) => e.account)).toContain(`sim/${main.address.toLowerCase()}/${agent.toLowerCase()}`);

    const list = await listTradingKeys(ctx, main.address);
    expect(list.keys).toEqual([expect.objectContaining({ agent, status: 'NOT_AUTHORIZED', listed: false, stored_locally: true })]);
    const err = await ctx.tradingSigner(main.address).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('NO_TRADING_KEY');
    expect((err as OperationError).hint).toMatch(/perps keys authorize/);
  });

  it('refuses a lifetime over 180 days, a bad chain id and a signer of another wallet before signing anything', async () => {
    await ensureUnauthorizedKey();
    const before = main.signer.signed.length;
    await expect(authorizeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, expiresInDays: 181 })).rejects.toThrow(ValidationError);
    await expect(authorizeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, expiresInDays: 0 })).rejects.toThrow(ValidationError);
    await expect(authorizeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, chainId: -1 })).rejects.toThrow(ValidationError);
    const other = newMainWallet();
    const wrong = await authorizeTradingKey(ctx, { wallet: main.address, agent, signer: other.signer }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ValidationError);
    expect((wrong as ValidationError).code).toBe('SIGNER_NOT_WALLET');
    expect(main.signer.signed.length).toBe(before);
    expect(other.signer.signed).toHaveLength(0);
    expect(await ctx.api.tradingKeys(main.address)).toEqual([]);
  });

  it('authorizes with the default 90 days, records the expiry and trades', async () => {
    await ensureUnauthorizedKey();
    const now = await ctx.clock.now();
    const r = await authorizeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer });
    expect(main.signer.signed.at(-1)?.primaryType).toBe('AuthorizeAgent');
    expect(r.stored_locally).toBe(true);
    expect(r.expires_at).toBeGreaterThan(now + 90 * DAY_MS - 60_000);
    expect(r.expires_at).toBeLessThan(now + 90 * DAY_MS + 60_000);
    expect(ctx.vault.get({ environment: 'sim', wallet: main.address, agent })?.expires_at).toBe(r.expires_at);

    const list = await listTradingKeys(ctx, main.address);
    expect(list.keys).toEqual([expect.objectContaining({ agent, status: 'ACTIVE', listed: true, stored_locally: true, expires_at: r.expires_at })]);

    const signer = await ctx.tradingSigner(main.address);
    expect(signer.address).toBe(agent);
    await expect(sendOrder(main.address, signer)).resolves.toBeDefined();
  });

  it('explains a 403 from a listed key as a payload that differs from the signed one', async () => {
    await ensureActiveKey();
    const signer = await ctx.tradingSigner(main.address);
    const err = await expect403(sendOrder(main.address, signer, true));
    const why = await explainForbidden(ctx, { wallet: main.address, agent });
    expect(why.cause).toBe('PAYLOAD_MISMATCH');
    expect(why.listed).toBe(true);
    const op = (await explainIfForbidden(ctx, err, { wallet: main.address, agent })) as OperationError;
    expect(op).toBeInstanceOf(OperationError);
    expect(op.code).toBe('FORBIDDEN');
    expect(op.details?.['cause']).toBe('PAYLOAD_MISMATCH');
    expect(op.message).toMatch(/signed payload differs/);
  });

  it('renews before expiry: re-registering refreshes the expiry of the same key', async () => {
    // Still ACTIVE 80 days on, and due for renewal (within 14 days of its expiry) by then: a 90-day key.
    await ensureActiveKey((left) => left > 80 * DAY_MS && left <= 94 * DAY_MS);
    await h.advance(80 * DAY_MS);
    ctx.clock.invalidate();
    const due = await keysDueForRenewal(ctx, main.address, 14);
    expect(due.map((k) => k.agent)).toEqual([agent]);
    const before = ctx.vault.get({ environment: 'sim', wallet: main.address, agent })!.expires_at!;
    const r = await renewTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, expiresInDays: 30 });
    expect(r.previous_expires_at).toBe(before);
    expect(r.expires_at).toBeGreaterThan(before);
    const listed = await ctx.api.tradingKeys(main.address);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.expires_at).toBe(r.expires_at);
  });

  it('stops trading when the key expires on the simulator clock, and explains the 403 as not listed (expired)', async () => {
    // Expired 31 days on: a key with less left (a 30-day renewal).
    await ensureActiveKey((left) => left < 31 * DAY_MS, 30);
    const signer = await ctx.tradingSigner(main.address);
    await h.advance(31 * DAY_MS);
    ctx.clock.invalidate();

    const list = await listTradingKeys(ctx, main.address);
    expect(list.keys).toEqual([expect.objectContaining({ agent, status: 'EXPIRED', listed: false })]);
    const noKey = await ctx.tradingSigner(main.address).catch((e: unknown) => e);
    expect((noKey as OperationError).code).toBe('NO_TRADING_KEY');
    expect((noKey as OperationError).hint).toMatch(/perps keys renew/);

    // The key the app held before expiry now answers 403; the listing tells why.
    const err = await expect403(sendOrder(main.address, signer));
    const op = (await explainIfForbidden(ctx, err, { wallet: main.address, agent })) as OperationError;
    expect(op.details?.['cause']).toBe('KEY_NOT_ACTIVE');
    expect(op.message).toMatch(/expired/);
    expect(op.message).toMatch(/another wallet or environment/);
  });

  it('an expired key authorized again trades again', async () => {
    await ensureExpiredKey();
    await renewTradingKey(ctx, { wallet: main.address, agent, signer: main.signer, expiresInDays: 180 });
    ctx.clock.invalidate();
    const signer = await ctx.tradingSigner(main.address);
    await expect(sendOrder(main.address, signer)).resolves.toBeDefined();
  });

  it('revokes: immediate on the service, local key deleted, and a 403 afterwards explained as not listed', async () => {
    await ensureActiveKey();
    // Signed while the key is still authorized and stored; sent after the revocation.
    const order = await signedOrder(main.address, await ctx.tradingSigner(main.address));
    const r = await revokeTradingKey(ctx, { wallet: main.address, agent, signer: main.signer });
    expect(main.signer.signed.at(-1)?.primaryType).toBe('RevokeAgent');
    expect(r.deleted_locally).toBe(true);
    expect(await ctx.api.tradingKeys(main.address)).toEqual([]);
    expect(ctx.vault.list({ wallet: main.address })).toEqual([]);
    expect((await rawKeytar.findCredentials(service)).map((e) => e.account)).not.toContain(`sim/${main.address.toLowerCase()}/${agent.toLowerCase()}`);
    const err = await expect403(send(order));
    const why = await explainForbidden(ctx, { wallet: main.address, agent });
    expect(why.cause).toBe('KEY_NOT_ACTIVE');
    expect(err.code).toBe('FORBIDDEN');
  });

  it('explains a key registered for another wallet as not listed for this one', async () => {
    const a = newMainWallet();
    const b = newMainWallet();
    const key = await createTradingKey(ctx, { wallet: a.address });
    await authorizeTradingKey(ctx, { wallet: a.address, agent: key.agent, signer: a.signer });
    const why = await explainForbidden(ctx, { wallet: b.address, agent: key.agent });
    expect(why.cause).toBe('KEY_NOT_ACTIVE');
    expect(why.listed).toBe(false);
  });
});
