/** settings:* and notifications:* — app preferences, the offline QR signer's identity, native-notification switches. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function settingsHandlers(core: AppCore): HandlerGroup<'settings' | 'notifications'> {
  return {
    'settings:get': async () => core.getSettings(),
    'settings:set': async (r) => core.setSettings(r),
    'settings:getAirgap': async () => core.getAirgap(),
    'settings:setAirgap': async (r) => core.setAirgap(r),
    'notifications:get': async () => core.getNotifications(),
    'notifications:set': async (r) => core.setNotifications(r),
  };
}
