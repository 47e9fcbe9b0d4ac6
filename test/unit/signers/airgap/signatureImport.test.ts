import { ETHSignature } from '@keystonehq/bc-ur-registry-eth';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverDigestSigner, digestOf, splitSignature } from '../../../../src/shared/eip712/index.js';
import { AirgapError, type AirgapErrorCode } from '../../../../src/main/signers/airgap/airgapError.js';
import { buildEthSignRequest, uuidBytes } from '../../../../src/main/signers/airgap/ethSignRequest.js';
import {
  EthSignatureUrScanner,
  importEthSignatureUr,
  importPastedSignature,
  importSignatureFile,
  normalizeSignatureHex,
} from '../../../../src/main/signers/airgap/signatureImport.js';
import { urParts } from '../../../../src/main/signers/airgap/urParts.js';
import { FINGERPRINT, OTHER_KEY, PATH, REQUEST_ID, WALLET, WALLET_KEY, authorize, signWith, withdraw } from './fixtures.js';

const OTHER_REQUEST_ID = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
const expected = { data: withdraw, wallet: WALLET, requestId: REQUEST_ID };

/** The signer's answer: an eth-signature UR carrying the signature and the request id. */
function answerParts(signature: string, requestId: string | undefined, maxFragmentLength: number, count?: number): string[] {
  const item = new ETHSignature(Buffer.from(signature.slice(2), 'hex'), requestId ? uuidBytes(requestId) : undefined, 'Keystone');
  return urParts(item, { maxFragmentLength, ...(count === undefined ? {} : { count }) });
}

function codeOf(fn: () => unknown): AirgapErrorCode | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AirgapError);
    return (err as AirgapError).code;
  }
  throw new Error('expected an AirgapError');
}

