/**
 * app:firstScreen: the first screen's reads (FIRST_SCREEN_READS) answered together, each through the same
 * dispatch as its own channel (its handler, its response schema, its error mapping), so a part is exactly
 * what a call of that channel would have answered. The preload asks it as the page is created; one answer
 * instead of nine calls after the page's script has run (issue 17).
 */
import { FIRST_SCREEN_READS, type FirstScreen, type FirstScreenPart } from '../../../shared/ipc.js';
import type { ErrorLogger } from '../errorMapping.js';
import { dispatch, type Handlers } from '../registerHandlers.js';

export function firstScreenHandler(handlers: Omit<Handlers, 'app:firstScreen'>, logger?: ErrorLogger): Handlers['app:firstScreen'] {
  return async () => {
    const parts = await Promise.all(
      (Object.entries(FIRST_SCREEN_READS) as [FirstScreenPart, (typeof FIRST_SCREEN_READS)[FirstScreenPart]][]).map(
        async ([part, channel]) => [part, await dispatch(channel, handlers as Handlers, {}, logger)] as const,
      ),
    );
    // Each part was checked by its channel's schema in dispatch; app:firstScreen's schema checks the whole again.
    return Object.fromEntries(parts) as FirstScreen;
  };
}
