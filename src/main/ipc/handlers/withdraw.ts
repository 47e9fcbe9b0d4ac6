/** withdraw:* — preview (checks, new-wallet fee, exact typed data), submit a reviewed withdrawal, tracked list. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function withdrawHandlers(core: AppCore): HandlerGroup<'withdraw'> {
  return {
    'withdraw:preview': (r) => core.previewWithdraw(r),
    'withdraw:submit': (r) => core.submitWithdraw(r),
    'withdraw:list': () => core.trackedWithdrawals(),
  };
}
