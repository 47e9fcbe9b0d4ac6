/**
 * `--signer offline` on the command line, in process: the request it writes (the air-gap module's typed
 * data file, and the QR code as a page or as frames), and every way the answer comes back on stdin (hex,
 * a signature file, ur:eth-signature parts over several lines), each verified before it is returned.
 */
import { ETHSignature } from '@keystonehq/bc-ur-registry-eth';
import { URDecoder } from '@ngraveio/bc-ur';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EthSignRequest } from '@keystonehq/bc-ur-registry-eth';
import { OperationError, ValidationError, describeFailure } from '../../../src/main/services/errors.js';
import { uuidBytes, uuidString } from '../../../src/main/signers/airgap/ethSignRequest.js';
import { urParts } from '../../../src/main/signers/airgap/urParts.js';
import { openSigner, parseSignerSpec, type OpenSignerOptions } from '../../../src/cli/signerSpec.js';
import { FINGERPRINT, OTHER_KEY, WALLET, WALLET_KEY, signWith, withdraw } from '../signers/airgap/fixtures.js';

class Capture extends Writable {
  text = '';
  private waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    this.waiters = this.waiters.filter((w) => {
      const m = this.text.match(w.re);
      if (m) w.resolve(m);
      return !m;
    });
    cb();
  }
  /** Resolves once the text matches `re`. */
  waitFor(re: RegExp): Promise<RegExpMatchArray> {
    const m = this.text.match(re);
    return m ? Promise.resolve(m) : new Promise((resolve) => this.waiters.push({ re, resolve }));
  }
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'perps-offline-cli-'));
}

function setup(o: Partial<OpenSignerOptions> = {}): { stdin: PassThrough; stdout: Capture; stderr: Capture; options: OpenSignerOptions } {
  const stdin = new PassThrough();
  const stdout = new Capture();
  const stderr = new Capture();
  return { stdin, stdout, stderr, options: { wallet: WALLET, json: false, stdin, stdout, stderr, ...o } };
}

async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );
}

/** The signer's answer: an eth-signature UR, in small fragments so it takes several lines. */
function answerParts(signature: string, requestId: string): string[] {
  return urParts(new ETHSignature(Buffer.from(signature.slice(2), 'hex'), uuidBytes(requestId), 'Keystone'), { maxFragmentLength: 20 });
}

