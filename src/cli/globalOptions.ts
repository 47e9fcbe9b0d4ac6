/**
 * The global options of `perps` and how a subcommand reads them. Kept apart from globals.ts (which turns
 * them into a ServiceContext) because `perps --help` needs them before any command loads, and this
 * module imports nothing but commander and the profile names: the start-up stays cheap.
 */
import { Option, type Command } from 'commander';
import { PROFILE_NAMES } from '../main/profiles/profileNames.js';

export interface GlobalOptions {
  baseUrl?: string;
  venueUrl?: string;
  profile?: string;
  dataDir?: string;
  json?: boolean;
  /** Main-wallet signer spec (keystore:FILE, env:VAR, offline, ledger[:PATH], trezor[:PATH], paper). */
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
    .option('--signer <spec>', "main-wallet signer: keystore:FILE | env:VAR | offline | ledger[:PATH] | trezor[:PATH] | paper (sim profile only, its service on loopback)")
    .option('--allow-blind-signing', 'ledger, trezor (Model One): accept signing by hashes (the device shows only two hashes) without asking on the terminal')
    .option('--request-out <file>', 'offline signer: write the signing request (typed data JSON) to this file instead of stdout')
    .option('--qr <file.html|dir>', 'offline signer: also write the request as an animated eth-sign-request QR code (a page, or numbered frames in a folder)')
    .option('--qr-fingerprint <hex>', "offline signer with --qr: the QR signer's master key fingerprint (8 hex characters)")
    .option('--qr-path <path>', `offline signer with --qr: the wallet's derivation path on the QR signer (default m/44'/60'/0'/0/0)`);
}

export function globalsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}
