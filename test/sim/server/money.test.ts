import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { DepositHistorySchema, WithdrawalHistorySchema, WithdrawalSchema, MarginRequestSchema } from '../../../src/shared/protocol/index.js';
import type { RunningSimulator } from '../../../src/sim/index.js';
import { TRADING_CHAIN_ID, Trader, readyTrader, sign, startTestSim, type Api } from './helpers.js';

let sim: RunningSimulator;
let api: Api;

beforeEach(async () => {
  ({ sim, api } = await startTestSim());
});
afterEach(async () => {
  await sim.stop();
});

describe('deposits', () => {
  it('goes DETECTED -> CONFIRMED (credited), or BELOW_MIN under the rail minimum', async () => {
    const t = new Trader(api, 21);
    const dep = await api.control('/deposit', { wallet: t.wallet, amount: '50' });
    expect(dep).toMatchObject({ status: 'DETECTED', source: 'spotTransfer', credited_at: null });
    await api.control('/deposit', { wallet: t.wallet, amount: '4', rail: 'arbitrum' });
    expect(await t.balance()).toBe('0');
    await api.advance(1000);
    expect(await t.balance()).toBe('50');
    const hist = await api.get(`/account/${t.accountId}/deposit-history`);
    const data = DepositHistorySchema.parse(hist.body.data);
    expect(data.account).toBe(t.accountId);
    expect(data.deposits.map((d) => d.status)).toEqual(['BELOW_MIN', 'CONFIRMED']);
    expect('total' in hist.body.data).toBe(false);
    expect((await api.get(`/account/${t.wallet}/deposit-history`)).status).toBe(400);
  });
});

