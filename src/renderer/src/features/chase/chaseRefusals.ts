/** Main's refusals of chase:preview, shown at the ticket's field they name. */
import { IpcQueryError } from '../../ipc/client';
import { fieldError } from '../../lib/fieldErrors';

/** Main's refusal at a chase field, led by the rule it broke when it names one. */
export function chaseFieldError(error: unknown, names: readonly string[]): string | undefined {
  const text = fieldError(error, names);
  if (text === undefined || !(error instanceof IpcQueryError) || !error.reason) return text;
  return `${error.reason}: ${text}`;
}
