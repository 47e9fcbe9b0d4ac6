/**
 * Signature recovery for every signed action. The typed message is always built FROM THE SENT BODY
 * with the shared builders ("Where signed members come from"), so a client that signed anything other
 * than what it sent recovers a different address. Trading actions use the environment's pinned chainId;
 * wallet-signed actions use the body's signature_chain_id.
 */
import {
  authorizeAgentTypedData,
  cancelTypedData,
  marginTypedData,
  modifyTypedData,
  orderTypedData,
  recoverDigestSigner,
  revokeAgentTypedData,
  typedDataDigest,
  withdrawTypedData,
  type CancelBodyForSigning,
  type MarginBodyForSigning,
  type ModifyBodyForSigning,
  type OrderLegForSigning,
  type RegisterBodyForSigning,
  type RevokeBodyForSigning,
  type WithdrawBodyForSigning,
  type ServiceEnvironment,
} from '../../shared/eip712/index.js';

/**
 * The builders take a network name only to pick the pinned chainId; the digest is recomputed here over
 * the sim's configured chainId, so a custom trading_chain_id works too. The message is the builder's.
 */
const NETWORK = 'testnet' as const;

/** Recovered address, or null when the signature cannot be recovered at all (bad v, high s, off-curve). */
function recover(digest: Uint8Array, signature: string): string | null {
  try {
    return recoverDigestSigner(digest, signature);
  } catch {
    // Unrecoverable signatures are a verdict ("does not verify"), reported by the caller with the route's code.
    return null;
  }
}

export function recoverOrderSigner(chainId: number, accountId: string, leg: OrderLegForSigning, signature: string): string | null {
  return recover(typedDataDigest('Order', chainId, orderTypedData(accountId, leg, NETWORK).message), signature);
}

export function recoverCancelSigner(chainId: number, orderId: string, body: CancelBodyForSigning, signature: string): string | null {
  return recover(typedDataDigest('Cancel', chainId, cancelTypedData(orderId, body, NETWORK).message), signature);
}

export function recoverModifySigner(chainId: number, orderId: string, body: ModifyBodyForSigning, signature: string): string | null {
  return recover(typedDataDigest('Modify', chainId, modifyTypedData(orderId, body, NETWORK).message), signature);
}

export function recoverMarginSigner(chainId: number, body: MarginBodyForSigning, signature: string): string | null {
  return recover(typedDataDigest('UpdateIsolatedMargin', chainId, marginTypedData(body, NETWORK).message), signature);
}

/** Wallet-signed: the domain chainId is the body's signature_chain_id (any value above 0). */
export function recoverRegisterSigner(body: RegisterBodyForSigning, signature: string): string | null {
  const td = authorizeAgentTypedData(body);
  return recover(typedDataDigest('AuthorizeAgent', td.domain.chainId, td.message), signature);
}

export function recoverRevokeSigner(body: RevokeBodyForSigning, signature: string): string | null {
  const td = revokeAgentTypedData(body);
  return recover(typedDataDigest('RevokeAgent', td.domain.chainId, td.message), signature);
}

/** The server's environment is signed, never the client's claim: a Mainnet signature fails on a Testnet sim. */
export function recoverWithdrawSigner(body: WithdrawBodyForSigning, environment: ServiceEnvironment, signature: string): string | null {
  const td = withdrawTypedData(body, environment);
  return recover(typedDataDigest('Withdraw', td.domain.chainId, td.message), signature);
}
