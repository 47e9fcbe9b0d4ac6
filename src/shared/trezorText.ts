/**
 * The Trezor in people's words, for the app's screens: what the device is showing (from the firmware's
 * name of the screen in its ButtonRequest) and a title for each TREZOR_* error code. Pure, so the page
 * and its tests read the same words.
 */

/** A Map: the screen's name comes from the device, and must not reach Object.prototype's keys. */
const SCREENS = new Map<string, string>(Object.entries({
  show_address: 'Your Trezor shows the wallet address of this path. Note it and confirm on the device; the app then uses exactly that address.',
  confirm_address: 'Your Trezor shows the signing address. Check it is your main wallet, then confirm.',
  should_show_struct: 'Your Trezor asks whether to show the full message. Choose to show it, and check every field.',
  confirm_typed_value: 'Your Trezor shows the action’s fields one by one. Check each against the review here, then confirm.',
  confirm_typed_data_final: 'Your Trezor asks you to sign. Confirm only if every field matched; reject on the device otherwise.',
  confirm_domain_hash: 'Your Trezor shows the domain hash. Compare it with the one the app showed you.',
  confirm_message_hash: 'Your Trezor shows the message hash. Compare it with the one the app showed you.',
  pin_device: 'Enter your PIN on the Trezor.',
  passphrase_device: 'Type your passphrase on the Trezor.',
}));

/** What to tell the person while the device shows the screen `name` (null: the firmware did not say). */
export function trezorScreenText(name: string | null): string {
  return (name !== null ? SCREENS.get(name) : undefined) ?? 'Your Trezor is waiting for you: follow its screen and confirm there.';
}

const ERROR_TITLES = new Map<string, string>(Object.entries({
  TREZOR_REJECTED_ON_DEVICE: 'Rejected on your Trezor',
  TREZOR_CANCELLED: 'Cancelled — your Trezor was told to stop',
  TREZOR_DEVICE_LOCKED: 'Your Trezor is locked',
  TREZOR_PIN_INVALID: 'Wrong PIN',
  TREZOR_NO_DEVICE: 'No Trezor found',
  TREZOR_FIRMWARE_TOO_OLD: 'Trezor firmware too old',
  TREZOR_UNSUPPORTED_MODEL: 'This Trezor model is not supported yet',
  TREZOR_DISCONNECTED: 'Trezor disconnected',
  TREZOR_WRONG_STATE: 'Your Trezor is not ready',
  TREZOR_DEVICE_BUSY: 'Your Trezor is busy',
  TREZOR_TIMEOUT: 'Your Trezor did not answer in time',
  TREZOR_ADDRESS_MISMATCH: 'Another wallet is open on your Trezor',
  TREZOR_HASH_SIGNING_DECLINED: 'Signing by hashes declined',
}));

/** A heading for a TREZOR_* error, or null for any other code. */
export function trezorErrorTitle(code: string): string | null {
  return ERROR_TITLES.get(code) ?? null;
}

/** The PIN matrix's positions as the device lays them out, row by row (a numeric keypad). */
export const PIN_MATRIX_ROWS = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
] as const;
