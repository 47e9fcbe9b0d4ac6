/** settings:* and notifications:* — trading preferences (shared with the command line), the QR signer, notification switches. */
import type { NotificationPrefs, Settings } from '../../../shared/ipc.js';
import type { DeskContext } from '../deskContext.js';
import { checkLeveragePatch } from '../../services/settings/leverageDefaults.js';
import { checkStopTolerancePatch } from '../../services/settings/stopToleranceSetting.js';
import type { TradeHotkeyAction, TradeHotkeys } from '../../../shared/tradeHotkeys.js';
import type { SimFeedView, SimPrices } from '../../../shared/ipc/simFeed.js';
import type { TraySettings } from '../../../shared/ipc/tray.js';

export class SettingsDesk {
  constructor(private readonly session: DeskContext) {}

  get(): Settings {
    return this.session.appSettings.settings();
  }

  async set(patch: Partial<Settings>): Promise<Settings> {
    if (patch.default_leverage !== undefined || patch.leverage_by_market !== undefined) {
      // As `perps config leverage`: a default no market can take is refused against GET /markets, not stored.
      await checkLeveragePatch(this.session.ctx().config, this.session.appSettings.settings(), patch);
    }
    if (patch.stop_tolerance_by_market !== undefined) {
      await checkStopTolerancePatch(this.session.ctx().config, this.session.appSettings.settings(), patch);
    }
    const next = this.session.appSettings.updateSettings(patch);
    if (patch.key_expiry_warning_days !== undefined) this.session.raise({ type: 'keys.changed' });
    // The liquidation warning is judged on each re-pricing: re-read the positions now rather than at the next tick.
    if (patch.liquidation_warning_pct !== undefined) this.session.raise({ type: 'positions.changed' });
    return next;
  }

  getAirgap(): { fingerprint: string | null; path: string } {
    return this.session.appSettings.airgap();
  }

  setAirgap(patch: { fingerprint?: string | null | undefined; path?: string | undefined }): { fingerprint: string | null; path: string } {
    return this.session.appSettings.updateAirgap(patch);
  }

  getHotkeys(): TradeHotkeys {
    return this.session.appSettings.tradeHotkeys();
  }

  setHotkeys(patch: { enabled?: boolean | undefined; bindings?: Partial<Record<TradeHotkeyAction, string | null | undefined>> | undefined }): TradeHotkeys {
    return this.session.appSettings.updateTradeHotkeys(patch);
  }

  getSimPrices(): SimPrices {
    return this.session.appSettings.simPrices();
  }

  /** Stores the simulator's price source and, on the simulator profile, restarts it so a change applies now. */
  async setSimPrices(value: SimPrices): Promise<SimPrices> {
    const before = JSON.stringify(this.session.appSettings.simPrices());
    const next = this.session.appSettings.setSimPrices(value);
    if (JSON.stringify(next) !== before) await this.session.restartSimulator();
    return next;
  }

  getSimFeed(): SimFeedView | null {
    return this.session.simFeed();
  }

  getTray(): TraySettings {
    return this.session.appSettings.tray();
  }

  setTray(patch: TraySettings): TraySettings {
    return this.session.appSettings.updateTray(patch);
  }

  getNotifications(): NotificationPrefs {
    return this.session.appSettings.notifications();
  }

  setNotifications(patch: Partial<NotificationPrefs>): NotificationPrefs {
    return this.session.appSettings.updateNotifications(patch);
  }
}
