/**
 * `--signer offline` on the command line: the app's air-gapped flow, with the terminal as the screen.
 *
 *  1. The request is the air-gap module's typed-data file (src/main/signers/airgap): the exact
 *     eth_signTypedData_v4 object at the top level (what wallets and `cast wallet sign --data` take) plus
 *     a readable summary and the EIP-712 digest. It goes to --request-out FILE, else to stdout (stderr with
 *     --json, whose stdout carries only the result).
 *  2. With --qr FILE.html the same request is also an animated eth-sign-request QR code in one
 *     self-contained page (inline SVG frames cycled by CSS; no script, and a CSP that forbids fetching
 *     anything); with --qr DIR, numbered SVG and PNG frames plus the UR parts as text. QR signers such as
 *     Keystone check the request's master key fingerprint, hence --qr-fingerprint.
 *  3. The answer is read from stdin: the 65-byte signature in hex, the path of a signature file (hex,
 *     JSON, or UR parts), or ur:eth-signature parts, one or more per line, in any order.
 *  4. Whatever the route, the signature must recover --wallet over this request's digest (and a UR must
 *     answer this request's id) before it is returned, so nothing is ever sent on a wrong signature.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { TypedData } from '../shared/eip712/index.js';
import { sameAddress, toChecksumAddress } from '../shared/identity/index.js';
import { writeFileAtomic } from '../main/files/atomicWrite.js';
import { OperationError, ValidationError } from '../main/services/errors.js';
import type { Signer } from '../main/signers/signer.js';
import { SignerError } from '../main/signers/signerError.js';
import { AirgapError, type AirgapErrorCode } from '../main/signers/airgap/airgapError.js';
import { createAirgapRequest, expectationOf, type AirgapRequest } from '../main/signers/airgap/airgapRequest.js';
import { renderQrFrames } from '../main/signers/airgap/qrFrames.js';
import { EthSignatureUrScanner, importPastedSignature, importSignatureFile, type SignatureExpectation } from '../main/signers/airgap/signatureImport.js';
import { summarize, type TypedDataSummary } from '../main/signers/airgap/summary.js';
import { typedDataFileJson } from '../main/signers/airgap/typedDataFile.js';
import { RECOMMENDED_FRAME_INTERVAL_MS } from '../main/signers/airgap/urParts.js';

/** The account most QR signers export first (Keystone's default, BIP 44 index 0). */
export const DEFAULT_QR_PATH = "m/44'/60'/0'/0/0";

export interface QrTarget {
  /** A .html/.htm page, or a folder for numbered frames. */
  target: string;
  /** The wallet's derivation path on the QR signer. */
  path: string;
  /** The QR signer's master key fingerprint, 8 hex characters. */
  sourceFingerprint: string;
}

