/**
 * The two shapes a Trezor connection comes in. USB and the emulator's UDP carry 64-byte reports
 * (ReportLink); Trezor Bridge carries whole messages. The signer only ever sees a MessageWire, so
 * reports are reassembled here, once, for both report links.
 */
import { TrezorError } from './trezorErrors.js';
import { ReportAssembler, WireFormatError, encodeReports, type WireMessage } from './wireV1.js';

export interface ReportLink {
  /** Writes one 64-byte report. */
  write(report: Uint8Array): Promise<void>;
  /** Resolves with the next 64-byte report; rejects (as a TrezorError) when the link breaks or closes. */
  read(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface MessageWire {
  /** What the user is connected through, for messages: "USB", "Trezor Bridge", "emulator 127.0.0.1:21324". */
  readonly via: string;
  write(msg: WireMessage): Promise<void>;
  read(): Promise<WireMessage>;
  close(): Promise<void>;
}

/** A MessageWire over a report link (USB or UDP). */
export function reportWire(link: ReportLink, via: string): MessageWire {
  const assembler = new ReportAssembler();
  return {
    via,
    async write(msg) {
      for (const report of encodeReports(msg)) await link.write(report);
    },
    async read() {
      for (;;) {
        const report = await link.read();
        try {
          const msg = assembler.push(report);
          if (msg) return msg;
        } catch (err) {
          if (err instanceof WireFormatError) throw new TrezorError('DEVICE_ERROR', `The Trezor sent a malformed report: ${err.message}.`, { cause: err });
          throw err;
        }
      }
    },
    close: () => link.close(),
  };
}
