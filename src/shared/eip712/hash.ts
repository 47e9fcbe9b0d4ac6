/**
 * EIP-712 hashing, fast: type hashes and domain separators are computed once and reused, and struct
 * members are written straight into one preallocated buffer. Signing an order leg is on the hot path of
 * every trade, so this avoids the generic encoder's per-call type parsing (the spec's structs are flat:
 * no nested or array types, which is what makes this small).
 */
import type { ClassifiedError } from '../errorKinds.js';
import { keccak_256 } from '@noble/hashes/sha3';
import { DOMAIN_FIELDS, STRUCTS, domainFor, type Eip712Field, type MessageOf, type PrimaryType, type TypedData } from './domain.js';

const utf8 = new TextEncoder();

function typeString(name: string, fields: readonly Eip712Field[]): string {
  return `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`;
}

const DOMAIN_TYPEHASH = keccak_256(utf8.encode(typeString('EIP712Domain', DOMAIN_FIELDS)));

const TYPEHASHES = Object.fromEntries(
  (Object.keys(STRUCTS) as PrimaryType[]).map((p) => [p, keccak_256(utf8.encode(typeString(p, STRUCTS[p])))]),
) as Record<PrimaryType, Uint8Array>;

export function typeHashOf(primaryType: PrimaryType): Uint8Array {
  return TYPEHASHES[primaryType];
}

export class TypedDataError extends Error implements ClassifiedError {
  /** Values are validated before signing; one that still cannot be encoded is a bug here. */
  readonly errorKind = 'internal' as const;
  readonly errorCode = 'SIGNING_ERROR';
  constructor(message: string) {
    super(message);
    this.name = 'TypedDataError';
  }
}

const UINT256_MAX = (1n << 256n) - 1n;

/** Hex digit values by char code; -1 for anything else. A table beats a regex per byte on the hot path. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[65 + i] = 10 + i;
  HEX_VALUE[97 + i] = 10 + i;
}

function writeHex(out: Uint8Array, offset: number, hex: unknown, bytes: number, field: string): void {
  if (typeof hex !== 'string' || hex.length !== 2 + bytes * 2 || hex.charCodeAt(0) !== 48 || (hex.charCodeAt(1) | 32) !== 120) {
    throw new TypedDataError(`${field}: expected 0x followed by ${bytes * 2} hex characters`);
  }
  for (let i = 0; i < bytes; i++) {
    const hi = HEX_VALUE[hex.charCodeAt(2 + i * 2) & 127]!;
    const lo = HEX_VALUE[hex.charCodeAt(3 + i * 2) & 127]!;
    if (hi < 0 || lo < 0 || hex.charCodeAt(2 + i * 2) > 127 || hex.charCodeAt(3 + i * 2) > 127) throw new TypedDataError(`${field}: not hex`);
    out[offset + i] = (hi << 4) | lo;
  }
}

function toUint256(value: unknown, field: string): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^(0|[1-9]\d*)$/.test(value)) n = BigInt(value);
  else throw new TypedDataError(`${field}: expected a uint256 (decimal integer string), got ${JSON.stringify(value)}`);
  if (n < 0n || n > UINT256_MAX) throw new TypedDataError(`${field}: out of uint256 range`);
  return n;
}

function writeUint256(out: Uint8Array, offset: number, n: bigint): void {
  // Values that fit a double's integer range (nonces, leverage, expiries) skip BigInt shifting.
  if (n <= 0x1fffffffffffffn) {
    let x = Number(n);
    for (let i = 31; i >= 24 && x > 0; i--) {
      out[offset + i] = x % 256;
      x = Math.floor(x / 256);
    }
    return;
  }
  for (let i = 31; i >= 0; i--) {
    out[offset + i] = Number(n & 0xffn);
    n >>= 8n;
  }
}

/**
 * keccak256 of short strings, memoised. Most signed strings repeat from order to order (market, side,
 * order type, time in force, '0', ''), and each keccak costs as much as a tenth of a signature.
 * The cache is bounded; the hashes it holds are public, never secret.
 */
