/**
 * The prepare and submit steps of a withdrawal with in-memory fakes: prepareWithdraw checks against the
 * (fake) live config and balance before it reserves a nonce, builds exactly the Withdraw the shared
 * builder gives (its digest is the standard EIP-712 hash), and makes one intent per prepared withdrawal;
 * submitWithdraw refuses another signer before signing, persists before sending, and never signs an
 * intent twice. The amount bound of issue 13 (point 10): more than 64 characters is INVALID_AMOUNT, a
 * validation error (exit 2), never a signing error.
 */
import { TypedDataEncoder } from 'ethers';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/services/errors.js';
import {
  parseWithdrawAmount,
  prepareWithdraw,
  prepareWithdrawForLater,
  signWithdrawalForLater,
  submitWithdraw,
  withdraw,
  SIGNED_WITHDRAWAL_FORMAT,
} from '../../../src/main/services/money/withdrawals/index.js';
import { WithdrawalStore } from '../../../src/main/services/money/withdrawalStore.js';
import { digestOf, joinSignature, recoverDigestSigner, withdrawTypedData, type TypedData } from '../../../src/shared/eip712/index.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../src/shared/fieldSchemas.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { CountingSigner, fakeWorld } from './fakes.js';

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

describe('parseWithdrawAmount', () => {
  it('refuses text longer than 64 characters as INVALID_AMOUNT (a validation error), whatever it spells', () => {
    for (const amount of ['1'.repeat(MAX_DECIMAL_INPUT_LENGTH + 1), '0.' + '0'.repeat(70) + '1', '9'.repeat(100_000)]) {
      let err: unknown;
      try {
        parseWithdrawAmount(amount);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe('INVALID_AMOUNT');
      expect((err as ValidationError).exitCode).toBe(2);
      expect((err as ValidationError).message).toMatch(/at most 64 characters/);
    }
  });

  it('accepts the largest 64-character amount, whose base units still fit the signed uint256', () => {
    const largest = '9'.repeat(MAX_DECIMAL_INPUT_LENGTH);
    expect(parseWithdrawAmount(largest)).toBe(largest);
    const typed = withdrawTypedData({ account_id: accountIdFromWallet('0x' + '11'.repeat(20)), amount: largest, nonce: '1', signature_chain_id: 998 }, 'Testnet');
    expect(BigInt(typed.message.amount)).toBeLessThan(1n << 256n);
    expect(() => digestOf(typed)).not.toThrow();
  });
});

describe('prepareWithdraw', () => {
  it('checks against live config and balance, then builds the exact Withdraw with its digest, a nonce and an intent id', async () => {
    const main = new CountingSigner();
    const w = fakeWorld({ freeBalance: '50', minAmount: '2', newWalletFee: '1' });
    const p = await prepareWithdraw(w.ctx, { wallet: main.address.toLowerCase(), amount: '12.50' });

    expect(w.nonces.issued).toEqual([{ wallet: main.address, nonce: Number(p.nonce) }]);
    const accountId = accountIdFromWallet(main.address);
    expect(p).toMatchObject({ action: 'withdraw', profile: 'sim', wallet: main.address, signer: { role: 'main-wallet', address: main.address }, accountId, amount: '12.5', chainId: 998 });
    expect(p.requests).toHaveLength(1);
    expect(p.requests[0]!.typedData).toEqual(withdrawTypedData({ account_id: accountId, amount: '12.5', nonce: p.nonce, signature_chain_id: 998 }, 'Testnet'));
    expect(p.requests[0]!.digest).toBe(standardDigest(p.requests[0]!.typedData));
    expect(p.view).toMatchObject({
      amount: '12.5',
      amount_base_units: '12500000',
      destination: main.address,
      free_balance: '50',
      min_amount: '2',
      checked: true,
      fee_preview: { preview: true, new_wallet_fee: '1', estimated_l1_send_amount: '11.5' },
      intent_id: p.intentId,
    });
    expect(p.check?.amount).toBe('12.5');
    expect(p.intentId).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing is sent by preparing: reads only.
    expect(w.calls.filter((c) => c.startsWith('withdraw '))).toEqual([]);
    expect(main.signed).toHaveLength(0);

    const again = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '12.5' });
    expect(again.intentId).not.toBe(p.intentId);
    expect(Number(again.nonce)).toBeGreaterThan(Number(p.nonce));
  });

  it('previews no new-wallet fee for a wallet that has deposited: it has history (spec, Funding config)', async () => {
    const main = new CountingSigner();
    const deposit = { tx_hash: '0x' + 'a'.repeat(64), amount: '50', source: 'send', status: 'CONFIRMED', detected_at: 1, credited_at: 2 } as const;
    const w = fakeWorld({ freeBalance: '50', deposits: [deposit] });
    const p = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '12.5' });
    expect(p.view.fee_preview).toBeNull();
    expect(w.calls).toContain(`depositHistory ${accountIdFromWallet(main.address)}`);
  });

  it('refuses a bad amount, under the minimum, over the free balance: no nonce taken', async () => {
    const main = new CountingSigner();
    const w = fakeWorld({ freeBalance: '20', minAmount: '2' });
    const codes: string[] = [];
    for (const amount of ['0', '-1', '1.1234567', '1e3', 'abc', '1'.repeat(65), '1.5', '21']) {
      codes.push((await refusal(prepareWithdraw(w.ctx, { wallet: main.address, amount }))).code);
    }
    expect(codes).toEqual(['INVALID_AMOUNT', 'INVALID_AMOUNT', 'INVALID_AMOUNT', 'INVALID_AMOUNT', 'INVALID_AMOUNT', 'INVALID_AMOUNT', 'BELOW_MIN', 'INSUFFICIENT_BALANCE']);
    expect(w.nonces.issued).toEqual([]);
  });

  it('refuses an intent id already stored here (that withdrawal exists)', async () => {
    const main = new CountingSigner();
    const w = fakeWorld();
    const p = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '5', intentId: 'dialog-1' });
    await submitWithdraw(w.ctx, p, main);
    const before = w.nonces.issued.length;
    expect((await refusal(prepareWithdraw(w.ctx, { wallet: main.address, amount: '5', intentId: 'dialog-1' }))).code).toBe('INTENT_ALREADY_USED');
    expect(w.nonces.issued).toHaveLength(before);
  });
});

