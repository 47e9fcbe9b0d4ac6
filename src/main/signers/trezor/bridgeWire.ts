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
import { WireFormatError, decodeBridgeHex, encodeBridgeHex, type WireMessage } from './wireV1.js';

export const BRIDGE_PORT = 21325;

const EnumerateSchema = z.array(z.object({ path: z.string().min(1).max(200), session: z.string().max(200).nullable() }).loose()).max(64);
const AcquireSchema = z.object({ session: z.string().min(1).max(200) }).loose();

export class BridgeUnavailable extends Error {
  constructor(cause: unknown) {
    super('Trezor Bridge is not running', { cause });
    this.name = 'BridgeUnavailable';
  }
}

/**
 * trezord's "other call in progress": on acquire, another program holds the device; on our own session,
 * a /call or /read of ours is still under way (trezord runs one at a time per session, and before 2.0.29
 * it refused a /post during one too).
 */
export class OtherCallInProgress extends Error {
  constructor() {
    super('Trezor Bridge: other call in progress');
    this.name = 'OtherCallInProgress';
  }
}

async function post(base: string, path: string, body: string | undefined, signal: AbortSignal | undefined): Promise<string> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(base + path, {
      method: 'POST',
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'text/plain' } }),
      ...(signal === undefined ? {} : { signal }),
    });
    text = await response.text();
  } catch (err) {
    throw new BridgeUnavailable(err);
  }
  if (!response.ok) {
    if (/closed device|device disconnected|not found/i.test(text)) throw new TrezorError('DISCONNECTED', 'The Trezor was disconnected (Trezor Bridge).');
    if (/other call in progress/i.test(text)) throw new OtherCallInProgress();
    if (/wrong previous session|session/i.test(text)) throw new TrezorError('DEVICE_BUSY', 'Another program holds the Trezor through Trezor Bridge (Trezor Suite?).');
    throw new TrezorError('DEVICE_ERROR', `Trezor Bridge answered ${response.status} to ${path.split('/')[1]}.`);
  }
  return text;
}

