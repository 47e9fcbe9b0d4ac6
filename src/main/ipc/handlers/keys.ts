/** keys:* — trading keys: create, review what the main wallet will sign, authorize, renew, revoke, list. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function keysHandlers(core: AppCore): HandlerGroup<'keys'> {
  return {
    'keys:list': () => core.listKeys(),
    'keys:create': (r) => core.createKey(r),
    'keys:review': (r) => core.reviewKey(r),
    'keys:authorize': (r) => core.authorizeKey(r, 'authorize'),
    'keys:renew': (r) => core.authorizeKey(r, 'renew'),
    'keys:revoke': (r) => core.revokeKey(r),
  };
}
