/**
 * The Trezor emulator (and any stand-in for it) over UDP, as trezorlib's UdpTransport speaks to it: one
 * 64-byte report per datagram, and "PINGPING" answered by "PONGPONG" to see that it is there. Only a
 * loopback address is accepted: nothing in the Trezor path talks to another machine.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { TrezorError } from './trezorErrors.js';
import { reportWire, type MessageWire, type ReportLink } from './wire.js';
import { REPORT_SIZE } from './wireV1.js';

export const DEFAULT_EMULATOR = { host: '127.0.0.1', port: 21324 } as const;
const PING = Buffer.from('PINGPING');
const PONG = 'PONGPONG';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === '::1' || (net.isIPv4(h) && h.split('.')[0] === '127');
}

export async function openUdpWire(host: string, port: number, pingTimeoutMs = 1000): Promise<MessageWire> {
  if (!isLoopbackHost(host)) throw new TrezorError('INVALID_SETTING', `the Trezor emulator must be on this machine (a loopback address), not ${host}`);
  const socket = dgram.createSocket(net.isIPv6(host.replace(/^\[|\]$/g, '')) ? 'udp6' : 'udp4');
  const target = host.replace(/^\[|\]$/g, '');
  const queue: Buffer[] = [];
  const waiting: { resolve: (b: Buffer) => void; reject: (e: Error) => void }[] = [];
  let failure: TrezorError | undefined;
  const fail = (err: TrezorError): void => {
    failure ??= err;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  socket.on('message', (data, rinfo) => {
    // Datagrams from anyone but the emulator (its address AND port) are not the device's answers: any
    // local program can send from 127.0.0.2 on the emulator's port number (issue 36: a spoofed signature
    // from there was taken as the device's).
    if (rinfo.port !== port || rinfo.address !== target) return;
    const w = waiting.shift();
    if (w) w.resolve(data);
    else queue.push(data);
  });
  socket.on('error', (err) => fail(new TrezorError('DISCONNECTED', `The emulator link failed: ${err.message}`, { cause: err })));
  const next = (): Promise<Buffer> => {
    if (failure) return Promise.reject(failure);
    const data = queue.shift();
    if (data) return Promise.resolve(data);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const send = (data: Buffer): Promise<void> =>
    new Promise((resolve, reject) =>
      socket.send(data, port, target, (err) => (err ? reject(new TrezorError('DISCONNECTED', `Sending to the emulator failed: ${err.message}`, { cause: err })) : resolve())),
    );
  await new Promise<void>((resolve) => socket.bind(0, target === '::1' ? '::1' : '127.0.0.1', resolve));

  // Is anything there? An unanswered ping within the timeout means no emulator.
  await send(PING);
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      next(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TrezorError('NO_DEVICE', `No Trezor emulator answers on ${host}:${port}. Start it (or unset PERPS_TREZOR_TRANSPORT to use USB).`)), pingTimeoutMs);
      }),
    ]);
    if (answer.toString('latin1') !== PONG) throw new TrezorError('DEVICE_ERROR', `Something on ${host}:${port} answered the ping, but not as the Trezor emulator does.`);
  } catch (err) {
    socket.close();
    throw err;
  } finally {
    clearTimeout(timer);
  }

  let closed = false;
  const link: ReportLink = {
    write: (report) => send(Buffer.from(report)),
    read: async () => {
      const data = await next();
      if (data.length !== REPORT_SIZE) throw new TrezorError('DEVICE_ERROR', `The emulator sent a ${data.length}-byte datagram.`);
      return new Uint8Array(data);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      fail(new TrezorError('DISCONNECTED', 'The emulator connection was closed.'));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
  return reportWire(link, `emulator ${host}:${port}`);
}
