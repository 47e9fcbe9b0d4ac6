/**
 * The tray-mode setting as main stores it (settings:getTray / settings:setTray): on by default, a
 * malformed stored value reads as on, and the IPC patch refuses anything but the one boolean.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppSettings } from '../../src/main/app/appSettings.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { TraySettingsPatchSchema } from '../../src/shared/ipc.js';

const fresh = () => openNodeSettings(fs.mkdtempSync(path.join(os.tmpdir(), 'perps-tray-')));

describe('the tray-mode setting', () => {
  it('is on by default, and a change is kept', () => {
    const store = fresh();
    expect(new AppSettings(store).tray()).toEqual({ keep_running_in_tray: true });
    expect(new AppSettings(store).updateTray({ keep_running_in_tray: false })).toEqual({ keep_running_in_tray: false });
    expect(new AppSettings(store).tray()).toEqual({ keep_running_in_tray: false });
  });

  it('a hand-edited or damaged stored value reads as the default', () => {
    for (const bad of ['no', { keep_running_in_tray: 'false' }, { keep_running_in_tray: 0 }, null, []]) {
      const store = fresh();
      store.set('app.tray', bad);
      expect(new AppSettings(store).tray(), JSON.stringify(bad)).toEqual({ keep_running_in_tray: true });
    }
  });

  it('the IPC patch takes exactly one boolean', () => {
    expect(TraySettingsPatchSchema.safeParse({ keep_running_in_tray: false }).success).toBe(true);
    for (const hostile of [{}, { keep_running_in_tray: 'false' }, { keep_running_in_tray: 1 }, { keep_running_in_tray: true, extra: 1 }, JSON.parse('{"__proto__": {"keep_running_in_tray": true}}') as unknown, null, 'true']) {
      expect(TraySettingsPatchSchema.safeParse(hostile).success, JSON.stringify(hostile)).toBe(false);
    }
  });
});
