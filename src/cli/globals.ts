/**
 * The global options every `perps` subcommand understands, and the one way a subcommand turns them into a
 * ServiceContext. Subcommands read them with globalsOf(command) (commander's optsWithGlobals), so an
 * option may be written before or after the subcommand name.
 */
import { ProfileError, resolveProfile, type Profile } from '../main/profiles/profiles.js';
import { nodeHttpFetch } from '../main/api/nodeHttpFetch.js';
import { createServiceContext, type ServiceContext, type ServiceContextOptions } from '../main/services/serviceContext.js';
import type { GlobalOptions } from './globalOptions.js';
import { oneLineText } from '../shared/safeText.js';

// The options themselves live in globalOptions.ts, which loads nothing heavy (`perps --help` needs them
// before any command is loaded); subcommands keep importing everything from here.
export { addGlobalOptions, globalsOf, type GlobalOptions } from './globalOptions.js';

/**
 * The time a run's services keep: what they wait on (`sleep`) and the local clock the service's clock is
 * measured against (`localNow`). This machine's unless main() was given another (runWithServiceTime).
 */
export type ServiceTime = Pick<ServiceContextOptions, 'sleep' | 'localNow'>;

let serviceTime: ServiceTime = {};

/**
 * Runs `run` with every context it builds keeping `time`. The one caller is main(), for the run it was
 * asked to make: a program embedding the command line on a simulator's manual clock (the tests do, in
 * their own process) waits on that clock, as the app's core does with its `service` option.
 */
export async function runWithServiceTime<T>(time: ServiceTime, run: () => Promise<T>): Promise<T> {
  const before = serviceTime;
  serviceTime = time;
  try {
    return await run();
  } finally {
    serviceTime = before;
  }
}

export function profileOf(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Profile {
  return resolveProfile({ profile: globals.profile, baseUrl: globals.baseUrl, venueUrl: globals.venueUrl, dataDir: globals.dataDir }, env);
}

/**
 * The services of the resolved profile; the keychain service name honours PERPS_KEYCHAIN_SERVICE. They
 * talk HTTP through node:http (nodeHttpFetch.ts says why: a command's start-up time).
 */
export function contextOf(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): ServiceContext {
  return createServiceContext(profileOf(globals, env), { env, fetch: nodeHttpFetch, onClockRefreshFailed: clockRefreshFailed, ...serviceTime });
}

/** A long-running command (a watch, a TWAP, a chase) says on stderr when the service clock could not be read again. */
function clockRefreshFailed(err: Error): void {
  process.stderr.write(`warning: the service clock could not be read again (${oneLineText(err.message)}); the last offset keeps answering\n`);
}

/**
 * Stand-in service addresses for signing only. The .invalid top-level domain never resolves (RFC 2606),
 * so a request made by mistake fails at once instead of reaching anything.
 */
export const SIGNING_ONLY_BASE_URL = 'https://service.invalid/api/v1';
export const SIGNING_ONLY_VENUE_URL = 'https://venue.invalid/info';

/**
 * The services for a command that only signs (the offline half of a ceremony: `keys authorize --out`,
 * `withdraw --out`). The profile still decides the environment and chain id that are signed, but nothing
 * is fetched, so on a machine where the profile's service addresses were never configured (an air-gapped
 * one, for mainnet) they resolve to stand-ins that are never contacted.
 */
export function signingContextOf(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): ServiceContext {
  return createServiceContext(signingProfileOf(globals, env), { env, fetch: nodeHttpFetch, ...serviceTime });
}

export function signingProfileOf(globals: GlobalOptions, env: NodeJS.ProcessEnv): Profile {
  try {
    return profileOf(globals, env);
  } catch (err) {
    if (!(err instanceof ProfileError) || err.code !== 'PROFILE_NOT_CONFIGURED') throw err;
    return profileOf({ ...globals, baseUrl: globals.baseUrl ?? SIGNING_ONLY_BASE_URL, venueUrl: globals.venueUrl ?? SIGNING_ONLY_VENUE_URL }, env);
  }
}
