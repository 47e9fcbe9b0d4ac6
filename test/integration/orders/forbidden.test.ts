/**
 * A 403 on a trading route comes back explained, the way the spec tells the two causes apart: here the
 * key was revoked on the service behind this machine's back, so it is no longer listed.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeTradingKey } from '../../../src/main/services/keys/index.js';
import { OperationError } from '../../../src/main/services/errors.js';
import { placeOrders } from '../../../src/main/services/orders/index.js';
import { revokeAgentTypedData } from '../../../src/shared/eip712/index.js';
import { TradingWorld, ethersSigner, priceAt, sizeFor } from './tradingWorld.js';

let w: TradingWorld;
beforeAll(async () => {
  w = await TradingWorld.boot('orders-forbidden');
});
afterAll(async () => {
  await w?.stop();
});

describe('403 on trading routes', () => {
  it('explains a revoked key as not listed (KEY_NOT_ACTIVE) and sends nothing else', async () => {
    const main = Wallet.createRandom();
    const key = await w.ctx.vault.create({ environment: w.ctx.profile.name, wallet: main.address, name: 'forbidden' });
    await authorizeTradingKey(w.ctx, { wallet: main.address, agent: key.agent, signer: ethersSigner(new Wallet(main.privateKey)), expiresInDays: 30 });
    await w.control('/deposit', { wallet: main.address, amount: '10000' });
    await w.advance(2_000);

    // Revoke on the service directly, as another machine holding the main wallet would.
    const body = {
      wallet_address: main.address,
      agent_wallet_address: key.agent,
      service_environment: w.ctx.profile.environment,
      signature_chain_id: w.ctx.profile.tradingChainId,
      nonce: await w.ctx.nonces.next(main.address),
    };
    const td = revokeAgentTypedData(body);
    const { EIP712Domain: _d, ...types } = td.types;
    const signature = await new Wallet(main.privateKey).signTypedData(td.domain, types, td.message);
    await w.ctx.api.revoke({ ...body, signature });

    const m = w.market('BTC');
    const mark = await w.mark('BTC');
    const price = priceAt(m, mark, 0.9);
    const err = await placeOrders(w.ctx, { wallet: main.address, legs: [{ market: 'BTC', side: 'BUY', size: sizeFor(m, mark), order_type: 'LIMIT', limit_price: price, leverage: 5 }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OperationError);
    expect(err).toMatchObject({ code: 'FORBIDDEN', status: 403, details: { cause: 'KEY_NOT_ACTIVE', listed: false } });
    expect((err as OperationError).message).toMatch(/not listed/);
    expect((err as OperationError).hint).toMatch(/perps keys/);
  });
});
