/**
 * The `perps` command line. Each subcommand lives in src/cli/commands/<name>.ts and exports a function
 * registering it on the program; COMMAND_GROUPS below lists every top-level command, one line each.
 *
 * Start-up is lazy: only the module of the command named on the command line is imported and registered
 * in full. Every other command is a stub carrying just its name and description, so `perps --help` still
 * lists them all without loading any of them, `perps order --help` shows order's full help, and an
 * unknown command is still refused by commander (exit 2).
 *
 * Global options (--profile, --base-url, --venue-url, --data-dir, --json, --signer) are defined once
 * (globalOptions.ts) and read by every subcommand through globalsOf(command). Exit codes: 0 success, 1 the
 * operation failed, 2 bad usage or a validation error; commander's own usage errors are mapped to 2 here.
 * bin/perps.js runs the built copy of this file (out/cli/main.js) through run().
 */
import { Command, CommanderError, Help } from 'commander';
import { version } from '../../package.json';
import { jsonForTerminal, terminalText } from '../shared/safeText.js';
import { addGlobalOptions } from './globalOptions.js';
import type { ServiceTime } from './globals.js';

/** Registers a module's commands on the program: the function each command file exports. */
export type Registrar = (program: Command) => void;

export interface CommandGroup {
  /** How `perps --help` lists the command: its name, then ` [options]` when it has options of its own. */
  readonly term: string;
  /** The description the command file gives it (the command table test checks term and description). */
  readonly description: string;
  /** Imports the module(s) registering the command; called only when the command line names it. */
  readonly load: () => Promise<readonly Registrar[]>;
}

/** Every top-level command, in the order `perps --help` lists them. Adding a command is adding a line. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { term: 'sim [options]', description: 'run the local simulator of the trading service (paper trading, tests)', load: async () => [(await import('./commands/sim.js')).register] },
  { term: 'quickstart [options]', description: 'sim profile: create a paper wallet, authorize a trading key and fund it from the faucet, in one step', load: async () => [(await import('./commands/quickstart.js')).registerQuickstartCommands] },
  { term: 'markets [options]', description: "list the markets the service offers (GET /markets) with the venue's mark, 24 h change, funding and open interest", load: async () => [(await import('./commands/config.js')).registerConfigCommands] },
  { term: 'config [options]', description: 'show the profile and the funding configuration (GET /config): deposit address, minimums, fees', load: async () => [(await import('./commands/config.js')).registerConfigCommands] },
  { term: 'book [options] <market>', description: "the venue's order book of a market, grouped as in the app (--sig-figs)", load: async () => [(await import('./commands/marketData.js')).registerMarketDataCommands] },
  { term: 'price <market>', description: 'the venue mark of a market', load: async () => [(await import('./commands/marketData.js')).registerMarketDataCommands] },
  { term: 'keys', description: 'trading keys (agents): create, authorize, list, revoke, renew', load: async () => [(await import('./commands/keys.js')).registerKeysCommands] },
  { term: 'withdraw [options]', description: 'withdraw USDC to the wallet itself (signed by the main wallet), optionally waiting until it completes', load: async () => [(await import('./commands/withdraw.js')).registerWithdrawCommands] },
  { term: 'balance [options]', description: "the account's free balance and health: posted margin, unrealized PnL, computed equity, maintenance margin, margin ratio, leverage", load: async () => [(await import('./commands/withdraw.js')).registerWithdrawCommands] },
  { term: 'history', description: "account history: orders, trades, funding, deposits, withdrawals (--csv like the app's export)", load: async () => [(await import('./commands/history.js')).registerHistoryCommands] },
  { term: 'fills [options]', description: 'fills of the wallet, newest first, with price, fee and realized PnL (the same as `perps history trades`)', load: async () => [(await import('./commands/history.js')).registerHistoryCommands] },
  { term: 'portfolio [options]', description: "how the account is doing, rebuilt from the service's records: equity and PnL curves, fees, funding, volume, win rate, drawdown, and the ledger check", load: async () => [(await import('./commands/portfolio.js')).registerPortfolioCommands] },
  { term: 'order', description: "place, follow, modify and cancel orders (signed by the wallet's trading key)", load: async () => [(await import('./commands/order.js')).registerOrderCommands] },
  { term: 'do [options] <phrase>', description: "a trade in plain words, as in the app's command palette: prints the review; --yes signs and sends it", load: async () => [(await import('./commands/do.js')).registerDoCommands] },
  { term: 'twap', description: 'TWAP: a total size sent as market slices over a duration (runs in the foreground; Ctrl-C pauses)', load: async () => [(await import('./commands/twap.js')).registerTwapCommands] },
  { term: 'alert', description: 'price, move, funding, PnL and liquidation-distance alerts, kept in the data folder and shared with the app', load: async () => [(await import('./commands/alert.js')).registerAlertCommands] },
  { term: 'limits', description: 'your own risk limits (daily loss, drawdown, notional, leverage, order rate), enforced before every order is signed', load: async () => [(await import('./commands/limits.js')).registerLimitsCommands] },
  { term: 'panic [options]', description: 'stop every algorithm, cancel every order and trigger, close every position at market; asks unless --yes', load: async () => [(await import('./commands/panic.js')).registerPanicCommands] },
  { term: 'orders', description: "the wallet's open orders, armed triggers and order history (`orders history`, also `perps history orders`)", load: async () => [(await import('./commands/orders.js')).registerOrdersCommands] },
  { term: 'position', description: 'act on positions: close (all, part, at a limit), close all, reverse, TP/SL, trailing stop', load: async () => [(await import('./commands/position.js')).registerPositionCommands] },
  { term: 'positions [options]', description: 'open positions of the wallet (they appear shortly after a fill: /positions lags)', load: async () => [(await import('./commands/positions.js')).registerPositionsCommands] },
  { term: 'margin [options]', description: 'add (positive amount) or remove (negative amount) isolated margin on a position', load: async () => [(await import('./commands/margin.js')).registerMarginCommands] },
  { term: 'bridge', description: 'cross-chain transfers through the bridge API (quote, send, track)', load: async () => [(await import('./commands/bridge.js')).registerBridgeCommands] },
  { term: 'points', description: 'partner points: estimates and credited totals', load: async () => [(await import('./commands/points.js')).registerPointsCommands] },
  { term: 'swap [options]', description: 'swap on one chain through the aggregator (with the partner code), signed with --signer', load: async () => [(await import('./commands/swap.js')).registerSwapCommands] },
];

/** Commander's codes for help and version output: a success, not a usage error. */
const NOT_ERRORS = new Set(['commander.helpDisplayed', 'commander.version']);

