/**
 * A hostile or broken device behind an emulator-style UDP port on 127.0.0.1 (issue 36): it answers the
 * ping like the emulator, reassembles the host's messages, and hands each to a script that sends back
 * whatever reports it likes: nothing, a header announcing 1 MiB and nothing more, ButtonRequests without
 * end. Loopback only.
 */
import dgram from 'node:dgram';
import { decode, encode, ReportReader, toReports, type Msg } from './protocol.js';

export interface ScriptedEmulator {
  readonly port: number;
  /** Every message the host sent, by name, in order. */
  readonly received: string[];
  /** The host's address and port as last seen (where answers go). */
  readonly peer: { address: string; port: number } | undefined;
  close(): Promise<void>;
}

export type Script = (msg: Msg, reply: Replier) => void;

export interface Replier {
  /** Sends one whole message as reports. */
  message(name: string, fields?: Record<string, unknown>): void;
  /** Sends raw 64-byte reports. */
  reports(reports: Buffer[]): void;
}

/** The first report of a message that announces `length` bytes, and carries 55 of them. */
export function headerOnly(type: number, length: number): Buffer {
  const r = Buffer.alloc(64);
  r.write('?##', 0, 'latin1');
  r.writeUInt16BE(type, 3);
  r.writeUInt32BE(length, 5);
  return r;
}

export async function startScriptedEmulator(script: Script): Promise<ScriptedEmulator> {
  const socket = dgram.createSocket('udp4');
  const reader = new ReportReader();
  const received: string[] = [];
  let peer: { address: string; port: number } | undefined;
  const send = (data: Buffer): void => {
    if (peer) socket.send(data, peer.port, peer.address);
  };
  const reply: Replier = {
    message: (name, fields = {}) => {
      const { type, payload } = encode(name, fields);
      for (const r of toReports(type, payload)) send(r);
    },
    reports: (reports) => reports.forEach(send),
  };
  socket.on('message', (data, rinfo) => {
    peer = { port: rinfo.port, address: rinfo.address };
    if (data.toString('latin1') === 'PINGPING') return void socket.send(Buffer.from('PONGPONG'), rinfo.port, rinfo.address);
    const done = data.length === 64 ? reader.push(data) : undefined;
    if (!done) return;
    const msg = decode(done[0], done[1]);
    received.push(msg.name);
    script(msg, reply);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    received,
    get peer() {
      return peer;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
