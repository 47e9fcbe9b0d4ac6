/**
 * Which app is open on the Ledger. Asked before every operation: an Ethereum request sent to the
 * dashboard or to another app fails with a status word that reads like a bug (0x6E00, 0x6D00), while
 * this check can say "open the Ethereum app".
 *
 * GET APP AND VERSION (CLA 0xB0, INS 0x01) is answered by the OS for whatever app is open, including the
 * dashboard (which calls itself "BOLOS"), so it works whichever app the user left open.
 */
import { oneLineText } from '../../../shared/safeText.js';
import { LedgerError, toLedgerError } from './ledgerErrors.js';
import type { LedgerTransport } from './transport.js';

export const ETHEREUM_APP_NAME = 'Ethereum';
const DASHBOARD_NAME = 'BOLOS';

export interface LedgerAppInfo {
  /** The app's name as a person may read it: no control or bidi character (shared/safeText.ts), at most 32 characters. */
  readonly name: string;
  /** The app's version, made safe the same way (it reaches a terminal: "Ledger: Ethereum app 1.13.1 is open"). */
  readonly version: string;
  /** The name exactly as the device sent it was `name` (nothing removed or cut): only then can it be the Ethereum app. */
  readonly nameIsExact: boolean;
}

/** Longest app name or version shown: the OS's own are far shorter. */
const MAX_SHOWN = 32;

/** The APDU: B0 01 00 00, no data. */
export const GET_APP_AND_VERSION = { cla: 0xb0, ins: 0x01, p1: 0x00, p2: 0x00 } as const;

/**
 * Parses the answer (without the status word): format byte 0x01, then name length and name, then
 * version length and version (then flags, which are not needed). Name and version come from the device
 * and reach a terminal, a notification or the page: ESC, OSC, C1 (0x9B is CSI to an 8-bit terminal) and
 * bidi characters are removed here, once, through shared/safeText.ts (issue 36).
 */
export function parseAppAndVersion(data: Uint8Array): LedgerAppInfo {
  const ascii = (from: number, len: number): string => String.fromCharCode(...data.subarray(from, from + len));
  if (data.length < 3 || data[0] !== 0x01) throw new LedgerError('DEVICE_ERROR', 'The Ledger answered the app check in an unknown format.');
  const nameLen = data[1]!;
  const versionAt = 2 + nameLen;
  if (versionAt >= data.length) throw new LedgerError('DEVICE_ERROR', 'The Ledger answered the app check with a truncated name.');
  const versionLen = data[versionAt]!;
  if (versionAt + 1 + versionLen > data.length) throw new LedgerError('DEVICE_ERROR', 'The Ledger answered the app check with a truncated version.');
  const rawName = ascii(2, nameLen);
  const name = oneLineText(rawName).slice(0, MAX_SHOWN);
  return { name, version: oneLineText(ascii(versionAt + 1, versionLen)).slice(0, MAX_SHOWN), nameIsExact: name === rawName };
}

export async function getAppAndVersion(transport: LedgerTransport): Promise<LedgerAppInfo> {
  let answer: Buffer;
  try {
    answer = await transport.send(GET_APP_AND_VERSION.cla, GET_APP_AND_VERSION.ins, GET_APP_AND_VERSION.p1, GET_APP_AND_VERSION.p2);
  } catch (err) {
    throw toLedgerError(err, 'app-check');
  }
  // transport.send has already checked the status word (0x9000) and leaves it on the end.
  return parseAppAndVersion(answer.subarray(0, answer.length - 2));
}

/** Resolves with the app info when the Ethereum app is open; otherwise a typed error saying what to do. */
export async function assertEthereumApp(transport: LedgerTransport): Promise<LedgerAppInfo> {
  const app = await getAppAndVersion(transport);
  // Compared as the device sent it: "Eth\x1bereum" is not the Ethereum app, even though it reads so once cleaned.
  if (app.nameIsExact && app.name === ETHEREUM_APP_NAME) return app;
  if (app.nameIsExact && app.name === DASHBOARD_NAME) {
    throw new LedgerError('ETH_APP_NOT_OPEN', 'The Ledger is on its dashboard: open the Ethereum app on the device, then try again.');
  }
  // The name is already safe to show (parseAppAndVersion); one the device sent with hidden characters says so.
  const shown = app.name === '' ? 'unnamed' : app.name;
  throw new LedgerError('ETH_APP_NOT_OPEN', `The ${shown}${app.nameIsExact ? '' : ' (named with hidden characters)'} app is open on the Ledger: quit it, open the Ethereum app, then try again.`);
}
