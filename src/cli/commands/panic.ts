/**
 * `perps panic --wallet ADDR [--yes]` (issue 39 item 6): stop every algorithm, cancel every resting order
 * and trigger, close every position at market, then report what was done and what failed. Asks on a
 * terminal unless --yes; without a terminal and without --yes it refuses (exit 2) and does nothing. A
 * panic cut short (the process killed) is finished by the next `perps panic` for that wallet, or by the
 * app's next start. Works during a lockout and with no limits set.
 */
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import { panic, panicReport, type PanicStep } from '../../main/services/risk/panic.js';
import { ValidationError } from '../../main/services/errors.js';
import { contextOf, globalsOf } from '../globals.js';
import { runAction } from '../output.js';

/** A test hook: the process kills itself (SIGKILL) right after this step is written, to prove a restart finishes the panic. */
const CRASH_AFTER = 'PERPS_TEST_PANIC_KILL_AFTER';

export function registerPanicCommands(program: Command): void {
  program
    .command('panic')
    .description('stop every algorithm, cancel every order and trigger, close every position at market; asks unless --yes')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--yes', 'do not ask')
    .action(async (opts: { wallet: string; yes?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        if (opts.yes !== true) {
          if (process.stdin.isTTY !== true) throw new ValidationError('panic needs a confirmation: run it on a terminal, or pass --yes', { field: 'yes', code: 'CONFIRMATION_REQUIRED' });
          const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
          const answer = await rl.question(`Panic ${opts.wallet}: stop every algorithm, cancel every order and trigger, and close every position at market? Type "panic" to go on: `);
          rl.close();
          if (answer.trim().toLowerCase() !== 'panic') throw new ValidationError('not confirmed; nothing was done', { field: 'yes', code: 'NOT_CONFIRMED' });
        }
        const crashAfter = process.env[CRASH_AFTER] as PanicStep | undefined;
        const record = await panic(contextOf(g), opts.wallet, {
          onProgress: (t) => out.note(t),
          ...(crashAfter ? { afterStep: (s: PanicStep) => void (s === crashAfter && process.kill(process.pid, 'SIGKILL')) } : {}),
        });
        out.result(record, () => panicReport(record).join('\n'));
        return record.failures.length > 0 ? 1 : undefined;
      });
    });
}