export function commandNameOf(group: CommandGroup): string {
  return group.term.split(' ', 1)[0]!;
}

/**
 * The top-level command a command line names, found the way commander itself finds it: the first
 * operand once the global options (and their values) are taken out; `perps help X` names X. Undefined
 * when there is none, or when the global options are malformed (the real parse then reports that).
 */
export function commandNamedIn(args: readonly string[]): string | undefined {
  const probe = addGlobalOptions(new Command())
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  let operands: string[];
  try {
    ({ operands } = probe.parseOptions([...args]));
  } catch {
    return undefined;
  }
  return operands[0] === 'help' ? operands[1] : operands[0];
}

/** Loads the registrars of these groups, each module once (markets and config share one, for instance). */
async function registrarsOf(groups: readonly CommandGroup[]): Promise<Registrar[]> {
  const all = new Set<Registrar>();
  for (const g of groups) for (const r of await g.load()) all.add(r);
  return [...all];
}

/** The program with these modules registered, and a stub for every command of the table they left out. */
function programWith(registrars: readonly Registrar[]): { program: Command; stubs: ReadonlySet<string> } {
  const program = new Command();
  const stubTerms = new WeakMap<Command, string>();
  program.name('perps').description('Perps Desk command line').version(version, '-V, --version', 'print the version of Perps Desk').showHelpAfterError();
  // Commander quotes what was typed in its errors (an unknown option, a refused argument): a pasted escape
  // sequence would reach the terminal as typed. Its errors are printed as terminal text, like every other
  // output (issue 36); subcommands share this setting (commander copies it to each as it is created).
  program.configureOutput({ outputError: (text, write) => write(terminalText(text)) });
  // A stub has no options of its own; the table says how the loaded command would be listed.
  program.configureHelp({
    subcommandTerm(this: Help, cmd: Command): string {
      return stubTerms.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
    },
  });
  addGlobalOptions(program);
  // Throw instead of exiting so usage errors get exit code 2 (commander's default is 1); subcommands
  // created after this call inherit the setting.
  program.exitOverride();
  for (const register of registrars) register(program);
  // TP/SL lifted by a close that was killed before re-arming them go back first (issue 35, item 2).
  program.hook('preAction', async (_program, action) => {
    const { restoreProtectionBeforeCommand } = await import('./restoreProtection.js');
    await restoreProtectionBeforeCommand(action);
  });
  const loaded = new Set(program.commands.map((c) => c.name()));
  const stubs = new Set<string>();
  for (const group of COMMAND_GROUPS) {
    const name = commandNameOf(group);
    if (loaded.has(name)) continue;
    stubTerms.set(program.command(name).description(group.description), group.term);
    stubs.add(name);
  }
  return { program, stubs };
}

