/**
 * Field schemas every boundary of the app shares (the IPC contract, order intents, the companion
 * channels): decimal text as people type it and as main sends it, addresses, market symbols. One
 * definition each, so a bound (64 characters for a decimal) is the same wherever input enters.
 */
import { z } from 'zod';

/** Longest decimal text accepted from any input: longer is never a price, size or amount. */
export const MAX_DECIMAL_INPUT_LENGTH = 64;

/** Decimal text as a person or the renderer types it: optional '-', digits, optional fraction. No exponent, no '+'. */
export const decimalIn = z
  .string()
  .max(MAX_DECIMAL_INPUT_LENGTH, `at most ${MAX_DECIMAL_INPUT_LENGTH} characters`)
  .regex(/^-?(\d+\.?\d*|\.\d+)$/, 'expected a decimal string such as "0.5" (no exponent, no "+")');
/** Decimal text as main sends it (the service's own strings, or canonical results). */
export const decimalOut = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'expected a decimal string');
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x address (40 hex characters)');
export const marketSymbol = z.string().min(1).max(32);
