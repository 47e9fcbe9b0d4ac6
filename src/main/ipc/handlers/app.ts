/** app:* — identity of the app, and the active profile (sim or mainnet with the URLs the user fills in). */
import type { AppDesk } from '../../app/desks/appDesk.js';
import type { HandlerGroup } from './types.js';

export function appHandlers(desk: AppDesk): HandlerGroup<'app'> {
  return {
    'app:getInfo': () => desk.getInfo(),
    'app:getProfile': () => desk.getProfile(),
    'app:setProfile': (r) => desk.setProfile(r),
  };
}
