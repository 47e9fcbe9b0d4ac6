/** wallet:*, ledger:* and trezor:* — onboarding: the main wallet and its custody signer for this session (or a paper wallet on the simulator). */
import type { WalletDesk } from '../../app/desks/walletDesk.js';
import type { HandlerGroup } from './types.js';

export function walletHandlers(desk: WalletDesk): HandlerGroup<'wallet'> {
  return {
    'wallet:current': async () => desk.view(),
    'wallet:chooseKeystoreFile': () => desk.chooseKeystoreFile(),
    'wallet:connectKeystore': (r) => desk.connectKeystore(r),
    'wallet:connectEnv': (r) => desk.connectEnv(r),
    'wallet:connectOffline': (r) => desk.connectOffline(r),
    'wallet:disconnect': (r) => desk.disconnect(r),
    'wallet:createPaper': () => desk.createPaper(),
  };
}

export function ledgerHandlers(desk: WalletDesk): HandlerGroup<'ledger'> {
  return {
    'ledger:listDevices': () => desk.ledgerDevices(),
    'ledger:listAccounts': (r) => desk.ledgerAccounts(r),
    'ledger:connect': (r) => desk.ledgerConnect(r),
  };
}

export function trezorHandlers(desk: WalletDesk): HandlerGroup<'trezor'> {
  return {
    'trezor:connect': (r) => desk.trezorConnect(r),
    'trezor:answerPin': async (r) => desk.trezorAnswerPin(r),
    'trezor:answerPassphrase': async (r) => desk.trezorAnswerPassphrase(r),
    'trezor:cancel': () => desk.trezorCancel(),
  };
}
