/**
 * Field-level schemas every resource uses. Error messages name what was expected so that a decode
 * failure reads as "orders[0].limit_price: expected a decimal string".
 */
import { z } from 'zod';
import { isCanonicalDecimal, isDecimalString, parseDecimal } from '../../decimal/decimal.js';
import { isAddress } from '../../identity/address.js';

/** Decimal text as the wire carries it (server responses may have trailing zeros). */
export const decimalString = z.string().refine(isDecimalString, { message: 'expected a decimal string' });

/** Strictly positive decimal text (tick sizes). */
export const positiveDecimalString = decimalString.refine((s) => parseDecimal(s).gt(0), { message: 'must be positive' });

/** Canonical decimal text: what requests send and sign (no trailing zeros, no exponent, no '+'). */
export const canonicalDecimal = z.string().refine(isCanonicalDecimal, {
  message: 'expected a canonical decimal string (no trailing zeros, no exponent, no "+")',
});

/** Non-negative canonical decimal (prices and sizes). */
export const canonicalUnsignedDecimal = canonicalDecimal.refine((s) => !s.startsWith('-'), { message: 'must not be negative' });

/** Integer strings (bridge amounts in smallest units). */
export const integerString = z.string().regex(/^(0|[1-9]\d*)$/, 'expected an integer string');

export const address = z.string().refine(isAddress, { message: 'expected a 0x address with a valid checksum' });

/** bytes32 account id: lowercase wallet followed by 24 hex zeros (subaccount 0 only). */
export const accountId = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}0{22}00$/, 'expected an account_id: 0x + wallet + 24 hex zeros (subaccount 0)');

export const unixMs = z.number().int('expected an integer Unix ms').nonnegative();

/** Nonce sent as a string of a Unix-ms integer. */
export const nonceString = z.string().regex(/^[1-9]\d*$/, 'expected a nonce: a positive integer as a string');
/** Nonce sent as a JSON integer. */
export const nonceNumber = z.number().int('expected an integer nonce').positive().max(Number.MAX_SAFE_INTEGER);

export const signatureHex = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte hex signature');

export const splitSignatureSchema = z.object({
  r: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32-byte hex'),
  s: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32-byte hex'),
  v: z.union([z.literal(27), z.literal(28)]),
});

/** Unknown future reason codes must parse: reasons are open-ended text. */
export const reason = z.string();
