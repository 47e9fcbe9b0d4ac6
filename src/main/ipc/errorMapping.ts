/**
 * Any thrown value to the IpcError the renderer receives, derived from the AppError's kind alone:
 *  - validation: code VALIDATION, with `field` and the specific rule (UNKNOWN_MARKET, BELOW_MIN,
 *    PROFILE_NOT_CONFIGURED, ...) in `reason`;
 *  - rejected and transient: the error's own code (the service's, the keychain's, the device's...), its
 *    hint and HTTP status, and the kind, so the page knows whether trying again can help;
 *  - internal: a generic message. An unexpected error's text may describe internals (paths, values), so
 *    it goes to main's log (name and message only), never to the page.
 */
import type { IpcError } from '../../shared/ipc.js';
import { toAppError } from '../services/errors.js';

export interface ErrorLogger {
  error(message: string): void;
}

/** The code every input error carries over IPC; the rule itself is in `reason`. */
const VALIDATION = 'VALIDATION';
/** The code of an input error that names no rule of its own. */
const GENERIC_VALIDATION_CODE = 'VALIDATION_ERROR';

export function toIpcError(err: unknown, context: string, logger: ErrorLogger = console): IpcError {
  const e = toAppError(err);
  if (e.kind === 'internal') {
    const original = err as { name?: unknown; message?: unknown } | null;
    logger.error(`[ipc] ${context} failed unexpectedly: ${typeof original?.name === 'string' ? original.name : 'Error'}: ${typeof original?.message === 'string' ? original.message : String(err)}`);
    return { code: 'INTERNAL', kind: 'internal', message: `${context} failed unexpectedly; see the app log for details` };
  }
  const out: IpcError = e.kind === 'validation' ? { code: VALIDATION, kind: e.kind, message: e.message } : { code: e.code, kind: e.kind, message: e.message };
  if (e.kind === 'validation' && e.code !== GENERIC_VALIDATION_CODE) out.reason = e.code;
  if (e.hint) out.hint = e.hint;
  if (e.field) out.field = e.field;
  if (e.status !== undefined) out.status = e.status;
  return out;
}
