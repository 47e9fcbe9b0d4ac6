/**
 * The global options every `perps` subcommand understands, and the one way a subcommand turns them into a
 * ServiceContext. Subcommands read them with globalsOf(command) (commander's optsWithGlobals), so an
 * option may be written before or after the subcommand name.
 */
import { Command, Option } from 'commander';
import { resolveProfile, PROFILE_NAMES, type Profile } from '../main/profiles/profiles.js';
import { createServiceContext, type ServiceContext } from '../main/services/serviceContext.js';

export interface GlobalOptions {
  baseUrl?: string;
  venueUrl?: string;
  profile?: string;
  dataDir?: string;
  json?: boolean;
  /** Main-wallet signer spec (keystore:FILE, env:VAR, offline, ledger[:PATH]). */
  signer?: string;
}

export function addGlobalOptions(program: Command): Command {
  return program
    .addOption(new Option('--profile <name>', `service profile (env PERPS_PROFILE; default sim)`).choices([...PROFILE_NAMES]))
    .option('--base-url <url>', 'trading API root including /api/v1 (env PERPS_BASE_URL)')
    .option('--venue-url <url>', "the venue's info API URL (env PERPS_VENUE_URL)")
    .option('--data-dir <dir>', 'settings, nonces and tracked withdrawals (env PERPS_DATA_DIR; default: the app data folder)')
    .option('--json', 'print exactly one JSON document on stdout')
    .option('--signer <spec>', 'main-wallet signer: keystore:FILE | env:VAR | offline | ledger[:PATH]');
}

export function globalsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

export function profileOf(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Profile {
  return resolveProfile({ profile: globals.profile, baseUrl: globals.baseUrl, venueUrl: globals.venueUrl, dataDir: globals.dataDir }, env);
}

/** The services of the resolved profile; the keychain service name honours PERPS_KEYCHAIN_SERVICE. */
export function contextOf(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): ServiceContext {
  return createServiceContext(profileOf(globals, env), { env });
}
