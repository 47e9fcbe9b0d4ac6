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

export interface ReadOptions {
  /**
   * Once a message has begun (its first report is in), the rest must arrive within this many ms, or the
   * read fails with TIMEOUT and the link is closed (issue 36: a header announcing 1 MiB and nothing more
   * hung the signer). Links that carry whole messages (Bridge) ignore it.
   */
  restMs?: number;
}

/** How long the rest of a message may take when the caller does not say (the session always does). */
export const DEFAULT_REST_MS = 30_000;

export interface MessageWire {
  /** What the user is connected through, for messages: "USB", "Trezor Bridge", "emulator 127.0.0.1:21324". */
  readonly via: string;
  write(msg: WireMessage): Promise<void>;
  /**
   * Writes a message while a read may be under way: Cancel during a screen. Report links simply write;
   * Trezor Bridge may refuse a second call on the session while its read is pending, and works around it.
   */
  interrupt(msg: WireMessage): Promise<void>;
  read(options?: ReadOptions): Promise<WireMessage>;
  close(): Promise<void>;
}

/** A MessageWire over a report link (USB or UDP). */
export function reportWire(link: ReportLink, via: string): MessageWire {
  const assembler = new ReportAssembler();
  const write = async (msg: WireMessage): Promise<void> => {
    for (const report of encodeReports(msg)) await link.write(report);
  };
  const nextReport = async (restMs: number | null): Promise<Uint8Array> => {
    if (restMs === null) return link.read();
    const report = link.read();
    report.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TrezorError('TIMEOUT', `The Trezor began a message and did not finish it within ${Math.round(restMs / 100) / 10} s; the connection was closed.`)), restMs);
    });
    try {
      return await Promise.race([report, expired]);
    } catch (err) {
      if (err instanceof TrezorError && err.code === 'TIMEOUT') await link.close().catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    via,
    write,
    interrupt: write,
    async read(options = {}) {
      const restMs = options.restMs ?? DEFAULT_REST_MS;
      // The deadline of the rest runs from the first report, for the whole message.
      let deadlineAt: number | null = null;
      for (;;) {
        const report = await nextReport(deadlineAt === null ? null : Math.max(1, deadlineAt - Date.now()));
        try {
          const msg = assembler.push(report);
          if (msg) return msg;
          deadlineAt ??= Date.now() + restMs;
        } catch (err) {
          if (err instanceof WireFormatError) throw new TrezorError('DEVICE_ERROR', `The Trezor sent a malformed report: ${err.message}.`, { cause: err });
          throw err;
        }
      }
    },
    close: () => link.close(),
  };
}
