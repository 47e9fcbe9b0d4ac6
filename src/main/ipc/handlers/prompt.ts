/** prompt:* — the renderer's answers to main's prompts (blind-signing confirmation, offline signature). */
import type { WalletDesk } from '../../app/desks/walletDesk.js';
import type { HandlerGroup } from './types.js';

export function promptHandlers(desk: WalletDesk): HandlerGroup<'prompt'> {
  return {
    'prompt:respondBlindSigning': async (r) => desk.respondBlindSigning(r),
    'prompt:respondOfflineSignature': async (r) => desk.respondOfflineSignature(r),
    'prompt:exportSigningRequest': (r) => desk.exportSigningRequest(r),
    'prompt:importSignatureFile': (r) => desk.importSignatureFile(r),
  };
}
