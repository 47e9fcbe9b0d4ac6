/**
 * The global options every `perps` subcommand understands, and the one way a subcommand turns them into a
 * ServiceContext. Subcommands read them with globalsOf(command) (commander's optsWithGlobals), so an
 * option may be written before or after the subcommand name.
 */
import { Command, Option } from 'commander';
import { ProfileError, resolveProfile, PROFILE_NAMES, type Profile } from '../main/profiles/profiles.js';
import { createServiceContext, type ServiceContext } from '../main/services/serviceContext.js';

export interface GlobalOptions {
  baseUrl?: string;
  venueUrl?: string;
  profile?: string;
  dataDir?: string;
  json?: boolean;
  /** Main-wallet signer spec (keystore:FILE, env:VAR, offline, ledger[:PATH]). */
  signer?: string;
  /** Ledger: consent to blind signing given up front (see signerSpec.ts). */
  allowBlindSigning?: boolean;
  /** Offline signer: where the signing request goes instead of stdout. */
  requestOut?: string;
  /** Offline signer: an .html page or a folder for the animated eth-sign-request QR code. */
  qr?: string;
  /** Offline signer with --qr: the QR signer's master key fingerprint (8 hex). */
  qrFingerprint?: string;
  /** Offline signer with --qr: the wallet's derivation path on the QR signer. */
  qrPath?: string;
}

export function addGlobalOptions(program: Command): Command {
  return program
    .addOption(new Option('--profile <name>', `service profile (env PERPS_PROFILE; default sim)`).choices([...PROFILE_NAMES]))
    .option('--base-url <url>', 'trading API root including /api/v1 (env PERPS_BASE_URL)')
    .option('--venue-url <url>', "the venue's info API URL (env PERPS_VENUE_URL)")
    .option('--data-dir <dir>', 'settings, nonces and tracked withdrawals (env PERPS_DATA_DIR; default: the app data folder)')
    .option('--json', 'print exactly one JSON document on stdout')
    .option('--signer <spec>', 'main-wallet signer: keystore:FILE | env:VAR | offline | ledger[:PATH]')
    .option('--allow-blind-signing', 'ledger: accept blind signing (the device shows only two hashes) without asking on the terminal')
    .option('--request-out <file>', 'offline signer: write the signing request (typed data JSON) to this file instead of stdout')
    .option('--qr <file.html|dir>', 'offline signer: also write the request as an animated eth-sign-request QR code (a page, or numbered frames in a folder)')
    .option('--qr-fingerprint <hex>', "offline signer with --qr: the QR signer's master key fingerprint (8 hex characters)")
    .option('--qr-path <path>', `offline signer with --qr: the wallet's derivation path on the QR signer (default m/44'/60'/0'/0/0)`);
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
  let profile: Profile;
  try {
    profile = profileOf(globals, env);
  } catch (err) {
    if (!(err instanceof ProfileError) || err.code !== 'PROFILE_NOT_CONFIGURED') throw err;
    profile = profileOf({ ...globals, baseUrl: globals.baseUrl ?? SIGNING_ONLY_BASE_URL, venueUrl: globals.venueUrl ?? SIGNING_ONLY_VENUE_URL }, env);
  }
  return createServiceContext(profile, { env });
}
