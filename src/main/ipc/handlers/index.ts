/**
 * The complete handler table: one capability file per group of channels, each mapping its channels to
 * AppCore. The return type is the full Handlers table, so a channel added to the contract without a
 * handler fails to compile. Validation, sender checks and error mapping happen in registerHandlers.
 */
import type { AppCore } from '../../app/appCore.js';
import type { Handlers } from '../registerHandlers.js';
import { appHandlers } from './app.js';
import { assistantHandlers, bridgeHandlers, companionHandlers, pointsHandlers, swapHandlers, transfersHandlers } from './companion.js';
import { fundingHandlers } from './funding.js';
import { historyHandlers } from './history.js';
import { keysHandlers } from './keys.js';
import { marketsHandlers } from './markets.js';
import { ordersHandlers } from './orders.js';
import { positionsHandlers } from './positions.js';
import { promptHandlers } from './prompt.js';
import { settingsHandlers } from './settings.js';
import { ledgerHandlers, walletHandlers } from './wallet.js';
import { withdrawHandlers } from './withdraw.js';

export function createHandlers(core: AppCore): Handlers {
  return {
    ...appHandlers(core),
    ...walletHandlers(core),
    ...ledgerHandlers(core),
    ...promptHandlers(core),
    ...keysHandlers(core),
    ...fundingHandlers(core),
    ...marketsHandlers(core),
    ...ordersHandlers(core),
    ...positionsHandlers(core),
    ...historyHandlers(core),
    ...withdrawHandlers(core),
    ...settingsHandlers(core),
    ...companionHandlers(core),
    ...bridgeHandlers(core),
    ...swapHandlers(core),
    ...transfersHandlers(core),
    ...pointsHandlers(core),
    ...assistantHandlers(core),
  };
}
