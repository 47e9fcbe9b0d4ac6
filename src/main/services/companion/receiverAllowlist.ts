/**
 * The receiver allowlist of a profile: the addresses other than the connected main wallet that the app's
 * bridges and swaps may deliver to. Bridge and swap requests come from the renderer, which main does not
 * trust: without this list, a page that was tampered with could quote a transfer to any address and have
 * main sign it. So main delivers only to the main wallet or to an address on this list, and the list is
 * changed only by main (the companion:*Receiver channels, with a two-step confirmation in the app).
 *
 * Stored as settings (addresses are not secrets) under `companion.<profile>.receivers`. A stored list that
 * does not parse is an error, never read as empty or partly: the user sees what is wrong and where.
 */
import { z } from 'zod';
import { sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import { OperationError, ValidationError } from '../errors.js';
import type { ResolveInput } from './companionSettings.js';

/** More than this is not an allowlist any more; each entry is one the user confirmed by hand. */
export const MAX_RECEIVERS = 32;
export const MAX_RECEIVER_LABEL = 48;

export interface AllowedReceiver {
  /** EIP-55 checksummed. */
  address: string;
  label: string;
  /** Unix ms. */
  addedAt: number;
}

const StoredSchema = z.array(
  z.strictObject({
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    label: z.string().min(1).max(MAX_RECEIVER_LABEL),
    added_at: z.number().int().nonnegative(),
  }),
);

function settingsKey(input: ResolveInput): string {
  return `companion.${input.profile.name}.receivers`;
}

/** The profile's allowlist, oldest first. */
export function listReceivers(input: ResolveInput): AllowedReceiver[] {
  const key = settingsKey(input);
  const raw = input.settings.get(key);
  if (raw === undefined) return [];
  const parsed = StoredSchema.safeParse(raw);
  if (!parsed.success) {
    throw new OperationError('RECEIVERS_UNREADABLE', `the receiver allowlist stored under ${key} is not in the expected shape`, {
      hint: `Fix or remove the ${key} entry of the settings file (${input.settings.path}); until then only the main wallet can receive.`,
    });
  }
  return parsed.data.map((r) => ({ address: toChecksumAddress(r.address, key), label: r.label, addedAt: r.added_at }));
}

/** The entry for `address`, if the user allowed it. */
export function findReceiver(input: ResolveInput, address: string): AllowedReceiver | undefined {
  return listReceivers(input).find((r) => sameAddress(r.address, address));
}

/** A label as stored: trimmed, one line, 1 to 48 characters. */
export function parseReceiverLabel(value: string, field = 'label'): string {
  const label = value.trim();
  if (label === '') throw new ValidationError('is required (a name that says whose address this is)', { field });
  if (label.length > MAX_RECEIVER_LABEL) throw new ValidationError(`is at most ${MAX_RECEIVER_LABEL} characters`, { field });
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(label)) throw new ValidationError('must be one line of text', { field });
  return label;
}

/**
 * Checks that `address` may be added: a valid address, not the main wallet (which needs no entry), not
 * already listed, and the list not full. Returns the checksummed address and label; stores nothing.
 */
export function checkNewReceiver(input: ResolveInput, req: { address: string; label: string }, wallet: string | null): { address: string; label: string } {
  const address = toChecksumAddress(req.address.trim(), 'address');
  const label = parseReceiverLabel(req.label);
  if (wallet !== null && sameAddress(address, wallet)) {
    throw new ValidationError('is your main wallet, which always receives: it needs no allowlist entry', { field: 'address', code: 'RECEIVER_IS_WALLET' });
  }
  const list = listReceivers(input);
  const known = list.find((r) => sameAddress(r.address, address));
  if (known) throw new ValidationError(`is already on the allowlist as '${known.label}'`, { field: 'address', code: 'RECEIVER_EXISTS' });
  if (list.length >= MAX_RECEIVERS) {
    throw new ValidationError(`the allowlist holds at most ${MAX_RECEIVERS} addresses`, { field: 'address', code: 'RECEIVERS_FULL', hint: 'Remove one you no longer send to first.' });
  }
  return { address, label };
}

/** Adds a receiver (checked again: the list may have changed since the confirmation began). */
export function addReceiver(input: ResolveInput, req: { address: string; label: string }, wallet: string | null, now: number): AllowedReceiver[] {
  const entry = checkNewReceiver(input, req, wallet);
  const list = [...listReceivers(input), { ...entry, addedAt: now }];
  store(input, list);
  return list;
}

/** Removes a receiver; one that is not listed is an error (the page's list was out of date). */
export function removeReceiver(input: ResolveInput, address: string): AllowedReceiver[] {
  const target = toChecksumAddress(address.trim(), 'address');
  const list = listReceivers(input);
  const rest = list.filter((r) => !sameAddress(r.address, target));
  if (rest.length === list.length) throw new ValidationError('is not on the allowlist', { field: 'address', code: 'RECEIVER_UNKNOWN' });
  store(input, rest);
  return rest;
}

/**
 * The rule every bridge and swap quote goes through: delivering to the main wallet is always allowed;
 * to any other address only when it is on the allowlist. Returns the checksummed receiver.
 */
export function requireAllowedReceiver(input: ResolveInput, wallet: string, receiver: string): string {
  const address = toChecksumAddress(receiver.trim(), 'receiver');
  if (sameAddress(address, wallet) || findReceiver(input, address) !== undefined) return address;
  throw new ValidationError(`${address} is not your main wallet and not on the receiver allowlist`, {
    field: 'receiver',
    code: 'RECEIVER_NOT_ALLOWED',
    hint: 'Add it in Settings › Companion services › Receivers first: transfers to it leave your wallet. Nothing was quoted, signed or sent.',
  });
}

function store(input: ResolveInput, list: AllowedReceiver[]): void {
  input.settings.set(
    settingsKey(input),
    list.map((r) => ({ address: r.address, label: r.label, added_at: r.addedAt })),
  );
}
