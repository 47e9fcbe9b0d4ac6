/** prompt:* — the renderer's answers to main's prompts (blind-signing confirmation, offline signature). */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function promptHandlers(core: AppCore): HandlerGroup<'prompt'> {
  return {
    'prompt:respondBlindSigning': async (r) => core.respondBlindSigning(r),
    'prompt:respondOfflineSignature': async (r) => core.respondOfflineSignature(r),
    'prompt:exportSigningRequest': (r) => core.exportSigningRequest(r),
    'prompt:importSignatureFile': (r) => core.importSignatureFile(r),
  };
}
