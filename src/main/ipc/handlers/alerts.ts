/** alerts:* — list (with the latest firings of the alerts log), add, remove, and a new level (a line dragged on the chart). */
import type { AlertsDesk } from '../../app/desks/alertsDesk.js';
import type { HandlerGroup } from './types.js';

export function alertsHandlers(desk: AlertsDesk): HandlerGroup<'alerts'> {
  return {
    'alerts:list': () => desk.list(),
    'alerts:add': (r) => desk.add(r),
    'alerts:remove': async (r) => desk.remove(r),
    'alerts:setLevel': (r) => desk.setLevel(r),
  };
}
