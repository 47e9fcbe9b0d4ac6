/**
 * The renderer's only door to main: window.perps. Every channel answers an IpcResult; unwrap() turns the
 * failure half into a typed IpcQueryError that TanStack Query carries as the query's error, so every view
 * can show the code, the message and the hint the main process chose.
 */
import type { IpcError, IpcResult, PerpsApi } from '../../../shared/ipc';

export class IpcQueryError extends Error {
  readonly code: string;
  /** validation, rejected, transient or internal (absent on errors made in the renderer). */
  readonly kind: IpcError['kind'];
  readonly hint: string | undefined;
  /** The specific rule behind a VALIDATION error (UNKNOWN_MARKET, INSUFFICIENT_BALANCE, ...). */
  readonly reason: string | undefined;
  readonly field: string | undefined;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'IpcQueryError';
    this.code = error.code;
    this.kind = error.kind;
    this.hint = error.hint;
    this.reason = error.reason;
    this.field = error.field;
  }

  toIpcError(): IpcError {
    return { code: this.code, ...(this.kind ? { kind: this.kind } : {}), message: this.message, ...(this.hint ? { hint: this.hint } : {}), ...(this.reason ? { reason: this.reason } : {}), ...(this.field ? { field: this.field } : {}) };
  }
}

/** The bridge the preload exposed. Thrown loudly when missing: the app cannot do anything without it. */
export function perps(): PerpsApi {
  const api = (window as Window & { perps?: PerpsApi }).perps;
  if (!api) throw new IpcQueryError({ code: 'NO_BRIDGE', message: 'window.perps is missing: the preload did not run', hint: 'Restart the app.' });
  return api;
}

/** Awaits an IPC call and returns its value, or throws IpcQueryError with the main process's code. */
export async function unwrap<T>(call: Promise<IpcResult<T>>): Promise<T> {
  let result: IpcResult<T>;
  try {
    result = await call;
  } catch (err) {
    // The bridge itself failed (the main process is gone or the channel is unknown): still a typed error.
    throw new IpcQueryError({ code: 'IPC_UNAVAILABLE', kind: 'transient', message: err instanceof Error ? err.message : String(err), hint: 'The app core did not answer; restart the app if this persists.' });
  }
  if (result.ok) return result.value;
  throw new IpcQueryError(result.error);
}

/** Any thrown value as an IpcError for display. */
export function asIpcError(err: unknown): IpcError {
  if (err instanceof IpcQueryError) return err.toIpcError();
  if (err instanceof Error) return { code: 'RENDERER', message: err.message };
  return { code: 'RENDERER', message: String(err) };
}

/** Only a transient failure (no answer, a 5xx, the core switching profiles) may pass by itself. */
export function isRetryable(err: unknown): boolean {
  return err instanceof IpcQueryError && err.kind === 'transient';
}
