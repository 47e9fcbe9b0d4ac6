/** Loads ../shared/vectors/eip712.json (beside the repo). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Vector {
  name: string;
  signer: string;
  primaryType: string;
  domain: { name: string; version: string; chainId: number };
  message: Record<string, unknown>;
  digest: string;
  signature: string;
  body: Record<string, unknown>;
}

export interface VectorFile {
  main_wallet: string;
  main_private_key: string;
  agent: string;
  agent_private_key: string;
  account_id: string;
  vectors: Vector[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const VECTORS_PATH = path.resolve(here, '../../../../../shared/vectors/eip712.json');

export function loadVectors(): VectorFile {
  return JSON.parse(fs.readFileSync(VECTORS_PATH, 'utf8')) as VectorFile;
}
