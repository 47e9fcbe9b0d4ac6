/** app:* — what the app is, which profile is open, and switching profiles (mainnet URLs stored first). */
import type { IpcResponse, MainnetUrls, ProfileName, ProfileView } from '../../../shared/ipc.js';
import { readProfileUrls, saveProfileUrls } from '../../profiles/profiles.js';
import { vaultClosedMessage } from '../../vault/keychain.js';
import type { DeskContext } from '../deskContext.js';

export class AppDesk {
  constructor(private readonly session: DeskContext) {}

  async getInfo(): Promise<IpcResponse<'app:getInfo'>> {
    return { ...this.session.appInfo, profile: this.session.profile?.name ?? this.session.appSettings.profile(), vault_closed: vaultClosedMessage() };
  }

  async getProfile(): Promise<ProfileView> {
    const { settings, appSettings } = this.session;
    const stored = readProfileUrls(settings, 'mainnet');
    const profile = this.session.profile;
    const sim = this.session.sim;
    return {
      active: profile?.name ?? appSettings.profile(),
      environment: profile?.environment ?? (appSettings.profile() === 'mainnet' ? 'Mainnet' : 'Testnet'),
      sim: { running: sim !== null, base_url: sim && profile ? profile.baseUrl : null },
      mainnet: {
        base_url: stored.baseUrl ?? null,
        venue_info_url: stored.venueInfoUrl ?? null,
        venue_ws_url: stored.venueWsUrl ?? null,
        configured: stored.baseUrl !== undefined && stored.venueInfoUrl !== undefined,
      },
    };
  }

  async setProfile(req: { profile: ProfileName; mainnet?: MainnetUrls | undefined }): Promise<ProfileView> {
    await this.session.switchProfile(req.profile, () => {
      if (!req.mainnet) return;
      saveProfileUrls(this.session.settings, 'mainnet', {
        baseUrl: req.mainnet.base_url,
        venueInfoUrl: req.mainnet.venue_info_url,
        ...(req.mainnet.venue_ws_url !== undefined ? { venueWsUrl: req.mainnet.venue_ws_url } : {}),
      });
    });
    return this.getProfile();
  }
}
