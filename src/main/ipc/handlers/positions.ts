/** positions:* — positions with PnL from the mark, close, reverse, isolated margin. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function positionsHandlers(core: AppCore): HandlerGroup<'positions'> {
  return {
    'positions:list': () => core.positions(),
    'positions:close': (r) => core.closePosition(r),
    'positions:reverse': (r) => core.reversePosition(r),
    'positions:adjustMargin': (r) => core.adjustMargin(r),
  };
}
