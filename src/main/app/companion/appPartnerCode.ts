/**
 * The partner code for the swap and points desks: the app asks for it in Settings, so its absence is
 * worded for the app (the command line's requirePartnerCode names its --source flag instead).
 */
import { resolvePartnerCode, type ResolveInput } from '../../services/companion/companionSettings.js';
import { ValidationError } from '../../services/errors.js';

export function requireAppPartnerCode(input: ResolveInput, why: string): string {
  const code = resolvePartnerCode(input);
  if (code === undefined) {
    throw new ValidationError(`a partner code is required ${why}`, { field: 'source', code: 'PARTNER_CODE_REQUIRED', hint: 'Set the partner code in Settings › Companion services.' });
  }
  return code;
}
