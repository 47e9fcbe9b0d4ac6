/** withdraw:* — preview (checks, new-wallet fee, exact typed data), submit a reviewed withdrawal, tracked list. */
import type { FundsDesk } from '../../app/desks/fundsDesk.js';
import type { HandlerGroup } from './types.js';

export function withdrawHandlers(desk: FundsDesk): HandlerGroup<'withdraw'> {
  return {
    'withdraw:preview': (r) => desk.previewWithdraw(r),
    'withdraw:submit': (r) => desk.submitWithdraw(r),
    'withdraw:list': () => desk.trackedWithdrawals(),
  };
}
