/**
 * Bringing the signature back from the air-gapped signer: pasted hex, a file, or an eth-signature UR
 * (one QR code or an animated sequence, scanned in any order). Whatever the route, nothing is returned
 * until the signature recovers the wallet over this request's EIP-712 digest, and a UR must also answer
 * this request (same request id): an old QR code still on a screen, or an answer to another request,
 * is refused by name.
 */
import { ETHSignature } from '@keystonehq/bc-ur-registry-eth';
import { URDecoder } from '@ngraveio/bc-ur';
import { readFile, stat } from 'node:fs/promises';
import type { TypedData } from '../../../shared/eip712/index.js';
import { SignerError } from '../signerError.js';
import { verifySignature } from '../verifySignature.js';
import { AirgapError } from './airgapError.js';
import { assertCustodyAction } from './summary.js';
import { uuidBytes, uuidString } from './ethSignRequest.js';

export const ETH_SIGNATURE_UR_TYPE = 'eth-signature';

/** What the signature must match. */
export interface SignatureExpectation {
  data: TypedData;
  /** The main wallet that must have signed. */
  wallet: string;
}

/** A UR answer must also carry the id of the request it answers. */
export interface UrSignatureExpectation extends SignatureExpectation {
  requestId: string;
}

/** Far above any signature or multi-part UR answer; a bigger file is not a signature. */
const MAX_FILE_BYTES = 256 * 1024;
const MAX_TEXT_CHARS = 100_000;

/**
 * 65 bytes as r || s || v hex with v 27/28. Tools differ: some print no 0x, some split lines, some write
 * v as 0/1 (the recovery id); all of that is accepted and normalized, nothing else.
 */
export function normalizeSignatureHex(text: string): string {
  const compact = text.replace(/\s+/g, '');
  const hex = compact.startsWith('0x') || compact.startsWith('0X') ? compact.slice(2) : compact;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) {
    throw new AirgapError('SIGNATURE_MALFORMED', 'A signature is 65 bytes: 130 hex characters (r, s, then v), optionally prefixed with 0x.');
  }
  const v = Number.parseInt(hex.slice(128), 16);
  const v27 = v === 0 || v === 1 ? v + 27 : v;
  if (v27 !== 27 && v27 !== 28) throw new AirgapError('SIGNATURE_MALFORMED', `The signature's last byte (v) must be 27 or 28 (or 0 or 1), got ${v}.`);
  return ('0x' + hex.slice(0, 128) + v27.toString(16)).toLowerCase();
}

/** The check every route ends with: recovers the wallet over this typed data, or a typed error. */
export function verifyImportedSignature(signatureHex: string, expected: SignatureExpectation): string {
  assertCustodyAction(expected.data);
  const sig = normalizeSignatureHex(signatureHex);
  try {
    return verifySignature(expected.data, sig, expected.wallet);
  } catch (err) {
    if (err instanceof SignerError) {
      throw new AirgapError(
        err.code === 'SIGNATURE_MISMATCH' ? 'SIGNATURE_MISMATCH' : 'SIGNATURE_MALFORMED',
        err.code === 'SIGNATURE_MISMATCH'
          ? `${err.message}. Check that the signer used the wallet ${expected.wallet} and signed this request, not an older one.`
          : err.message,
        { cause: err },
      );
    }
    throw err;
  }
}

/** From pasted text: hex, or a single-part eth-signature UR (a multi-part one needs every part: use the scanner). */
export function importPastedSignature(text: string, expected: SignatureExpectation & { requestId?: string }): string {
  if (text.length > MAX_TEXT_CHARS) throw new AirgapError('SIGNATURE_MALFORMED', 'The pasted text is far too long to be a signature.');
  const trimmed = text.trim();
  if (/^ur:/i.test(trimmed)) {
    if (expected.requestId === undefined) throw new AirgapError('INVALID_REQUEST', 'A UR answer can only be matched with the request id of its request.');
    return importEthSignatureUr(trimmed.split(/\s+/), { ...expected, requestId: expected.requestId });
  }
  return verifyImportedSignature(trimmed, expected);
}

/**
 * From a file: plain hex, JSON with a `signature` hex string (or `{ r, s, v }`), or UR parts one per
 * line (the file an offline scanner app saves).
 */
export async function importSignatureFile(path: string, expected: SignatureExpectation & { requestId?: string }): Promise<string> {
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new AirgapError('FILE_UNREADABLE', `${path} is not a file.`);
    if (info.size > MAX_FILE_BYTES) throw new AirgapError('FILE_UNREADABLE', `${path} is ${info.size} bytes: too large to be a signature file.`);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof AirgapError) throw err;
    throw new AirgapError('FILE_UNREADABLE', `Cannot read the signature file ${path}: ${(err as Error).message}`, { cause: err });
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return verifyImportedSignature(signatureFromJson(trimmed), expected);
  return importPastedSignature(trimmed, expected);
}