/** Checks --qr, --qr-fingerprint and --qr-path together, before anything is signed (exit 2 when wrong). */
export function parseQrOptions(o: { qr?: string | undefined; qrFingerprint?: string | undefined; qrPath?: string | undefined }): QrTarget | undefined {
  if (o.qr === undefined) {
    if (o.qrFingerprint !== undefined || o.qrPath !== undefined) {
      throw new ValidationError('--qr-fingerprint and --qr-path only apply with --qr', { field: 'qr', code: 'INVALID_QR_OPTIONS' });
    }
    return undefined;
  }
  const fingerprint = o.qrFingerprint?.replace(/^0x/i, '');
  if (fingerprint === undefined || !/^[0-9a-fA-F]{8}$/.test(fingerprint)) {
    throw new ValidationError(fingerprint === undefined ? '--qr needs --qr-fingerprint' : `'${o.qrFingerprint}' is not 8 hex characters`, {
      field: 'qr-fingerprint',
      code: 'INVALID_QR_OPTIONS',
      hint: "Give the QR signer's master key fingerprint (MFP, 8 hex characters): QR signers such as Keystone refuse a request for another key. It is the source fingerprint of the account QR the signer exports.",
    });
  }
  const qrPath = o.qrPath ?? DEFAULT_QR_PATH;
  if (!/^m\/44'\/60'(\/\d{1,10}'?){1,4}$/.test(qrPath)) {
    throw new ValidationError(`not an Ethereum derivation path (m/44'/60'/...): ${qrPath}`, { field: 'qr-path', code: 'INVALID_QR_OPTIONS' });
  }
  return { target: o.qr, path: qrPath, sourceFingerprint: fingerprint.toLowerCase() };
}

export interface CliOfflineOptions {
  wallet: string;
  json: boolean;
  requestOut?: string | undefined;
  qr?: QrTarget | undefined;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export class CliOfflineSigner implements Signer {
  readonly kind = 'offline' as const;
  readonly address: string;
  readonly #o: CliOfflineOptions;

  constructor(options: CliOfflineOptions) {
    this.#o = options;
    this.address = toChecksumAddress(options.wallet, 'wallet');
  }

  async signTypedData(data: TypedData): Promise<string> {
    try {
      return await this.#sign(data);
    } catch (err) {
      throw offlineFailure(err);
    }
  }

  async #sign(data: TypedData): Promise<string> {
    const { stderr } = this.#o;
    // Built by the air-gap module, which refuses anything but a custody action of the service's domain.
    const request = this.#o.qr ? createAirgapRequest({ data, path: this.#o.qr.path, sourceFingerprint: this.#o.qr.sourceFingerprint }) : undefined;
    const summary: TypedDataSummary = request?.summary ?? summarize(data);
    if (!sameAddress(summary.wallet, this.address)) {
      throw new ValidationError(`the request is for ${summary.wallet}, not --wallet ${this.address}`, { field: 'wallet', code: 'SIGNER_NOT_WALLET' });
    }
    const fileJson = request?.fileJson ?? typedDataFileJson(data);
    // The QR code first: whoever watches for the request file may take its arrival to mean "all ready".
    const qrNote = request && this.#o.qr ? await writeQr(this.#o.qr.target, request) : undefined;
    let where: string;
    if (this.#o.requestOut !== undefined) {
      await writeAtomically(this.#o.requestOut, fileJson);
      where = `written to ${this.#o.requestOut}`;
    } else {
      await writeTo(this.#o.json ? stderr : this.#o.stdout, fileJson);
      where = this.#o.json ? 'printed above (stderr)' : 'printed above';
    }
    stderr.write(
      [
        '',
        `Signing request (${summary.primaryType}) ${where}:`,
        ...summary.lines.map((l) => `  ${l}`),
        ...(qrNote ? [qrNote] : []),
        `Sign it on the offline device with the main wallet ${this.address}, then enter the answer here:`,
        `the signature (0x + 130 hex), the path of a signature file${request ? ', or the ur:eth-signature part(s), one per line' : ''}.`,
        '',
      ].join('\n'),
    );
    const expected: SignatureExpectation & { requestId?: string } = request ? expectationOf(request) : { data, wallet: this.address };
    return readAnswer(this.#o.stdin, expected, stderr);
  }
}

/** Reads the answer from `input` and returns the verified signature (see the module comment, step 3). */
export async function readAnswer(input: Readable, expected: SignatureExpectation & { requestId?: string }, progress: Writable): Promise<string> {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const scanner = new EthSignatureUrScanner();
  let scanning = false;
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === '') continue;
      if (/^ur:/i.test(line)) {
        if (expected.requestId === undefined) {
          throw new AirgapError('INVALID_REQUEST', 'A ur:eth-signature answer can only be matched to a QR request: sign again with --qr (and --qr-fingerprint).');
        }
        scanning = true;
        let read = 0;
        for (const part of line.split(/\s+/)) {
          const status = scanner.receive(part);
          // A camera misreads, a paste does not: a part that does not fit is an error here, not noise.
          if (status.problem) throw status.problem;
          if (status.complete) return scanner.result({ ...expected, requestId: expected.requestId });
          read = status.progress;
        }
        progress.write(`read about ${Math.floor(read * 100)}% of the animated answer; enter the next part\n`);
        continue;
      }
      if (scanning) throw new AirgapError('UR_INVALID', 'Expected the next ur:eth-signature part.');
      if (/^(0x)?[0-9a-fA-F]+$/.test(line)) return importPastedSignature(line, expected);
      if (existsSync(line)) return await importSignatureFile(line, expected);
      throw new AirgapError(
        'SIGNATURE_MALFORMED',
        `Expected the signature in hex, the path of a signature file, or ur:eth-signature parts; got ${line.length} characters that are none of these.`,
      );
    }
  } finally {
    rl.close();
  }
  if (scanning) return scanner.result({ ...expected, requestId: expected.requestId! });
  throw new SignerError('OFFLINE_IO', 'the input ended before a signature was entered; nothing was sent');
}

const AIRGAP_HINTS: Partial<Record<AirgapErrorCode, string>> = {
  SIGNATURE_MISMATCH: 'Sign exactly this request (not an older one) with the wallet given by --wallet, then enter the new signature.',
  SIGNATURE_MALFORMED: 'Enter the 65-byte signature as 0x + 130 hex characters, the path of a file holding it, or the ur:eth-signature parts.',
  UR_INCOMPLETE: 'Enter every part of the animated answer (any order), one per line.',
  UR_WRONG_TYPE: "That is not the signer's eth-signature answer (the request itself, perhaps).",
  REQUEST_ID_MISMATCH: 'That answer belongs to another request: scan the answer to the request shown now.',
  FILE_UNREADABLE: 'Check the path of the signature file.',
};

/**
 * An air-gap failure as a command-line failure. A signature that is refused is a failed operation (exit
 * 1: something was signed, just not the right thing, and nothing was sent); a request that cannot be
 * built from the options is bad usage (exit 2).
 */
export function offlineFailure(err: unknown): unknown {
  if (!(err instanceof AirgapError)) return err;
  if (err.code === 'INVALID_REQUEST' || err.code === 'NOT_A_CUSTODY_ACTION') {
    return new ValidationError(err.message, { field: 'signer', code: err.code === 'INVALID_REQUEST' ? 'INVALID_QR_OPTIONS' : err.code, cause: err });
  }
  const hint = AIRGAP_HINTS[err.code];
  return new OperationError(err.code, `${err.message.replace(/\.$/, '')}; nothing was sent`, { cause: err, ...(hint ? { hint } : {}) });
}

// ---- output ---------------------------------------------------------------------------------------------

function writeTo(stream: Writable, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(new SignerError('OFFLINE_IO', `cannot write the signing request: ${err.message}`, { cause: err })) : resolve()));
  });
}

