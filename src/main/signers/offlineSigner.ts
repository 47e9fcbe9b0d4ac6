/**
 * The main wallet on another machine or device (air-gapped laptop, a wallet app, `cast wallet sign`).
 * Signing a custody action writes a request document to a sink and reads the 65-byte signature back from
 * a source. The document holds the exact typed data in eth_signTypedData_v4's JSON shape (what wallets and
 * signing tools take), a human-readable summary so the person signing can check what they approve, the
 * expected signer and the EIP-712 digest (for tools that sign a raw digest).
 *
 * The signature that comes back is verified to recover the wallet BEFORE it is returned: a signature by
 * another key, over other data, or malformed is a typed SignerError and nothing is sent.
 */
import { readFile, stat, unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { baseUnitsToUsdc } from '../../shared/decimal/index.js';
import { bytesToHex, digestOf, type TypedData } from '../../shared/eip712/index.js';
import { toChecksumAddress } from '../../shared/identity/index.js';
import { writeFileAtomic } from '../files/atomicWrite.js';
import type { Signer } from './signer.js';
import { SignerError } from './signerError.js';
import { verifySignature } from './verifySignature.js';

/** What the sink receives (serialised as pretty JSON). */
export interface OfflineSigningRequest {
  summary: string[];
  /** The wallet that must sign. */
  signer: string;
  /** keccak256(0x1901 || domainSeparator || hashStruct(message)). */
  digest: string;
  /** Pass this to eth_signTypedData_v4 (or `cast wallet sign --data`). */
  typedData: TypedData;
}

/** Receives the request document (JSON text). */
export type OfflineSink = (document: string) => Promise<void>;

/** Produces the signature text. prepare() runs before the request is written (e.g. to clear a stale answer). */
export interface OfflineSource {
  prepare?(): Promise<void>;
  read(): Promise<string>;
}

export interface OfflineSignerOptions {
  /** The main wallet's address: signatures must recover it. */
  address: string;
  sink: OfflineSink;
  source: OfflineSource;
}

export class OfflineSigner implements Signer {
  readonly kind = 'offline' as const;
  readonly address: string;
  private readonly sink: OfflineSink;
  private readonly source: OfflineSource;

  constructor(options: OfflineSignerOptions) {
    this.address = toChecksumAddress(options.address, 'address');
    this.sink = options.sink;
    this.source = options.source;
  }

  async signTypedData(data: TypedData): Promise<string> {
    const request: OfflineSigningRequest = {
      summary: summarizeTypedData(data),
      signer: this.address,
      digest: bytesToHex(digestOf(data)),
      typedData: data,
    };
    await this.source.prepare?.();
    await this.sink(JSON.stringify(request, null, 2) + '\n');
    const text = await this.source.read();
    return verifySignature(data, parseSignatureText(text), this.address);
  }
}

/**
 * Accepts the forms signing tools print: 0x-prefixed or bare hex of 65 bytes, surrounding whitespace, and
 * a recovery byte of 0/1 (raw ECDSA tools) as well as 27/28. Everything else is SIGNATURE_MALFORMED.
 */
export function parseSignatureText(text: string): string {
  const trimmed = text.trim();
  const hex = trimmed.startsWith('0x') || trimmed.startsWith('0X') ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) {
    throw new SignerError('SIGNATURE_MALFORMED', `expected a 65-byte signature (130 hex characters), got ${describeText(trimmed)}; nothing was sent`);
  }
  const v = parseInt(hex.slice(128), 16);
  const vByte = v === 0 || v === 1 ? (v + 27).toString(16) : hex.slice(128);
  return ('0x' + hex.slice(0, 128) + vByte).toLowerCase();
}

/** Length and a short prefix only: enough to see what went wrong, never a long paste echoed into logs. */
function describeText(text: string): string {
  if (text.length === 0) return 'nothing';
  return `${text.length} characters starting ${JSON.stringify(text.slice(0, 12))}`;
}

