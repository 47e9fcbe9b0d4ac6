/**
 * One air-gapped signing request in every form the user may carry it to the signer: the JSON file, the
 * bare eth_signTypedData_v4 JSON, and the eth-sign-request UR parts for an animated QR code, all of the
 * same typed data and sharing one request id, plus the summary to show next to them. The answer comes
 * back through signatureImport.ts with `expectationOf(request)`.
 */
import type { TypedData } from '../../../shared/eip712/index.js';
import { buildEthSignRequest } from './ethSignRequest.js';
import type { UrSignatureExpectation } from './signatureImport.js';
import { summarize, type TypedDataSummary } from './summary.js';
import { typedDataFileJson, typedDataV4Json } from './typedDataFile.js';
import { urParts, type UrPartsOptions } from './urParts.js';

export interface AirgapRequestOptions extends UrPartsOptions {
  data: TypedData;
  /** Derivation path of the wallet on the signer, e.g. "m/44'/60'/0'/0/0". */
  path: string;
  /** The signer's master fingerprint, 8 hex characters (see ethSignRequest.ts). */
  sourceFingerprint: string;
  requestId?: string;
}

export interface AirgapRequest {
  readonly requestId: string;
  readonly data: TypedData;
  readonly summary: TypedDataSummary;
  /** Content of the .json request file. */
  readonly fileJson: string;
  /** The bare eth_signTypedData_v4 JSON. */
  readonly typedDataJson: string;
  /** eth-sign-request UR parts, in display order; loop them as the frames of an animated QR code. */
  readonly urParts: readonly string[];
}

export function createAirgapRequest(options: AirgapRequestOptions): AirgapRequest {
  const summary = summarize(options.data);
  const built = buildEthSignRequest({
    data: options.data,
    path: options.path,
    sourceFingerprint: options.sourceFingerprint,
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
  });
  return {
    requestId: built.requestId,
    data: options.data,
    summary,
    fileJson: typedDataFileJson(options.data),
    typedDataJson: typedDataV4Json(options.data),
    urParts: urParts(built.request, {
      ...(options.maxFragmentLength === undefined ? {} : { maxFragmentLength: options.maxFragmentLength }),
      ...(options.count === undefined ? {} : { count: options.count }),
    }),
  };
}

/** What an imported answer must match: this typed data, the wallet that is the struct's user, this request id. */
export function expectationOf(request: AirgapRequest): UrSignatureExpectation {
  return { data: request.data, wallet: request.summary.wallet, requestId: request.requestId };
}