describe('--signer offline (command line)', () => {
  it('prints the typed-data file to stdout, reads a pasted hex signature, verifies it', async () => {
    const s = setup();
    const signer = await openSigner(parseSignerSpec('offline'), s.options);
    const result = signer.signTypedData(withdraw);
    await s.stderr.waitFor(/enter the answer here/);
    const request = JSON.parse(s.stdout.text) as Record<string, unknown>;
    // The top level is exactly what eth_signTypedData_v4 takes; the summary rides along.
    expect(request).toMatchObject({ primaryType: 'Withdraw', domain: withdraw.domain, message: withdraw.message, format: 'perps-desk/typed-data-request@1' });
    expect(s.stderr.text).toMatch(/Amount: 25\.5 USDC/);
    s.stdin.end(`\n  ${signWith(WALLET_KEY, withdraw)}  \n`);
    await expect(result).resolves.toBe(signWith(WALLET_KEY, withdraw).toLowerCase());
  });

  it('with --json the request goes to stderr, keeping stdout for the result', async () => {
    const s = setup({ json: true });
    const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
    await s.stderr.waitFor(/enter the answer here/);
    expect(s.stdout.text).toBe('');
    expect(s.stderr.text).toContain('"primaryType": "Withdraw"');
    s.stdin.end(signWith(WALLET_KEY, withdraw) + '\n');
    await result;
  });

  it('reads the answer from a signature file named on stdin; --request-out writes the request file', async () => {
    const dir = tmp();
    const requestOut = path.join(dir, 'request.json');
    const sigFile = path.join(dir, 'answer.json');
    fs.writeFileSync(sigFile, JSON.stringify({ signature: signWith(WALLET_KEY, withdraw) }));
    const s = setup({ requestOut });
    const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
    await s.stderr.waitFor(/enter the answer here/);
    expect(JSON.parse(fs.readFileSync(requestOut, 'utf8'))).toMatchObject({ primaryType: 'Withdraw' });
    expect(s.stdout.text).toBe('');
    s.stdin.end(sigFile + '\n');
    await expect(result).resolves.toBe(signWith(WALLET_KEY, withdraw).toLowerCase());
  });

  it('a signature by another key is refused: SIGNATURE_MISMATCH, exit 1, nothing sent', async () => {
    const s = setup();
    const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
    s.stdin.end(signWith(OTHER_KEY, withdraw) + '\n');
    const err = await failure(result);
    expect(err).toBeInstanceOf(OperationError);
    expect(describeFailure(err)).toMatchObject({ code: 'SIGNATURE_MISMATCH', exitCode: 1, message: expect.stringMatching(/nothing was sent/) });
  });

  it.each([
    ['garbage', 'not a signature at all', 'SIGNATURE_MALFORMED'],
    ['short hex', '0x1234', 'SIGNATURE_MALFORMED'],
    ['nothing', '', 'OFFLINE_IO'],
  ])('%s on stdin is refused (exit 1)', async (_label, text, code) => {
    const s = setup();
    const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
    s.stdin.end(text);
    const err = await failure(result);
    expect(describeFailure(err)).toMatchObject({ code, exitCode: 1 });
  });

  describe('with --qr', () => {
    it('a page: one self-contained HTML with every frame inline, no script, nothing fetched; UR answer over several lines', async () => {
      const page = path.join(tmp(), 'request.html');
      const s = setup({ qr: page, qrFingerprint: FINGERPRINT });
      const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
      const [, requestId] = await s.stderr.waitFor(/request id ([0-9a-f-]{36})/);
      await s.stderr.waitFor(/enter the answer here/);
      const html = fs.readFileSync(page, 'utf8');
      const frames = html.match(/<svg/g)?.length ?? 0;
      expect(frames).toBeGreaterThan(1);
      expect(html).not.toMatch(/<script|\bsrc=|\bhref=|url\(/i);
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
      expect(html).toContain(`animation-delay:${(frames - 1) * 250}ms`);

      const parts = answerParts(signWith(WALLET_KEY, withdraw), requestId!);
      expect(parts.length).toBeGreaterThan(2);
      // Any order, one or more per line.
      s.stdin.write(parts.slice(2).join(' ') + '\n');
      s.stdin.write(parts[1] + '\n');
      s.stdin.end(parts[0] + '\n');
      await expect(result).resolves.toBe(signWith(WALLET_KEY, withdraw).toLowerCase());
    });

    it('a folder: numbered SVG and PNG frames and the UR text, replacing frames of an earlier request; the UR is the request', async () => {
      const dir = tmp();
      fs.writeFileSync(path.join(dir, 'frame-099.svg'), 'stale');
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
      const s = setup({ qr: dir, qrFingerprint: FINGERPRINT, qrPath: "m/44'/60'/0'/0/0" });
      const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
      const [, requestId] = await s.stderr.waitFor(/request id ([0-9a-f-]{36})/);
      const names = fs.readdirSync(dir).sort();
      const text = fs.readFileSync(path.join(dir, 'parts.txt'), 'utf8').trim().split('\n');
      expect(names).toContain('notes.txt');
      expect(names).not.toContain('frame-099.svg');
      expect(names.filter((n) => n.endsWith('.svg'))).toHaveLength(text.length);
      expect(names.filter((n) => n.endsWith('.png'))).toHaveLength(text.length);
      expect(fs.readFileSync(path.join(dir, 'frame-001.png')).subarray(1, 4).toString()).toBe('PNG');
      // The parts decode to an eth-sign-request for this typed data and this request id.
      const decoder = new URDecoder();
      for (const p of text) if (!decoder.isComplete()) decoder.receivePart(p);
      const req = EthSignRequest.fromCBOR(decoder.resultUR().cbor);
      expect(uuidString(req.getRequestId()!)).toBe(requestId);
      expect(JSON.parse(req.getSignData().toString('utf8'))).toMatchObject({ primaryType: 'Withdraw', message: withdraw.message });

      // An answer to another request is refused by name.
      s.stdin.end(answerParts(signWith(WALLET_KEY, withdraw), '1b4e28ba-2fa1-11d2-883f-0016d3cca427').join('\n') + '\n');
      expect(describeFailure(await failure(result))).toMatchObject({ code: 'REQUEST_ID_MISMATCH', exitCode: 1 });
    });

    it('needs a valid fingerprint and path (exit 2), and a UR answer needs a QR request', async () => {
      const missing = await failure(openSigner(parseSignerSpec('offline'), setup({ qr: 'x.html' }).options));
      expect(missing).toBeInstanceOf(ValidationError);
      expect(describeFailure(missing)).toMatchObject({ code: 'INVALID_QR_OPTIONS', exitCode: 2 });
      const badPath = await failure(openSigner(parseSignerSpec('offline'), setup({ qr: 'x.html', qrFingerprint: FINGERPRINT, qrPath: "m/44'/0'/0'" }).options));
      expect(describeFailure(badPath)).toMatchObject({ code: 'INVALID_QR_OPTIONS', exitCode: 2 });
      const stray = await failure(openSigner(parseSignerSpec('offline'), setup({ qrFingerprint: FINGERPRINT }).options));
      expect(describeFailure(stray)).toMatchObject({ code: 'INVALID_QR_OPTIONS', exitCode: 2 });

      const s = setup();
      const result = (await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw);
      s.stdin.end(answerParts(signWith(WALLET_KEY, withdraw), '1b4e28ba-2fa1-11d2-883f-0016d3cca427').join('\n'));
      expect(describeFailure(await failure(result))).toMatchObject({ code: 'INVALID_QR_OPTIONS', exitCode: 2 });
    });
  });

  it('refuses typed data for another wallet than --wallet before writing any request', async () => {
    const s = setup({ wallet: OTHER_KEY.address });
    const err = await failure((await openSigner(parseSignerSpec('offline'), s.options)).signTypedData(withdraw));
    expect(describeFailure(err)).toMatchObject({ code: 'SIGNER_NOT_WALLET', exitCode: 2 });
    expect(s.stdout.text).toBe('');
  });
});