describe('submitWithdraw', () => {
  it('refuses another signer before signing or storing anything', async () => {
    const main = new CountingSigner();
    const other = new CountingSigner();
    const w = fakeWorld();
    const p = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '5' });
    const err = await refusal(submitWithdraw(w.ctx, p, other));
    expect(err.code).toBe('SIGNER_NOT_WALLET');
    expect(other.signed).toHaveLength(0);
    expect(w.withdrawals).toEqual([]);
    expect(new WithdrawalStore(w.settings, 'sim').list()).toEqual([]);
  });

  it('signs exactly the prepared typed data, stores the signed body, sends it once; the same prepared again never signs again', async () => {
    const main = new CountingSigner();
    const w = fakeWorld();
    const p = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '5' });
    const first = await submitWithdraw(w.ctx, p, main);
    expect(main.signed).toEqual([p.requests[0]!.typedData]);
    expect(w.withdrawals).toHaveLength(1);
    const sent = w.withdrawals[0]!;
    expect(sent).toMatchObject({ account_id: p.accountId, amount: '5', nonce: p.nonce, signature_chain_id: 998 });
    expect(recoverDigestSigner(digestOf(p.requests[0]!.typedData), joinSignature(sent.signature))).toBe(main.address);
    expect(first.withdrawal).toMatchObject({ intent_id: p.intentId, phase: 'TRACKING', status: 'REQUESTED', withdrawal_id: 'w-1', body: sent });
    expect(first.check).toEqual(p.check);

    const second = await submitWithdraw(w.ctx, p, main);
    expect(second.withdrawal.withdrawal_id).toBe('w-1');
    expect(second.check).toBeNull();
    // Concurrent submits of one prepared withdrawal: still one signature, one request.
    const q = await prepareWithdraw(w.ctx, { wallet: main.address, amount: '6' });
    const both = await Promise.all([submitWithdraw(w.ctx, q, main), submitWithdraw(w.ctx, q, main)]);
    expect(both.map((o) => o.withdrawal.withdrawal_id)).toEqual(['w-2', 'w-2']);
    expect(main.signed).toHaveLength(2);
    expect(w.withdrawals).toHaveLength(2);
  });

  it('withdraw(ctx, input) composes both steps and refuses a signer of another wallet before a nonce is taken', async () => {
    const main = new CountingSigner();
    const other = new CountingSigner();
    const w = fakeWorld();
    expect((await refusal(withdraw(w.ctx, { wallet: main.address, amount: '5', signer: other }))).code).toBe('SIGNER_NOT_WALLET');
    expect(w.nonces.issued).toEqual([]);
    const done = await withdraw(w.ctx, { wallet: main.address, amount: '5', signer: main });
    expect(done.withdrawal.status).toBe('REQUESTED');
    expect(done.check?.amount).toBe('5');
  });
});

describe('prepareWithdrawForLater / signWithdrawalForLater', () => {
  it('reads nothing over the network, warns it is unchecked, and signs a file whose body recovers the wallet', async () => {
    const main = new CountingSigner();
    const w = fakeWorld();
    const p = await prepareWithdrawForLater(w.ctx, { wallet: main.address, amount: '25' });
    expect(w.calls).toEqual([]);
    expect(p.check).toBeNull();
    expect(p.view).toMatchObject({ checked: false, free_balance: null, min_amount: null, fee_preview: null });
    expect(p.view.warnings.join(' ')).toMatch(/at submit/);
    expect(p.requests[0]!.digest).toBe(standardDigest(p.requests[0]!.typedData));

    const other = new CountingSigner();
    expect((await refusal(signWithdrawalForLater(p, other))).code).toBe('SIGNER_NOT_WALLET');
    expect(other.signed).toHaveLength(0);

    const file = await signWithdrawalForLater(p, main);
    expect(file).toMatchObject({ format: SIGNED_WITHDRAWAL_FORMAT, service_environment: 'Testnet', wallet: main.address, amount: '25', destination: main.address, body: { amount: '25', nonce: p.nonce } });
    expect(recoverDigestSigner(digestOf(withdrawTypedData(file.body, 'Testnet')), joinSignature(file.body.signature))).toBe(main.address);
    expect(w.calls).toEqual([]);
    expect(w.withdrawals).toEqual([]);
  });
});
