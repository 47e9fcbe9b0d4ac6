/**
 * Splitting a UR into the parts of an animated QR code. A typed-data request is a few hundred bytes of
 * CBOR, more than one QR code a phone camera reads reliably, so it is fountain-encoded (bc-ur): parts
 * 1..N carry the N fragments, later parts are XOR mixes of random fragment subsets. With mixes in the
 * loop, a scanner that missed a frame can still finish from the frames it sees next, in any order,
 * instead of waiting for the same frame to come round again.
 */
import type { RegistryItem } from '@keystonehq/bc-ur-registry-eth';

/** Bytes of CBOR per fragment: small enough for a dense but readable QR code (Keystone's apps use 200-400). */
export const DEFAULT_MAX_FRAGMENT_LENGTH = 200;

/** A comfortable frame rate for phone and device cameras. */
export const RECOMMENDED_FRAME_INTERVAL_MS = 250;

export interface UrPartsOptions {
  maxFragmentLength?: number;
  /**
   * How many parts to produce for a multi-part UR. Default: twice the fragment count (the pure
   * fragments, then as many fountain mixes). A UR that fits one fragment is always one part.
   */
  count?: number;
}

/** The UR part strings ("ur:type/seq-n/body" or "ur:type/body"), lowercase as bc-ur emits them. */
export function urParts(item: RegistryItem, options: UrPartsOptions = {}): string[] {
  const maxFragmentLength = options.maxFragmentLength ?? DEFAULT_MAX_FRAGMENT_LENGTH;
  if (!Number.isSafeInteger(maxFragmentLength) || maxFragmentLength < 10) throw new RangeError('maxFragmentLength must be an integer of at least 10');
  const encoder = item.toUREncoder(maxFragmentLength);
  const fragments = encoder.fragmentsLength;
  if (fragments === 1) return [encoder.nextPart()];
  const count = options.count ?? fragments * 2;
  if (!Number.isSafeInteger(count) || count < fragments) throw new RangeError(`count must be at least the fragment count (${fragments})`);
  return Array.from({ length: count }, () => encoder.nextPart());
}

/**
 * The form to put in a QR code: uppercase, which QR encodes in its denser alphanumeric mode (bc-ur's
 * minimal bytewords, the "ur:" prefix, digits, "/" and "-" are all in that alphabet). UR is
 * case-insensitive, so decoders accept either case.
 */
export function qrText(part: string): string {
  return part.toUpperCase();
}
