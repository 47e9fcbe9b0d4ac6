/**
 * An unknown command prints commander's suggestion ("(Did you mean order?)") and one line on where the
 * list is, not the whole help: a typo deserves its correction, not a screen of text to scroll back over.
 * Every other usage error keeps the help after it (showHelpAfterError in main.ts).
 */
import type { Command } from 'commander';

function* withSubcommands(cmd: Command): Generator<Command> {
  yield cmd;
  for (const c of cmd.commands) yield* withSubcommands(c);
}

export function suggestOnlyOnUnknownCommand(program: Command): void {
  for (const cmd of withSubcommands(program)) {
    const error = cmd.error.bind(cmd);
    cmd.error = (message: string, options?: { code?: string; exitCode?: number }): never => {
      if (options?.code !== 'commander.unknownCommand') return error(message, options);
      const self = cmd as unknown as { _showHelpAfterError: boolean | string };
      self._showHelpAfterError = `(\`${cmd.parent ? `perps ${cmd.name()}` : 'perps'} --help\` lists the commands)`;
      return error(message, options);
    };
  }
}
