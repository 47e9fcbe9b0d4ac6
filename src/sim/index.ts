/**
 * The local simulator of the perpetual-futures service: a faithful, deterministic stand-in for paper
 * trading and for every integration and e2e test.
 *
 *   const sim = await startSimulator({ port: 0, seed: 1, manualClock: true });
 *   sim.urls.base_url;            // http://127.0.0.1:PORT/api/v1
 *   await sim.stop();             // saves state when stateFile is set
 *
 * Randomness comes from one seed split into independent streams (venue walk, companions, engine
 * hashes, chaos), so a run with the same seed and the same requests replays exactly.
 */
import { SimClock } from './runtime/clock.js';
import { SeededRandom } from './runtime/random.js';
import { VenueMarketData, VenueWebSocketHub, createInfoModule, parseVenueSnapshot } from './venue/index.js';
import type { RouteModule } from './runtime/http.js';
import { createCompanions } from './companion/index.js';
import { loadSimConfig } from './config/load.js';
import { venueAssetConfig } from './config/markets.js';
import { marketPresetOverride, type MarketPreset } from './config/venueScale.js';
import type { SimConfig } from './config/schema.js';
import { SimEngine } from './engine.js';
import { chaosBeforeRoute } from './control/chaos.js';
import { createControlModule } from './control/routes.js';
import { loadStateFile, saveStateFile, STATE_FILE_VERSION, StateFileError, type SimStateHead } from './state/persistence.js';
import { SnapshotError } from './state/snapshotError.js';
import { parseEngineHead } from './state/stateSchemas.js';
import { PATHS, startServer, urlsFor, type SimUrls } from './server.js';
import { VenueFollower, type FollowOptions } from './venue/follow/venueFollower.js';

export { PATHS, urlsFor, type SimUrls } from './server.js';
export { loadSimConfig, resolveSimConfig, DEFAULT_CONFIG_PATH, SimConfigError } from './config/load.js';
export type { SimConfig, Timings, ChaosSettings, MarketConfig } from './config/schema.js';
export { SimEngine } from './engine.js';
export { SimClock } from './runtime/clock.js';
export { VenueFollower, type FollowOptions, type FollowStatus, type FollowedMarketStatus } from './venue/follow/venueFollower.js';
export { deriveWsUrl, parseHttpUrl, parseWsUrl } from './venue/follow/followUrls.js';

export interface SimulatorOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Seed of every random stream (default 1). */
  seed?: number;
  /** Time moves only through POST /sim/advance (and clock.advance). */
  manualClock?: boolean;
  /** Start time of a manual clock (Unix ms); defaults to now, or the saved time when resuming a state file. */
  startTime?: number;
  /** JSON config merged onto resources/sim/default-config.json (see config/load.ts). */
  configFile?: string;
  /** In-memory config override, merged after configFile. */
  config?: unknown;
  /** A named market list merged before configFile: 'venue-scale' is the real venue's 200 markets. Default 'default'. */
  markets?: MarketPreset;
  /** Storm factor from the start (1 calm, N: marks, books and trades N times as fast, with bursts and cascades). */
  storm?: number;
  /** State file: loaded at start when it exists, written by stop() and POST /sim/save. */
  stateFile?: string;
  /**
   * Paper trading on live prices: the venue follows this upstream venue's public market data for every
   * market it lists (venue/follow/venueFollower.ts); trading stays local. Absent: every market walks.
   */
  followVenue?: FollowOptions;
}

export interface RunningSimulator {
  readonly urls: SimUrls;
  readonly clock: SimClock;
  readonly config: SimConfig;
  readonly engine: SimEngine;
  readonly venue: VenueMarketData;
  /** The venue's info API (POST /info), built on the venue's model. */
  readonly venueInfo: RouteModule;
  /** The venue's WebSocket hub, built on the venue's model (its clients, and a drop of them for chaos). */
  readonly venueSockets: VenueWebSocketHub;
  /** The upstream follower when started with followVenue, else null. */
  readonly follower: VenueFollower | null;
  /** Writes the state file now; returns its path, or null without one. */
  save(): string | null;
  /** Stops serving, saves state when a state file is set, and releases the port. */
  stop(): Promise<void>;
}

