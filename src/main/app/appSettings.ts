/**
 * The app's own preferences (the trading preferences it shares with the command line, notification
 * switches) and the remembered wallet, in the settings store next to everything else non-secret. Reads fill in defaults
 * and ignore malformed stored values, so a hand-edited file cannot break start-up.
 */
import fs from 'node:fs';
import type { NotificationPrefs, ProfileName, Settings, WalletView } from '../../shared/ipc.js';
import { NotificationPrefsSchema, SignerKindSchema, ProfileNameSchema } from '../../shared/ipc.js';
import { readPreferences, updatePreferences } from '../services/settings/preferences.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import { ValidationError } from '../services/errors.js';
import { DEFAULT_TRADE_HOTKEYS, hotkeyConflicts, type TradeHotkeyAction, type TradeHotkeys } from '../../shared/tradeHotkeys.js';
import { TradeHotkeysSchema } from '../../shared/ipc/hotkeys.js';
import { normalizeDerivationPath } from '../signers/ledger/derivationPaths.js';
import { SimPricesSchema, type SimPrices } from '../../shared/ipc/simFeed.js';
import { TraySettingsSchema, type TraySettings } from '../../shared/ipc/tray.js';

const NOTIFICATIONS_KEY = 'app.notifications';
const WALLET_KEY = 'app.wallet';
const PROFILE_KEY = 'app.profile';
const AIRGAP_FINGERPRINT_KEY = 'airgap.fingerprint';
const TRADE_HOTKEYS_KEY = 'app.tradeHotkeys';
const AIRGAP_PATH_KEY = 'airgap.path';
const SIM_PRICES_KEY = 'sim.prices';
const TRAY_KEY = 'app.tray';

/** Tray mode on: a TWAP (or an alert, a trailing stop) is not stopped by closing a window. */
export const DEFAULT_TRAY: TraySettings = { keep_running_in_tray: true };
export const DEFAULT_AIRGAP_PATH = "m/44'/60'/0'/0/0";

/** Native notifications on; sounds off until the user turns them on (a trading desk may be in a shared room). */
export const DEFAULT_NOTIFICATIONS: NotificationPrefs = {
  fills: true,
  trigger_fires: true,
  withdrawals: true,
  key_expiry: true,
  liquidation_warning: true,
  alerts: true,
  sound_fills: false,
  sound_trigger_fires: false,
  sound_risk_warnings: false,
  sound_alerts: false,
};

export interface RememberedWallet {
  address: string;
  last_signer_kind: WalletView['last_signer_kind'];
}

export class AppSettings {
  /** The trading preferences as last read, and the settings file's stamp then (fileStamp). */
  private read: { stamp: string; settings: Settings } | null = null;

  constructor(private readonly store: SettingsStore) {}

  /**
   * The trading preferences the command line shares (services/settings/preferences.ts). Read again only
   * when the settings file changed since the last read (its stamp: inode, size, change and modification
   * times; every write replaces the file whole), so a change made here, in Settings or by `perps config`
   * in a terminal, counts at once. The store re-reads and parses the whole file on every get, and the
   * liquidation watch asks for its distance on every re-pricing of the positions: in a mark storm that
   * was a file read, a JSON parse and a schema check per mark event (about 6% of the e2e worker's CPU).
   */
  settings(): Settings {
    const stamp = fileStamp(this.store.path);
    if (stamp !== null && this.read?.stamp === stamp) return structuredClone(this.read.settings);
    const settings = readPreferences(this.store);
    this.read = stamp === null ? null : { stamp, settings: structuredClone(settings) };
    return settings;
  }

  updateSettings(patch: Partial<Settings>): Settings {
    this.read = null;
    return updatePreferences(this.store, patch);
  }

  notifications(): NotificationPrefs {
    const parsed = NotificationPrefsSchema.partial().safeParse(this.store.get(NOTIFICATIONS_KEY));
    return { ...DEFAULT_NOTIFICATIONS, ...(parsed.success ? stripUndefined(parsed.data) : {}) };
  }

  updateNotifications(patch: Partial<NotificationPrefs>): NotificationPrefs {
    const next = NotificationPrefsSchema.parse({ ...this.notifications(), ...stripUndefined(patch) });
    this.store.set(NOTIFICATIONS_KEY, next);
    return next;
  }

  wallet(): RememberedWallet | null {
    const raw = this.store.get(WALLET_KEY) as { address?: unknown; last_signer_kind?: unknown } | undefined;
    if (!raw || typeof raw.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(raw.address)) return null;
    const kind = SignerKindSchema.safeParse(raw.last_signer_kind);
    return { address: raw.address, last_signer_kind: kind.success ? kind.data : null };
  }

  rememberWallet(wallet: RememberedWallet | null): void {
    if (wallet === null) this.store.delete(WALLET_KEY);
    else this.store.set(WALLET_KEY, wallet);
  }

