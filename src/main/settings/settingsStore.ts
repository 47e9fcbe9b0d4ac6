/**
 * The settings store: non-secret app data (profiles, trading-key metadata, window bounds, companion
 * settings and transfers). In the Electron app this is electron-store (electronSettings.ts); plain Node
 * (command line, tests) uses conf, the library electron-store is built on, with an absolute folder. Both
 * satisfy this interface and are opened with the same private modes (settingsFileOptions).
 * Secrets never go here: private keys live only in the OS keychain. The file still holds RPC URLs that
 * carry provider API keys, so it is 0600 in a 0700 folder.
 *
 * conf (15.x) re-reads the file on every get and set and writes it atomically; withdrawal records do not
 * live here but in files of their own (services/money/withdrawalStore.ts), so no writer of another key
 * can overwrite them with a stale copy.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Conf from 'conf';
import { getProperty, hasProperty } from 'dot-prop';
import { PRIVATE_FILE_MODE } from '../files/atomicWrite.js';
import { PRIVATE_FOLDER_MODE, ensurePrivateFolder, tightenMode } from '../files/privateFolder.js';

export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
  /** The JSON file backing the store. */
  readonly path: string;
}

/** What conf and electron-store share: enough to wrap either as a SettingsStore. */
export interface ConfLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
  readonly path: string;
}

export const SETTINGS_NAME = 'settings';

/**
 * Prepares `dataDir` for a settings file named `name` and returns the options both conf and
 * electron-store take: the folder is made (or tightened to) 0700, an existing file from an older
 * version is tightened to 0600, and every later write creates the file 0600 (configFileMode).
 */
export function settingsFileOptions(dataDir: string, name = SETTINGS_NAME): { cwd: string; configFileMode: number } {
  if (!path.isAbsolute(dataDir)) throw new Error(`settings folder must be an absolute path, got '${dataDir}'`);
  ensurePrivateFolder(dataDir);
  tightenMode(path.join(dataDir, `${name}.json`), PRIVATE_FILE_MODE);
  return { cwd: dataDir, configFileMode: PRIVATE_FILE_MODE };
}

export function settingsStoreOf(conf: ConfLike): SettingsStore {
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    has: (key) => conf.has(key),
    delete: (key) => conf.delete(key),
    path: conf.path,
  };
}

type ConfClass = typeof Conf;
let confClass: ConfClass | undefined;

/** conf, loaded on first use: synchronously (require of an ES module, Node >= 20.19), as writes are. */
function loadConf(): ConfClass {
  confClass ??= (createRequire(import.meta.url)('conf') as { default: ConfClass }).default;
  return confClass;
}

/**
 * Opens the settings store for plain Node code in `dataDir` (must be absolute).
 *
 * Until the first write, reads parse the file conf keeps (`<dataDir>/<name>.json`, plain JSON, keys as
 * dot paths resolved by dot-prop, as conf itself does) without loading conf; the first write loads conf
 * and from then on conf does everything. Why: conf's import (it brings ajv and semver) costs a command
 * line run more than all the rest of its start-up, and most commands only read settings. Each read parses
 * the file afresh, as conf's own reads do, so a write by another process is seen at once, and a file
 * that is not valid JSON is an error here as it is in conf.
 */
export function openNodeSettings(dataDir: string, name = SETTINGS_NAME): SettingsStore {
  if (!path.isAbsolute(dataDir)) throw new Error(`settings folder must be an absolute path, got '${dataDir}'`);
  const file = path.join(dataDir, `${name}.json`);
  // A folder or file an older version left readable by others is tightened now; a folder that is not
  // there yet is made (private) by the first write, so a command that only reads creates nothing.
  if (fs.existsSync(dataDir)) {
    tightenMode(dataDir, PRIVATE_FOLDER_MODE);
    tightenMode(file, PRIVATE_FILE_MODE);
  }
  let conf: Conf<Record<string, unknown>> | undefined;
  const writer = (): Conf<Record<string, unknown>> => (conf ??= new (loadConf())<Record<string, unknown>>({ ...settingsFileOptions(dataDir, name), configName: name, projectName: 'perps-desk' }));
  const stored = (): Record<string, unknown> => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    return JSON.parse(text) as Record<string, unknown>;
  };
  return {
    get: (key) => (conf ? conf.get(key) : getProperty(stored(), key)),
    set: (key, value) => writer().set(key, value),
    has: (key) => (conf ? conf.has(key) : hasProperty(stored(), key)),
    delete: (key) => writer().delete(key),
    path: file,
  };
}
