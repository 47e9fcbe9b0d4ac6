/**
 * The simulator's price source as the app runs it (issue 16): starts the simulator following the venue
 * the settings name, or on its walk; relays the follower's state (live, down, which markets walk) to the
 * renderer. A venue that cannot be read at start does not keep the simulator profile from opening: the
 * simulator starts on its walk and the feed view says why (error), so the app shows it — never a silent
 * switch.
 */
import type { SimFeedView, SimPrices } from '../../shared/ipc/simFeed.js';
import type { AppLogger } from './adapters.js';
import type { SimFollowStatusLike, SimHandle, SimLauncher } from './simulator.js';

export interface StartedSim {
  sim: SimHandle;
  view(): SimFeedView;
  /** Calls `listener` with every change of the feed; returns an unsubscribe. */
  onChange(listener: (view: SimFeedView) => void): () => void;
}

export async function startSimWithPrices(launcher: SimLauncher, stateFile: string, prices: SimPrices, logger: AppLogger): Promise<StartedSim> {
  if (prices.source === 'simulated') {
    const sim = await launcher({ stateFile });
    return { sim, view: () => simulatedView(null), onChange: () => () => undefined };
  }
  let sim: SimHandle;
  try {
    sim = await launcher({ stateFile, followVenue: { infoUrl: prices.info_url } });
  } catch (err) {
    const error = `the venue at ${prices.info_url} could not be followed: ${(err as Error).message}. Prices are simulated until the simulator restarts.`;
    logger.warn(`[app] ${error}`);
    const fallback = await launcher({ stateFile });
    return { sim: fallback, view: () => ({ ...simulatedView(error), info_url: prices.info_url }), onChange: () => () => undefined };
  }
  const follower = sim.follower;
  if (!follower) throw new Error('the simulator was asked to follow a venue but reports no follower');
  return {
    sim,
    view: () => followView(follower.status()),
    onChange: (listener) => follower.onStatus((status) => listener(followView(status))),
  };
}

function simulatedView(error: string | null): SimFeedView {
  return { source: 'simulated', info_url: null, feed: null, down_since: null, walking: [], paused_markets: [], error };
}

function followView(status: SimFollowStatusLike): SimFeedView {
  return {
    source: 'venue',
    info_url: status.info_url,
    feed: status.feed,
    down_since: status.down_since,
    walking: status.markets.filter((m) => m.source === 'walk').map((m) => ({ venue_symbol: m.venue_symbol, reason: m.reason ?? 'not followed' })),
    paused_markets: status.markets.flatMap((m) =>
      m.state === 'held' || m.state === 'frozen'
        ? [{ venue_symbol: m.venue_symbol, state: m.state, reason: (m.issues ?? []).map((issue) => issue.reason).join('; ').slice(0, 2000), since: m.since ?? Date.now() }]
        : [],
    ),
    error: null,
  };
}
