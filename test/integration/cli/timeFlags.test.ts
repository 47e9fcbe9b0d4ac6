/**
 * Issue 38, item 4: one vocabulary for time on the command line. Every flag of `perps` that takes a time
 * takes the shared duration grammar with a unit (30s, 5m, 1h30m): a bare number (seconds? minutes?) is
 * refused, exit 2, by a message naming the flag with an example; the help of each says the unit form.
 * The flags are found by walking the whole program, so a time flag added later with `<seconds>` or a
 * bare-number parser fails here. Run in this process (perpsInProcess) against a simulator on loopback.
 */
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFullProgram } from '../../../src/cli/main.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { TradingWorld } from '../orders/tradingWorld.js';

let w: TradingWorld;
const perps = perpsOn(() => w);

interface TimeFlag {
  /** The command's words, e.g. ['order', 'place']. */
  readonly path: readonly string[];
  /** The long flag, e.g. '--timeout'. */
  readonly flag: string;
  readonly option: Option;
}

/** Names that say a flag holds a span of time (not a clock time such as --reset-time or --from). */
const TIME_NAME = /timeout|poll|window|duration|interval|cooldown|expires|delay|ttl|grace|after$/;
/** Argument names that say a bare unit: each would be a second vocabulary. */
const UNIT_ARG = /<(seconds?|secs?|ms|millis|milliseconds|minutes?|hours?|days?|span)>/;

function commandsOf(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return cmd.commands.flatMap((c) => [{ path: [...path, c.name()], cmd: c }, ...commandsOf(c, [...path, c.name()])]);
}

let flags: TimeFlag[] = [];
let all: { path: string[]; option: Option }[] = [];

beforeAll(async () => {
  const program = await buildFullProgram();
  for (const { path, cmd } of commandsOf(program)) {
    for (const option of cmd.options) {
      all.push({ path, option });
      if (option.flags.includes('<duration>')) flags.push({ path, flag: option.long!, option });
    }
  }
  w = await TradingWorld.boot('cli-time-flags');
  await w.setMark('ETH', '3300');
}, 60_000);
afterAll(async () => {
  await w?.stop();
  flags = [];
  all = [];
});

describe('38.4: every time flag takes the duration grammar', () => {
  it('finds the time flags: each is `<duration>`, and no flag takes a bare unit', () => {
    const names = new Set(flags.map((f) => f.flag));
    for (const f of ['--timeout', '--poll', '--receipt-timeout', '--window', '--duration', '--cooldown', '--expires-in']) expect(names, f).toContain(f);
    // --timeout alone is on every command that waits; a handful is the least a complete walk finds.
    expect(flags.length).toBeGreaterThanOrEqual(20);
    // A hidden flag is a replaced one that only refuses (below), never a second vocabulary.
    const stray = all.filter(({ option }) => (TIME_NAME.test(option.long ?? '') || UNIT_ARG.test(option.flags)) && option.required && !option.hidden && !option.flags.includes('<duration>'));
    expect(stray.map(({ path, option }) => `perps ${path.join(' ')} ${option.flags}`)).toEqual([]);
  });

  it('a bare number is refused (exit 2) naming the flag with an example, before anything runs', async () => {
    for (const { path, flag } of flags) {
      const field = flag.slice(2);
      const r = await perps(['--json', ...path, flag, '30']);
      const where = `perps ${path.join(' ')} ${flag} 30`;
      expect(r.code, `${where}: ${r.stdout}`).toBe(2);
      expect(r.json.error, where).toMatchObject({ code: 'VALIDATION_ERROR', exit_code: 2 });
      expect(r.json.error.message, where).toBe(`${field}: '30' is not a duration: a number needs a unit, such as 30s (seconds) or 30m (minutes)`);
    }
  });

  it('30s is accepted by every time flag, and each help names the unit form', async () => {
    for (const { path, flag } of flags) {
      const r = await perps([...path, flag, '30s', '--help']);
      const where = `perps ${path.join(' ')} ${flag} 30s --help`;
      expect(r.code, `${where}: ${r.stdout}${r.stderr}`).toBe(0);
      const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${flag} <duration>`));
      expect(line, `${where}: ${r.stdout}`).toBeDefined();
      // The description (which commander may wrap onto the next lines) gives an example with a unit.
      const from = r.stdout.indexOf(line!);
      const text = r.stdout.slice(from, from + 400).split(/\n\s*--/)[0]!.replace(/\s+/g, ' ');
      expect(text, where).toMatch(/a duration such as (\d+[dhms])+/);
    }
  });

  it('--expires-in-days, the bare number of days it replaced, is refused with the new spelling, signing nothing', async () => {
    for (const cmd of ['authorize', 'renew']) {
      const r = await perps(['--json', 'keys', cmd, '--wallet', '0x' + '1'.repeat(40), '--agent', '0x' + '2'.repeat(40), '--expires-in-days', '30', '--dry-run']);
      expect(r.code, r.stdout).toBe(2);
      expect(r.json.error.message).toBe('expires-in-days: replaced by --expires-in, a duration with a unit: write --expires-in 30d');
    }
    const over = await perps(['--json', 'keys', 'authorize', '--wallet', '0x' + '1'.repeat(40), '--agent', '0x' + '2'.repeat(40), '--expires-in', '180d1s', '--dry-run']);
    expect(over.code, over.stdout).toBe(2);
    expect(over.json.error).toMatchObject({ code: 'INVALID_EXPIRY', message: "expires-in: '180d1s' is more than the 180 days the service allows" });
  });

  it.each([
    ['1e3s', 'an exponent'],
    ['-5s', 'a sign'],
    ['0x10s', 'hexadecimal'],
    ['1.5s', 'a fraction'],
    ['500ms', 'milliseconds'],
    ['5 s', 'a space'],
    ['99999999999999999999s', 'past a safe integer'],
    ['5s\u001b[2J', 'an escape sequence'],
    ['\u202e5s', 'a bidi override'],
  ])('hostile text %j (%s) is refused, and nothing of it reaches the terminal', async (value) => {
    const t = await w.trader();
    const r = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--type', 'limit', '--price', '3200', '--size', '0.01', '--wait', '--timeout', value]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.json.error.message).toMatch(/^timeout: /);
    for (const hostile of ['\u001b', '\u202e']) expect(r.stdout + r.stderr).not.toContain(hostile);
    expect(await t.history()).toHaveLength(0);
  });

  it('the unit form does what it says: --wait --timeout 30s places and waits; --window 90s is 90 000 ms', async () => {
    const t = await w.trader();
    const placed = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'buy', '--type', 'limit', '--price', '3200', '--size', '0.01', '--wait', '--timeout', '30s']);
    expect(placed.code, placed.stdout + placed.stderr).toBe(0);
    expect(await t.history()).toHaveLength(1);
    const alert = await perps(['--json', 'alert', 'add', '--market', 'ETH', '--move', '2', '--window', '90s']);
    expect(alert.code, alert.stdout + alert.stderr).toBe(0);
    expect(alert.json.rule).toMatchObject({ kind: 'move', window_ms: 90_000 });
  });
});
