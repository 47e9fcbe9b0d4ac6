/** "Where signed members come from": the builders' rules beyond what the vectors exercise. */
import { describe, expect, it } from 'vitest';
import {
  TypedDataError,
  bytesToHex,
  digestOf,
  joinSignature,
  orderTypedData,
  parseSignatureHex,
  splitSignature,
  typedData,
  withdrawTypedData,
} from '../../src/shared/eip712/index.js';

const ACCOUNT = '0x5ec6b8eef87319d7f9035260faee6f8ee2405ae1000000000000000000000000';
const WALLET = '0x5ec6B8eeF87319d7F9035260faeE6f8eE2405Ae1';
const base = { market: 'ETH', side: 'SELL', size: '0.5', limit_price: '3000', nonce: '1763700002000' };

describe('order message rules', () => {
  it('signs MARKET when order_type is omitted', () => {
    const m = orderTypedData(ACCOUNT, { ...base, time_in_force: 'IOC' }, 'mainnet').message;
    expect(m.orderType).toBe('MARKET');
    expect(m.timeInForce).toBe('IOC');
  });

  it('signs IOC on a trigger whose body omits time_in_force, and the trigger members', () => {
    const m = orderTypedData(
      ACCOUNT,
      { ...base, size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: '2900', is_market: true, tpsl: 'SL' } },
      'mainnet',
    ).message;
    expect(m).toMatchObject({ orderType: 'TRIGGER', timeInForce: 'IOC', triggerPrice: '2900', isMarket: true, tpsl: 'SL', reduceOnly: true, size: '0' });
  });

  it("signs '0', false and '' trigger members on a plain order, and reduce_only false by default", () => {
    const m = orderTypedData(ACCOUNT, { ...base, order_type: 'LIMIT', time_in_force: 'ALO' }, 'mainnet').message;
    expect(m).toMatchObject({ triggerPrice: '0', isMarket: false, tpsl: '', reduceOnly: false, timeInForce: 'ALO' });
  });

  it('signs the strings exactly as sent: 0.50 and 0.5 are different messages', () => {
    const a = orderTypedData(ACCOUNT, { ...base, size: '0.5', order_type: 'LIMIT', time_in_force: 'GTC' }, 'mainnet');
    const b = orderTypedData(ACCOUNT, { ...base, size: '0.50', order_type: 'LIMIT', time_in_force: 'GTC' }, 'mainnet');
    expect(b.message.size).toBe('0.50');
    expect(bytesToHex(digestOf(a))).not.toBe(bytesToHex(digestOf(b)));
  });

  it('pins the trading chainId: 999 mainnet, 998 testnet', () => {
    expect(orderTypedData(ACCOUNT, base, 'mainnet').domain).toEqual({ name: 'Service Perps', version: '2', chainId: 999 });
    expect(orderTypedData(ACCOUNT, base, 'testnet').domain.chainId).toBe(998);
  });
});

describe('withdraw message rules', () => {
  it('uses the own wallet as destination on the default rail and the recipient on the Arbitrum rail', () => {
    const recipient = '0x5722d95D2eDeFE258Cf04846c7e29A2116AfEdED';
    expect(withdrawTypedData({ account_id: ACCOUNT, amount: '25', nonce: '1', signature_chain_id: 999 }, 'Mainnet').message.destination).toBe(WALLET);
    const arb = withdrawTypedData(
      { account_id: ACCOUNT, amount: '25.5', nonce: '1', signature_chain_id: 42161, destination_chain_id: 42161, destination_recipient: recipient },
      'Mainnet',
    );
    expect(arb.message).toMatchObject({ user: WALLET, destination: recipient, amount: '25500000' });
    expect(arb.domain.chainId).toBe(42161);
  });

  it('refuses more than 6 decimals rather than rounding the signed amount', () => {
    expect(() => withdrawTypedData({ account_id: ACCOUNT, amount: '1.0000001', nonce: '1', signature_chain_id: 999 }, 'Mainnet')).toThrow(/6 decimals/);
  });
});

describe('signature encodings and typed data checks', () => {
  const sig = '0x4c2494e4eb6c74a5cf6255628bd04258412fd3ae641b03eea149fb375b5665523e592e3e26e19797be205ba9b0e62d030643f0aa8ab7aa8875e6be92050fb0371c';

  it('splits to {r, s, v} and joins back', () => {
    const split = splitSignature(sig);
    expect(split.v).toBe(28);
    expect(joinSignature(split)).toBe(sig);
  });

  it('refuses v other than 27/28, high s and wrong lengths', () => {
    expect(() => parseSignatureHex(sig.slice(0, -2) + '01')).toThrow(/v must be 27 or 28/);
    expect(() => parseSignatureHex(sig.slice(0, 66) + 'f'.repeat(64) + '1b')).toThrow(/out of range|lower half/);
    expect(() => parseSignatureHex(sig + '00')).toThrow(/65 bytes/);
  });

  it('refuses typed data whose domain or struct differs from the service\'s', () => {
    const td = orderTypedData(ACCOUNT, base, 'mainnet');
    expect(() => digestOf({ ...td, domain: { ...td.domain, version: '1' as '2' } })).toThrow(TypedDataError);
    const reordered = { ...td, types: { ...td.types, Order: [...td.types.Order].reverse() } };
    expect(() => digestOf(reordered)).toThrow(/differs/);
    expect(() => typedData('Order', 0, td.message)).toThrow(/chainId/);
  });

  it('refuses malformed member values instead of hashing them', () => {
    const td = orderTypedData(ACCOUNT.slice(0, -1) + 'g', base, 'mainnet');
    expect(() => digestOf(td)).toThrow(/Order\.account: not hex/);
  });
});
