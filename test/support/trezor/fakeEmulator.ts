/**
 * A stand-in for the Trezor emulator's UDP port on 127.0.0.1: "PINGPING" is answered "PONGPONG", every
 * other datagram is one 64-byte report for the FakeTrezor behind it, whose reports go back to the sender.
 */
import dgram from 'node:dgram';
import type { FakeTrezor } from './fakeTrezor.js';

export interface FakeEmulator {
  readonly port: number;
  close(): Promise<void>;
}

const peers = new WeakMap<FakeEmulator, () => { port: number; address: string } | undefined>();

/** Where the emulator last heard the host from (the signer's own UDP port). */
export function peerOf(emulator: FakeEmulator): { port: number; address: string } | undefined {
  return peers.get(emulator)?.();
}

export async function startFakeEmulator(device: FakeTrezor): Promise<FakeEmulator> {
  const socket = dgram.createSocket('udp4');
  let peer: { port: number; address: string } | undefined;
  device.onReport = (r) => {
    if (peer) socket.send(r, peer.port, peer.address);
  };
  socket.on('message', (data, rinfo) => {
    peer = { port: rinfo.port, address: rinfo.address };
    if (data.toString('latin1') === 'PINGPING') return void socket.send(Buffer.from('PONGPONG'), rinfo.port, rinfo.address);
    if (data.length === 64) device.receiveReport(data);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const emulator: FakeEmulator = {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  peers.set(emulator, () => peer);
  return emulator;
}
