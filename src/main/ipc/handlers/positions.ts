/** positions:* — positions with PnL from the mark, close (all, part, at a limit), close all, reverse, TP/SL on a position, isolated margin. */
import type { PositionsDesk } from '../../app/desks/positionsDesk.js';
import type { HandlerGroup } from './types.js';

export function positionsHandlers(desk: PositionsDesk): HandlerGroup<'positions'> {
  return {
    'positions:list': () => desk.list(),
    'positions:close': (r) => desk.close(r),
    'positions:reverse': (r) => desk.reverse(r),
    'positions:adjustMargin': (r) => desk.adjustMargin(r),
    'positions:closeAll': () => desk.closeAll(),
    'positions:previewTpsl': (r) => desk.previewTpsl(r),
    'positions:applyTpsl': (r) => desk.applyTpsl(r),
  };
}
