/**
 * Prepare, review, submit: every signed action is two public steps, as viem separates preparing a
 * transaction request from sending it.
 *
 *  - prepareX(ctx, input) validates the input against the live /markets and /config, reserves the nonces
 *    and builds the exact EIP-712 typed data (with digests) and a view: what a person reviews. Nothing is
 *    signed or sent.
 *  - submitX(ctx, prepared, signer) signs exactly those typed data, in order, and sends.
 *
 * The app keeps Prepared objects in its review store between the two steps; the command line runs them
 * back to back, or prints the Prepared under --dry-run. Because submit signs only what prepare built,
 * "what you review is what gets signed" holds by construction; signPrepared checks it once more (the
 * digest of each typed data against the reviewed one, the signer against the one named at prepare) so a
 * changed or mixed-up Prepared is refused before anything is signed.
 */
import { bytesToHex, digestOf, recoverDigestSigner, type TypedData } from '../../../shared/eip712/index.js';
import { sameAddress } from '../../../shared/identity/index.js';
import type { Signer } from '../../signers/signer.js';
import { OperationError, ValidationError } from '../errors.js';

/** One message a Prepared will have signed, exactly. */
export interface SignRequest {
  /** What this signature is for, for people: 'entry', 'tp', 'cancel 1234', 'AuthorizeAgent'. */
  label: string;
  typedData: TypedData;
  /** 0x-prefixed EIP-712 digest of typedData. */
  digest: string;
}

/** Who signs: the wallet's trading key (order flow) or the main wallet itself (custody actions). */
export type SignerRole = 'trading-key' | 'main-wallet';

export interface PreparedBase<A extends string = string> {
  readonly action: A;
  /** The profile (sim, mainnet) it was prepared for: submit refuses another. */
  readonly profile: string;
  /** The main wallet (checksummed) the action is for. */
  readonly wallet: string;
  readonly signer: { readonly role: SignerRole; readonly address: string };
  /** Every signature the action needs, in signing order. */
  readonly requests: readonly SignRequest[];
}

export function digestHex(data: TypedData): string {
  return bytesToHex(digestOf(data));
}

export function signRequest(label: string, typedData: TypedData): SignRequest {
  return { label, typedData, digest: digestHex(typedData) };
}

/** Refuses a Prepared made for another profile (a review left open across a profile switch). */
export function assertPreparedFor(prepared: PreparedBase, profile: string): void {
  if (prepared.profile !== profile) {
    throw new ValidationError(`this ${prepared.action} was prepared for profile '${prepared.profile}', not '${profile}'`, { code: 'PROFILE_MISMATCH', hint: 'Prepare it again on this profile.' });
  }
}

/**
 * Signs the requests of `prepared` (all, or the given indexes) with `signer`, in order. The signer must be
 * the one prepare named; each typed data must still hash to its reviewed digest. A main-wallet signature
 * (keystore, Ledger, an offline device) is checked to recover the wallet before it is used.
 */
export async function signPrepared(prepared: PreparedBase, signer: Signer, indexes?: readonly number[]): Promise<string[]> {
  if (!sameAddress(signer.address, prepared.signer.address)) {
    throw new ValidationError(`the signer is ${signer.address}, but this ${prepared.action} was prepared for ${prepared.signer.address}`, {
      field: 'signer',
      code: prepared.signer.role === 'main-wallet' ? 'SIGNER_NOT_WALLET' : 'SIGNER_MISMATCH',
      hint: prepared.signer.role === 'main-wallet' ? 'Custody actions (authorize, revoke, withdraw) are signed by the main wallet itself: use its keystore or key.' : 'Prepare it again: the trading key changed.',
    });
  }
  const out: string[] = [];
  for (const i of indexes ?? prepared.requests.map((_, k) => k)) {
    const request = prepared.requests[i];
    if (!request) throw new OperationError('REVIEW_MISMATCH', `${prepared.action} has no signing request ${i}; nothing more was signed`, { kind: 'internal' });
    if (digestHex(request.typedData).toLowerCase() !== request.digest.toLowerCase()) {
      throw new OperationError('REVIEW_MISMATCH', `the ${request.typedData.primaryType} to sign differs from the one reviewed; nothing was signed`, { hint: 'Review it again and confirm the new review.' });
    }
    const signature = await signer.signTypedData(request.typedData);
    if (prepared.signer.role === 'main-wallet') {
      const recovered = recoverDigestSigner(digestOf(request.typedData), signature);
      if (!sameAddress(recovered, prepared.wallet)) {
        throw new OperationError('SIGNATURE_MISMATCH', `the ${request.typedData.primaryType} signature recovers ${recovered}, not ${prepared.wallet}; nothing was sent`);
      }
    }
    out.push(signature);
  }
  return out;
}

/** Reserves `count` nonces for `wallet`, strictly increasing (a burst never repeats one). */
export async function reserveNonces(nonces: { next(wallet: string): Promise<number> }, wallet: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await nonces.next(wallet));
  return out;
}
