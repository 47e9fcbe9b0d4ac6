/**
 * Which link reaches the Trezor: PERPS_TREZOR_TRANSPORT picks one explicitly (udp:HOST:PORT for the
 * emulator, usb, bridge); unset, Trezor Bridge is used when it is running (it owns the device then, and
 * shares it with Trezor Suite) and USB otherwise.
 */
import { openBridgeWire, BridgeUnavailable, bridgeBase } from './bridgeWire.js';
import { TrezorError } from './trezorErrors.js';
import { DEFAULT_EMULATOR, isLoopbackHost, openUdpWire } from './udpLink.js';
import { openUsbWire, type UsbLib } from './usbLink.js';
import type { MessageWire } from './wire.js';

export type TrezorTransportSetting = { kind: 'auto' } | { kind: 'usb' } | { kind: 'bridge' } | { kind: 'udp'; host: string; port: number };

export const TRANSPORT_ENV = 'PERPS_TREZOR_TRANSPORT';

/** Parses PERPS_TREZOR_TRANSPORT; a bad value is an INVALID_SETTING error, never a guess. */
export function parseTrezorTransport(value: string | undefined): TrezorTransportSetting {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'auto') return { kind: 'auto' };
  if (v === 'usb' || v === 'bridge') return { kind: v };
  if (v === 'udp') return { kind: 'udp', ...DEFAULT_EMULATOR };
  const m = /^udp:(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(v);
  if (m) {
    const host = m[1] as string;
    const port = Number(m[2]);
    if (port < 1 || port > 65535) throw new TrezorError('INVALID_SETTING', `${TRANSPORT_ENV}: port ${m[2]} is out of range`);
    if (!isLoopbackHost(host)) throw new TrezorError('INVALID_SETTING', `${TRANSPORT_ENV}: the emulator must be on a loopback address (127.x.x.x or [::1]), not ${host}`);
    return { kind: 'udp', host, port };
  }
  throw new TrezorError('INVALID_SETTING', `${TRANSPORT_ENV} must be usb, bridge, udp or udp:HOST:PORT (a loopback HOST), got "${v.slice(0, 80)}"`);
}

export interface OpenTrezorDeps {
  /** A stand-in for the `usb` module (tests). */
  usb?: UsbLib;
  /** Bridge's base URL (tests run a stand-in on another loopback port). */
  bridgeUrl?: string;
}

export async function openTrezorWire(setting: TrezorTransportSetting, deps: OpenTrezorDeps = {}): Promise<MessageWire> {
  switch (setting.kind) {
    case 'udp':
      return openUdpWire(setting.host, setting.port);
    case 'usb':
      return openUsbWire(deps.usb);
    case 'bridge':
      try {
        return await openBridgeWire(deps.bridgeUrl ?? bridgeBase());
      } catch (err) {
        if (err instanceof BridgeUnavailable) throw new TrezorError('NO_DEVICE', 'Trezor Bridge is not running on 127.0.0.1:21325.', { cause: err });
        throw err;
      }
    case 'auto':
      try {
        return await openBridgeWire(deps.bridgeUrl ?? bridgeBase());
      } catch (err) {
        if (!(err instanceof BridgeUnavailable)) throw err;
      }
      return openUsbWire(deps.usb);
  }
}
