/**
 * The in-process simulator as the app core sees it. The core does not import src/sim (main depends on
 * shared, not on the simulator); whoever builds the core (src/main/index.ts, the tests) passes a launcher
 * that starts it on loopback and returns its URLs. The faucet is the simulator's control route
 * POST /sim/deposit, reachable only on the sim profile (services/sim/faucet.ts).
 */

export interface SimUrlsLike {
  base_url: string;
  venue_info_url: string;
  venue_ws_url: string;
  /** Root of the control API (/sim). */
  control_url: string;
}

/** The follower's status as the simulator reports it (src/sim/venue/follow/venueFollower.ts FollowStatus). */
export interface SimFollowStatusLike {
  info_url: string;
  feed: 'live' | 'down';
  down_since: number | null;
  markets: {
    venue_symbol: string;
    source: 'upstream' | 'walk';
    reason?: string;
    /** A followed market: live, held or frozen (issue 26), since when and why. */
    state?: 'live' | 'held' | 'frozen';
    since?: number;
    issues?: { reason: string }[];
  }[];
}

export interface SimFollowLike {
  status(): SimFollowStatusLike;
  onStatus(listener: (status: SimFollowStatusLike) => void): () => void;
}

export interface SimHandle {
  readonly urls: SimUrlsLike;
  /** Present when the simulator follows a real venue's market data. */
  readonly follower?: SimFollowLike | null;
  /** Stops serving and saves the state file. */
  stop(): Promise<void>;
}

/**
 * Starts the simulator with its state file (in the app's data folder) on 127.0.0.1; with followVenue,
 * its prices follow that venue's public market data (it rejects when the venue cannot be read).
 */
export type SimLauncher = (options: { stateFile: string; followVenue?: { infoUrl: string } }) => Promise<SimHandle>;
