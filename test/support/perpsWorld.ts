/**
 * The one `perps` runner of the CLI tests that work on a world (a simulator on loopback, a data folder and
 * a keychain service of their own): the sim profile's globals pointed at that world, the keychain service
 * in the environment, and with --json the one document stdout must be, parsed.
 *
 * In this process by default (perpsInProcess.ts: the same main a shell runs, without a child's start-up);
 * `{ child: true }` for what a shell alone shows: signals, a real exit, stdin, the loopback guard's hook.
 *
 * Time (issue 37): a run in this process against a simulator whose clock is manual keeps the simulator's
 * time. Its services measure the service's clock against the simulator's, and each of their waits moves
 * that clock by its length (simClockTime), so a TWAP's slices, a chase's re-prices or an order's polls run
 * in simulated time, deterministically, without waiting. A child process keeps its machine's clock: it
 * needs a simulator on the wall clock.
 */
import type { SimClock } from '../../src/sim/runtime/clock.js';
import type { ServiceTime } from '../../src/cli/globals.js';
import { perpsInProcess } from './perpsInProcess.js';
import { jsonOf, runPerps, type PerpsRun } from './perpsCli.js';

export type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface WorldRun extends PerpsRun {
  /** stdout's one JSON document with --json; {} without. */
  json: J;
}

export interface CliWorld {
  readonly sim: { readonly urls: { readonly base_url: string; readonly venue_info_url: string }; readonly clock?: SimClock };
  readonly dataDir: string;
  readonly keychainService: string;
}

export type WorldPerps = (args: string[], env?: Record<string, string>) => Promise<WorldRun>;

/** `perps ARGS` against `world()` (read at each run: the world is booted in a beforeAll). */
export function perpsOn(world: () => CliWorld, o: { child?: boolean } = {}): WorldPerps {
  return async (args, env = {}) => {
    const w = world();
    const globals = ['--profile', 'sim', '--base-url', w.sim.urls.base_url, '--venue-url', w.sim.urls.venue_info_url, '--data-dir', w.dataDir];
    const vars = { PERPS_KEYCHAIN_SERVICE: w.keychainService, ...env };
    const clock = w.sim.clock;
    const r = o.child ? await runPerps([...globals, ...args], { ...process.env, ...vars }) : await perpsInProcess([...globals, ...args], vars, clock?.manual ? { time: simClockTime(clock) } : {});
    return { ...r, json: args.includes('--json') ? (jsonOf(r) as J) : {} };
  };
}

/**
 * A manual simulator clock as a run's time: a wait of `ms` moves the clock `ms` (running whatever falls
 * due: fills, funding, a venue's walk), then lets sockets and timers run once before the caller goes on.
 */
export function simClockTime(clock: SimClock): ServiceTime {
  if (!clock.manual) throw new Error('simClockTime: the simulator runs on the wall clock');
  return {
    localNow: () => clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      if (ms > 0) clock.advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
