/**
 * Typed Ledger failures. The device speaks in ISO 7816 status words (0x5515, 0x6985, ...) and the
 * transport in error classes of @ledgerhq/errors; the user needs one sentence that says what to do on
 * the device. Every failure of the Ledger signer leaves it as a LedgerError with a stable `code` the UI
 * and the services can switch on, the original error kept as `cause`.
 */

import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';
import { oneLineText } from '../../../shared/safeText.js';

/** Longest message a LedgerError carries: room for every sentence here and a library's detail. */
const MAX_MESSAGE = 500;

export type LedgerErrorCode =
  /** No Ledger is plugged in (or none this process may open). */
  | 'NO_DEVICE'
  /** The device is locked (PIN screen or screen saver): status 0x5515 (0x6982 on older firmware). */
  | 'DEVICE_LOCKED'
  /** The dashboard or another app is open: the app check saw another name, or 0x6E00 / 0x6D00 / 0x6511. */
  | 'ETH_APP_NOT_OPEN'
  /** The Ethereum app refused the hashed EIP-712 data: 0x6A80 (blind signing is off in its settings). */
  | 'BLIND_SIGNING_DISABLED'
  /** The user rejected on the device: 0x6985. */
  | 'REJECTED_ON_DEVICE'
  /** The user declined the blind-signing warning in the app; nothing was sent to the device. */
  | 'BLIND_SIGNING_DECLINED'
  /** The device was unplugged or the USB link broke. */
  | 'DISCONNECTED'
  /** The device did not answer in time (waiting for the user or unresponsive). */
  | 'TIMEOUT'
  /** Another operation holds the device (a second window, Ledger Live). */
  | 'DEVICE_BUSY'
  /** The device showed an address other than the one expected for this path. */
  | 'ADDRESS_MISMATCH'
  /** The signature the device returned does not recover the wallet: wrong device, account or data. */
  | 'SIGNATURE_MISMATCH'
  /** The main wallet signs only custody actions; anything else is refused before the device is asked. */
  | 'NOT_A_CUSTODY_ACTION'
  /** A derivation path outside the supported Ethereum schemes. */
  | 'INVALID_PATH'
  /** Any other status word or transport failure. */
  | 'DEVICE_ERROR';

/** The device may answer once the user acts (unlocks it, opens the app, plugs it in, closes Ledger Live). */
const TRANSIENT_CODES: readonly LedgerErrorCode[] = ['NO_DEVICE', 'DEVICE_LOCKED', 'ETH_APP_NOT_OPEN', 'DISCONNECTED', 'TIMEOUT', 'DEVICE_BUSY'];

export class LedgerError extends Error implements ClassifiedError {
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    options?: { cause?: unknown; statusCode?: number },
  ) {
    // Every Ledger failure reaches a terminal, a notification or the page, and may carry what a device or
    // its transport said (a library's message, an app name): made safe here, once, for all of them
    // (shared/safeText.ts: no control or bidi character, one line).
    super(oneLineText(message).slice(0, MAX_MESSAGE), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LedgerError';
    if (options?.statusCode !== undefined) this.statusCode = options.statusCode;
  }

  /** The device's status word when the failure came from one. */
  readonly statusCode?: number;

  get errorKind(): ErrorKind {
    if (this.code === 'INVALID_PATH') return 'validation';
    return TRANSIENT_CODES.includes(this.code) ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return this.code;
  }
}

/** Status words the code switches on. Named here once so every comparison reads as what it means. */
export const SW = {
  OK: 0x9000,
  LOCKED: 0x5515,
  SECURITY_STATUS_NOT_SATISFIED: 0x6982,
  DENIED: 0x6985,
  INCORRECT_DATA: 0x6a80,
  INCORRECT_P1_P2: 0x6b00,
  INS_NOT_SUPPORTED: 0x6d00,
  CLA_NOT_SUPPORTED: 0x6e00,
  CLA_NOT_SUPPORTED_BOOTLOADER: 0x6e01,
  /** Recent firmware, dashboard: "no app open" for an app APDU. */
  APP_NOT_OPEN: 0x6511,
  /** Recent firmware: the requested app is not installed. */
  APP_NOT_INSTALLED: 0x6807,
} as const;

export function statusHex(sw: number): string {
  return '0x' + sw.toString(16).toUpperCase().padStart(4, '0');
}

