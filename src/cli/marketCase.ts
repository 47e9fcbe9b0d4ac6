/**
 * Market symbols in any case on the command line: `--market btc` is BTC. Before a command with a
 * --market option acts, the value is matched against the service's own list (GET /markets, never a list
 * of ours) without regard to case and replaced by the symbol as the service spells it; an exact match
 * wins, and a value that matches no market, or several, is left as typed for the command to refuse
 * (UNKNOWN_MARKET, with its hint).
 */
import type { Command } from 'commander';

function* withSubcommands(cmd: Command): Generator<Command> {
  for (const c of cmd.commands) {
    yield c;
    yield* withSubcommands(c);
  }
}

/** The service's spelling of a typed symbol, or null when no single market matches it. */
export function canonicalSymbol(typed: string, symbols: readonly string[]): string | null {
  if (symbols.includes(typed)) return typed;
  const same = symbols.filter((s) => s.toLowerCase() === typed.toLowerCase());
  return same.length === 1 ? same[0]! : null;
}

export function applyMarketCase(program: Command): void {
  for (const cmd of withSubcommands(program)) {
    if (!cmd.options.some((o) => o.long === '--market')) continue;
    cmd.hook('preAction', async (_hooked, action) => {
      if (action !== cmd) return;
      const typed: unknown = action.getOptionValue('market');
      if (typeof typed !== 'string') return;
      let symbols: string[];
      try {
        // Loaded only when a command with --market runs: `perps --help` stays cheap.
        const { contextOf, globalsOf } = await import('./globals.js');
        symbols = (await contextOf(globalsOf(action)).config.markets()).map((m) => m.symbol);
      } catch {
        // The command reads the markets itself and reports why it could not, in its own output.
        return;
      }
      const symbol = canonicalSymbol(typed, symbols);
      if (symbol !== null && symbol !== typed) action.setOptionValueWithSource('market', symbol, action.getOptionValueSource('market'));
    });
  }
}
