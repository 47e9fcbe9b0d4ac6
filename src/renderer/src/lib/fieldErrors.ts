/**
 * Placing an IpcError next to the input it names. Main names fields in the spelling of the layer that
 * refused them (from_chain, fromChain, src-tx), so names are compared without case or separators.
 */
import { IpcQueryError } from '../ipc/client';

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The refused field's message and hint when `error` names one of `names`, else undefined. */
export function fieldError(error: unknown, names: readonly string[]): string | undefined {
  if (!(error instanceof IpcQueryError) || !error.field) return undefined;
  const f = norm(error.field);
  if (!names.some((n) => norm(n) === f)) return undefined;
  return error.hint ? `${error.message} — ${error.hint}` : error.message;
}

/** True when `error` names one of the fields a form shows (its message is shown there, not again below). */
export function isShownAtField(error: unknown, fields: readonly (readonly string[])[]): boolean {
  return fields.some((names) => fieldError(error, names) !== undefined);
}
