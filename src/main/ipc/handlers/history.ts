/** history:* — paged windows (offset/limit + total) for virtualized tables, and CSV export through a save dialog. */
import type { HistoryDesk } from '../../app/desks/historyDesk.js';
import type { HandlerGroup } from './types.js';

export function historyHandlers(desk: HistoryDesk): HandlerGroup<'history'> {
  return {
    'history:orders': (r) => desk.orders(r),
    'history:orderGroups': (r) => desk.orderGroups(r),
    'history:fills': (r) => desk.fills(r),
    'history:funding': (r) => desk.funding(r),
    'history:deposits': (r) => desk.deposits(r),
    'history:withdrawals': (r) => desk.withdrawals(r),
    'history:exportCsv': (r) => desk.exportCsv(r),
  };
}
