/**
 * The lazy command table of src/cli/main.ts: `perps` loads only the command named on its command line and
 * lists the others from COMMAND_GROUPS. These hold the table to the command files, so the help a user
 * reads is the same whether a command is loaded or not, and no command is missing from the table.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, buildFullProgram, buildProgram, commandNameOf, commandNamedIn } from '../../../src/cli/main.js';

function listed(program: Command): { name: string; term: string; description: string }[] {
  const help = program.createHelp();
  return help.visibleCommands(program).map((c) => ({ name: c.name(), term: help.subcommandTerm(c), description: help.subcommandDescription(c) }));
}

describe('the command table', () => {
  it('lists every top-level command the command files register, each with their term and description', async () => {
    const full = listed(await buildFullProgram()).filter((c) => c.name !== 'help');
    expect(COMMAND_GROUPS.map((g) => ({ name: commandNameOf(g), term: g.term, description: g.description }))).toEqual(full);
  });

  it('`perps --help` with nothing loaded reads exactly as with every command loaded', async () => {
    const lazy = await buildProgram(['--help']);
    expect(lazy.helpInformation()).toBe((await buildFullProgram()).helpInformation());
  });

  it.each(COMMAND_GROUPS.map((g) => commandNameOf(g)))('`perps %s --help` shows the full help of the loaded command', async (name) => {
    const full = (await buildFullProgram()).commands.find((c) => c.name() === name)!;
    const lazy = (await buildProgram([name, '--help'])).commands.find((c) => c.name() === name)!;
    expect(lazy.helpInformation()).toBe(full.helpInformation());
  });

  it('loads only the command named (a stub for the others has no options, subcommands or action)', async () => {
    const program = await buildProgram(['markets', '--json']);
    const markets = program.commands.find((c) => c.name() === 'markets')!;
    const order = program.commands.find((c) => c.name() === 'order')!;
    expect(markets.options.map((o) => o.long)).toContain('--all');
    expect(order.commands).toEqual([]);
    expect(order.options).toEqual([]);
  });
});

describe('the command a command line names', () => {
  it.each([
    [['markets', '--json'], 'markets'],
    [['--json', 'order', 'place', '--market', 'BTC'], 'order'],
    [['--profile', 'sim', '--base-url', 'http://127.0.0.1:1/api/v1', 'keys', 'list'], 'keys'],
    [['--base-url=http://127.0.0.1:1/api/v1', '--data-dir', '/tmp/x', 'withdraw', 'submit', 'f.json'], 'withdraw'],
    [['help', 'order'], 'order'],
    [['--help'], undefined],
    [[], undefined],
    // A malformed global option: nothing is loaded and the real parse reports it.
    [['--profile', 'nope', 'markets'], undefined],
  ] as const)('%j names %s', (args, name) => {
    expect(commandNamedIn(args)).toBe(name);
  });
});
