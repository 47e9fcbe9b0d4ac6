/** twap:* — preview (the schedule and slice 1's exact order), start a reviewed preview, list, pause, resume, cancel, stop. */
import type { TwapDesk } from '../../app/desks/twapDesk.js';
import type { HandlerGroup } from './types.js';

export function twapHandlers(desk: TwapDesk): HandlerGroup<'twap'> {
  return {
    'twap:preview': (r) => desk.preview(r),
    'twap:start': (r) => desk.start(r),
    'twap:list': () => desk.list(),
    'twap:pause': (r) => desk.pause(r),
    'twap:resume': (r) => desk.resume(r),
    'twap:cancel': (r) => desk.cancel(r),
    'twap:stop': (r) => desk.stop(r),
  };
}
