/**
 * The settings store: non-secret app data (profiles, trading-key metadata, window bounds, tracked
 * withdrawals). In the Electron app this is electron-store; plain Node (command line, tests) uses conf,
 * the library electron-store is built on, with an absolute folder. Both satisfy this interface.
 * Secrets never go here: private keys live only in the OS keychain.
 */
import path from 'node:path';
import Conf from 'conf';

export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
  /** The JSON file backing the store. */
  readonly path: string;
}

/** Opens the settings store for plain Node code in `dataDir` (must be absolute). */
export function openNodeSettings(dataDir: string, name = 'settings'): SettingsStore {
  if (!path.isAbsolute(dataDir)) throw new Error(`settings folder must be an absolute path, got '${dataDir}'`);
  const conf = new Conf<Record<string, unknown>>({ cwd: dataDir, configName: name, projectName: 'perps-desk' });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    has: (key) => conf.has(key),
    delete: (key) => conf.delete(key),
    path: conf.path,
  };
}
