/**
 * The app's settings store: electron-store in Electron's userData folder, opened with the same private
 * modes as the command line's conf store (settingsStore.ts): folder 0700, settings.json 0600. Kept thin
 * because it imports electron-store, which imports Electron; everything else lives in settingsStore.ts.
 */
import Store from 'electron-store';
import { SETTINGS_NAME, settingsFileOptions, settingsStoreOf, type SettingsStore } from './settingsStore.js';

/** Opens the app's settings store in `dataDir` (app.getPath('userData')). */
export function openElectronSettings(dataDir: string): SettingsStore {
  return settingsStoreOf(new Store<Record<string, unknown>>({ ...settingsFileOptions(dataDir, SETTINGS_NAME), name: SETTINGS_NAME }));
}
