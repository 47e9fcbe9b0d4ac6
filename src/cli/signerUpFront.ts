/**
 * The --signer check that signing commands run first. It lives beside the signers (signerSpec.ts), not in
 * globals.ts, so commands that sign nothing (`perps markets`, `perps price`) load no signing code.
 */
import { requirePaperWalletProfile } from '../main/services/serviceContext.js';
import { signingProfileOf, type GlobalOptions } from './globals.js';
import { parseSignerSpec, type SignerSpec } from './signerSpec.js';

/**
 * --signer parsed before any network call, so a missing or malformed one is a usage error first. A paper
 * signer is also checked against the profile then (the sim profile, its service on loopback): a sim
 * profile aimed at another host is refused before a connection is opened, not after a prepare that read
 * from it.
 */
export function signerSpecUpFront(globals: GlobalOptions, env: NodeJS.ProcessEnv = process.env): SignerSpec {
  const spec = parseSignerSpec(globals.signer);
  if (spec.kind === 'paper') requirePaperWalletProfile(signingProfileOf(globals, env));
  return spec;
}
