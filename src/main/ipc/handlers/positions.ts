/** positions:* — positions with PnL from the mark, close, reverse, isolated margin. */
import type { PositionsDesk } from '../../app/desks/positionsDesk.js';
import type { HandlerGroup } from './types.js';

export function positionsHandlers(desk: PositionsDesk): HandlerGroup<'positions'> {
  return {
    'positions:list': () => desk.list(),
    'positions:close': (r) => desk.close(r),
    'positions:reverse': (r) => desk.reverse(r),
    'positions:adjustMargin': (r) => desk.adjustMargin(r),
  };
}
