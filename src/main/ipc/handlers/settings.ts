/** settings:* and notifications:* — app preferences and native-notification switches. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function settingsHandlers(core: AppCore): HandlerGroup<'settings' | 'notifications'> {
  return {
    'settings:get': async () => core.getSettings(),
    'settings:set': async (r) => core.setSettings(r),
    'notifications:get': async () => core.getNotifications(),
    'notifications:set': async (r) => core.setNotifications(r),
  };
}
