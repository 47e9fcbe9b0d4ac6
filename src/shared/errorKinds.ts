/**
 * The one error taxonomy of the app and the command line. Every failure a user can see has a stable
 * `code` and one of four kinds, and every front end derives its behaviour from the kind alone:
 *  - validation: the input was refused before anything was signed or sent (command line exit 2); fix the
 *    input and try again;
 *  - rejected: the service, the keychain, a device or a person said no (exit 1); repeating it unchanged
 *    gets the same answer;
 *  - transient: no usable answer (network, timeout, a 5xx, a locked keychain or device); the same request
 *    may work later, but check the state before repeating a write;
 *  - internal: a bug of this program; the details go to the log, the user gets a generic message.
 *
 * Errors of the lower layers (HTTP clients, keychain, signers, decimals) carry `errorKind` and `errorCode`
 * (ClassifiedError) so the services turn any of them into an AppError without knowing their classes.
 */
export const ERROR_KINDS = ['validation', 'rejected', 'transient', 'internal'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** What a lower-layer error class exposes so it can become an AppError. */
export interface ClassifiedError {
  readonly errorKind: ErrorKind;
  readonly errorCode: string;
  /** What to do about it, when the class knows better than a table keyed by code. */
  readonly errorHint?: string | undefined;
}

export function isClassifiedError(err: unknown): err is Error & ClassifiedError {
  if (!(err instanceof Error)) return false;
  const e = err as Partial<ClassifiedError>;
  return typeof e.errorCode === 'string' && typeof e.errorKind === 'string' && (ERROR_KINDS as readonly string[]).includes(e.errorKind);
}

/** Command-line exit code of a kind: 2 for input refused before anything happened, 1 otherwise. */
export function exitCodeOf(kind: ErrorKind): 1 | 2 {
  return kind === 'validation' ? 2 : 1;
}

/**
 * A refusal by a pure input rule (a decimal, a duration, an address, a ladder, a schedule, an alert, a
 * trailing distance): a validation error with its code, the field it names and, where the rule knows
 * better than a table, what to do. Each rule's class extends this for its name alone.
 */
export class InputRuleError extends Error implements ClassifiedError {
  readonly errorKind = 'validation' as const;
  constructor(
    readonly errorCode: string,
    readonly field: string | undefined,
    message: string,
    readonly errorHint?: string,
  ) {
    super(message);
  }
}

/** The message of a refusal that names its field first ("size: ..."), as the grammar errors do. */
export function fieldMessage(field: string | undefined, message: string): string {
  return field ? `${field}: ${message}` : message;
}
