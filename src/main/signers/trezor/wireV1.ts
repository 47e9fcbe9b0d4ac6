/**
 * Trezor wire protocol v1 (common/protob/protocol.md in trezor-firmware), the framing every Trezor
 * without the encrypted host protocol speaks over USB and the emulator over UDP:
 *
 *   first report:  '?' '#' '#' | type: BE uint16 | length: BE uint32 | first 55 bytes of the protobuf
 *   next reports:  '?'         | next 63 bytes
 *
 * each report exactly 64 bytes, zero-padded. Trezor Bridge takes the same message without the reports:
 * type (2 bytes) || length (4 bytes) || payload, hex-encoded.
 */

export const REPORT_SIZE = 64;
/** Nothing the signer exchanges comes near this; a larger length in a header is a broken or hostile device. */
export const MAX_MESSAGE_BYTES = 1 << 20;

export interface WireMessage {
  readonly type: number;
  readonly payload: Uint8Array;
}

export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

function header(msg: WireMessage): Uint8Array {
  if (!Number.isInteger(msg.type) || msg.type < 0 || msg.type > 0xffff) throw new WireFormatError(`message type ${msg.type} does not fit 16 bits`);
  if (msg.payload.length > MAX_MESSAGE_BYTES) throw new WireFormatError(`message of ${msg.payload.length} bytes is too large`);
  const out = new Uint8Array(6 + msg.payload.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, msg.type);
  view.setUint32(2, msg.payload.length);
  out.set(msg.payload, 6);
  return out;
}

/** One message as the 64-byte reports of protocol v1. */
export function encodeReports(msg: WireMessage): Uint8Array[] {
  // '##' + header + payload, cut into 63-byte pieces, each behind a '?': the first piece is then
  // exactly '?##' + type + length + 55 bytes of payload.
  const body = new Uint8Array(2 + 6 + msg.payload.length);
  body[0] = 0x23;
  body[1] = 0x23;
  body.set(header(msg), 2);
  const reports: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += REPORT_SIZE - 1) {
    const report = new Uint8Array(REPORT_SIZE);
    report[0] = 0x3f;
    report.set(body.subarray(at, at + REPORT_SIZE - 1), 1);
    reports.push(report);
  }
  return reports;
}

/**
 * Reassembles reports into messages. Feed reports in the order they arrive; `push` returns the message
 * once its last report is in. A report without the magic bytes is refused, never guessed around.
 */
export class ReportAssembler {
  #type = 0;
  #buffer: Uint8Array | undefined;
  #filled = 0;

  push(report: Uint8Array): WireMessage | undefined {
    if (report.length !== REPORT_SIZE) throw new WireFormatError(`a report must be ${REPORT_SIZE} bytes, got ${report.length}`);
    if (report[0] !== 0x3f) throw new WireFormatError('a report does not start with the magic "?"');
    if (this.#buffer === undefined) {
      if (report[1] !== 0x23 || report[2] !== 0x23) throw new WireFormatError('the first report of a message does not start with "?##"');
      const view = new DataView(report.buffer, report.byteOffset, report.byteLength);
      const length = view.getUint32(5);
      if (length > MAX_MESSAGE_BYTES) throw new WireFormatError(`the device announced a message of ${length} bytes`);
      this.#type = view.getUint16(3);
      this.#buffer = new Uint8Array(length);
      this.#filled = 0;
      this.#take(report.subarray(9));
    } else {
      this.#take(report.subarray(1));
    }
    if (this.#filled < this.#buffer.length) return undefined;
    const msg = { type: this.#type, payload: this.#buffer };
    this.#buffer = undefined;
    return msg;
  }

  #take(chunk: Uint8Array): void {
    const buffer = this.#buffer as Uint8Array;
    const n = Math.min(chunk.length, buffer.length - this.#filled);
    buffer.set(chunk.subarray(0, n), this.#filled);
    this.#filled += n;
  }
}

/** Trezor Bridge's body of a message: hex of type || length || payload. */
export function encodeBridgeHex(msg: WireMessage): string {
  return Buffer.from(header(msg)).toString('hex');
}

export function decodeBridgeHex(hex: string): WireMessage {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex) || hex.length < 12) throw new WireFormatError('Trezor Bridge answered with a malformed message');
  const bytes = Buffer.from(hex, 'hex');
  const type = bytes.readUInt16BE(0);
  const length = bytes.readUInt32BE(2);
  if (length !== bytes.length - 6) throw new WireFormatError(`Trezor Bridge's message says ${length} bytes but carries ${bytes.length - 6}`);
  return { type, payload: new Uint8Array(bytes.subarray(6)) };
}
