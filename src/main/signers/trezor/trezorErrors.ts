/**
 * Typed Trezor failures. The device answers in protobuf Failure codes (messages-common.proto), the
 * transports in libusb, socket and HTTP errors; the user needs one sentence that says what to do. Every
 * failure of the Trezor signer leaves it as a TrezorError with a stable `code` the UI, the command line
 * and the services switch on, the original error kept as `cause`.
 */
import type { ClassifiedError, ErrorKind } from '../../../shared/errorKinds.js';
import { oneLineText } from '../../../shared/safeText.js';

export type TrezorErrorCode =
  /** No Trezor on USB, no Bridge device, or no emulator answering on the configured UDP port. */
  | 'NO_DEVICE'
  /** The PIN is needed and could not be given (no terminal, entry cancelled) or the device refused without it. */
  | 'DEVICE_LOCKED'
  /** The PIN typed was wrong (Failure_PinInvalid). */
  | 'PIN_INVALID'
  /** Bootloader mode, no seed, another flow under way: the device cannot sign now. */
  | 'WRONG_STATE'
  /** The firmware predates EIP-712 typed data (2.4.3 on touchscreen models, 1.10.5 on the Model One). */
  | 'FIRMWARE_TOO_OLD'
  /** Safe 7 (and later) speak only Trezor's encrypted host protocol (THP), which this app does not. */
  | 'UNSUPPORTED_MODEL'
  /** The user pressed reject (or cancel) on the device. */
  | 'REJECTED_ON_DEVICE'
  /** The user cancelled in the app; the cancel was sent to the device. */
  | 'CANCELLED'
  /** The user declined to sign by hashes (Model One) after seeing them. */
  | 'HASH_SIGNING_DECLINED'
  /** The device was unplugged, or the USB / Bridge / UDP link broke mid-exchange. */
  | 'DISCONNECTED'
  /** Another program (Trezor Suite, a second window) holds the device. */
  | 'DEVICE_BUSY'
  /** The device did not answer in time. */
  | 'TIMEOUT'
  /** The device derives another address at this path than the wallet the action is for. */
  | 'ADDRESS_MISMATCH'
  /** The signature does not recover the wallet. */
  | 'SIGNATURE_MISMATCH'
  /** The wallet signs custody actions only. */
  | 'NOT_A_CUSTODY_ACTION'
  /** A derivation path or transport setting that is not valid. */
  | 'INVALID_SETTING'
  /** A malformed message from the device, or any other Failure. */
  | 'DEVICE_ERROR';

const TRANSIENT: readonly TrezorErrorCode[] = ['NO_DEVICE', 'DEVICE_LOCKED', 'WRONG_STATE', 'DISCONNECTED', 'DEVICE_BUSY', 'TIMEOUT'];

const HINTS: Partial<Record<TrezorErrorCode, string>> = {
  NO_DEVICE:
    'Plug in the Trezor and unlock it. On Linux, install the Trezor udev rules (see the README). Trezor Bridge, when running, is used on 127.0.0.1:21325; the emulator is chosen with PERPS_TREZOR_TRANSPORT=udp:127.0.0.1:21324.',
  DEVICE_LOCKED: 'Unlock the Trezor: enter the PIN when asked (on the Model One, by positions on the matrix the device shows).',
  PIN_INVALID: 'The PIN was wrong. On the Model One, type the positions of your digits on the scrambled matrix the device shows, not the digits.',
  WRONG_STATE: 'Restart the Trezor (not in bootloader mode, with a seed), close Trezor Suite, and try again.',
  FIRMWARE_TOO_OLD: 'Update the Trezor firmware with Trezor Suite: typed-data signing needs 2.4.3 (Model T, Safe 3, Safe 5) or 1.10.5 (Model One).',
  UNSUPPORTED_MODEL: 'Trezor Safe 7 needs Trezor’s encrypted host protocol, which Perps Desk does not speak yet: use a keystore, a Ledger or the offline signer.',
  REJECTED_ON_DEVICE: 'Nothing was signed. Try again and approve on the device if the details match.',
  DEVICE_BUSY: 'Close Trezor Suite (or the other window using the Trezor) and try again.',
  DISCONNECTED: 'Reconnect the Trezor, unlock it and try again. Nothing was signed.',
};

export class TrezorError extends Error implements ClassifiedError {
  constructor(
    readonly code: TrezorErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TrezorError';
  }

  get errorKind(): ErrorKind {
    if (this.code === 'INVALID_SETTING') return 'validation';
    return TRANSIENT.includes(this.code) ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return `TREZOR_${this.code}`;
  }

  get errorHint(): string | undefined {
    return HINTS[this.code];
  }
}

/** Failure.FailureType values of messages-common.proto that the signer tells apart. */
export const FAILURE = {
  UnexpectedMessage: 1,
  DataError: 3,
  ActionCancelled: 4,
  PinExpected: 5,
  PinCancelled: 6,
  PinInvalid: 7,
  ProcessError: 9,
  NotInitialized: 11,
  Busy: 15,
  InvalidProtocol: 17,
} as const;

/** A device Failure message as a TrezorError; `cancelledByUs` says the app sent Cancel before it. */
export function failureToError(code: number | undefined, text: string | undefined, cancelledByUs: boolean): TrezorError {
  // The device's words reach a terminal and the app: one line, no control or bidi character (issue 36).
  const shown = text ? oneLineText(text).slice(0, 200) : '';
  const said = shown ? ` (device: "${shown}")` : '';
  switch (code) {
    case FAILURE.ActionCancelled:
    case FAILURE.PinCancelled:
      return cancelledByUs
        ? new TrezorError('CANCELLED', 'Signing was cancelled; the Trezor was told to stop. Nothing was signed.')
        : new TrezorError('REJECTED_ON_DEVICE', `The request was rejected on the Trezor; nothing was signed${said}.`);
    case FAILURE.PinInvalid:
      return new TrezorError('PIN_INVALID', `The Trezor refused the PIN${said}.`);
    case FAILURE.PinExpected:
      return new TrezorError('DEVICE_LOCKED', `The Trezor is locked and needs its PIN${said}.`);
    case FAILURE.NotInitialized:
      return new TrezorError('WRONG_STATE', `The Trezor has no seed yet: set it up in Trezor Suite first${said}.`);
    case FAILURE.UnexpectedMessage:
      return new TrezorError('WRONG_STATE', `The Trezor was in another flow and did not expect this request${said}.`);
    case FAILURE.Busy:
      return new TrezorError('DEVICE_BUSY', `The Trezor is busy${said}.`);
    case FAILURE.InvalidProtocol:
      return new TrezorError('UNSUPPORTED_MODEL', `The Trezor requires its encrypted host protocol (THP)${said}; Perps Desk cannot sign with it yet.`);
    default:
      return new TrezorError('DEVICE_ERROR', `The Trezor answered with failure ${code ?? '?'}${said}.`);
  }
}
