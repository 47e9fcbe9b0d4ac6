/**
 * Field schemas every boundary of the app shares (the IPC contract, order intents, the companion
 * channels): decimal text as people type it and as main sends it, addresses, market symbols. One
 * definition each, so a bound (64 characters for a decimal) and the decimal grammar
 * (src/shared/decimal/decimal.ts) are the same wherever input enters.
 */
import { z } from 'zod';
import { MAX_DECIMAL_INPUT_LENGTH, SIGNED_DECIMAL_TEXT, decimalTextProblem, type DecimalTextOptions } from './decimal/decimal.js';
import { durationTextProblem } from './duration/duration.js';

export { MAX_DECIMAL_INPUT_LENGTH };

function decimalInput(options: DecimalTextOptions) {
  return z.string().superRefine((text, ctx) => {
    const problem = decimalTextProblem(text, options);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** Decimal text as a person or the renderer types it: the one grammar, unsigned. */
export const decimalIn = decimalInput({});
/** The same grammar with an optional '-', for the few fields that are signed (a margin adjustment). */
export const signedDecimalIn = decimalInput({ signed: true });
/** Decimal text as main sends it (the service's own strings, or canonical results). */
export const decimalOut = z.string().regex(SIGNED_DECIMAL_TEXT, 'expected a decimal string');
/** A span as a person types it (src/shared/duration/duration.ts): "90s", "30m", "1h30m". */
export const durationIn = z.string().superRefine((text, ctx) => {
  const problem = durationTextProblem(text);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x address (40 hex characters)');
export const marketSymbol = z.string().min(1).max(32);
