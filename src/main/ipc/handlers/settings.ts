/** settings:* and notifications:* — app preferences, the offline QR signer's identity, native-notification switches. */
import type { SettingsDesk } from '../../app/desks/settingsDesk.js';
import type { HandlerGroup } from './types.js';

export function settingsHandlers(desk: SettingsDesk): HandlerGroup<'settings' | 'notifications'> {
  return {
    'settings:get': async () => desk.get(),
    'settings:set': async (r) => desk.set(r),
    'settings:getAirgap': async () => desk.getAirgap(),
    'settings:setAirgap': async (r) => desk.setAirgap(r),
    'settings:getHotkeys': async () => desk.getHotkeys(),
    'settings:setHotkeys': async (r) => desk.setHotkeys(r),
    'settings:getSimPrices': async () => desk.getSimPrices(),
    'settings:setSimPrices': async (r) => desk.setSimPrices(r),
    'settings:getSimFeed': async () => desk.getSimFeed(),
    'settings:getTray': async () => desk.getTray(),
    'settings:setTray': async (r) => desk.setTray(r),
    'notifications:get': async () => desk.getNotifications(),
    'notifications:set': async (r) => desk.setNotifications(r),
  };
}
