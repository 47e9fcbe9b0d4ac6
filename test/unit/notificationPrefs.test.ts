/**
 * Notification preferences as stored by main (the settings file the app and the command line share):
 * the sound switches are off until the user turns them on, a file written before they existed reads them
 * as off, and the IPC patch refuses anything but a boolean for a known switch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppSettings } from '../../src/main/app/appSettings.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { NotificationPrefsPatchSchema } from '../../src/shared/ipc.js';

const fresh = () => openNodeSettings(fs.mkdtempSync(path.join(os.tmpdir(), 'perps-prefs-')));

describe('notification preferences', () => {
  it('sounds are off by default; native notifications on', () => {
    expect(new AppSettings(fresh()).notifications()).toEqual({
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
    });
  });

  it('a file from before the sound switches reads them as off and keeps what it had', () => {
    const store = fresh();
    store.set('app.notifications', { fills: false, trigger_fires: true, withdrawals: false, key_expiry: true });
    expect(new AppSettings(store).notifications()).toMatchObject({ fills: false, withdrawals: false, liquidation_warning: true, alerts: true, sound_fills: false, sound_trigger_fires: false, sound_risk_warnings: false, sound_alerts: false });
  });

  it('a switch turned on is stored and read back, the others unchanged', () => {
    const store = fresh();
    new AppSettings(store).updateNotifications({ sound_fills: true });
    expect(new AppSettings(store).notifications()).toMatchObject({ sound_fills: true, sound_trigger_fires: false, sound_risk_warnings: false, fills: true });
  });

  it('the IPC patch takes booleans for known switches only', () => {
    expect(NotificationPrefsPatchSchema.safeParse({ sound_risk_warnings: true }).success).toBe(true);
    expect(NotificationPrefsPatchSchema.safeParse({ sound_fills: 'yes' }).success).toBe(false);
    expect(NotificationPrefsPatchSchema.safeParse({ sound_volume: 1 }).success).toBe(false);
  });
});
