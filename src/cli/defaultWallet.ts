/**
 * The default wallet on the command line: every command with a --wallet option takes the profile's
 * default (`perps config wallet ADDR`) when none is given, and names it on stderr before it acts, so
 * the wallet a command acts for is never silent. `perps quickstart --wallet` (which paper wallet to
 * reuse) is not a wallet to act for and is left alone.
 *
 * Applied once the command line's program is built and before it is parsed: the default is set as the
 * option's value with source 'default', so an explicit --wallet wins and commander's required-option
 * check is satisfied only when a default exists.
 */
import { Command } from 'commander';
import { ProfileError, resolveProfile } from '../main/profiles/profiles.js';
import { readDefaultWallet } from '../main/services/settings/defaultWallet.js';
import { openNodeSettings } from '../main/settings/settingsStore.js';
import { addGlobalOptions, type GlobalOptions } from './globalOptions.js';

/** Commands whose --wallet is not the wallet they act for. */
const NOT_ACTING_FOR = new Set(['quickstart']);

/** The global options of a command line (undefined when they are malformed: the real parse says so). */
function globalsIn(args: readonly string[]): GlobalOptions | undefined {
  const probe = addGlobalOptions(new Command()).allowUnknownOption().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  try {
    probe.parseOptions([...args]);
    return probe.opts<GlobalOptions>();
  } catch {
    return undefined;
  }
}

/** The profile's default wallet for this command line, or null (none set, or a profile that does not resolve: the command reports that itself). */
export function defaultWalletFor(args: readonly string[], env: NodeJS.ProcessEnv = process.env): { wallet: string; profile: string } | null {
  const g = globalsIn(args);
  if (!g) return null;
  try {
    const profile = resolveProfile({ profile: g.profile, baseUrl: g.baseUrl, venueUrl: g.venueUrl, dataDir: g.dataDir }, env);
    const wallet = readDefaultWallet(openNodeSettings(profile.dataDir), profile.name);
    return wallet ? { wallet, profile: profile.name } : null;
  } catch (err) {
    if (err instanceof ProfileError) return null;
    throw err;
  }
}

function* commandsOf(cmd: Command): Generator<Command> {
  for (const c of cmd.commands) {
    yield c;
    yield* commandsOf(c);
  }
}

/** Sets the default on every command acting for a wallet, and names it when a command uses it. */
export function applyDefaultWallet(program: Command, args: readonly string[], json: boolean, stderr: NodeJS.WritableStream = process.stderr): void {
  const acting = [...commandsOf(program)].filter((cmd) => !(cmd.parent === program && NOT_ACTING_FOR.has(cmd.name())) && cmd.options.some((o) => o.long === '--wallet'));
  // Nothing loaded acts for a wallet (`perps --help`, `perps markets`): the settings are not read at all.
  if (acting.length === 0) return;
  const found = defaultWalletFor(args);
  if (!found) return;
  for (const cmd of acting) {
    cmd.setOptionValueWithSource('wallet', found.wallet, 'default');
    cmd.hook('preAction', (_hooked, action) => {
      if (action === cmd && action.getOptionValueSource('wallet') === 'default' && !json) {
        stderr.write(`wallet: ${found.wallet} (your default on profile ${found.profile}; \`perps config wallet\` changes it, --wallet overrides it)\n`);
      }
    });
  }
}
