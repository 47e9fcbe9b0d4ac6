/**
 * Any thrown value to the IpcError the renderer receives. Each error family keeps its own stable code so
 * the UI can switch on it:
 *  - input refused before anything was signed or sent (ValidationError, bad decimals or addresses, a
 *    vault INVALID_INPUT): code VALIDATION, with `field` and the specific rule in `reason`;
 *  - the service's answer (ApiError): its error code (or HTTP_<status>, NONCE_REPLAYED on 409) and status;
 *  - keychain failures (VaultError): their code (KEYCHAIN_LOCKED, ...) with the action as hint;
 *  - Ledger failures (LedgerError): their code (DEVICE_LOCKED, REJECTED_ON_DEVICE, ...);
 *  - main-wallet signer failures (SignerError): their code (WRONG_PASSWORD, ...) with a hint;
 *  - failed operations (OperationError, profiles, transport): their code and hint.
 * Anything else is INTERNAL with a generic message: an unexpected error's text may describe internals,
 * so it goes to main's log (name and message only), not to the page.
 */
import type { IpcError } from '../../shared/ipc.js';
import { OperationError, ValidationError, describeFailure } from '../services/errors.js';
import { LedgerError } from '../signers/ledger/ledgerErrors.js';
import { VaultError } from '../vault/vaultError.js';

export interface ErrorLogger {
  error(message: string): void;
}

/** describeFailure's code for shared-layer input errors (decimals, identifiers). */
const SERVICE_VALIDATION_CODES = new Set(['VALIDATION_ERROR']);

function withOptional(base: IpcError, extra: { hint?: string | undefined; field?: string | undefined; reason?: string | undefined; status?: number | undefined }): IpcError {
  const out: IpcError = { ...base };
  if (extra.hint) out.hint = extra.hint;
  if (extra.field) out.field = extra.field;
  if (extra.reason) out.reason = extra.reason;
  if (extra.status !== undefined) out.status = extra.status;
  return out;
}

export function toIpcError(err: unknown, context: string, logger: ErrorLogger = console): IpcError {
  if (err instanceof ValidationError) {
    return withOptional({ code: 'VALIDATION', message: err.message }, { hint: err.hint, field: err.field, reason: err.code !== 'VALIDATION_ERROR' ? err.code : undefined });
  }
  if (err instanceof LedgerError) return { code: err.code, message: err.message };
  if (err instanceof VaultError) {
    if (err.code === 'INVALID_INPUT') return withOptional({ code: 'VALIDATION', message: err.message }, { reason: 'INVALID_INPUT' });
    return { code: err.code, message: err.message, hint: err.action };
  }
  if (err instanceof OperationError) return withOptional({ code: err.code, message: err.message }, { hint: err.hint, status: err.status });
  const described = describeFailure(err);
  if (described.code !== 'ERROR') {
    if (SERVICE_VALIDATION_CODES.has(described.code)) return withOptional({ code: 'VALIDATION', message: described.message }, { hint: described.hint });
    return withOptional({ code: described.code, message: described.message }, { hint: described.hint, status: described.status });
  }
  // Errors of this codebase that are not one of the classes above but carry a stable code (and the
  // keychain's action as a hint) keep it; anything without one is unexpected.
  const e = err as { code?: unknown; message?: unknown; action?: unknown; hint?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(e.code) && typeof e.message === 'string') {
    const hint = typeof e.action === 'string' ? e.action : typeof e.hint === 'string' ? e.hint : undefined;
    return withOptional({ code: e.code, message: e.message }, { hint });
  }
  logger.error(`[ipc] ${context} failed unexpectedly: ${typeof e?.name === 'string' ? e.name : 'Error'}: ${typeof e?.message === 'string' ? e.message : String(err)}`);
  return { code: 'INTERNAL', message: `${context} failed unexpectedly; see the app log for details` };
}
