/** oco:* — preview (both legs as they will be signed), start a reviewed preview, list (with the damaged), cancel. */
import type { OcoDesk } from '../../app/desks/ocoDesk.js';
import type { HandlerGroup } from './types.js';

export function ocoHandlers(desk: OcoDesk): HandlerGroup<'oco'> {
  return {
    'oco:preview': (r) => desk.preview(r),
    'oco:start': (r) => desk.start(r),
    'oco:list': () => desk.list(),
    'oco:cancel': (r) => desk.cancel(r),
  };
}
