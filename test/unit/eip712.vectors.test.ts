/**
 * The signer must reproduce ../shared/vectors/eip712.json byte for byte: vectors computed from the spec
 * by an independent implementation. Each message is built from the vector's request body with the
 * builders the app uses, so a misreading of "where signed members come from" fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TypedDataEncoder } from 'ethers';
import { describe, expect, it } from 'vitest';
import {
  authorizeAgentTypedData,
  bytesToHex,
  cancelTypedData,
  digestOf,
  marginTypedData,
  modifyTypedData,
  orderTypedData,
  recoverDigestSigner,
  revokeAgentTypedData,
  splitSignature,
  withdrawTypedData,
  type TypedData,
} from '../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../src/shared/identity/index.js';
import { PrivateKey } from '../../src/main/signers/secp256k1.js';
import { SHARED_DIR } from '../support/paths.js';

interface Vector {
  name: string;
  signer: string;
  primaryType: string;
  domain: { name: string; version: string; chainId: number };
  message: Record<string, unknown>;
  digest: string;
  signature: string;
  body: Record<string, unknown>;
}
const file = JSON.parse(fs.readFileSync(path.join(SHARED_DIR, 'vectors/eip712.json'), 'utf8')) as {
  main_private_key: string;
  agent_private_key: string;
  main_wallet: string;
  agent: string;
  account_id: string;
  vectors: Vector[];
};

function build(v: Vector): TypedData {
  const b = v.body as never as Record<string, unknown>;
  switch (v.name) {
    case 'register':
      return authorizeAgentTypedData(b as never);
    case 'revoke':
      return revokeAgentTypedData(b as never);
    case 'withdraw-default-rail':
      return withdrawTypedData(b as never, 'Mainnet');
    case 'order-limit-gtc': {
      const body = b as { account_id: string; orders: never[] };
      return orderTypedData(body.account_id, body.orders[0]!, 'mainnet');
    }
    case 'cancel': {
      const orderId = (b.path as string).split('/')[2]!;
      return cancelTypedData(orderId, b.body as never, 'mainnet');
    }
    case 'modify': {
      const orderId = (b.path as string).split('/')[2]!;
      return modifyTypedData(orderId, b.body as never, 'mainnet');
    }
    case 'margin-add':
      return marginTypedData(b as never, 'mainnet');
    default:
      throw new Error(`no builder mapped for vector ${v.name}`);
  }
}

describe('EIP-712 vectors', () => {
  const keys: Record<string, PrivateKey> = {
    [file.main_wallet.toLowerCase()]: PrivateKey.fromHex(file.main_private_key),
    [file.agent.toLowerCase()]: PrivateKey.fromHex(file.agent_private_key),
  };

  it('derives the vectors\' account_id from the main wallet', () => {
    expect(accountIdFromWallet(file.main_wallet)).toBe(file.account_id);
  });

  it('covers all seven structs', () => {
    expect(new Set(file.vectors.map((v) => v.primaryType)).size).toBe(7);
  });

  for (const v of file.vectors) {
    describe(v.name, () => {
      const td = build(v);

      it('builds the exact typed message from the request body', () => {
        expect(td.primaryType).toBe(v.primaryType);
        expect(td.domain).toEqual(v.domain);
        expect(td.message).toEqual(v.message);
      });

      it('hashes to the vector digest (and agrees with ethers)', () => {
        expect(bytesToHex(digestOf(td))).toBe(v.digest);
        const { EIP712Domain: _d, ...types } = td.types;
        expect(TypedDataEncoder.hash(td.domain, types, td.message)).toBe(v.digest);
      });

      it('signs to the vector signature byte for byte', () => {
        const key = keys[v.signer.toLowerCase()]!;
        expect(key.address).toBe(v.signer);
        const sig = key.signDigest(digestOf(td));
        expect(sig).toBe(v.signature);
        expect(recoverDigestSigner(digestOf(td), sig)).toBe(v.signer);
        const sent =
          v.name === 'cancel' || v.name === 'modify'
            ? (v.body.body as Record<string, unknown>)
            : v.primaryType === 'Order'
              ? (v.body.orders as Record<string, unknown>[])[0]!
              : v.body;
        if (v.primaryType === 'Withdraw') expect(splitSignature(sig)).toEqual(sent.signature);
        else expect(sig).toBe(sent.signature);
      });
    });
  }
});
