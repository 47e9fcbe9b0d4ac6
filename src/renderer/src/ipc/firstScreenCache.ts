/**
 * The terminal as the last session left it, so a returning trader's Trade view (frame, market header,
 * ticket) is drawn from the first frame instead of after main's first answers (issue 17), as desktop
 * wallets and terminals reopen on their last known state and then refresh it.
 *
 * What is kept is what the gate and the first frame need, none of it secret and none of it money: the
 * wallet address and signer label, the trading keys' listing (addresses, names, expiries; never key
 * material, which the renderer never holds), the markets' rules (tick, decimals, leverage caps), the
 * settings, hotkeys and notification switches, the profile, the app's version and the simulator's price
 * source. Marks, funding, open interest and volume are dropped before writing, so nothing from
 * yesterday is shown as a price; balances, positions and orders are not kept at all. Main's answer for
 * the first screen (firstScreenRead.ts) replaces every entry as soon as it lands, usually before the
 * first render; this cache is what the terminal shows when main is slow to answer (the keychain waiting
 * to be unlocked, a busy start). Main re-checks everything before signing anyway.
 *
 * Written only while the terminal is open, removed when the gate sends the user to onboarding (no
 * wallet): the cache's presence means "the last session opened the terminal". Serialised with TanStack
 * Query's own dehydrate/hydrate; not @tanstack/react-query-persist-client, whose restore is asynchronous
 * (the first frame could not use it) and which pins an older query-core (a second copy in the first script).
 */
import { dehydrate, hashKey, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { MarketView } from '../../../shared/ipc';
import { FIRST_SCREEN_KEYS } from './firstScreenRead';
import { qk } from './queries';

const STORAGE_KEY = 'perps-desk:first-screen';
/**
 * The build that wrote the cache: the entry chunk's content-hashed file name, which changes with any change
 * to the renderer, so data shaped for another build is never read.
 */
const BUILD = new URL(import.meta.url).pathname;
/** Settles a burst of answers (the first screen's reads land together) into one write. */
const WRITE_DELAY_MS = 1_000;

/**
 * The first screen's reads (firstScreenRead.ts): the gate's and the ticket's data, and the small
 * settings-like reads the first frame's views make (app version, notification switches, the simulator's
 * price source, trade hotkeys). Restored, the first frame needs nothing from main.
 */
const KEPT = new Set(Object.values(FIRST_SCREEN_KEYS).map((k) => hashKey(k)));
/** By the query's hash (TanStack's own, already on every query and every dehydrated entry). */
const isKept = (queryHash: string): boolean => KEPT.has(queryHash);
const MARKETS = hashKey(qk.markets);
const WALLET = hashKey(qk.wallet);

/** Market fields that move with the market: never shown from a cache. */
const LIVE_MARKET_FIELDS = ['mark', 'oracle', 'mid', 'prev_day_px', 'change_24h', 'funding_rate', 'open_interest', 'day_volume'] as const satisfies readonly (keyof MarketView)[];

interface Saved {
  build: string;
  state: DehydratedState;
}

function withoutLiveFigures(state: DehydratedState): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((q) => {
      if (q.queryHash !== MARKETS) return q;
      const data = q.state.data as { markets: MarketView[]; at: number };
      const markets = data.markets.map((m) => ({ ...m, ...Object.fromEntries(LIVE_MARKET_FIELDS.map((f) => [f, null])) }));
      return { ...q, state: { ...q.state, data: { ...data, markets } } };
    }),
  };
}

/**
 * Puts the last session's first-screen data into `client`, before the first render. True when there was
 * one (the last session had the terminal open). A cache from another build, or one that cannot be read,
 * is removed (and said so on the console) and the app starts as on a first launch.
 */
export function restoreFirstScreen(client: QueryClient, storage: Storage = window.localStorage): boolean {
  const text = storage.getItem(STORAGE_KEY);
  if (text === null) return false;
  try {
    const saved = JSON.parse(text) as Partial<Saved>;
    if (saved.build !== BUILD || !saved.state || !Array.isArray(saved.state.queries)) {
      storage.removeItem(STORAGE_KEY);
      return false;
    }
    const queries = saved.state.queries.filter((q) => isKept(q.queryHash));
    const wallet = queries.find((q) => q.queryHash === WALLET)?.state.data as { address?: unknown } | undefined;
    if (typeof wallet?.address !== 'string') {
      storage.removeItem(STORAGE_KEY);
      return false;
    }
    // Fresh, so the views drawing it do not each ask main again on mounting: main's one answer for the
    // first screen replaces it (readFirstScreen fetches regardless of freshness).
    const now = Date.now();
    hydrate(client, { ...saved.state, queries: queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: now } })) });
    return true;
  } catch (err) {
    storage.removeItem(STORAGE_KEY);
    console.warn(`The first-screen cache could not be read and was removed: ${(err as Error).message}`);
    return false;
  }
}

/** Writes `client`'s first-screen data shortly, and again after each change of it, until the returned stop is called. */
export function persistFirstScreen(client: QueryClient, storage: Storage = window.localStorage): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const write = () => {
    timer = undefined;
    // The wallet was forgotten while the terminal was open: the next start is onboarding's.
    if (!client.getQueryData<{ address: string | null }>(qk.wallet)?.address) {
      storage.removeItem(STORAGE_KEY);
      return;
    }
    const state = dehydrate(client, { shouldDehydrateQuery: (q) => isKept(q.queryHash) && q.state.status === 'success' });
    const saved: Saved = { build: BUILD, state: withoutLiveFigures(state) };
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(saved));
    } catch (err) {
      // A full or unavailable storage costs only the next start's head start.
      console.warn(`The first-screen cache could not be written: ${(err as Error).message}`);
    }
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success' && isKept(event.query.queryHash)) timer ??= setTimeout(write, WRITE_DELAY_MS);
  });
  // The first write waits too: right after the terminal opens, the frame comes first.
  timer = setTimeout(write, WRITE_DELAY_MS);
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
}

/** The terminal is not what the next start should show (no wallet any more): drop the cache. */
export function forgetFirstScreen(storage: Storage = window.localStorage): void {
  storage.removeItem(STORAGE_KEY);
}