/** main's atomic writer (exclusive random temp, never through a symlink), so a watcher never reads half a request. */
async function writeAtomically(file: string, text: string | Buffer): Promise<void> {
  try {
    await writeFileAtomic(file, text);
  } catch (err) {
    throw new SignerError('OFFLINE_IO', `cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
}

const FRAME_FILE = /^frame-\d+\.(svg|png)$/;

/** Writes the QR code; returns the line that tells the user where it is. */
async function writeQr(target: string, request: AirgapRequest): Promise<string> {
  const frames = request.urParts.length;
  const what = `${frames} frame${frames === 1 ? '' : 's'}, request id ${request.requestId}`;
  if (/\.html?$/i.test(target)) {
    const svgs = await renderQrFrames(request.urParts, { format: 'svg' });
    await writeAtomically(target, qrPage(svgs, request));
    return `QR code: open ${target} and show it to the QR signer (${what}).`;
  }
  try {
    await mkdir(target, { recursive: true });
    // Frames of an earlier request in the same folder would be cycled with these and corrupt the scan.
    for (const name of await readdir(target)) if (FRAME_FILE.test(name)) await unlink(path.join(target, name));
  } catch (err) {
    throw new SignerError('OFFLINE_IO', `cannot prepare the QR folder ${target}: ${(err as Error).message}`, { cause: err });
  }
  const [svgs, pngs] = await Promise.all([renderQrFrames(request.urParts, { format: 'svg' }), renderQrFrames(request.urParts, { format: 'png-data-url' })]);
  const width = String(frames).length < 3 ? 3 : String(frames).length;
  for (let i = 0; i < frames; i++) {
    const n = String(i + 1).padStart(width, '0');
    await writeAtomically(path.join(target, `frame-${n}.svg`), svgs[i]!);
    await writeAtomically(path.join(target, `frame-${n}.png`), Buffer.from(pngs[i]!.replace(/^data:image\/png;base64,/, ''), 'base64'));
  }
  await writeAtomically(path.join(target, 'parts.txt'), request.urParts.join('\n') + '\n');
  return `QR code: ${frames} numbered frames in ${target} (frame-*.svg, frame-*.png; parts.txt has the UR text); show them in a loop, ${RECOMMENDED_FRAME_INTERVAL_MS} ms each (${what}).`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One self-contained page: every frame is inline SVG, stacked, and a CSS animation shows each for one
 * interval in turn (one interval of delay per frame; step-end, so frames never blend). No script runs and
 * the CSP forbids any fetch, so the page works on an offline machine and leaks nothing when opened.
 */
export function qrPage(svgs: readonly string[], request: AirgapRequest): string {
  const n = svgs.length;
  const t = RECOMMENDED_FRAME_INTERVAL_MS;
  const cycle = n * t;
  const visibleUntil = (100 / n).toFixed(4);
  const frames = svgs
    .map((svg, i) => `<div class="f" style="animation-delay:${i * t}ms">${svg.trim()}</div>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Perps Desk signing request ${escapeHtml(request.requestId)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #111; background: #fff; }
.qr { position: relative; width: min(80vmin, 520px); aspect-ratio: 1; }
.f { position: absolute; inset: 0; opacity: ${n === 1 ? 1 : 0}; ${n === 1 ? '' : `animation: cycle ${cycle}ms step-end infinite;`} }
.f svg { width: 100%; height: 100%; display: block; }
@keyframes cycle { 0% { opacity: 1; } ${visibleUntil}% { opacity: 0; } 100% { opacity: 0; } }
pre { white-space: pre-wrap; font-size: 0.9rem; }
</style>
</head>
<body>
<h1>${escapeHtml(request.summary.action)}</h1>
<p>Scan with the QR signer holding ${escapeHtml(request.summary.wallet)}. ${n} frame${n === 1 ? '' : 's'}${n === 1 ? '' : `, ${t} ms each, repeating`}; request id ${escapeHtml(request.requestId)}.</p>
<div class="qr">
${frames}
</div>
<pre>${request.summary.lines.map(escapeHtml).join('\n')}</pre>
</body>
</html>
`;
}
