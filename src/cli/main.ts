/**
 * The `perps` command line. Each subcommand lives in src/cli/commands/<name>.ts and exports
 * `register(program)` (or a registerXCommands function adapted below); add new ones to COMMANDS.
 *
 * Global options (--profile, --base-url, --venue-url, --data-dir, --json, --signer) are defined once
 * here and read by every subcommand through globalsOf(command). Exit codes: 0 success, 1 the operation
 * failed, 2 bad usage or a validation error; commander's own usage errors are mapped to 2 here.
 */
import { Command, CommanderError } from 'commander';
import * as sim from './commands/sim.js';
import { registerConfigCommands } from './commands/config.js';
import { registerKeysCommands } from './commands/keys.js';
import { registerWithdrawCommands } from './commands/withdraw.js';
import { registerOrderCommands } from './commands/order.js';
import { registerOrdersCommands } from './commands/orders.js';
import { registerPositionCommands } from './commands/position.js';
import { registerPositionsCommands } from './commands/positions.js';
import { registerMarginCommands } from './commands/margin.js';
import { registerHistoryCommands } from './commands/history.js';
import { registerBridgeCommands } from './commands/bridge.js';
import { registerPointsCommands } from './commands/points.js';
import { registerSwapCommands } from './commands/swap.js';
import { addGlobalOptions } from './globals.js';
import { Output, failureDocument } from './output.js';
import { describeFailure } from '../main/services/errors.js';

interface CommandModule {
  register(program: Command): void;
}

const COMMANDS: readonly CommandModule[] = [
  sim,
  { register: registerConfigCommands },
  { register: registerKeysCommands },
  { register: registerWithdrawCommands },
  { register: registerOrderCommands },
  { register: registerOrdersCommands },
  { register: registerPositionCommands },
  { register: registerPositionsCommands },
  { register: registerMarginCommands },
  { register: registerHistoryCommands },
  { register: registerBridgeCommands },
  { register: registerPointsCommands },
  { register: registerSwapCommands },
];

/** Commander's codes for help and version output: a success, not a usage error. */
const NOT_ERRORS = new Set(['commander.helpDisplayed', 'commander.version']);

export function buildProgram(): Command {
  const program = new Command();
  program.name('perps').description('Perps Desk command line').showHelpAfterError();
  addGlobalOptions(program);
  // Throw instead of exiting so usage errors get exit code 2 (commander's default is 1); subcommands
  // created after this call inherit the setting.
  program.exitOverride();
  for (const c of COMMANDS) c.register(program);
  return program;
}

function wantsJson(argv: readonly string[]): boolean {
  // Options after `--` are operands, not flags.
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  const program = buildProgram();
  const json = wantsJson(argv.slice(2));
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
      if (json) process.stdout.write(JSON.stringify(failureDocument({ code: 'USAGE', kind: 'validation', message: err.message.replace(/^error: /, ''), exitCode: 2 }), null, 2) + '\n');
      process.exitCode = 2;
      return;
    }
    // Subcommands report their own failures; anything reaching here escaped them and is still reported.
    process.exitCode = new Output({ json }).fail(err);
  }
}

await main().catch((err: unknown) => {
  const f = describeFailure(err);
  console.error(`error [${f.code}]: ${f.message}`);
  process.exitCode = f.exitCode;
});