async function asyncCodeOf(p: Promise<unknown>): Promise<AirgapErrorCode> {
  const err = await p.then(
    () => {
      throw new Error('expected an AirgapError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AirgapError);
  return (err as AirgapError).code;
}

describe('eth-signature UR import', () => {
  const good = signWith(WALLET_KEY, withdraw);

  it('single part: matches the request id and returns the verified signature', () => {
    const parts = answerParts(good, REQUEST_ID, 1000);
    expect(parts).toHaveLength(1);
    const sig = importEthSignatureUr(parts, expected);
    expect(sig).toBe(good.toLowerCase());
    expect(recoverDigestSigner(digestOf(withdraw), sig)).toBe(WALLET);
  });

  it('multi-part animated sequence decodes out of order', () => {
    const parts = answerParts(good, REQUEST_ID, 12, 40);
    const n = Number(/\/\d+-(\d+)\//.exec(parts[0]!)![1]);
    expect(n).toBeGreaterThan(3);
    const shuffled = [...parts.slice(0, n)].reverse();
    expect(importEthSignatureUr(shuffled, expected)).toBe(good.toLowerCase());
    // A missed frame, duplicates, then fountain mixes: still decodes.
    const withGaps = [parts[3]!, parts[3]!, ...parts.slice(n).reverse(), parts[2]!];
    expect(importEthSignatureUr(withGaps, expected)).toBe(good.toLowerCase());
  });

  it('the scanner reports progress part by part, and refuses result() before completion', () => {
    const parts = answerParts(good, REQUEST_ID, 12);
    const scanner = new EthSignatureUrScanner();
    const first = scanner.receive(parts[1]!);
    expect(first).toMatchObject({ accepted: true, complete: false });
    expect(first.progress).toBeGreaterThan(0);
    expect(first.progress).toBeLessThan(1);
    expect(codeOf(() => scanner.result(expected))).toBe('UR_INCOMPLETE');
    let last = first;
    for (const p of parts) last = scanner.receive(p);
    expect(last.complete).toBe(true);
    expect(scanner.result(expected)).toBe(good.toLowerCase());
  });

  it('the scanner reports a frame of another QR code (the request itself) without giving up', () => {
    const scanner = new EthSignatureUrScanner();
    const requestPart = urParts(buildEthSignRequest({ data: withdraw, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID }).request)[0]!;
    const status = scanner.receive(requestPart);
    expect(status.accepted).toBe(false);
    expect(status.problem?.code).toBe('UR_WRONG_TYPE');
    expect(scanner.receive('hello').problem?.code).toBe('UR_INVALID');
    for (const p of answerParts(good, REQUEST_ID, 1000)) scanner.receive(p);
    expect(scanner.result(expected)).toBe(good.toLowerCase());
  });

  it('refuses an answer to another request (request id mismatch), even with a valid signature', () => {
    expect(codeOf(() => importEthSignatureUr(answerParts(good, OTHER_REQUEST_ID, 1000), expected))).toBe('REQUEST_ID_MISMATCH');
    expect(codeOf(() => importEthSignatureUr(answerParts(good, undefined, 1000), expected))).toBe('REQUEST_ID_MISMATCH');
  });

  it('refuses a signature from a wrong key', () => {
    const bad = signWith(OTHER_KEY, withdraw);
    expect(codeOf(() => importEthSignatureUr(answerParts(bad, REQUEST_ID, 12), expected))).toBe('SIGNATURE_MISMATCH');
  });

  it('refuses a signature by the wallet over other data', () => {
    const otherData = signWith(WALLET_KEY, authorize);
    expect(codeOf(() => importEthSignatureUr(answerParts(otherData, REQUEST_ID, 1000), expected))).toBe('SIGNATURE_MISMATCH');
  });

  it('refuses an incomplete sequence and a UR of the wrong type', () => {
    const parts = answerParts(good, REQUEST_ID, 12);
    expect(codeOf(() => importEthSignatureUr(parts.slice(0, 2), expected))).toBe('UR_INCOMPLETE');
    const requestParts = urParts(buildEthSignRequest({ data: withdraw, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID }).request);
    expect(codeOf(() => importEthSignatureUr(requestParts, expected))).toBe('UR_WRONG_TYPE');
  });
});

describe('pasted signature', () => {
  const good = signWith(WALLET_KEY, withdraw);

  it('accepts hex with or without 0x, split over lines, v as 27/28 or 0/1', () => {
    const hex = good.slice(2);
    expect(importPastedSignature(`  ${hex.slice(0, 64)}\n${hex.slice(64)}  `, expected)).toBe(good.toLowerCase());
    const v01 = hex.slice(0, 128) + (parseInt(hex.slice(128), 16) - 27).toString(16).padStart(2, '0');
    expect(importPastedSignature('0x' + v01, expected)).toBe(good.toLowerCase());
    expect(normalizeSignatureHex('0X' + hex.toUpperCase())).toBe(good.toLowerCase());
  });

  it('accepts a pasted single-part UR', () => {
    expect(importPastedSignature(answerParts(good, REQUEST_ID, 1000)[0]!.toUpperCase(), expected)).toBe(good.toLowerCase());
  });

  it('refuses malformed text and a wrong key', () => {
    expect(codeOf(() => importPastedSignature('0x1234', expected))).toBe('SIGNATURE_MALFORMED');
    expect(codeOf(() => importPastedSignature(good.slice(0, -2) + '1d', expected))).toBe('SIGNATURE_MALFORMED');
    expect(codeOf(() => importPastedSignature(signWith(OTHER_KEY, withdraw), expected))).toBe('SIGNATURE_MISMATCH');
  });
});

describe('signature file', () => {
  const good = signWith(WALLET_KEY, withdraw);
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'perps-airgap-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function file(name: string, content: string): Promise<string> {
    const p = path.join(dir, name);
    await writeFile(p, content);
    return p;
  }

  it('reads hex, JSON { signature }, JSON { r, s, v } and UR parts one per line', async () => {
    expect(await importSignatureFile(await file('sig.txt', good + '\n'), expected)).toBe(good.toLowerCase());
    expect(await importSignatureFile(await file('sig.json', JSON.stringify({ signature: good })), expected)).toBe(good.toLowerCase());
    expect(await importSignatureFile(await file('split.json', JSON.stringify(splitSignature(good))), expected)).toBe(good.toLowerCase());
    const lines = answerParts(good, REQUEST_ID, 12).reverse().join('\n');
    expect(await importSignatureFile(await file('sig.ur', lines), expected)).toBe(good.toLowerCase());
  });

  it('refuses a missing or oversized file, and a wrong key', async () => {
    expect(await asyncCodeOf(importSignatureFile(path.join(dir, 'missing.txt'), expected))).toBe('FILE_UNREADABLE');
    expect(await asyncCodeOf(importSignatureFile(await file('big.txt', 'a'.repeat(300 * 1024)), expected))).toBe('FILE_UNREADABLE');
    expect(await asyncCodeOf(importSignatureFile(await file('bad.txt', signWith(OTHER_KEY, withdraw)), expected))).toBe('SIGNATURE_MISMATCH');
  });
});
