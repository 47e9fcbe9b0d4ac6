/** wallet:* and ledger:* — onboarding: the main wallet and its custody signer for this session. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function walletHandlers(core: AppCore): HandlerGroup<'wallet'> {
  return {
    'wallet:current': async () => core.walletView(),
    'wallet:chooseKeystoreFile': () => core.chooseKeystoreFile(),
    'wallet:connectKeystore': (r) => core.connectKeystore(r),
    'wallet:connectEnv': (r) => core.connectEnv(r),
    'wallet:connectOffline': (r) => core.connectOffline(r),
    'wallet:disconnect': (r) => core.disconnect(r),
  };
}

export function ledgerHandlers(core: AppCore): HandlerGroup<'ledger'> {
  return {
    'ledger:listDevices': () => core.ledgerDevices(),
    'ledger:listAccounts': (r) => core.ledgerAccounts(r),
    'ledger:connect': (r) => core.ledgerConnect(r),
  };
}
