/** chase:* — preview (the first order as it will be signed), start a reviewed preview, list (with the damaged), stop (leave or cancel the order). */
import type { ChaseDesk } from '../../app/desks/chaseDesk.js';
import type { HandlerGroup } from './types.js';

export function chaseHandlers(desk: ChaseDesk): HandlerGroup<'chase'> {
  return {
    'chase:preview': (r) => desk.preview(r),
    'chase:start': (r) => desk.start(r),
    'chase:list': () => desk.list(),
    'chase:stop': (r) => desk.stop(r),
  };
}