/**
 * The program for this command line (arguments after the node and script paths): the command it names
 * is loaded in full, every other one is a stub for the help listing.
 */
export async function buildProgram(args: readonly string[]): Promise<Command> {
  const name = commandNamedIn(args);
  const group = COMMAND_GROUPS.find((g) => commandNameOf(g) === name);
  const { program, stubs } = programWith(group ? await registrarsOf([group]) : []);
  // A table line whose module does not register its command would leave a stub that does nothing.
  if (group && stubs.has(commandNameOf(group))) throw new Error(`the module listed for 'perps ${commandNameOf(group)}' in COMMAND_GROUPS does not register it`);
  return program;
}

/** Every command loaded (the command table test compares its help with the lazy program's). */
export async function buildFullProgram(): Promise<Command> {
  return programWith(await registrarsOf(COMMAND_GROUPS)).program;
}

function wantsJson(argv: readonly string[]): boolean {
  // Options after `--` are operands, not flags.
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export interface MainOptions {
  /**
   * The time the run's services keep (globals.ts, ServiceTime): this machine's clock when omitted, as
   * bin/perps.js runs it. A program running the command line in its own process on a simulator with a
   * manual clock gives that clock, so a TWAP's waits or an order's polls move with it.
   */
  time?: ServiceTime;
}

export async function main(argv: readonly string[] = process.argv, options: MainOptions = {}): Promise<void> {
  if (options.time === undefined) return runMain(argv);
  // globals.ts loads the services: only a run that needs them imports it (`perps --help` stays light).
  const { runWithServiceTime } = await import('./globals.js');
  return runWithServiceTime(options.time, () => runMain(argv));
}

async function runMain(argv: readonly string[]): Promise<void> {
  const json = wantsJson(argv.slice(2));
  const program = await buildProgram(argv.slice(2));
  // A command given no --wallet acts for the profile's default wallet and names it (defaultWallet.ts);
  // with only the help's stubs loaded nothing acts for a wallet, and start-up stays commander alone.
  if (program.commands.some((c) => c.options.length > 0 || c.commands.length > 0)) (await import('./defaultWallet.js')).applyDefaultWallet(program, argv.slice(2), json);
  (await import('./unknownCommand.js')).suggestOnlyOnUnknownCommand(program);
  (await import('./marketCase.js')).applyMarketCase(program);
  if (json) {
    // With --json, stdout carries one document: commander's usage text goes to stderr only.
    program.configureOutput({ writeOut: (s) => process.stderr.write(s) });
  }
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (NOT_ERRORS.has(err.code)) {
        process.exitCode = 0;
        return;
      }
      // Commander already wrote its message to stderr; with --json the document says it too.
      if (err.code === 'commander.missingMandatoryOptionValue' && err.message.includes("'--wallet")) process.stderr.write('hint: set a default wallet once with `perps config wallet ADDR`, then --wallet is optional\n');
      if (json) {
        const { failureDocument } = await import('./output.js');
        process.stdout.write(jsonForTerminal(JSON.stringify(failureDocument({ code: 'USAGE', kind: 'validation', message: err.message.replace(/^error: /, ''), exitCode: 2 }), null, 2)) + '\n');
      }
      process.exitCode = 2;
      return;
    }
    // Subcommands report their own failures; anything reaching here escaped them and is still reported.
    // output.js (and the error vocabulary it loads) is imported only now: a run that succeeds never needs it.
    const { Output } = await import('./output.js');
    process.exitCode = new Output({ json }).fail(err);
  }
}

/** The whole run, as bin/perps.js starts it: nothing escapes unreported. */
export async function run(argv: readonly string[] = process.argv): Promise<void> {
  await main(argv).catch(async (err: unknown) => {
    const { describeFailure } = await import('../main/services/errors.js');
    const f = describeFailure(err);
    console.error(`error [${f.code}]: ${f.message}`);
    process.exitCode = f.exitCode;
  });
}