/** Independent streams from one seed (odd constants from murmur3's finalizer). */
function streams(seed: number): { venue: SeededRandom; companion: SeededRandom; engine: SeededRandom; chaos: SeededRandom } {
  return {
    venue: new SeededRandom(seed),
    companion: new SeededRandom((seed ^ 0x9e3779b9) >>> 0),
    engine: new SeededRandom((seed ^ 0x85ebca6b) >>> 0),
    chaos: new SeededRandom((seed ^ 0xc2b2ae35) >>> 0),
  };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const config = loadSimConfig(options.configFile, options.config, marketPresetOverride(options.markets ?? 'default'));
  const seed = options.seed ?? 1;
  const loaded = options.stateFile ? loadStateFile(options.stateFile) : null;
  const saved = loaded?.head ?? null;
  // The venue's part is validated whole before anything reads it: the venue is built knowing the markets it restores.
  const savedVenue = saved ? fromStateFile(options.stateFile!, () => parseVenueSnapshot(saved.venue)) : null;
  // So is the engine's (its records are validated as the restore reads them).
  const savedEngine = saved ? fromStateFile(options.stateFile!, () => parseEngineHead(saved.engine)) : null;
  const manual = options.manualClock ?? false;
  const clock = new SimClock({ manual, start: options.startTime ?? saved?.clock_now ?? Date.now() });
  // A wall clock resumes no earlier than the saved time, so saved jobs and timestamps never run backwards.
  if (!manual && saved && saved.clock_now > clock.now()) clock.advance(saved.clock_now - clock.now());

  const random = streams(seed);
  const venue = new VenueMarketData({
    assets: config.markets.map(venueAssetConfig),
    // The walk only needs the present: a long advance runs it late and once, not once per skipped tick.
    clock: clock.coalescingView(),
    random: random.venue,
    tickIntervalMs: config.timings.venue_tick_ms,
    ...(savedVenue ? { restoring: savedVenue } : {}),
  });
  if (options.storm !== undefined) venue.setStorm(options.storm);
  const companions = createCompanions({
    clock,
    random: random.companion,
    maxControlUsd: config.control_limits.max_deposit,
    ...(config.companion ? { config: config.companion as never } : {}),
  });
  const engine = new SimEngine({ config, clock, venue, seed: random.engine.int(0, 0xffffffff) });

  if (saved) {
    try {
      fromStateFile(options.stateFile!, () => {
        venue.restore(savedVenue!);
        companions.restore(saved.companion);
        engine.restore(savedEngine!, loaded!.records);
      });
    } catch (err) {
      // Nothing is served and nothing saved: the file stays as it was, and what started stops.
      engine.stop();
      venue.stop();
      clock.stop();
      throw err;
    }
    random.chaos.seedState = saved.chaos_random;
    random.companion.seedState = saved.companion_random;
  }

  const save = (): string | null => {
    if (!options.stateFile) return null;
    // The version goes first: it is how a reader tells the line-per-record layout from version 1.
    const head: SimStateHead = {
      version: STATE_FILE_VERSION,
      saved_at: Date.now(),
      clock_now: clock.now(),
      engine: engine.head(),
      venue: venue.snapshot(),
      companion: companions.snapshot(),
      chaos_random: random.chaos.seedState,
      companion_random: random.companion.seedState,
    };
    saveStateFile(options.stateFile, head, engine.records());
    return options.stateFile;
  };

  // Following starts before the server listens, so the first client already sees upstream prices.
  let follower: VenueFollower | null = null;
  if (options.followVenue) {
    try {
      // Constructed in here: it refuses a bad URL or band by throwing, and what started must stop.
      follower = new VenueFollower(venue, options.followVenue);
      await follower.start();
    } catch (err) {
      follower?.stop();
      engine.stop();
      venue.stop();
      clock.stop();
      throw err;
    }
  }

  // The venue's transports, built here on the model: the info API and the WebSocket hub read it as a VenueMarketSource.
  const venueInfo = createInfoModule(venue);
  const venueSockets = new VenueWebSocketHub(venue);
  const control = createControlModule({ engine, venue, venueSockets, clock, save, follow: () => follower?.status() ?? null });
  const server = await startServer(
    {
      trading: engine.api,
      bridge: companions.bridge,
      points: companions.points,
      aggregator: companions.aggregator,
      inference: companions.inference,
      rpc: companions.rpc,
      venueInfo,
      control,
      companionControl: companions.control,
    },
    options.port ?? 0,
    () => clock.now(),
    chaosBeforeRoute(() => engine.ctx, random.chaos, PATHS.base),
    (http) => venueSockets.attach(http, PATHS.venueWs),
  );

  let stopped: Promise<void> | null = null;
  return {
    urls: urlsFor(server.port),
    clock,
    config,
    engine,
    venue,
    venueInfo,
    venueSockets,
    follower,
    save,
    stop(): Promise<void> {
      stopped ??= (async () => {
        follower?.stop();
        save();
        engine.stop();
        venue.stop();
        await venueSockets.close();
        await server.close();
        clock.stop();
      })();
      return stopped;
    },
  };
}

/** A step of restoring from the state file `file`: a snapshot the step refuses is the file's refusal, naming it. */
function fromStateFile<T>(file: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof SnapshotError) throw new StateFileError(`state file ${file}: ${err.message}`, { cause: err });
    throw err;
  }
}
