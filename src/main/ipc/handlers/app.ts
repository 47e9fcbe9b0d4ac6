/** app:* — identity of the app, and the active profile (sim or mainnet with the URLs the user fills in). */
import type { AppDesk } from '../../app/desks/appDesk.js';
import type { HandlerGroup } from './types.js';

/** app:firstScreen is made of other channels' answers: firstScreen.ts. */
export function appHandlers(desk: AppDesk): Omit<HandlerGroup<'app'>, 'app:firstScreen'> {
  return {
    'app:getInfo': () => desk.getInfo(),
    'app:getProfile': () => desk.getProfile(),
    'app:setProfile': (r) => desk.setProfile(r),
  };
}
