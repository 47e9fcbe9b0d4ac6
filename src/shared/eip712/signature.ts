/**
 * Signature encodings and recovery. Recovery is public-data work (the simulator verifies every write, the
 * offline and Ledger signers check a signature recovers the wallet before anything is sent), so it lives
 * in shared; producing signatures needs key material and lives in src/main/signers.
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { getAddress } from 'ethers';
import { TypedDataError, bytesToHex, hexToBytes } from './hash.js';

/** The split form /account/withdraw takes. */
export interface SplitSignature {
  r: string;
  s: string;
  v: 27 | 28;
}

const SIG_HEX = /^0x[0-9a-fA-F]{130}$/;
const WORD_HEX = /^0x[0-9a-fA-F]{64}$/;
const SECP_N = secp256k1.CURVE.n;

/** Validates a 65-byte r||s||v hex signature with v 27 or 28 and low s. */
export function parseSignatureHex(sig: unknown, field = 'signature'): { r: bigint; s: bigint; recovery: 0 | 1 } {
  if (typeof sig !== 'string' || !SIG_HEX.test(sig)) throw new TypedDataError(`${field}: expected 65 bytes as 0x + 130 hex characters`);
  const r = BigInt('0x' + sig.slice(2, 66));
  const s = BigInt('0x' + sig.slice(66, 130));
  const v = parseInt(sig.slice(130, 132), 16);
  if (v !== 27 && v !== 28) throw new TypedDataError(`${field}: v must be 27 or 28, got ${v}`);
  if (r === 0n || r >= SECP_N || s === 0n || s >= SECP_N) throw new TypedDataError(`${field}: r or s out of range`);
  if (s > SECP_N >> 1n) throw new TypedDataError(`${field}: s must be in the lower half of the curve order`);
  return { r, s, recovery: (v - 27) as 0 | 1 };
}

export function splitSignature(sig: string): SplitSignature {
  const { recovery } = parseSignatureHex(sig);
  return { r: '0x' + sig.slice(2, 66).toLowerCase(), s: '0x' + sig.slice(66, 130).toLowerCase(), v: (27 + recovery) as 27 | 28 };
}

export function joinSignature(split: SplitSignature, field = 'signature'): string {
  if (!WORD_HEX.test(split.r) || !WORD_HEX.test(split.s)) throw new TypedDataError(`${field}: r and s must be 32-byte hex`);
  if (split.v !== 27 && split.v !== 28) throw new TypedDataError(`${field}.v: must be 27 or 28`);
  const sig = '0x' + split.r.slice(2) + split.s.slice(2) + split.v.toString(16);
  parseSignatureHex(sig, field);
  return sig.toLowerCase();
}

/** Checksummed address of an uncompressed (65-byte) or compressed (33-byte) public key. */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.ProjectivePoint.fromHex(publicKey).toRawBytes(false);
  return getAddress(bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12)));
}

/** The address that produced `signature` over `digest`. */
export function recoverDigestSigner(digest: Uint8Array, signature: string): string {
  const { r, s, recovery } = parseSignatureHex(signature);
  const point = new secp256k1.Signature(r, s).addRecoveryBit(recovery).recoverPublicKey(digest);
  return addressOfPublicKey(point.toRawBytes(false));
}

export { bytesToHex, hexToBytes };
