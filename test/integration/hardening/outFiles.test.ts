/**
 * Issue 13, point 2: a `--out` writer must never write a signed body through a symlink. Another local
 * user who can write to the folder of FILE (a shared /tmp, a USB stick) used to win by planting a link
 * at the predictable temporary name FILE.PID.tmp (the pid of the `perps` process is visible to all), or
 * at FILE itself. Each case runs the real `perps` program and plants the links before it writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonOf, runPerps, startPerps } from '../../support/perpsCli.js';
import { tempDir } from '../../support/keychain.js';

const main = Wallet.createRandom();
const agent = Wallet.createRandom().address;
const root = tempDir('out-files');
/** The folder another user can write to, and the place their links point to. */
const shared = path.join(root, 'shared');
const attacker = path.join(root, 'attacker');
fs.mkdirSync(shared);
fs.mkdirSync(attacker);

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function env(): NodeJS.ProcessEnv {
  // Signing with --out needs no service: these URLs answer nothing.
  return {
    ...process.env,
    PERPS_BASE_URL: 'http://127.0.0.1:1/api/v1',
    PERPS_VENUE_URL: 'http://127.0.0.1:1/venue/info',
    PERPS_DATA_DIR: path.join(root, 'data'),
    PERPS_KEYCHAIN_SERVICE: 'perps-desk-test.out-files.unused',
    PERPS_TEST_MAIN_KEY: main.privateKey,
  };
}

const WRITERS: { name: string; args: (out: string) => string[]; signedField: string }[] = [
  {
    name: 'keys authorize --out',
    args: (out) => ['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--out', out, '--json'],
    signedField: 'agent_wallet_address',
  },
  {
    name: 'withdraw --out',
    args: (out) => ['withdraw', '--wallet', main.address, '--amount', '25', '--signer', 'env:PERPS_TEST_MAIN_KEY', '--out', out, '--json'],
    signedField: 'body.signature',
  },
];

/** Every file under the attacker's folder, with its content: what the links delivered. */
function attackerLoot(): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(attacker).map((n) => [n, fs.readFileSync(path.join(attacker, n), 'utf8')]));
}

describe('--out writers and planted symlinks', { timeout: 120_000 }, () => {
  it.each(WRITERS)('$name: a link at the old temporary name FILE.PID.tmp receives nothing; FILE is a private regular file', async ({ name, args, signedField }) => {
    const out = path.join(shared, `${name.split(' ')[0]}-pid.json`);
    // What the attacker's folder already holds (another test's planted target), so only this run is judged.
    const lootBefore = attackerLoot();
    const run = startPerps(args(out), env());
    // Planted as soon as the pid is known, long before the program has even loaded (about a second).
    const planted = `${out}.${run.pid}.tmp`;
    const victim = path.join(attacker, `${path.basename(out)}.loot`);
    fs.symlinkSync(victim, planted);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);

    expect(attackerLoot()).toEqual(lootBefore);
    expect(fs.existsSync(victim)).toBe(false);
    expect(fs.lstatSync(planted).isSymbolicLink()).toBe(true);
    const stats = fs.lstatSync(out);
    expect(stats.isFile()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toHaveProperty(signedField);
    // No temporary file is left beside it.
    expect(fs.readdirSync(shared).filter((n) => n.startsWith(`.${path.basename(out)}`))).toEqual([]);
  });

  it.each(WRITERS)('$name: a link at FILE itself is refused (exit 1, UNSAFE_OUTPUT_FILE); the link and its target are untouched', async ({ name, args }) => {
    const out = path.join(shared, `${name.split(' ')[0]}-target.json`);
    const victim = path.join(attacker, `${path.basename(out)}.loot`);
    fs.writeFileSync(victim, 'the attacker reads this file\n');
    fs.symlinkSync(victim, out);
    const r = await runPerps(args(out), env());
    expect(r.code).toBe(1);
    expect(jsonOf(r).error).toMatchObject({ code: 'UNSAFE_OUTPUT_FILE' });
    expect(String(jsonOf(r).error?.['message'])).toContain('symbolic link');
    expect(fs.readFileSync(victim, 'utf8')).toBe('the attacker reads this file\n');
    expect(fs.lstatSync(out).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(shared).filter((n) => n.startsWith(`.${path.basename(out)}`))).toEqual([]);
  });
});