/** The status word of a TransportStatusError (or its LockedDeviceError child), if it is one. */
export function statusCodeOf(err: unknown): number | undefined {
  // Duck-typed on purpose: @ledgerhq/errors may be present in several copies (one per transport
  // package version), so `instanceof TransportStatusError` would miss errors thrown by another copy.
  if (typeof err === 'object' && err !== null && 'statusCode' in err) {
    const sc = (err as { statusCode: unknown }).statusCode;
    if (typeof sc === 'number') return sc;
  }
  return undefined;
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && 'name' in err && typeof (err as { name: unknown }).name === 'string' ? (err as { name: string }).name : '';
}

function errorId(err: unknown): string {
  return typeof err === 'object' && err !== null && 'id' in err && typeof (err as { id: unknown }).id === 'string' ? (err as { id: string }).id : '';
}

/** Which step failed: the same status word means different things at different steps. */
export type LedgerStep = 'open' | 'app-check' | 'get-address' | 'sign-clear' | 'sign-hashed';

const OPEN_ETH_APP = 'Open the Ethereum app on the Ledger (unlock it first), then try again.';

/**
 * Maps anything a transport or hw-app-eth throws to a LedgerError. A LedgerError passes through
 * unchanged, so callers can wrap whole sequences without double-wrapping.
 */
export function toLedgerError(err: unknown, step: LedgerStep): LedgerError {
  if (err instanceof LedgerError) return err;
  const sw = statusCodeOf(err);
  if (sw !== undefined) {
    const opts = { cause: err, statusCode: sw };
    switch (sw) {
      case SW.LOCKED:
      case SW.SECURITY_STATUS_NOT_SATISFIED:
        return new LedgerError('DEVICE_LOCKED', `The Ledger is locked (${statusHex(sw)}). Unlock it with your PIN and open the Ethereum app.`, opts);
      case SW.DENIED:
        return new LedgerError(
          'REJECTED_ON_DEVICE',
          step === 'get-address' ? 'The address was rejected on the Ledger.' : 'The signature was rejected on the Ledger; nothing was signed.',
          opts,
        );
      case SW.INCORRECT_DATA:
        return new LedgerError(
          'BLIND_SIGNING_DISABLED',
          step === 'sign-hashed' || step === 'sign-clear'
            ? `The Ethereum app refused the message (${statusHex(sw)}): turn on "Blind signing" in the Ethereum app's settings on the Ledger, then try again.`
            : `The Ethereum app refused the request as invalid data (${statusHex(sw)}).`,
          opts,
        );
      case SW.CLA_NOT_SUPPORTED:
      case SW.CLA_NOT_SUPPORTED_BOOTLOADER:
      case SW.APP_NOT_OPEN:
      case SW.APP_NOT_INSTALLED:
        return new LedgerError('ETH_APP_NOT_OPEN', `The Ethereum app is not open on the Ledger (${statusHex(sw)}). ${OPEN_ETH_APP}`, opts);
      case SW.INS_NOT_SUPPORTED:
        // At the app check or address step an unknown instruction means another app is answering.
        // During signing it means this Ethereum app lacks the instruction (handled by the caller's
        // fallback before it gets here); if it still reaches this point the app is too old.
        return step === 'sign-clear' || step === 'sign-hashed'
          ? new LedgerError('DEVICE_ERROR', `The Ethereum app does not support EIP-712 signing (${statusHex(sw)}): update it with Ledger Live.`, opts)
          : new LedgerError('ETH_APP_NOT_OPEN', `The open app does not understand Ethereum requests (${statusHex(sw)}). ${OPEN_ETH_APP}`, opts);
      default:
        return new LedgerError('DEVICE_ERROR', `The Ledger answered ${statusHex(sw)} during ${step}.`, opts);
    }
  }
  const name = errorName(err);
  if (name === 'DisconnectedDevice' || name === 'DisconnectedDeviceDuringOperation' || name === 'CantOpenDevice') {
    return new LedgerError('DISCONNECTED', 'The Ledger was disconnected. Plug it in, unlock it, open the Ethereum app and try again.', { cause: err });
  }
  if (name === 'TransportRaceCondition' || name === 'TransportLocked') {
    return new LedgerError('DEVICE_BUSY', 'The Ledger is busy with another request (is Ledger Live or another window using it?). Finish or cancel that first.', {
      cause: err,
    });
  }
  if (errorId(err) === 'NoDevice' || name === 'NoDevice') {
    return new LedgerError('NO_DEVICE', 'No Ledger found. Plug it in and unlock it.', { cause: err });
  }
  // The transport's or the app library's own words, which may quote the device: cleaned by LedgerError.
  const detail = err instanceof Error ? err.message : String(err);
  return new LedgerError('DEVICE_ERROR', `Ledger ${step} failed: ${detail.slice(0, 300)}`, { cause: err });
}
