/**
 * The request as an eth-sign-request UR (Blockchain Commons Uniform Resources, the registry type Keystone
 * defined for Ethereum), for QR-based signers such as Keystone.
 *
 * Contents (Keystone's registry, @keystonehq/bc-ur-registry-eth): request-id (a UUID, tag 37), sign-data
 * (the UTF-8 JSON of the eth_signTypedData_v4 object), data-type typed-data (2 in the registry's DataType
 * enum: 1 legacy transaction, 2 typed data, 3 personal message, 4 typed transaction), chain-id, the
 * derivation path as a crypto-keypath with the master key's fingerprint, the wallet address, and an
 * origin naming this app. The signer answers with an eth-signature UR carrying the same request id,
 * which is how an answer is matched to its request.
 */
import { DataType, EthSignRequest } from '@keystonehq/bc-ur-registry-eth';
import { randomUUID } from 'node:crypto';
import type { TypedData } from '../../../shared/eip712/index.js';
import { toChecksumAddress } from '../../../shared/identity/index.js';
import { AirgapError } from './airgapError.js';
import { summarize } from './summary.js';
import { typedDataV4Json } from './typedDataFile.js';

export const ETH_SIGN_REQUEST_UR_TYPE = 'eth-sign-request';
export const REQUEST_ORIGIN = 'Perps Desk';

export interface EthSignRequestOptions {
  data: TypedData;
  /** The wallet's derivation path on the signer, e.g. "m/44'/60'/0'/0/0". */
  path: string;
  /**
   * The signer's master key fingerprint (8 hex characters), from the account it exported when it was
   * connected (the source fingerprint of its crypto-hdkey / crypto-account QR). Keystone refuses a
   * request whose fingerprint is not its own.
   */
  sourceFingerprint: string;
  /** Default: a fresh random UUID. */
  requestId?: string;
}

export interface BuiltEthSignRequest {
  /** UUID string; the answer must carry the same one. */
  readonly requestId: string;
  readonly request: EthSignRequest;
  /** The request's CBOR, hex: what the UR parts encode. */
  readonly cborHex: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATH = /^m\/44'\/60'(\/\d{1,10}'?){1,4}$/;

export function buildEthSignRequest(options: EthSignRequestOptions): BuiltEthSignRequest {
  const summary = summarize(options.data);
  const requestId = (options.requestId ?? randomUUID()).toLowerCase();
  if (!UUID.test(requestId)) throw new AirgapError('INVALID_REQUEST', `request id must be a UUID, got ${requestId}`);
  // The registry's own path parser uses parseInt per component and would accept junk; check first.
  if (!PATH.test(options.path) || options.path.split('/').slice(1).some((c) => Number.parseInt(c, 10) > 0x7fffffff)) {
    throw new AirgapError('INVALID_REQUEST', `not an Ethereum derivation path (m/44'/60'/...): ${options.path}`);
  }
  if (!/^[0-9a-fA-F]{8}$/.test(options.sourceFingerprint)) {
    throw new AirgapError('INVALID_REQUEST', 'the source fingerprint must be 8 hex characters (4 bytes)');
  }
  const signData = Buffer.from(typedDataV4Json(options.data), 'utf8');
  const request = EthSignRequest.constructETHRequest(
    signData,
    DataType.typedData,
    options.path,
    options.sourceFingerprint.toLowerCase(),
    requestId,
    options.data.domain.chainId,
    toChecksumAddress(summary.wallet),
    REQUEST_ORIGIN,
  );
  return { requestId, request, cborHex: (request.toCBOR() as Buffer).toString('hex') };
}

/** 16 bytes of a UUID string, as the UR carries it. */
export function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** The UUID string of 16 bytes. */
export function uuidString(bytes: Uint8Array): string {
  const h = Buffer.from(bytes).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