/** A timeout signal, joined with `also` when given. */
function within(ms: number, also?: AbortSignal): AbortSignal {
  return also ? AbortSignal.any([also, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms);
}

/** The base URL of Bridge on loopback; the port is a parameter for tests only. */
export function bridgeBase(port = BRIDGE_PORT): string {
  return `http://127.0.0.1:${port}`;
}

const busyElsewhere = (): TrezorError => new TrezorError('DEVICE_BUSY', 'Another program (Trezor Suite?) is using the Trezor through Trezor Bridge. Close it there, then try again.');

async function enumerate(base: string, timeoutMs: number): Promise<z.infer<typeof EnumerateSchema>> {
  try {
    return EnumerateSchema.parse(JSON.parse(await post(base, '/enumerate', undefined, AbortSignal.timeout(timeoutMs))));
  } catch (err) {
    if (err instanceof BridgeUnavailable || err instanceof TrezorError) throw err;
    throw new TrezorError('DEVICE_ERROR', 'Trezor Bridge answered /enumerate in an unexpected shape.', { cause: err });
  }
}

async function acquire(base: string, path: string, previous: string | null): Promise<string> {
  let text: string;
  try {
    text = await post(base, `/acquire/${encodeURIComponent(path)}/${previous === null ? 'null' : encodeURIComponent(previous)}`, undefined, AbortSignal.timeout(5000));
  } catch (err) {
    // On acquire, "other call in progress" is trezord refusing to take the device from its holder.
    if (err instanceof OtherCallInProgress) throw busyElsewhere();
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const acquired = AcquireSchema.safeParse(parsed);
  if (!acquired.success) throw new TrezorError('DEVICE_ERROR', 'Trezor Bridge answered /acquire in an unexpected shape.');
  return acquired.data.session;
}

/** The read under way: its request can be released and its answer delivered by another call (Cancel). */
interface PendingRead {
  readonly controller: AbortController;
  released: boolean;
  resolve(msg: WireMessage): void;
  reject(err: unknown): void;
}

/**
 * Opens the first Bridge device. Throws BridgeUnavailable when nothing listens (the caller then uses
 * USB), NO_DEVICE when Bridge runs but sees no Trezor, DEVICE_BUSY when another program holds it.
 */
export async function openBridgeWire(base = bridgeBase(), probeTimeoutMs = 800): Promise<MessageWire> {
  const devices = await enumerate(base, probeTimeoutMs);
  const device = devices[0];
  if (!device) throw new TrezorError('NO_DEVICE', 'Trezor Bridge is running but sees no Trezor. Plug it in and unlock it.');
  if (device.session !== null) throw busyElsewhere();
  const devicePath = device.path;
  /** The session id as sent in URLs; a Cancel on an old Bridge moves the wire to a new one. */
  let session = encodeURIComponent(await acquire(base, devicePath, null));
  let rawSession = decodeURIComponent(session);
  let released = false;
  let pending: PendingRead | null = null;
  /** Every request under way, aborted by close() (a closed wire leaves nothing waiting). */
  const inFlight = new Set<AbortController>();
  const closedError = (): TrezorError => new TrezorError('DISCONNECTED', 'The Trezor connection was closed.');
  const broken = (err: unknown): never => {
    if (released) throw closedError();
    if (err instanceof TrezorError) throw err;
    if (err instanceof OtherCallInProgress) throw new TrezorError('DEVICE_BUSY', 'Trezor Bridge is still busy with an earlier request on this session.', { cause: err });
    if (err instanceof WireFormatError) throw new TrezorError('DEVICE_ERROR', err.message, { cause: err });
    throw new TrezorError('DISCONNECTED', 'Trezor Bridge stopped answering.', { cause: err });
  };
  const tracked = async (path: string, body: string | undefined, timeoutMs: number | undefined): Promise<string> => {
    if (released) throw closedError();
    const controller = new AbortController();
    inFlight.add(controller);
    try {
      return await post(base, path, body, timeoutMs === undefined ? controller.signal : within(timeoutMs, controller.signal));
    } finally {
      inFlight.delete(controller);
    }
  };

  /**
   * trezord closes a session whose /read request goes away. Takes the device again for this app: free
   * now, or still under our old session (trezord has not noticed yet; taking it from ourselves is what
   * acquire's PREVIOUS is for). Anyone else holding it is not displaced.
   */
  const reacquire = async (): Promise<void> => {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (released) throw closedError();
      const now = (await enumerate(base, 2000)).find((d) => d.path === devicePath);
      if (!now) throw new TrezorError('DISCONNECTED', 'The Trezor was disconnected (Trezor Bridge).');
      if (now.session !== null && now.session !== rawSession) throw busyElsewhere();
      try {
        rawSession = await acquire(base, devicePath, now.session);
        session = encodeURIComponent(rawSession);
        return;
      } catch (err) {
        // The old session went away between enumerate and acquire: look again.
        if (!(err instanceof TrezorError && err.code === 'DEVICE_BUSY')) throw err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new TrezorError('DEVICE_BUSY', 'Trezor Bridge did not give the Trezor back after the Cancel.');
  };

  return {
    via: 'Trezor Bridge',
    write: async (msg) => {
      await tracked(`/post/${session}`, encodeBridgeHex(msg), 10_000).catch(broken);
    },
    /**
     * Cancel during a screen, while our /read waits. trezord since 2.0.29 takes a /post then, and the
     * pending read returns the device's answer. Older ones refuse it ("other call in progress", issue 36:
     * this read as "Another program holds the Trezor"): then the pending read is released, the device
     * taken again, and the message sent as a /call whose answer the released read returns.
     */
    interrupt: async (msg) => {
      try {
        await tracked(`/post/${session}`, encodeBridgeHex(msg), 10_000);
        return;
      } catch (err) {
        if (!(err instanceof OtherCallInProgress) || !pending) broken(err);
      }
      const waiting = pending!;
      waiting.released = true;
      pending = null;
      waiting.controller.abort();
      try {
        await reacquire();
        const answer = await tracked(`/call/${session}`, encodeBridgeHex(msg), undefined);
        waiting.resolve(decodeBridgeHex(answer.trim()));
      } catch (err) {
        try {
          broken(err);
        } catch (mapped) {
          waiting.reject(mapped);
          throw mapped;
        }
      }
    },
    // No timeout here: the answer may wait for the person at the device; the session bounds the steps
    // that need none, and Cancel is a message, not a timeout.
    read: () =>
      new Promise<WireMessage>((resolve, reject) => {
        if (released) return reject(closedError());
        const controller = new AbortController();
        const entry: PendingRead = { controller, released: false, resolve, reject };
        pending = entry;
        inFlight.add(controller);
        post(base, `/read/${session}`, undefined, controller.signal)
          .then(
            (text) => {
              if (entry.released) return;
              resolve(decodeBridgeHex(text.trim()));
            },
            (err: unknown) => {
              if (entry.released) return;
              broken(err);
            },
          )
          .catch((err: unknown) => {
            if (err instanceof WireFormatError) return reject(new TrezorError('DEVICE_ERROR', err.message, { cause: err }));
            reject(err);
          })
          .finally(() => {
            inFlight.delete(controller);
            if (pending === entry) pending = null;
          });
      }),
    close: async () => {
      if (released) return;
      released = true;
      for (const controller of inFlight) controller.abort();
      if (pending) {
        pending.released = true;
        pending.reject(closedError());
        pending = null;
      }
      await post(base, `/release/${session}`, undefined, AbortSignal.timeout(5000)).catch(() => undefined);
    },
  };
}
