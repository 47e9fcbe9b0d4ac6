/**
 * The one `perps` runner of the CLI tests that work on a world (a simulator on loopback, a data folder and
 * a keychain service of their own): the sim profile's globals pointed at that world, the keychain service
 * in the environment, and with --json the one document stdout must be, parsed.
 *
 * In this process by default (perpsInProcess.ts: the same main a shell runs, without a child's start-up);
 * `{ child: true }` for what a shell alone shows: signals, a real exit, stdin, the loopback guard's hook.
 */
import { perpsInProcess } from './perpsInProcess.js';
import { jsonOf, runPerps, type PerpsRun } from './perpsCli.js';

export type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface WorldRun extends PerpsRun {
  /** stdout's one JSON document with --json; {} without. */
  json: J;
}

export interface CliWorld {
  readonly sim: { readonly urls: { readonly base_url: string; readonly venue_info_url: string } };
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
    const r = o.child ? await runPerps([...globals, ...args], { ...process.env, ...vars }) : await perpsInProcess([...globals, ...args], vars);
    return { ...r, json: args.includes('--json') ? (jsonOf(r) as J) : {} };
  };
}
