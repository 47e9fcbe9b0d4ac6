/**
 * USB access to Ledger devices. Everything that touches node-hid is loaded on first use, so a user who
 * never plugs in a Ledger never loads the native module (and a broken native build cannot stop the app
 * from starting).
 *
 * The Ledger packages are loaded with require, not import: their ES builds (lib-es, picked by the
 * "import" export condition) use extensionless relative imports that Node's ES module loader rejects,
 * and the main process leaves dependencies external, so Node resolves them at run time. The CommonJS
 * builds (lib/) load fine.
 */
import { createRequire } from 'node:module';
import type Transport from '@ledgerhq/hw-transport';
import { oneLineText } from '../../../shared/safeText.js';
import { LedgerError, toLedgerError } from './ledgerErrors.js';

export type LedgerTransport = Transport;

export interface LedgerDevice {
  /** The HID path to pass to openLedger; stable while the device stays plugged in. */
  readonly path: string;
}

interface NodeHidTransportClass {
  isSupported(): Promise<boolean>;
  list(): Promise<unknown[]>;
  open(path: string | null | undefined): Promise<Transport>;
}

const requireCjs = createRequire(import.meta.url);

/** CommonJS modules compiled from ES modules put the class on `.default`. */
export function cjsDefault<T>(mod: unknown): T {
  const m = mod as { default?: unknown; __esModule?: boolean };
  return (m && typeof m === 'object' && 'default' in m ? m.default : mod) as T;
}

let nodeHid: NodeHidTransportClass | undefined;

function loadNodeHid(): NodeHidTransportClass {
  if (!nodeHid) {
    try {
      nodeHid = cjsDefault<NodeHidTransportClass>(requireCjs('@ledgerhq/hw-transport-node-hid'));
    } catch (err) {
      throw new LedgerError('DEVICE_ERROR', 'USB access to Ledger devices is unavailable: the node-hid native module failed to load.', { cause: err });
    }
  }
  return nodeHid;
}

/** Ledger devices currently plugged in (USB HID). Does not open them. */
export async function listLedgerDevices(): Promise<LedgerDevice[]> {
  const hid = loadNodeHid();
  let paths: unknown[];
  try {
    paths = await hid.list();
  } catch (err) {
    throw toLedgerError(err, 'open');
  }
  return paths.filter((p): p is string => typeof p === 'string' && p.length > 0).map((path) => ({ path }));
}

/**
 * Opens one Ledger (the first one when no path is given). The caller owns the transport and closes it.
 * On Linux, a device that is listed but cannot be opened almost always lacks Ledger's udev rules.
 */
export async function openLedger(path?: string): Promise<LedgerTransport> {
  const hid = loadNodeHid();
  try {
    return await hid.open(path ?? null);
  } catch (err) {
    const mapped = toLedgerError(err, 'open');
    if (mapped.code === 'DEVICE_ERROR' && /cannot open/i.test(mapped.message)) {
      throw new LedgerError(
        'NO_DEVICE',
        process.platform === 'linux'
          ? "The Ledger is plugged in but cannot be opened: install Ledger's udev rules (see Ledger's support page for Linux), replug it and try again."
          : 'The Ledger is plugged in but cannot be opened: close Ledger Live or any other app using it and try again.',
        { cause: err },
      );
    }
    throw mapped;
  }
}

/**
 * Human name of the open device ("Ledger Nano X"), when the transport knows it. It labels the wallet in
 * the page and the tray: made safe like every device string (shared/safeText.ts).
 */
export function deviceName(transport: LedgerTransport): string {
  const name = transport.deviceModel?.productName;
  const shown = typeof name === 'string' ? oneLineText(name).trim().slice(0, 64) : '';
  return shown === '' ? 'Ledger' : shown;
}

/**
 * Runs one device operation with a deadline. A HID read has no timeout of its own and the device waits
 * for the user indefinitely, so on expiry the transport is closed: that is the only way to abort the
 * pending exchange (hw-app-eth keeps the transport locked until it settles). The caller must reopen the
 * device afterwards; the error says so.
 */
export async function withDeadline<T>(transport: LedgerTransport, ms: number, what: string, op: () => Promise<T>): Promise<T> {
  const message = `The Ledger did not answer within ${Math.round(ms / 1000)} s (${what}). Reconnect it and try again.`;
  let timer: NodeJS.Timeout | undefined;
  let expired: Promise<never> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = transport.close().then(
        () => {
          throw new LedgerError('TIMEOUT', message);
        },
        (closeErr: unknown) => {
          throw new LedgerError('TIMEOUT', message, { cause: closeErr });
        },
      );
      expired.then(undefined, reject);
    }, ms);
  });
  try {
    return await Promise.race([op(), deadline]);
  } catch (err) {
    // Closing the transport makes the pending exchange fail too (as a disconnection); the deadline is
    // the real cause, so report that instead.
    if (expired) return await expired;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
