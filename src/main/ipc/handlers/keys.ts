/** keys:* — trading keys: create, review what the main wallet will sign, authorize, renew, revoke, list. */
import type { KeysDesk } from '../../app/desks/keysDesk.js';
import type { HandlerGroup } from './types.js';

export function keysHandlers(desk: KeysDesk): HandlerGroup<'keys'> {
  return {
    'keys:list': () => desk.list(),
    'keys:create': (r) => desk.create(r),
    'keys:review': (r) => desk.review(r),
    'keys:reviewForeign': (r) => desk.reviewForeign(r),
    'keys:authorize': (r) => desk.authorize(r),
    'keys:renew': (r) => desk.renew(r),
    'keys:revoke': (r) => desk.revoke(r),
  };
}
