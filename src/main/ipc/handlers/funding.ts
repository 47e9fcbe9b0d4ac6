/** funding:* and account:* — deposit information from /config, the simulator's faucet, the free balance, the account's health. */
import type { FundsDesk } from '../../app/desks/fundsDesk.js';
import type { HandlerGroup } from './types.js';

export function fundingHandlers(desk: FundsDesk): HandlerGroup<'funding' | 'account'> {
  return {
    'funding:depositInfo': () => desk.depositInfo(),
    'funding:faucet': (r) => desk.faucet(r),
    'account:balance': () => desk.balance(),
    'account:health': () => desk.health(),
  };
}