  /**
   * The air-gapped signer's identity for the animated QR request (Keystone-style signers want the master
   * fingerprint and the derivation path of the wallet): settings `airgap.fingerprint` (8 hex characters;
   * unset means no QR code) and `airgap.path` (default m/44'/60'/0'/0/0). Malformed values are reported
   * as set, so the dialog can say why the QR code is missing rather than silently hiding it.
   */
  airgap(): { fingerprint: string | null; path: string } {
    const fingerprint = this.store.get(AIRGAP_FINGERPRINT_KEY);
    const path = this.store.get(AIRGAP_PATH_KEY);
    return {
      fingerprint: typeof fingerprint === 'string' && fingerprint.trim() !== '' ? fingerprint.trim() : null,
      path: typeof path === 'string' && path.trim() !== '' ? path.trim() : DEFAULT_AIRGAP_PATH,
    };
  }

  /** Stores the QR signer's identity; a malformed fingerprint or a non-Ethereum path changes nothing. */
  updateAirgap(patch: { fingerprint?: string | null | undefined; path?: string | undefined }): { fingerprint: string | null; path: string } {
    const path = patch.path === undefined ? undefined : normalizeDerivationPath(patch.path.trim());
    if (patch.fingerprint !== undefined && patch.fingerprint !== null && !/^[0-9a-fA-F]{8}$/.test(patch.fingerprint)) {
      throw new ValidationError('the master fingerprint is 8 hex characters', { field: 'fingerprint' });
    }
    if (patch.fingerprint === null) this.store.delete(AIRGAP_FINGERPRINT_KEY);
    else if (patch.fingerprint !== undefined) this.store.set(AIRGAP_FINGERPRINT_KEY, patch.fingerprint.toLowerCase());
    if (path !== undefined) this.store.set(AIRGAP_PATH_KEY, path);
    return this.airgap();
  }

  /** Where the simulator's prices come from (issue 16); a malformed stored value reads as simulated. */
  simPrices(): SimPrices {
    const parsed = SimPricesSchema.safeParse(this.store.get(SIM_PRICES_KEY));
    return parsed.success ? parsed.data : { source: 'simulated' };
  }

  /** Stores a validated choice; a bad URL is refused and nothing changes. */
  setSimPrices(value: unknown): SimPrices {
    const parsed = SimPricesSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ValidationError(`simulator prices: ${issue?.message ?? 'invalid'}`, { code: 'INVALID_SIM_PRICES', field: issue?.path.join('.') || 'source' });
    }
    this.store.set(SIM_PRICES_KEY, parsed.data);
    return parsed.data;
  }

  /** Trade hotkeys (src/shared/tradeHotkeys.ts): off until enabled; a malformed stored value reads as the defaults. */
  tradeHotkeys(): TradeHotkeys {
    const parsed = TradeHotkeysSchema.safeParse(this.store.get(TRADE_HOTKEYS_KEY));
    return parsed.success ? parsed.data : structuredClone(DEFAULT_TRADE_HOTKEYS);
  }

  /** Stores trade hotkeys; a key that is an app shortcut or bound twice is refused and nothing changes. */
  updateTradeHotkeys(patch: { enabled?: boolean | undefined; bindings?: Partial<Record<TradeHotkeyAction, string | null | undefined>> | undefined }): TradeHotkeys {
    const current = this.tradeHotkeys();
    const next: TradeHotkeys = {
      enabled: patch.enabled ?? current.enabled,
      bindings: { ...current.bindings, ...(patch.bindings ? stripUndefined(patch.bindings) : {}) } as TradeHotkeys['bindings'],
    };
    const [conflict] = hotkeyConflicts(next.bindings);
    if (conflict) throw new ValidationError(conflict.message, { field: `bindings.${conflict.action}`, code: 'HOTKEY_CONFLICT', hint: 'Choose another key for it.' });
    this.store.set(TRADE_HOTKEYS_KEY, TradeHotkeysSchema.parse(next));
    return next;
  }

  /** Tray mode (read by main at every window close); a malformed stored value reads as the default, on. */
  tray(): TraySettings {
    const parsed = TraySettingsSchema.safeParse(this.store.get(TRAY_KEY));
    return parsed.success ? parsed.data : { ...DEFAULT_TRAY };
  }

  updateTray(patch: TraySettings): TraySettings {
    const next = TraySettingsSchema.parse({ ...this.tray(), ...stripUndefined(patch) });
    this.store.set(TRAY_KEY, next);
    return next;
  }

  profile(): ProfileName {
    const parsed = ProfileNameSchema.safeParse(this.store.get(PROFILE_KEY));
    return parsed.success ? parsed.data : 'sim';
  }

  rememberProfile(name: ProfileName): void {
    this.store.set(PROFILE_KEY, name);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What changes whenever the file is written (null: there is no file, nothing to keep). */
function fileStamp(file: string): string | null {
  const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : null;
}
