/**
 * The IPC shapes of tray mode (settings:getTray / settings:setTray): whether closing the window while work
 * runs in the background (a TWAP, alerts, trailing stops, OCO pairs) keeps the app running in the system
 * tray, or quits it (after asking, since that work then stops).
 */
import { z } from 'zod';

export const TraySettingsSchema = z.object({
  /** On (the default): closing the window while work is active keeps the app in the tray. */
  keep_running_in_tray: z.boolean(),
});
export type TraySettings = z.infer<typeof TraySettingsSchema>;
export const TraySettingsPatchSchema = z.strictObject({ keep_running_in_tray: z.boolean() });
