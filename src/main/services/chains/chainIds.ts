/**
 * The spec's chain and protocol ids (Bridge API > Chain ids, Protocol ids) and the input rules for chain
 * ids, tokens and amounts shared by the bridge, swap and points services. Every check here runs before any
 * request is sent, so a typo is a ValidationError (exit 2) with nothing signed or sent.
 */
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../shared/protocol/index.js';
import { isAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import { Decimal } from '../../../shared/decimal/index.js';
import { decimalInput } from '../decimalInput.js';
import { ValidationError } from '../errors.js';
import { BRIDGE_CHAIN_IDS, BRIDGE_PROTOCOL_IDS, type BridgeChainId, type BridgeProtocolId } from '../../../shared/protocol/index.js';

// The spec's vocabulary lives in src/shared; these names are what the companion services use.
export const SPEC_CHAIN_IDS = BRIDGE_CHAIN_IDS;
export type SpecChainId = BridgeChainId;
export const PROTOCOL_IDS = BRIDGE_PROTOCOL_IDS;
export type ProtocolId = BridgeProtocolId;

/** The venue's EVM chain and its native spot layer (the core-spot chain, which has no EVM RPC). */
export const VENUE_EVM = 'venue_evm';
export const VENUE_CORE = 'venue_core';

/**
 * EIP-155 ids of the EVM chains the spec names. These are public network constants, not live
 * configuration: they let a send refuse an RPC URL that serves another chain than the one it was set for
 * (a transaction for a router on one chain must never be signed for another).
 */
export const EVM_CHAIN_IDS: Readonly<Record<string, bigint>> = {
  ethereum: 1n,
  arbitrum: 42161n,
  optimism: 10n,
  base: 8453n,
  unichain: 130n,
  flare: 14n,
  plasma: 9745n,
  venue_evm: 999n,
};

/** Symbols of those chains' gas tokens (public network constants too), to name the native placeholder. */
export const NATIVE_SYMBOLS: Readonly<Record<string, string>> = {
  ethereum: 'ETH',
  arbitrum: 'ETH',
  optimism: 'ETH',
  base: 'ETH',
  unichain: 'ETH',
  flare: 'FLR',
  plasma: 'XPL',
  venue_evm: 'HYPE',
};

const CHAIN_ID_FORMAT = /^[a-z][a-z0-9_]*$/;
const VENUE_TOKEN_ID = /^0x[0-9a-fA-F]{32}$/;
const INTEGER = /^(0|[1-9]\d*)$/;

/**
 * A chain id as the service expects it: lowercase. Ids outside the spec's list still go to the service
 * (it may know more chains than the spec lists) and come back as `chain not found` if it does not.
 */
export function parseChainId(value: string | undefined, field: string): string {
  const v = value?.trim() ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  if (!CHAIN_ID_FORMAT.test(v)) {
    throw new ValidationError(`'${v}' is not a chain id: chain ids are lowercase`, { field, hint: `Use one of: ${SPEC_CHAIN_IDS.join(', ')}.` });
  }
  return v;
}

/** An EVM chain (one with an RPC and transactions): venue_core is the spot layer, not an EVM chain. */
export function parseEvmChainId(value: string | undefined, field: string): string {
  const chain = parseChainId(value, field);
  if (chain === VENUE_CORE) throw new ValidationError(`${VENUE_CORE} is the venue's spot layer, not an EVM chain: nothing can be sent there directly`, { field });
  return chain;
}

export function isVenueTokenId(value: string): boolean {
  return VENUE_TOKEN_ID.test(value);
}

/**
 * A token on `chain`: `native` (or the placeholder itself) for the gas token, an address otherwise, and on
 * venue_core a venue spot token id (0x + 32 hex, from the venue's spot metadata).
 */
export function parseTokenRef(value: string | undefined, chain: string, field: string): string {
  const v = value?.trim() ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  if (chain === VENUE_CORE) {
    if (!isVenueTokenId(v)) {
      throw new ValidationError(`'${v}' is not a venue token id: on ${VENUE_CORE} the token is an id from the venue's spot metadata (0x + 32 hex)`, { field });
    }
    return v.toLowerCase();
  }
  if (v.toLowerCase() === 'native' || v.toLowerCase() === NATIVE_TOKEN_PLACEHOLDER.toLowerCase()) return NATIVE_TOKEN_PLACEHOLDER;
  if (!isAddress(v)) throw new ValidationError(`'${v}' is not a token address (or 'native' for the gas token)`, { field });
  return toChecksumAddress(v, field);
}

export function isNativeToken(token: string): boolean {
  return token.toLowerCase() === NATIVE_TOKEN_PLACEHOLDER.toLowerCase();
}

export function parseWallet(value: string | undefined, field: string): string {
  const v = value?.trim() ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  if (!isAddress(v)) throw new ValidationError(`'${v}' is not an address`, { field });
  return toChecksumAddress(v, field);
}

/**
 * A positive amount in the token's smallest unit as an integer string. With `decimals`, `value` may be a
 * decimal in whole tokens instead (1.5 with 18 decimals), converted exactly; more places than the token
 * has are refused rather than rounded.
 */
export function parseUnits(value: string | undefined, field: string, decimals?: number): string {
  const v = value ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  let units: string;
  if (decimals === undefined) {
    if (!INTEGER.test(v)) throw new ValidationError(`'${v}' is not an integer amount in the token's smallest unit (give --decimals to use whole tokens)`, { field });
    units = v;
  } else {
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) throw new ValidationError(`decimals must be an integer from 0 to 36, got ${decimals}`, { field: 'decimals' });
    const d = decimalInput(v, field);
    const scaled = d.mul(new Decimal(10).pow(decimals));
    if (!scaled.isInteger()) throw new ValidationError(`'${v}' has more than ${decimals} decimal places`, { field });
    units = scaled.toFixed(0);
  }
  if (BigInt(units) <= 0n) throw new ValidationError('must be greater than 0', { field });
  return units;
}

/** A non-negative USD value as a decimal string (never a float). */
export function parseUsd(value: string | undefined, field: string): string {
  const v = value ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  const d = decimalInput(v, field);
  if (d.isNegative()) throw new ValidationError('must not be negative', { field });
  return d.toFixed();
}

/** A partner code as given (an identifier handed out to a partner: matched exactly, never rewritten). */
export function parsePartnerCode(value: string | undefined, field: string): string {
  const v = value?.trim() ?? '';
  if (v === '') throw new ValidationError('is required', { field });
  if (/\s/.test(v)) throw new ValidationError(`'${v}' is not a partner code (no spaces)`, { field });
  return v;
}
