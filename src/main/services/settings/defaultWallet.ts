/**
 * The command line's default wallet, one per profile (`perps config wallet ADDR`; `perps quickstart`
 * offers to set it): the main wallet a command acts for when it is given no --wallet. Stored in the data
 * folder's settings as a checksummed address; a stored value that is not an address is ignored (read as
 * no default), never used, so a hand-edited file cannot make a command act for a wallet nobody chose.
 */
import { isAddress, toChecksumAddress } from '../../../shared/identity/address.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { ValidationError } from '../errors.js';

/** One key for every profile: { [profile name]: address }. No dots in the key (the store reads them as paths). */
const SETTING = 'cli_default_wallets';

function stored(store: SettingsStore): Record<string, unknown> {
  const v = store.get(SETTING);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The profile's default wallet (checksummed), or null when none is set or the stored value is not an address. */
export function readDefaultWallet(store: SettingsStore, profile: string): string | null {
  const v = stored(store)[profile];
  return isAddress(v) ? toChecksumAddress(v) : null;
}

/** Sets the profile's default wallet; a value that is not an address is refused (ValidationError) and nothing is stored. */
export function setDefaultWallet(store: SettingsStore, profile: string, address: string): string {
  if (!isAddress(address)) throw new ValidationError(`'${address}' is not a wallet address`, { field: 'address', hint: 'Pass the main wallet address (0x followed by 40 hex characters).' });
  const wallet = toChecksumAddress(address);
  store.set(SETTING, { ...stored(store), [profile]: wallet });
  return wallet;
}

export function clearDefaultWallet(store: SettingsStore, profile: string): void {
  const rest = { ...stored(store) };
  delete rest[profile];
  store.set(SETTING, rest);
}
