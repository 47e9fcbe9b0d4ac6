/** funding:* and account:* — deposit information from /config, the simulator's faucet, the free balance. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function fundingHandlers(core: AppCore): HandlerGroup<'funding' | 'account'> {
  return {
    'funding:depositInfo': () => core.depositInfo(),
    'funding:faucet': (r) => core.faucet(r),
    'account:balance': () => core.balance(),
  };
}
