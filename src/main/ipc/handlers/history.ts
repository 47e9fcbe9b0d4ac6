/** history:* — paged windows (offset/limit + total) for virtualized tables, and CSV export through a save dialog. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function historyHandlers(core: AppCore): HandlerGroup<'history'> {
  return {
    'history:orders': (r) => core.orderHistory(r),
    'history:fills': (r) => core.fillHistory(r),
    'history:funding': (r) => core.fundingHistory(r),
    'history:deposits': (r) => core.depositHistory(r),
    'history:withdrawals': (r) => core.withdrawalHistory(r),
    'history:exportCsv': (r) => core.exportCsv(r),
  };
}
