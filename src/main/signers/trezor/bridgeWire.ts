/**
 * Trezor Bridge (trezord) on 127.0.0.1:21325: when it runs, it owns the USB device, and talking to it
 * instead of to USB is how this app shares the Trezor with Trezor Suite rather than fighting it. Its
 * HTTP API: POST /enumerate, /acquire/PATH/PREVIOUS, /post/SESSION and /read/SESSION (a message as hex
 * of type || length || payload), /release/SESSION. Only the loopback address is ever contacted.
 *
 * A device another program has a session on is not taken over: stealing Suite's session would break
 * whatever the user is doing there.
 */
import { z } from 'zod';
import { TrezorError } from './trezorErrors.js';
import type { MessageWire } from './wire.js';
import { WireFormatError, decodeBridgeHex, encodeBridgeHex } from './wireV1.js';

export const BRIDGE_PORT = 21325;

const EnumerateSchema = z.array(z.object({ path: z.string().min(1).max(200), session: z.string().max(200).nullable() }).loose()).max(64);
const AcquireSchema = z.object({ session: z.string().min(1).max(200) }).loose();

export class BridgeUnavailable extends Error {
  constructor(cause: unknown) {
    super('Trezor Bridge is not running', { cause });
    this.name = 'BridgeUnavailable';
  }
}

async function post(base: string, path: string, body: string | undefined, timeoutMs: number | undefined): Promise<string> {
  let response: Response;
  try {
    response = await fetch(base + path, {
      method: 'POST',
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'text/plain' } }),
      ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    });
  } catch (err) {
    throw new BridgeUnavailable(err);
  }
  const text = await response.text();
  if (!response.ok) {
    if (/closed device|device disconnected|not found/i.test(text)) throw new TrezorError('DISCONNECTED', 'The Trezor was disconnected (Trezor Bridge).');
    if (/other call in progress|wrong previous session|session/i.test(text)) throw new TrezorError('DEVICE_BUSY', 'Another program holds the Trezor through Trezor Bridge (Trezor Suite?).');
    throw new TrezorError('DEVICE_ERROR', `Trezor Bridge answered ${response.status} to ${path.split('/')[1]}.`);
  }
  return text;
}

/** The base URL of Bridge on loopback; the port is a parameter for tests only. */
export function bridgeBase(port = BRIDGE_PORT): string {
  return `http://127.0.0.1:${port}`;
}

/**
 * Opens the first Bridge device. Throws BridgeUnavailable when nothing listens (the caller then uses
 * USB), NO_DEVICE when Bridge runs but sees no Trezor, DEVICE_BUSY when another program holds it.
 */
export async function openBridgeWire(base = bridgeBase(), probeTimeoutMs = 800): Promise<MessageWire> {
  let devices: z.infer<typeof EnumerateSchema>;
  try {
    devices = EnumerateSchema.parse(JSON.parse(await post(base, '/enumerate', undefined, probeTimeoutMs)));
  } catch (err) {
    if (err instanceof BridgeUnavailable || err instanceof TrezorError) throw err;
    throw new TrezorError('DEVICE_ERROR', 'Trezor Bridge answered /enumerate in an unexpected shape.', { cause: err });
  }
  const device = devices[0];
  if (!device) throw new TrezorError('NO_DEVICE', 'Trezor Bridge is running but sees no Trezor. Plug it in and unlock it.');
  if (device.session !== null) throw new TrezorError('DEVICE_BUSY', 'Another program (Trezor Suite?) is using the Trezor through Trezor Bridge. Close it there, then try again.');
  const acquired = AcquireSchema.safeParse(JSON.parse(await post(base, `/acquire/${encodeURIComponent(device.path)}/null`, undefined, 5000)));
  if (!acquired.success) throw new TrezorError('DEVICE_ERROR', 'Trezor Bridge answered /acquire in an unexpected shape.');
  const session = encodeURIComponent(acquired.data.session);
  const broken = (err: unknown): never => {
    if (err instanceof TrezorError) throw err;
    if (err instanceof WireFormatError) throw new TrezorError('DEVICE_ERROR', err.message, { cause: err });
    throw new TrezorError('DISCONNECTED', 'Trezor Bridge stopped answering.', { cause: err });
  };
  let released = false;
  return {
    via: 'Trezor Bridge',
    write: async (msg) => {
      await post(base, `/post/${session}`, encodeBridgeHex(msg), 10_000).catch(broken);
    },
    // No timeout: the answer waits for the person at the device; cancel is a Cancel message, not a timeout.
    read: async () => decodeBridgeHex((await post(base, `/read/${session}`, undefined, undefined).catch(broken)).trim()),
    close: async () => {
      if (released) return;
      released = true;
      await post(base, `/release/${session}`, undefined, 5000).catch(() => undefined);
    },
  };
}