describe('withdrawals', () => {
  it('progresses REQUESTED -> ACCEPTED -> PROCESSING -> COMPLETED, locking funds; the new-wallet fee only on a destination with no history, once', async () => {
    const t = await readyTrader(api, 22, '100');
    const r = await t.withdraw('10');
    expect(r.body.data.status).toBe('REQUESTED');
    const id = r.body.data.withdrawal_id;
    expect(await t.balance()).toBe('90');
    const statuses: string[] = [];
    for (const ms of [0, 500, 2000, 3000]) {
      await api.advance(ms);
      statuses.push((await api.get(`/withdrawal-history/${id}`)).body.data.status);
    }
    expect(statuses).toEqual(['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED']);
    const w = WithdrawalSchema.parse((await api.get(`/withdrawal-history/${id}`)).body.data);
    // The wallet deposited, so it has history: no new-wallet fee on its own withdrawal.
    expect(w).toMatchObject({ amount: '10', l1_send_amount: '10', destination: t.wallet, failure_reason: null });
    expect(w.l1_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // A fresh Arbitrum-rail recipient has none: the fee on the first credit to it, then no more.
    const recipient = Wallet.createRandom().address;
    const first = await t.withdraw('10', { recipient });
    await api.advance(6000);
    expect((await api.get(`/withdrawal-history/${first.body.data.withdrawal_id}`)).body.data.l1_send_amount).toBe('9');
    const second = await t.withdraw('5', { recipient });
    await api.advance(6000);
    expect((await api.get(`/withdrawal-history/${second.body.data.withdrawal_id}`)).body.data.l1_send_amount).toBe('5');
    const hist = WithdrawalHistorySchema.parse((await api.get(`/account/${t.accountId}/withdrawal-history?limit=1`)).body.data);
    expect(hist.withdrawals).toHaveLength(1);
    expect((await api.get(`/withdrawal-history/nope`)).status).toBe(404);
  });

  it('rejects at submit with BELOW_MIN, BELOW_MIN_AFTER_FEE, ABOVE_MAX and RATE_LIMITED (HTTP 200, no record)', async () => {
    const t = await readyTrader(api, 23, '1000');
    expect((await t.withdraw('1')).body.data).toEqual({ status: 'REJECTED', reason: 'BELOW_MIN' });
    // The fee applies to a destination with no history: a fresh recipient, not the depositing wallet itself.
    expect((await t.withdraw('2.5', { recipient: Wallet.createRandom().address })).body.data).toEqual({ status: 'REJECTED', reason: 'BELOW_MIN_AFTER_FEE', new_wallet_fee: '1' });
    expect((await t.withdraw('100001')).body.data).toEqual({ status: 'REJECTED', reason: 'ABOVE_MAX' });
    // rate_limit_max is 5 signed requests per minute: the sixth is refused.
    expect((await t.withdraw('3')).body.data.status).toBe('REQUESTED');
    expect((await t.withdraw('3')).body.data.status).toBe('REQUESTED');
    expect((await t.withdraw('3')).body.data).toEqual({ status: 'REJECTED', reason: 'RATE_LIMITED' });
    expect((await api.get(`/account/${t.accountId}/withdrawal-history`)).body.data.withdrawals).toHaveLength(2);
    await api.advance(60_000);
    expect((await t.withdraw('3')).body.data.status).toBe('REQUESTED');
  });

  it('rejects over the daily limit', async () => {
    const { sim: s2, api: a2 } = await startTestSim(undefined);
    try {
      const t = await readyTrader(a2, 24, '300000');
      expect((await t.withdraw('100000')).body.data.status).toBe('REQUESTED');
      expect((await t.withdraw('100000')).body.data.status).toBe('REQUESTED');
      expect((await t.withdraw('60000')).body.data).toEqual({ status: 'REJECTED', reason: 'DAILY_LIMIT_EXCEEDED' });
    } finally {
      await s2.stop();
    }
  });

  it('answers 401 for a bad signature (a Mainnet signature included) and 400 for a bad shape', async () => {
    const t = await readyTrader(api, 25, '100');
    const mainnet = await t.withdrawBody('10', { environment: 'Mainnet' });
    expect((await api.post('/account/withdraw', mainnet)).status).toBe(401);
    const other = new Trader(api, 26);
    const forged = await other.withdrawBody('10');
    forged.account_id = t.accountId;
    const r = await api.post('/account/withdraw', forged);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
    const noSig = await t.withdrawBody('10');
    delete noSig.signature;
    expect((await api.post('/account/withdraw', noSig)).body.error.code).toBe('INVALID_REQUEST');
    const arbWrongChain = await t.withdrawBody('10', { recipient: Wallet.createRandom().address, destinationChainId: 42161 });
    const a = await api.post('/account/withdraw', arbWrongChain);
    expect(a.status).toBe(400);
    expect(a.body.error.message).toContain('destination_chain_id');
    const arb = await t.withdrawBody('10', { recipient: Wallet.createRandom().address });
    expect((await api.post('/account/withdraw', arb)).body.data.status).toBe('REQUESTED');
    expect((await api.post('/account/withdraw', arb)).status).toBe(409);
  });

  it('rejects asynchronously on insufficient balance, and refunds or fails on command', async () => {
    const t = await readyTrader(api, 27, '20');
    const big = await t.withdraw('50');
    expect(big.body.data.status).toBe('REQUESTED');
    await api.advance(500);
    expect((await api.get(`/withdrawal-history/${big.body.data.withdrawal_id}`)).body.data).toMatchObject({ status: 'REJECTED', failure_reason: 'INSUFFICIENT_BALANCE' });
    expect(await t.balance()).toBe('20');

    await api.control('/withdrawal-outcome', { next: true, outcome: 'REFUNDED' });
    const refunded = await t.withdraw('5');
    expect(await t.balance()).toBe('15');
    await api.advance(6000);
    expect((await api.get(`/withdrawal-history/${refunded.body.data.withdrawal_id}`)).body.data.status).toBe('REFUNDED');
    expect(await t.balance()).toBe('20');

    const failed = await t.withdraw('5');
    await api.control('/withdrawal-outcome', { withdrawal_id: failed.body.data.withdrawal_id, outcome: 'FAILED' });
    expect((await api.get(`/withdrawal-history/${failed.body.data.withdrawal_id}`)).body.data.status).toBe('FAILED');
    expect(await t.balance()).toBe('15');
  });
});

describe('margin requests', () => {
  it('applies adds and removes asynchronously, reads 404 while pending, and rejects with every reason', async () => {
    const t = await readyTrader(api, 28, '1000');
    const none = await t.margin('BTC', '10');
    expect(none.body.data.status).toBe('SUBMITTED');
    expect((await api.get(`/positions/margin/${none.body.data.request_id}`)).status).toBe(404);
    await api.advance(200);
    expect(MarginRequestSchema.parse((await api.get(`/positions/margin/${none.body.data.request_id}`)).body.data)).toMatchObject({ status: 'REJECTED', reason: 'NO_OPEN_POSITION' });

    expect((await t.margin('NOPE', '10')).body.data).toMatchObject({ status: 'REJECTED', reason: 'UNKNOWN_MARKET' });
    expect((await t.margin('BTC', '10.50')).body.data).toMatchObject({ status: 'REJECTED', reason: 'INVALID_REQUEST' });
    // A non-string amount nobody signed is a signature failure (403), never a record under the account.
    const unsigned = await api.post('/positions/margin', { account_id: t.accountId, market: 'BTC', amount: 10, nonce: t.nextNonce(), signature: '0x' + '11'.repeat(65) });
    expect(unsigned.status).toBe(403);
    // Signed by the trading key (amount signed as its JSON text "10"): the margin table's up-front
    // shape failure, REJECTED at HTTP 200.
    const nonce = t.nextNonce();
    const signature = await sign(t.agent, 'UpdateIsolatedMargin', TRADING_CHAIN_ID, { account: t.accountId, market: 'BTC', amount: '10', nonce: String(nonce) });
    const notString = await api.post('/positions/margin', { account_id: t.accountId, market: 'BTC', amount: 10, nonce, signature });
    expect(notString.status).toBe(200);
    expect(notString.body.data).toMatchObject({ status: 'REJECTED', reason: 'INVALID_REQUEST' });
    const noAccount = await api.post('/positions/margin', { account_id: t.wallet, market: 'BTC', amount: '10', nonce: t.nextNonce(), signature: '0x' + '11'.repeat(65) });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.error.message).toContain('account_id');

    await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.01', limit_price: '98000', order_type: 'MARKET', time_in_force: 'IOC' });
    await api.advance(1000);
    const add = await t.margin('BTC', '5');
    await api.advance(200);
    expect((await api.get(`/positions/margin/${add.body.data.request_id}`)).body.data.status).toBe('APPLIED');
    await api.advance(200);
    const [pos] = await t.positions();
    expect(pos.isolated_margin).toBe('29.25125');
    expect(pos.version).toBe(2);

    const tooMuch = await t.margin('BTC', '-20');
    await api.advance(200);
    expect((await api.get(`/positions/margin/${tooMuch.body.data.request_id}`)).body.data.reason).toBe('EXCEEDS_MAX_REMOVABLE');
    const broke = await t.margin('BTC', '5000');
    await api.advance(200);
    expect((await api.get(`/positions/margin/${broke.body.data.request_id}`)).body.data.reason).toBe('INSUFFICIENT_BALANCE');
    await api.control('/margin-outcome', { next: true, outcome: 'TRANSFER_DECLINED' });
    const declined = await t.margin('BTC', '1');
    await api.advance(200);
    expect((await api.get(`/positions/margin/${declined.body.data.request_id}`)).body.data.reason).toBe('TRANSFER_DECLINED');
    const removed = await t.margin('BTC', '-4');
    await api.advance(200);
    expect((await api.get(`/positions/margin/${removed.body.data.request_id}`)).body.data.status).toBe('APPLIED');
  });
});