function signatureFromJson(json: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new AirgapError('SIGNATURE_MALFORMED', 'The signature file is not valid JSON.', { cause: err });
  }
  const o = parsed as Record<string, unknown>;
  if (typeof o?.signature === 'string') return o.signature;
  const split = (o?.signature ?? o) as Record<string, unknown>;
  if (typeof split?.r === 'string' && typeof split.s === 'string' && (typeof split.v === 'number' || typeof split.v === 'string')) {
    const strip = (h: string) => h.replace(/^0x/i, '').padStart(64, '0');
    const v = typeof split.v === 'number' ? split.v : Number(split.v);
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new AirgapError('SIGNATURE_MALFORMED', 'The signature file has an invalid v.');
    return '0x' + strip(split.r) + strip(split.s) + v.toString(16).padStart(2, '0');
  }
  throw new AirgapError('SIGNATURE_MALFORMED', 'The signature file has no "signature" hex string and no { r, s, v }.');
}

export interface ScanProgress {
  /** The part was new and consistent with the parts before it. */
  readonly accepted: boolean;
  /** Every fragment is in: call result(). */
  readonly complete: boolean;
  /** 0..1, for a progress bar. */
  readonly progress: number;
  /** Why the part was not used (a frame of another QR code, a misread), when it was not. */
  readonly problem?: AirgapError;
}

/**
 * Collects the parts of an eth-signature UR as a camera reads them: any order, duplicates and misreads
 * tolerated (reported, not thrown, so scanning goes on). result() decodes, matches and verifies.
 */
export class EthSignatureUrScanner {
  #decoder = new URDecoder();

  receive(part: string): ScanProgress {
    const text = part.trim();
    let type: string;
    try {
      [type] = URDecoder.parse(text);
    } catch (err) {
      return this.#status(false, new AirgapError('UR_INVALID', `Not a UR: ${(err as Error).message}`, { cause: err }));
    }
    if (type !== ETH_SIGNATURE_UR_TYPE) {
      return this.#status(false, new AirgapError('UR_WRONG_TYPE', `This QR code is a ${type}, not the signer's ${ETH_SIGNATURE_UR_TYPE} answer.`));
    }
    try {
      return this.#status(this.#decoder.receivePart(text));
    } catch (err) {
      return this.#status(false, new AirgapError('UR_INVALID', `Unreadable UR part: ${(err as Error).message}`, { cause: err }));
    }
  }

  get complete(): boolean {
    // bc-ur's isComplete() returns undefined rather than false before the first result.
    return Boolean(this.#decoder.isComplete());
  }

  /** The verified signature; throws if incomplete, not this request's answer, or not the wallet's. */
  result(expected: UrSignatureExpectation): string {
    if (this.#decoder.isError()) throw new AirgapError('UR_INVALID', `The UR could not be decoded: ${this.#decoder.resultError()}`);
    if (!this.complete) {
      throw new AirgapError('UR_INCOMPLETE', `Only ${Math.floor(this.#progress() * 100)}% of the animated QR code has been read; keep scanning.`);
    }
    const ur = this.#decoder.resultUR();
    if (ur.type !== ETH_SIGNATURE_UR_TYPE) throw new AirgapError('UR_WRONG_TYPE', `Expected ${ETH_SIGNATURE_UR_TYPE}, got ${ur.type}.`);
    let answer: ETHSignature;
    try {
      answer = ETHSignature.fromCBOR(ur.cbor);
    } catch (err) {
      throw new AirgapError('UR_INVALID', `The eth-signature UR does not decode: ${(err as Error).message}`, { cause: err });
    }
    const id = answer.getRequestId();
    if (!id || !uuidBytes(expected.requestId).equals(id)) {
      throw new AirgapError(
        'REQUEST_ID_MISMATCH',
        id
          ? `This signature answers request ${uuidString(id)}, not ${expected.requestId}: scan the answer to the request on screen now.`
          : 'This signature carries no request id, so it cannot be matched to this request.',
      );
    }
    return verifyImportedSignature(answer.getSignature().toString('hex'), expected);
  }

  #progress(): number {
    return this.complete ? 1 : this.#decoder.estimatedPercentComplete();
  }

  #status(accepted: boolean, problem?: AirgapError): ScanProgress {
    return { accepted, complete: this.complete, progress: this.#progress(), ...(problem ? { problem } : {}) };
  }
}

/** All parts at once (a pasted list, a file): decode, match the request id, verify. */
export function importEthSignatureUr(parts: readonly string[], expected: UrSignatureExpectation): string {
  const scanner = new EthSignatureUrScanner();
  let firstProblem: AirgapError | undefined;
  for (const part of parts) {
    if (part.trim() === '') continue;
    const status = scanner.receive(part);
    firstProblem ??= status.problem;
    if (status.complete) break;
  }
  if (!scanner.complete && firstProblem) throw firstProblem;
  return scanner.result(expected);
}
