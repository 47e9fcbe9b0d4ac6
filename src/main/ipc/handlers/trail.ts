/** trail:* — a trailing stop on a position, set from the TP/SL dialog and run in main; off leaves the level armed. */
import type { TrailDesk } from '../../app/desks/trailDesk.js';
import type { HandlerGroup } from './types.js';

export function trailHandlers(desk: TrailDesk): HandlerGroup<'trail'> {
  return {
    'trail:start': (r) => desk.start(r),
    'trail:off': (r) => desk.off(r),
  };
}
