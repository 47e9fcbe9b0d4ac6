/**
 * Typed vault errors. Each carries an action the user can take; none ever includes key material.
 * There is deliberately no plain-text fallback: if the keychain is missing, locked or refuses, signing
 * stops here with one of these.
 */
import type { ClassifiedError, ErrorKind } from '../../shared/errorKinds.js';

export type VaultErrorCode =
  | 'KEYCHAIN_UNAVAILABLE'
  | 'KEYCHAIN_LOCKED'
  | 'KEYCHAIN_DENIED'
  | 'KEYCHAIN_FAILED'
  | 'KEY_NOT_FOUND'
  | 'VAULT_CLOSED'
  | 'VALIDATION_ERROR';

const ACTIONS: Record<VaultErrorCode, string> = {
  KEYCHAIN_UNAVAILABLE:
    'No OS keychain is reachable. On Linux install libsecret and run a Secret Service (gnome-keyring or KWallet) in your desktop session; on macOS and Windows the system keychain must be available.',
  KEYCHAIN_LOCKED: 'The keychain is locked. Unlock it (log in to your desktop session or open your keyring manager), then try again.',
  KEYCHAIN_DENIED: 'The keychain refused access to Perps Desk. Allow access when the keychain asks, or check its access settings.',
  KEYCHAIN_FAILED: 'The keychain reported an error. Check that your keyring service is running and healthy.',
  KEY_NOT_FOUND:
    'This trading key is not in the keychain: it was deleted outside Perps Desk or created on another machine, or the keychain is locked (a locked Secret Service answers reads with nothing). Unlock the keychain and retry; otherwise create and authorize a new trading key.',
  VAULT_CLOSED: 'Quit Perps Desk and start it again normally: without debugging switches (--remote-debugging-port, --remote-debugging-pipe, --inspect) and with NODE_OPTIONS unset.',
  VALIDATION_ERROR: 'Check the values and try again.',
};

/** Locked or unreachable keychains may work in a moment; a refusal or a missing key will not. */
const TRANSIENT_CODES: readonly VaultErrorCode[] = ['KEYCHAIN_UNAVAILABLE', 'KEYCHAIN_LOCKED', 'KEYCHAIN_FAILED'];

export class VaultError extends Error implements ClassifiedError {
  readonly action: string;

  constructor(
    readonly code: VaultErrorCode,
    detail: string,
  ) {
    super(`${detail}. ${ACTIONS[code]}`);
    this.name = 'VaultError';
    this.action = ACTIONS[code];
  }

  get errorKind(): ErrorKind {
    if (this.code === 'VALIDATION_ERROR') return 'validation';
    return TRANSIENT_CODES.includes(this.code) ? 'transient' : 'rejected';
  }

  get errorCode(): string {
    return this.code;
  }

  get errorHint(): string {
    return this.action;
  }
}

/**
 * Maps a keytar/libsecret/Keychain/Credential Manager failure to a typed error. The texts matched here
 * are what the platform libraries report (D-Bus with no Secret Service, locked collections, a dismissed
 * prompt, macOS errSecAuthFailed / user canceled).
 */
export function classifyKeychainFailure(operation: string, err: unknown): VaultError {
  const text = err instanceof Error ? err.message : String(err);
  const detail = `Keychain ${operation} failed: ${text}`;
  if (/autolaunch D-Bus|Could not connect|was not provided by any \.service|ServiceUnknown|Failed to connect|No keychain|Cannot find module/i.test(text)) {
    return new VaultError('KEYCHAIN_UNAVAILABLE', detail);
  }
  if (/locked|unlock/i.test(text)) return new VaultError('KEYCHAIN_LOCKED', detail);
  if (/cancel|dismiss|denied|not allowed|authoriz|auth failed|-128|-25293|permission/i.test(text)) {
    return new VaultError('KEYCHAIN_DENIED', detail);
  }
  if (/d-?bus|secret service/i.test(text)) return new VaultError('KEYCHAIN_UNAVAILABLE', detail);
  return new VaultError('KEYCHAIN_FAILED', detail);
}
