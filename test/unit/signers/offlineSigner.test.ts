import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  OfflineSigner,
  fileSink,
  fileSource,
  parseSignatureText,
  stdinSource,
  stdoutSink,
  type OfflineSigningRequest,
  type OfflineSource,
} from '../../../src/main/signers/offlineSigner.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import { verifySignature } from '../../../src/main/signers/verifySignature.js';
import { bytesToHex, digestOf, type TypedData } from '../../../src/shared/eip712/index.js';
import { authorizeData, ethersRecover, ethersSign, withdrawData } from './fixtures.js';

const wallet = new Wallet(Wallet.createRandom().privateKey);
const other = new Wallet(Wallet.createRandom().privateKey);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'perps-offline-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A sink that keeps the document and a source that answers with whatever `answer` computes from it. */
function inMemory(answer: (request: OfflineSigningRequest) => Promise<string>): { sink: (doc: string) => Promise<void>; source: OfflineSource; docs: string[] } {
  const docs: string[] = [];
  return {
    docs,
    sink: async (doc) => {
      docs.push(doc);
    },
    source: { read: () => answer(JSON.parse(docs[docs.length - 1]!) as OfflineSigningRequest) },
  };
}

/** The caller's flow: sign, then send. `send` must never see a refused signature. */
async function signThenSend(signer: OfflineSigner, data: TypedData, send: (sig: string) => void): Promise<unknown> {
  try {
    send(await signer.signTypedData(data));
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('OfflineSigner', () => {
  it('writes the exact typed data (eth_signTypedData_v4 shape) with a summary, and returns a correct signature', async () => {
    const data = withdrawData(wallet.address, '25');
    const io = inMemory((req) => ethersSign(wallet, req.typedData));
    const signer = new OfflineSigner({ address: wallet.address, ...io });
    const sig = await signer.signTypedData(data);
    expect(ethersRecover(data, sig)).toBe(wallet.address);

    const doc = JSON.parse(io.docs[0]!) as OfflineSigningRequest;
    expect(doc.typedData).toEqual(data);
    expect(Object.keys(doc.typedData).sort()).toEqual(['domain', 'message', 'primaryType', 'types']);
    expect(doc.typedData.types.EIP712Domain).toEqual([
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ]);
    expect(doc.signer).toBe(wallet.address);
    expect(doc.digest).toBe(bytesToHex(digestOf(data)));
    expect(doc.summary[0]).toBe(`Withdraw 25 USDC (25000000 base units) from wallet ${wallet.address}`);
    expect(doc.summary.join('\n')).toMatch(/Destination: 0x/);
    expect(doc.summary.join('\n')).toMatch(/chainId 421614/);
  });

  it('summarises a key authorization with its expiry date', async () => {
    const agent = Wallet.createRandom().address;
    const io = inMemory((req) => ethersSign(wallet, req.typedData));
    await new OfflineSigner({ address: wallet.address, ...io }).signTypedData(authorizeData(wallet.address, agent));
    const doc = JSON.parse(io.docs[0]!) as OfflineSigningRequest;
    expect(doc.summary[0]).toBe(`Authorize trading key ${agent} to trade for wallet ${wallet.address}`);
    expect(doc.summary[1]).toBe('Expires: 2027-01-15T08:00:00.000Z (1800000000000)');
  });

  it('a signature from the wrong key is SIGNATURE_MISMATCH and nothing is sent', async () => {
    const data = withdrawData(wallet.address);
    const send = vi.fn();
    const err = await signThenSend(new OfflineSigner({ address: wallet.address, ...inMemory((req) => ethersSign(other, req.typedData)) }), data, send);
    expect(err).toBeInstanceOf(SignerError);
    expect((err as SignerError).code).toBe('SIGNATURE_MISMATCH');
    expect((err as Error).message).toContain(other.address);
    expect(send).not.toHaveBeenCalled();
  });

  it('the right key over different data is SIGNATURE_MISMATCH too', async () => {
    const data = withdrawData(wallet.address, '25');
    const send = vi.fn();
    const err = await signThenSend(new OfflineSigner({ address: wallet.address, ...inMemory(() => ethersSign(wallet, withdrawData(wallet.address, '2500'))) }), data, send);
    expect((err as SignerError).code).toBe('SIGNATURE_MISMATCH');
    expect(send).not.toHaveBeenCalled();
  });

  it.each([
    ['garbage', 'not a signature'],
    ['empty', ''],
    ['64 bytes', '0x' + 'ab'.repeat(64)],
    ['v = 29', '0x' + '11'.repeat(32) + '22'.repeat(32) + '1d'],
    ['high s', '0x' + '11'.repeat(32) + 'ff'.repeat(32) + '1b'],
  ])('a malformed signature (%s) is SIGNATURE_MALFORMED and nothing is sent', async (_name, text) => {
    const send = vi.fn();
    const err = await signThenSend(new OfflineSigner({ address: wallet.address, ...inMemory(async () => text) }), withdrawData(wallet.address), send);
    expect(err).toBeInstanceOf(SignerError);
    expect((err as SignerError).code).toBe('SIGNATURE_MALFORMED');
    expect(send).not.toHaveBeenCalled();
  });

  it('accepts bare hex, surrounding whitespace and a 0/1 recovery byte', async () => {
    const data = withdrawData(wallet.address);
    const sig = await ethersSign(wallet, data);
    const v01 = sig.slice(0, 130) + (parseInt(sig.slice(130), 16) - 27).toString(16).padStart(2, '0');
    expect(parseSignatureText(`  ${sig.slice(2).toUpperCase()}\n`)).toBe(sig.toLowerCase());
    expect(parseSignatureText(v01)).toBe(sig.toLowerCase());
    expect(verifySignature(data, parseSignatureText(v01), wallet.address)).toBe(sig.toLowerCase());
  });

  it('round trip through files: request file out, signature file back; a stale answer is cleared first', async () => {
    const requestFile = path.join(dir, 'request.json');
    const answerFile = path.join(dir, 'signature.txt');
    await fs.writeFile(answerFile, '0x' + 'ab'.repeat(65)); // stale answer of an earlier request
    const signer = new OfflineSigner({ address: wallet.address, sink: fileSink(requestFile), source: fileSource(answerFile, { pollIntervalMs: 10, timeoutMs: 5000 }) });
    const data = withdrawData(wallet.address, '7');
    // The "other machine": waits for the request, signs its typedData with ethers, writes the answer.
    const external = (async () => {
      for (;;) {
        const text = await fs.readFile(requestFile, 'utf8').catch(() => null);
        if (text) {
          const req = JSON.parse(text) as OfflineSigningRequest;
          await fs.writeFile(answerFile, (await ethersSign(wallet, req.typedData)) + '\n');
          return;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const sig = await signer.signTypedData(data);
    await external;
    expect(ethersRecover(data, sig)).toBe(wallet.address);
  });

  it('a file source that never gets an answer times out with OFFLINE_IO', async () => {
    const src = fileSource(path.join(dir, 'never.txt'), { pollIntervalMs: 10, timeoutMs: 50 });
    await expect(src.read()).rejects.toMatchObject({ code: 'OFFLINE_IO' });
  });

  it('stdout sink and stdin source: the request is printed as JSON, the pasted line is the signature', async () => {
    const out = new PassThrough();
    const input = new PassThrough();
    const prompt = new PassThrough();
    const printed: string[] = [];
    out.on('data', (chunk: Buffer) => printed.push(chunk.toString('utf8')));
    const signer = new OfflineSigner({ address: wallet.address, sink: stdoutSink(out), source: stdinSource(input, { prompt: 'signature> ', promptTo: prompt }) });
    const data = withdrawData(wallet.address, '3');
    const pending = signer.signTypedData(data);
    await new Promise((r) => setImmediate(r));
    const req = JSON.parse(printed.join('')) as OfflineSigningRequest;
    input.write('\n' + (await ethersSign(wallet, req.typedData)) + '\n');
    const sig = await pending;
    expect(ethersRecover(data, sig)).toBe(wallet.address);
    expect(String(prompt.read())).toBe('signature> ');
  });

  it('stdin ending before a signature is OFFLINE_IO', async () => {
    const input = new PassThrough();
    const pending = stdinSource(input).read();
    input.end('\n');
    await expect(pending).rejects.toMatchObject({ code: 'OFFLINE_IO' });
  });
});
