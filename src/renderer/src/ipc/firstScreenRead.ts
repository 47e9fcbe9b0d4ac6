/**
 * The first screen's reads from main's one answer, app:firstScreen, which the preload asked as the page
 * was created (src/preload/index.ts): by the time this script has run, the answer is usually there, so the
 * gate and the Trade view render from it at once instead of asking nine channels and waiting a round trip
 * (issue 17). Each part goes into the query cache under the key its views read, exactly as that channel's
 * own answer would (its value, or its error).
 *
 * Every later fetch of those entries (a retry, an invalidation, a view remounting) asks the channel
 * itself, as before. When the combined answer fails as a whole (main without the channel, a broken
 * bridge), each read is asked alone, so the views show each read's own outcome.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { FIRST_SCREEN_READS, splitChannel, type FirstScreenPart } from '../../../shared/ipc/channels';
import type { FirstScreen, IpcResult, PerpsApi } from '../../../shared/ipc';
import { hotkeysKey } from '../features/hotkeys/hotkeyQueries';
import { simFeedKey } from '../features/simFeed/simFeedQueries';
import { perps, unwrap } from './client';
import { qk } from './queries';

/** Where each part lives in the query cache: the key its views read it under. */
export const FIRST_SCREEN_KEYS: Readonly<Record<FirstScreenPart, QueryKey>> = {
  wallet: qk.wallet,
  keys: qk.keys,
  markets: qk.markets,
  settings: qk.settings,
  profile: qk.profile,
  notifications: qk.notifications,
  appInfo: qk.appInfo,
  simFeed: simFeedKey,
  hotkeys: hotkeysKey,
};

const PARTS = Object.keys(FIRST_SCREEN_READS) as FirstScreenPart[];

/** One part asked on its own channel (perps[group][name]), as its view's own query would. */
function askAlone(part: FirstScreenPart): Promise<unknown> {
  const [group, name] = splitChannel(FIRST_SCREEN_READS[part]);
  const api = perps() as unknown as Record<string, Record<string, () => Promise<IpcResult<unknown>>>>;
  return unwrap(api[group]![name]!());
}

/** The preload's app:firstScreen; async, so a missing bridge is a rejection the views then show, not a throw here. */
async function askCombined(): Promise<IpcResult<FirstScreen>> {
  return perps().app.firstScreen();
}

/**
 * Main's answer for the first screen when it has already arrived (it usually has by the time the page's
 * script runs: the preload asked for it as the page was created), taken synchronously; null while it is
 * still on its way (or without a bridge), when readFirstScreen waits for it.
 */
export function arrivedFirstScreen(): IpcResult<FirstScreen> | null {
  const api = (window as Window & { perps?: PerpsApi }).perps;
  return api?.preloaded('app:firstScreen') ?? null;
}

/**
 * Puts an answer that has arrived into `client` at once, before the first render: each read's value
 * under its key, fresh. A part that failed is that read's error, through the query as readFirstScreen
 * does it (its retry asks the channel itself).
 */
export function putFirstScreen(client: QueryClient, answer: FirstScreen): void {
  const failed: FirstScreenPart[] = [];
  for (const part of PARTS) {
    const result = answer[part] as IpcResult<unknown>;
    if (result.ok) client.setQueryData(FIRST_SCREEN_KEYS[part], result.value);
    else failed.push(part);
  }
  if (failed.length > 0) readParts(client, Promise.resolve(answer), failed);
}

/**
 * Fills `client` with the first screen's reads from `answer` (by default the preload's app:firstScreen).
 * Called before the first render. Entries restored from the last session (firstScreenCache.ts) are
 * replaced too: they count as fresh for the first frame, so staleTime 0 makes these fetches run anyway.
 */
export function readFirstScreen(client: QueryClient, answer: Promise<IpcResult<FirstScreen>> = askCombined()): void {
  const whole = answer.then(
    (result) => {
      if (!result.ok) console.warn(`The first screen's reads did not come in one answer (${result.error.code}: ${result.error.message}); asking each alone.`);
      return result.ok ? result.value : null;
    },
    (err: unknown) => {
      console.warn(`The first screen's reads did not come in one answer (${err instanceof Error ? err.message : String(err)}); asking each alone.`);
      return null;
    },
  );
  readParts(client, whole, PARTS);
}

function readParts(client: QueryClient, whole: Promise<FirstScreen | null>, parts: readonly FirstScreenPart[]): void {
  for (const part of parts) {
    let fromAnswer = true;
    void client.prefetchQuery({
      queryKey: FIRST_SCREEN_KEYS[part],
      staleTime: 0,
      queryFn: async () => {
        // The combined answer serves this prefetch once; a retry asks the channel itself.
        const value = fromAnswer ? await whole : null;
        fromAnswer = false;
        return value ? unwrap(Promise.resolve(value[part] as IpcResult<unknown>)) : askAlone(part);
      },
    });
  }
}