const STRING_HASH_CACHE_LIMIT = 4096;
const stringHashes = new Map<string, Uint8Array>();

function keccakString(value: string): Uint8Array {
  let h = stringHashes.get(value);
  if (!h) {
    h = keccak_256(utf8.encode(value));
    if (value.length <= 64) {
      if (stringHashes.size >= STRING_HASH_CACHE_LIMIT) stringHashes.clear();
      stringHashes.set(value, h);
    }
  }
  return h;
}

function encodeField(out: Uint8Array, offset: number, field: Eip712Field, value: unknown, path: string): void {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') throw new TypedDataError(`${path}: expected a string`);
      out.set(keccakString(value), offset);
      return;
    case 'address':
      // 12 zero bytes then the 20-byte address (the buffer starts zeroed).
      writeHex(out, offset + 12, value, 20, path);
      return;
    case 'bytes32':
      writeHex(out, offset, value, 32, path);
      return;
    case 'uint256':
      writeUint256(out, offset, toUint256(value, path));
      return;
    case 'bool':
      if (typeof value !== 'boolean') throw new TypedDataError(`${path}: expected a boolean`);
      out[offset + 31] = value ? 1 : 0;
      return;
  }
}

function hashFields(typeHash: Uint8Array, fields: readonly Eip712Field[], message: Record<string, unknown>, name: string): Uint8Array {
  const out = new Uint8Array(32 * (fields.length + 1));
  out.set(typeHash, 0);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!(f.name in message)) throw new TypedDataError(`${name}.${f.name}: missing`);
    encodeField(out, 32 * (i + 1), f, message[f.name], `${name}.${f.name}`);
  }
  return keccak_256(out);
}

export function hashStruct<P extends PrimaryType>(primaryType: P, message: MessageOf<P>): Uint8Array {
  const fields = STRUCTS[primaryType];
  if (!fields) throw new TypedDataError(`unknown primary type ${String(primaryType)}`);
  return hashFields(TYPEHASHES[primaryType], fields, message as Record<string, unknown>, primaryType);
}

const domainSeparators = new Map<number, Uint8Array>();

/** The domain separator for a chainId, computed once per chainId. */
export function domainSeparator(chainId: number): Uint8Array {
  let ds = domainSeparators.get(chainId);
  if (!ds) {
    ds = hashFields(DOMAIN_TYPEHASH, DOMAIN_FIELDS, domainFor(chainId) as unknown as Record<string, unknown>, 'EIP712Domain');
    domainSeparators.set(chainId, ds);
  }
  return ds;
}

/** keccak256(0x1901 || domainSeparator || hashStruct(message)): the 32 bytes that get signed. */
export function typedDataDigest<P extends PrimaryType>(primaryType: P, chainId: number, message: MessageOf<P>): Uint8Array {
  const buf = new Uint8Array(66);
  buf[0] = 0x19;
  buf[1] = 0x01;
  buf.set(domainSeparator(chainId), 2);
  buf.set(hashStruct(primaryType, message), 34);
  return keccak_256(buf);
}

/** Digest of a full TypedData object; refuses a domain or types that differ from the service's. */
export function digestOf(data: TypedData): Uint8Array {
  const expected = domainFor(data.domain.chainId);
  const d = data.domain as unknown as Record<string, unknown>;
  if (Object.keys(d).length !== 3 || d.name !== expected.name || d.version !== expected.version) {
    throw new TypedDataError('domain must be exactly { name: "Service Perps", version: "2", chainId }');
  }
  const fields = (data.types as Record<string, readonly Eip712Field[]>)[data.primaryType];
  const canonicalFields = STRUCTS[data.primaryType];
  if (!canonicalFields || !fields || typeString(data.primaryType, fields) !== typeString(data.primaryType, canonicalFields)) {
    throw new TypedDataError(`types.${String(data.primaryType)} differs from the service's struct`);
  }
  return typedDataDigest(data.primaryType, data.domain.chainId, data.message as MessageOf<typeof data.primaryType>);
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '0x';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hex)) throw new TypedDataError('expected 0x-prefixed even-length hex');
  const out = new Uint8Array((hex.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16);
  return out;
}
