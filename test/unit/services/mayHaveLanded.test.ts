/**
 * Whether a failed signed write may have reached the book is decided by the error's kind alone
 * (src/main/services/algos/engine/mayHaveLanded.ts), never by its code or message: the runners once
 * named SUBMIT_UNCONFIRMED and MODIFY_UNCONFIRMED as exceptions to "rejected", and a code string is what
 * drifts. Property: for every kind and ANY code and message, from any error shape the services meet (an
 * AppError, a lower-layer classified error), the outcome is the kind's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHaveLanded, refusedOutright, writeOutcome, type WriteOutcome } from '../../../src/main/services/algos/engine/mayHaveLanded.js';
import { AppError } from '../../../src/main/services/errors.js';
import { ERROR_KINDS, type ErrorKind } from '../../../src/shared/errorKinds.js';

const BY_KIND: Record<ErrorKind, WriteOutcome> = { validation: 'refused', rejected: 'refused', transient: 'may_have_landed', internal: 'bug' };

/** Codes that once steered the decision, among any others. */
const code = fc.oneof(fc.constantFrom('SUBMIT_UNCONFIRMED', 'MODIFY_UNCONFIRMED', 'LANDED_RESULT_UNKNOWN', 'CANCEL_UNCONFIRMED', 'REJECTED', 'INTERNAL', ''), fc.string());

class Classified extends Error {
  constructor(
    readonly errorKind: ErrorKind,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** A thrown value that can be put in words (one whose own toString throws is no error any code throws). */
function printable(v: unknown): boolean {
  try {
    String(v);
    return true;
  } catch {
    return false;
  }
}

describe('writeOutcome', () => {
  it('depends on the kind only: every kind, any code, any message, an AppError or a classified lower-layer error', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ERROR_KINDS), code, fc.string(), fc.boolean(), (kind, c, message, lower) => {
        const err = lower ? new Classified(kind, c === '' ? 'X' : c, message) : new AppError(c, kind, message);
        const outcome = writeOutcome(err);
        expect(outcome).toBe(BY_KIND[kind]);
        expect(mayHaveLanded(err)).toBe(outcome === 'may_have_landed');
        expect(refusedOutright(err)).toBe(outcome === 'refused');
      }),
      { numRuns: 500 },
    );
  });

  it('two errors of one kind never differ, whatever their codes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ERROR_KINDS), code, code, (kind, a, b) => {
        expect(writeOutcome(new AppError(a, kind, 'a'))).toBe(writeOutcome(new AppError(b, kind, 'b')));
      }),
    );
  });

  it('something that is no classified error at all is a bug, never a guess that it landed or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string().map((m) => new Error(m)), fc.anything().filter(printable)), (thrown) => {
        expect(writeOutcome(thrown)).toBe('bug');
      }),
    );
  });
});
