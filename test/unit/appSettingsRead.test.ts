/**
 * The app's trading preferences as main reads them (src/main/app/appSettings.ts): read from the settings
 * file again only when the file changed. The liquidation watch asks on every re-pricing of the positions,
 * so each of a storm's mark events used to read, parse and check the whole file; a change made anywhere
 * (this app's Settings, `perps config` in a terminal, a hand edit) must still count at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppSettings } from '../../src/main/app/appSettings.js';
import { openNodeSettings, type SettingsStore } from '../../src/main/settings/settingsStore.js';
import { updatePreferences } from '../../src/main/services/settings/preferences.js';

/** A store over a fresh folder that counts its reads. */
function counted(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-settings-read-'))): { store: SettingsStore; reads: () => number; dir: string } {
  const inner = openNodeSettings(dir);
  let n = 0;
  const store: SettingsStore = {
    get: (key) => {
      n++;
      return inner.get(key);
    },
    set: (key, value) => inner.set(key, value),
    has: (key) => inner.has(key),
    delete: (key) => inner.delete(key),
    path: inner.path,
  };
  return { store, reads: () => n, dir };
}

describe("the app's trading preferences", () => {
  it('are read from the file once while it does not change (a storm asks on every re-pricing)', () => {
    const { store, reads } = counted();
    const app = new AppSettings(store);
    app.updateSettings({ liquidation_warning_pct: 7 });
    const before = reads();
    for (let i = 0; i < 500; i++) expect(app.settings().liquidation_warning_pct).toBe(7);
    expect(reads() - before).toBe(1);
  });

  it("a change by another process (a terminal's `perps config`) counts at the next read", () => {
    const { store, dir } = counted();
    const app = new AppSettings(store);
    app.updateSettings({ liquidation_warning_pct: 7, default_leverage: 3 });
    expect(app.settings().liquidation_warning_pct).toBe(7);
    // Another process: its own store over the same file, written as the command line writes it.
    updatePreferences(openNodeSettings(dir), { liquidation_warning_pct: 12 });
    expect(app.settings()).toMatchObject({ liquidation_warning_pct: 12, default_leverage: 3 });
    // The same size written again (7 -> 8): still seen.
    updatePreferences(openNodeSettings(dir), { liquidation_warning_pct: 13 });
    expect(app.settings().liquidation_warning_pct).toBe(13);
  });

  it("a hand edit that breaks a value is read at once (as the defaults), and a caller changing what it got changes nothing stored", () => {
    const { store } = counted();
    const app = new AppSettings(store);
    app.updateSettings({ leverage_by_market: { ETH: 5 } });
    const got = app.settings();
    got.leverage_by_market['ETH'] = 50;
    got.liquidation_warning_pct = 99;
    expect(app.settings()).toMatchObject({ leverage_by_market: { ETH: 5 }, liquidation_warning_pct: 10 });
    const raw = JSON.parse(fs.readFileSync(store.path, 'utf8')) as { app: { settings: Record<string, unknown> } };
    raw.app.settings['liquidation_warning_pct'] = 'a lot';
    fs.writeFileSync(store.path, JSON.stringify(raw));
    // Read again at once (the file changed), as preferences.ts reads a damaged file: the defaults.
    expect(app.settings()).toMatchObject({ liquidation_warning_pct: 10, leverage_by_market: {} });
  });

  it('with no settings file yet: the defaults, and the first write is read back', () => {
    const { store } = counted();
    const app = new AppSettings(store);
    expect(fs.existsSync(store.path)).toBe(false);
    expect(app.settings().liquidation_warning_pct).toBe(10);
    app.updateSettings({ liquidation_warning_pct: 4 });
    expect(app.settings().liquidation_warning_pct).toBe(4);
  });
});
