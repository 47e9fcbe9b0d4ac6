/**
 * The request as a JSON file, for an offline machine or any tool that signs eth_signTypedData_v4
 * (MetaMask's shape: domain, types with EIP712Domain, primaryType, message; uint256 values as decimal
 * strings). The file's top level IS that shape, so it can be fed to such a tool unchanged; the summary
 * and the digest ride along under two extra keys that those tools ignore.
 */
import type { TypedData } from '../../../shared/eip712/index.js';
import { summarize, type TypedDataSummary } from './summary.js';

export const TYPED_DATA_FILE_FORMAT = 'perps-desk/typed-data-request@1';

export interface TypedDataFile extends Pick<TypedData, 'domain' | 'types' | 'primaryType' | 'message'> {
  /** Names the layout, so an import can tell this file from a signature file. */
  format: typeof TYPED_DATA_FILE_FORMAT;
  summary: Omit<TypedDataSummary, 'lines'> & { lines: string[] };
}

/** The file's content (pretty-printed, newline-terminated). Refuses non-custody actions. */
export function typedDataFileJson(data: TypedData): string {
  const summary = summarize(data);
  const file: TypedDataFile = {
    // The four eth_signTypedData_v4 members first and untouched: exactly what is signed.
    domain: data.domain,
    types: data.types,
    primaryType: data.primaryType,
    message: data.message,
    format: TYPED_DATA_FILE_FORMAT,
    summary: { ...summary, lines: [...summary.lines] },
  } as TypedDataFile;
  return JSON.stringify(file, null, 2) + '\n';
}

/** Only the eth_signTypedData_v4 object, for tools that reject unknown keys. */
export function typedDataV4Json(data: TypedData): string {
  summarize(data); // same validation as the file: custody action, service domain and struct
  return JSON.stringify({ domain: data.domain, types: data.types, primaryType: data.primaryType, message: data.message });
}