/** Human-readable lines describing what signing `data` authorizes. */
export function summarizeTypedData(data: TypedData): string[] {
  const lines: string[] = [];
  switch (data.primaryType) {
    case 'AuthorizeAgent': {
      const m = data.message;
      lines.push(`Authorize trading key ${m.agent} to trade for wallet ${m.user}`);
      lines.push(`Expires: ${isoOf(m.expiresAt)}`);
      lines.push(`Environment: ${m.serviceEnvironment}`);
      break;
    }
    case 'RevokeAgent': {
      const m = data.message;
      lines.push(`Revoke trading key ${m.agent} of wallet ${m.user}`);
      lines.push(`Environment: ${m.serviceEnvironment}`);
      break;
    }
    case 'Withdraw': {
      const m = data.message;
      lines.push(`Withdraw ${baseUnitsToUsdc(BigInt(m.amount))} USDC (${m.amount} base units) from wallet ${m.user}`);
      lines.push(`Destination: ${m.destination}`);
      lines.push(`Environment: ${m.serviceEnvironment}`);
      break;
    }
    case 'Order': {
      const m = data.message;
      lines.push(`${m.side} ${m.size} ${m.market} ${m.orderType} at ${m.limitPrice} (${m.timeInForce}${m.reduceOnly ? ', reduce-only' : ''}, leverage ${m.leverage})`);
      if (m.tpsl) lines.push(`Trigger ${m.tpsl} at mark ${m.triggerPrice}`);
      lines.push(`Account: ${m.account}`);
      break;
    }
    case 'Cancel': {
      const m = data.message;
      lines.push(`Cancel ${m.orderType} order ${m.orderId} of wallet ${m.account}`);
      break;
    }
    case 'Modify': {
      const m = data.message;
      lines.push(`Modify order ${m.orderId}: size ${m.size}, price ${m.limitPrice}, trigger ${m.triggerPrice} (new client id ${m.clientOrderId})`);
      lines.push(`Account: ${m.account}`);
      break;
    }
    case 'UpdateIsolatedMargin': {
      const m = data.message;
      lines.push(`${m.amount.startsWith('-') ? 'Remove' : 'Add'} ${m.amount.replace(/^-/, '')} USDC isolated margin on ${m.market}`);
      lines.push(`Account: ${m.account}`);
      break;
    }
  }
  lines.push(`Nonce: ${data.message.nonce}`);
  lines.push(`Domain: ${data.domain.name} v${data.domain.version}, chainId ${data.domain.chainId}`);
  return lines;
}

function isoOf(ms: string): string {
  const n = Number(ms);
  return Number.isSafeInteger(n) && n <= 8.64e15 ? `${new Date(n).toISOString()} (${ms})` : ms;
}

// ---- sinks and sources ----------------------------------------------------------------------------------

/**
 * Writes the request to `path` with the atomic writer (exclusive random temp, 0600, never through a
 * symlink), so a watcher never reads half a file.
 */
export function fileSink(path: string): OfflineSink {
  return async (document) => {
    try {
      await writeFileAtomic(path, document);
    } catch (err) {
      throw new SignerError('OFFLINE_IO', `cannot write the signing request to ${path}: ${(err as Error).message}`, { cause: err });
    }
  };
}

export function stdoutSink(stream: Writable = process.stdout): OfflineSink {
  return (document) =>
    new Promise<void>((resolve, reject) => {
      stream.write(document, (err) => (err ? reject(new SignerError('OFFLINE_IO', `cannot write the signing request: ${err.message}`, { cause: err })) : resolve()));
    });
}

export interface FileSourceOptions {
  /** How often to look for the answer file. Default 500 ms. */
  pollIntervalMs?: number;
  /** Give up after this long. Default 15 minutes. */
  timeoutMs?: number;
}

/**
 * Waits for a signature file to appear (and be non-empty), then reads it. prepare() removes a previous
 * answer first, so a stale signature from an earlier request is never picked up.
 */
export function fileSource(path: string, options: FileSourceOptions = {}): OfflineSource {
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  return {
    async prepare() {
      try {
        await unlink(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          throw new SignerError('OFFLINE_IO', `cannot clear the previous signature file ${path}: ${(err as Error).message}`, { cause: err });
        }
      }
    },
    async read() {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          const s = await stat(path);
          if (s.size > 0) {
            const text = await readFile(path, 'utf8');
            if (text.trim().length > 0) return text;
          }
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
            throw new SignerError('OFFLINE_IO', `cannot read the signature file ${path}: ${(err as Error).message}`, { cause: err });
          }
        }
        if (Date.now() >= deadline) throw new SignerError('OFFLINE_IO', `no signature appeared in ${path} within ${Math.round(timeoutMs / 1000)} s`);
        await new Promise((r) => setTimeout(r, pollIntervalMs));
      }
    },
  };
}

export interface StdinSourceOptions {
  /** Printed before reading, e.g. "Paste the signature:". Goes to `promptTo`, default stderr (stdout may carry the request). */
  prompt?: string;
  promptTo?: Writable;
}

/** Reads the first non-empty line of a stream (stdin by default). */
export function stdinSource(input: Readable = process.stdin, options: StdinSourceOptions = {}): OfflineSource {
  return {
    read() {
      if (options.prompt) (options.promptTo ?? process.stderr).write(options.prompt);
      return new Promise<string>((resolve, reject) => {
        const rl = createInterface({ input, terminal: false });
        let done = false;
        const finish = (fn: () => void): void => {
          if (done) return;
          done = true;
          rl.close();
          fn();
        };
        rl.on('line', (line) => {
          if (line.trim().length > 0) finish(() => resolve(line));
        });
        rl.on('close', () => finish(() => reject(new SignerError('OFFLINE_IO', 'the input ended before a signature was entered'))));
        input.once('error', (err: Error) => finish(() => reject(new SignerError('OFFLINE_IO', `cannot read the signature: ${err.message}`, { cause: err }))));
      });
    },
  };
}
