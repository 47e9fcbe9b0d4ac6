/**
 * The complete handler table: one capability file per group of channels, each taking its own desk (the
 * companion groups a getter of theirs, since those desks belong to the open profile). The return type is
 * the full Handlers table, so a channel added to the contract without a handler fails to compile.
 * Validation, sender checks and error mapping happen in registerHandlers.
 */
import type { AppCore } from '../../app/appCore.js';
import type { Handlers } from '../registerHandlers.js';
import { alertsHandlers } from './alerts.js';
import { appHandlers } from './app.js';
import { assistantHandlers, bridgeHandlers, companionHandlers, pointsHandlers, swapHandlers, transfersHandlers } from './companion.js';
import { firstScreenHandler } from './firstScreen.js';
import { fundingHandlers } from './funding.js';
import { historyHandlers } from './history.js';
import { keysHandlers } from './keys.js';
import { marketsHandlers } from './markets.js';
import { chaseHandlers } from './chase.js';
import { ocoHandlers } from './oco.js';
import { ordersHandlers } from './orders.js';
import { portfolioHandlers } from './portfolio.js';
import { positionsHandlers } from './positions.js';
import { promptHandlers } from './prompt.js';
import { riskHandlers } from './risk.js';
import { settingsHandlers } from './settings.js';
import { trailHandlers } from './trail.js';
import { twapHandlers } from './twap.js';
import { ledgerHandlers, trezorHandlers, walletHandlers } from './wallet.js';
import { withdrawHandlers } from './withdraw.js';

export function createHandlers(core: Pick<AppCore, 'desks' | 'companion'>): Handlers {
  const d = core.desks;
  const companion = () => core.companion();
  const handlers = {
    ...appHandlers(d.app),
    ...walletHandlers(d.wallet),
    ...ledgerHandlers(d.wallet),
    ...trezorHandlers(d.wallet),
    ...promptHandlers(d.wallet),
    ...keysHandlers(d.keys),
    ...fundingHandlers(d.funds),
    ...marketsHandlers(d.markets),
    ...ordersHandlers(d.orders),
    ...positionsHandlers(d.positions),
    ...historyHandlers(d.history),
    ...portfolioHandlers(d.portfolio),
    ...withdrawHandlers(d.funds),
    ...settingsHandlers(d.settings),
    ...companionHandlers(() => companion().settings),
    ...bridgeHandlers(() => companion().bridge),
    ...swapHandlers(() => companion().swap),
    ...transfersHandlers(() => companion().bridge),
    ...pointsHandlers(() => companion().points),
    ...assistantHandlers(() => companion().assistant),
    ...twapHandlers(d.twap),
    ...alertsHandlers(d.alerts),
    ...trailHandlers(d.trail),
    ...ocoHandlers(d.oco),
    ...chaseHandlers(d.chase),
    ...riskHandlers(d.risk),
  };
  return { ...handlers, 'app:firstScreen': firstScreenHandler(handlers) };
}
