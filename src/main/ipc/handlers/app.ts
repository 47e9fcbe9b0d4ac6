/** app:* — identity of the app, and the active profile (sim or mainnet with the URLs the user fills in). */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function appHandlers(core: AppCore): HandlerGroup<'app'> {
  return {
    'app:getInfo': () => core.getInfo(),
    'app:getProfile': () => core.getProfile(),
    'app:setProfile': (r) => core.setProfile(r),
  };
}
