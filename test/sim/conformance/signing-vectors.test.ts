/**
 * The suite's own signer must reproduce ../shared/vectors/eip712.json before anything it signs is
 * trusted against the simulator. Messages are rebuilt from each vector's request body with the
 * suite's helpers (support/sign.ts), never taken from the vector's `message`.
 */
import { getAddress, verifyTypedData, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import {
  accountIdOf,
  authorizeMessage,
  cancelMessage,
  digest,
  domain,
  marginMessage,
  modifyMessage,
  orderMessage,
  revokeMessage,
  signTyped,
  splitSig,
  typesFor,
  usdcBaseUnits,
  walletOfAccountId,
  withdrawMessage,
  type LegBody,
  type ModifyBody,
  type PrimaryType,
} from './support/sign.js';
import { loadVectors, type Vector } from './support/vectors.js';

const file = loadVectors();
const keys = new Map<string, Wallet>([
  [file.main_wallet.toLowerCase(), new Wallet(file.main_private_key)],
  [file.agent.toLowerCase(), new Wallet(file.agent_private_key)],
]);

/** Builds [primaryType, chainId, message] from the request body alone. */
function fromBody(v: Vector): { primaryType: PrimaryType; chainId: number; message: Record<string, unknown>; sent: Record<string, unknown> } {
  const b = v.body;
  switch (v.name) {
    case 'register':
      return {
        primaryType: 'AuthorizeAgent',
        chainId: b.signature_chain_id as number,
        message: authorizeMessage(b.wallet_address as string, b.agent_wallet_address as string, b.service_environment as string, b.expires_at as number, b.nonce as number),
        sent: b,
      };
    case 'revoke':
      return {
        primaryType: 'RevokeAgent',
        chainId: b.signature_chain_id as number,
        message: revokeMessage(b.wallet_address as string, b.agent_wallet_address as string, b.service_environment as string, b.nonce as number),
        sent: b,
      };
    case 'withdraw-default-rail': {
      const user = getAddress(walletOfAccountId(b.account_id as string));
      // Default rail: no destination field in the body; the signed destination is the wallet itself.
      expect(b.destination_recipient).toBeUndefined();
      return {
        primaryType: 'Withdraw',
        chainId: b.signature_chain_id as number,
        message: withdrawMessage(user, user, b.amount as string, 'Mainnet', b.nonce as string),
        sent: b,
      };
    }
    case 'order-limit-gtc': {
      const leg = (b.orders as LegBody[])[0]!;
      return { primaryType: 'Order', chainId: 999, message: orderMessage(b.account_id as string, leg), sent: leg as Record<string, unknown> };
    }
    case 'cancel': {
      const body = b.body as Record<string, string>;
      const orderId = (b.path as string).split('/')[2]!;
      return { primaryType: 'Cancel', chainId: 999, message: cancelMessage(body.account!, orderId, body.order_type!, body.nonce!), sent: body };
    }
    case 'modify': {
      const body = b.body as unknown as ModifyBody;
      const orderId = (b.path as string).split('/')[2]!;
      return { primaryType: 'Modify', chainId: 999, message: modifyMessage(orderId, body), sent: body as unknown as Record<string, unknown> };
    }
    case 'margin-add':
      return {
        primaryType: 'UpdateIsolatedMargin',
        chainId: 999,
        message: marginMessage(b.account_id as string, b.market as string, b.amount as string, b.nonce as number),
        sent: b,
      };
    default:
      throw new Error(`vector ${v.name} has no mapping in the conformance signer`);
  }
}

/** Addresses compare case-insensitively (EIP-712 encodes the 20 bytes); everything else exactly. */
function normalise(message: Record<string, unknown>, primaryType: PrimaryType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of typesFor(primaryType)[primaryType]!) {
    const value = message[field.name];
    out[field.name] = field.type === 'address' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  return out;
}

describe('EIP-712 vectors reproduced by the conformance signer', () => {
  it('derives account_id as the lowercase wallet plus 24 hex zeros', () => {
    expect(accountIdOf(file.main_wallet)).toBe(file.account_id);
    expect(file.account_id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(walletOfAccountId(file.account_id)).toBe(file.main_wallet.toLowerCase());
  });

  it('converts whole-USDC body amounts to 6-decimal base units as strings', () => {
    expect(usdcBaseUnits('25')).toBe('25000000');
    expect(usdcBaseUnits('12.5')).toBe('12500000');
    expect(usdcBaseUnits('0.000001')).toBe('1');
  });

  it('covers all seven signed structs', () => {
    expect(new Set(file.vectors.map((v) => v.primaryType))).toEqual(
      new Set(['AuthorizeAgent', 'RevokeAgent', 'Withdraw', 'Order', 'Cancel', 'Modify', 'UpdateIsolatedMargin']),
    );
  });

  for (const v of file.vectors) {
    describe(v.name, () => {
      const built = fromBody(v);

      it('rebuilds the vector message and domain from the request body', () => {
        expect(built.primaryType).toBe(v.primaryType);
        expect(domain(built.chainId)).toEqual(v.domain);
        expect(normalise(built.message, built.primaryType)).toEqual(normalise(v.message, built.primaryType));
      });

      it('hashes to the vector digest', () => {
        expect(digest(built.primaryType, domain(built.chainId), built.message)).toBe(v.digest);
      });

      it('signs to the vector signature byte for byte and the body carries it', async () => {
        const key = keys.get(v.signer.toLowerCase());
        expect(key?.address).toBe(v.signer);
        const sig = await signTyped(key!, built.primaryType, domain(built.chainId), built.message);
        expect(sig).toBe(v.signature);
        expect(verifyTypedData(domain(built.chainId), typesFor(built.primaryType), built.message, sig)).toBe(v.signer);
        if (v.primaryType === 'Withdraw') expect(built.sent.signature).toEqual(splitSig(sig));
        else expect(built.sent.signature).toBe(sig);
      });
    });
  }

  it('a non-canonical decimal hashes differently from its canonical form (the service hashes the sent string)', () => {
    const leg = (file.vectors.find((v) => v.name === 'order-limit-gtc')!.body.orders as LegBody[])[0]!;
    const canonical = digest('Order', domain(999), orderMessage(file.account_id, leg));
    const padded = digest('Order', domain(999), orderMessage(file.account_id, { ...leg, size: '0.010' }));
    expect(padded).not.toBe(canonical);
  });
});
