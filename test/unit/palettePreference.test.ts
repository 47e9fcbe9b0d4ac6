/**
 * The colour palette (Settings → Colours, issue 31): stored with the other preferences in the settings
 * file both the app and the command line read, one of the named palettes only. Anything else is refused
 * at the IPC boundary and by the store's write, and changes nothing; a hand-edited stored value that is
 * not a palette reads as the default.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { readPreferences, updatePreferences } from '../../src/main/services/settings/preferences.js';
import { SettingsPatchSchema, type Settings } from '../../src/shared/ipc.js';
import { PALETTES } from '../../src/shared/palette.js';
import { tempDir } from '../support/keychain.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = tempDir('palette');
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the colour palette preference', () => {
  it('is the default palette until chosen, and each palette chosen is read back by the next start', () => {
    const dir = dataDir();
    expect(readPreferences(openNodeSettings(dir)).palette).toBe('default');
    for (const palette of PALETTES) {
      const saved = updatePreferences(openNodeSettings(dir), { palette });
      expect(saved.palette).toBe(palette);
      expect(readPreferences(openNodeSettings(dir)).palette).toBe(palette);
    }
  });

  it('refuses anything that is not a named palette, at the IPC boundary and in the store, and changes nothing', () => {
    const dir = dataDir();
    updatePreferences(openNodeSettings(dir), { palette: 'high-contrast', default_leverage: 3 });
    const hostile = fc.oneof(
      fc.string().filter((s) => !(PALETTES as readonly string[]).includes(s)),
      fc.constantFrom('Default', 'COLOUR-BLIND', 'colour-blind ', 'high-contrast\u0000', 'colorblind', '__proto__', ''),
      // Not a string at all (undefined is "not given" in a patch, so it is left out).
      fc.anything().filter((v) => typeof v !== 'string' && v !== undefined),
    );
    fc.assert(
      fc.property(hostile, (palette) => {
        expect(SettingsPatchSchema.safeParse({ palette }).success).toBe(false);
        expect(() => updatePreferences(openNodeSettings(dir), { palette } as unknown as Partial<Settings>)).toThrow(/palette|Invalid/i);
        const now = readPreferences(openNodeSettings(dir));
        expect(now.palette).toBe('high-contrast');
        expect(now.default_leverage).toBe(3);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a hand-edited stored palette that is not one of them as the default, never as a colour', () => {
    const dir = dataDir();
    const store = openNodeSettings(dir);
    updatePreferences(store, { palette: 'colour-blind' });
    store.set('app.settings', { ...(store.get('app.settings') as object), palette: 'url(javascript:alert(1))' });
    expect(readPreferences(openNodeSettings(dir)).palette).toBe('default');
  });
});
