/**
 * Issue 13, point 3: a JSON file given to `keys submit`, `withdraw submit` or `order batch` that is not
 * what it should be may be a private key pasted into the wrong file. The error says where the file is
 * malformed (line and column) and never what it holds: stdout and stderr of the real `perps` program are
 * searched for the key and for every 8-character piece of it, with and without --json.
 *
 * Where each run happens (issue 37): the --json runs in this process (perpsInProcess.ts captures the
 * same stdout and stderr main writes, and its exit code); the human-output runs of the first file stay
 * children of the real bin/perps.js, the file's one child per command for exit 2, so what a shell shows
 * (anything a process prints, however it prints it) is searched too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { runPerps, type PerpsRun } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { tempDir } from '../../support/keychain.js';

const root = tempDir('json-files');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A private key whose hex starts with a letter: written without 0x, JSON.parse's own message quotes its start. */
function letterKey(): string {
  for (;;) {
    const k = Wallet.createRandom().privateKey;
    if (/^0x[a-f]/.test(k)) return k;
  }
}
const secret = letterKey();
const wallet = Wallet.createRandom().address;

/** Nothing may be fetched before the file is read: these URLs answer nothing. */
function vars(): Record<string, string> {
  return {
    PERPS_BASE_URL: 'http://127.0.0.1:1/api/v1',
    PERPS_VENUE_URL: 'http://127.0.0.1:1/venue/info',
    PERPS_DATA_DIR: path.join(root, 'data'),
    PERPS_KEYCHAIN_SERVICE: 'perps-desk-test.json-files.unused',
  };
}

function env(): NodeJS.ProcessEnv {
  return { ...process.env, ...vars() };
}

function file(name: string, text: string): string {
  const p = path.join(root, name);
  fs.writeFileSync(p, text);
  return p;
}

/** Every piece of `s` of 8 characters, and of the key without its 0x. */
function piecesOf(s: string): string[] {
  const out = new Set<string>();
  for (const t of [s, s.replace(/^0x/, '')]) for (let i = 0; i + 8 <= t.length; i++) out.add(t.slice(i, i + 8).toLowerCase());
  return [...out];
}

function expectNothingOf(key: string, r: PerpsRun): void {
  const all = (r.stdout + '\n' + r.stderr).toLowerCase();
  const found = piecesOf(key).filter((p) => all.includes(p));
  expect(found, `output quotes the file:\n${r.stdout}\n${r.stderr}`).toEqual([]);
}

const COMMANDS: { name: string; args: (f: string) => string[]; code: string }[] = [
  { name: 'keys submit', args: (f) => ['keys', 'submit', f], code: 'INVALID_REGISTER_BODY' },
  { name: 'withdraw submit', args: (f) => ['withdraw', 'submit', f], code: 'INVALID_WITHDRAWAL_FILE' },
  { name: 'order batch', args: (f) => ['order', 'batch', '--wallet', wallet, f], code: 'VALIDATION_ERROR' },
];

const MALFORMED = [
  { name: 'a bare private key', text: `${secret}\n`, line: 1, column: 2, human: true },
  { name: 'a bare private key without 0x', text: `${secret.slice(2)}\n`, line: 1, column: 1 },
  { name: 'a key pasted into a JSON body, line 3', text: `{\n  "wallet_address": "${wallet}",\n  ${secret}\n}\n`, line: 3, column: 3 },
  { name: 'a labelled key without 0x after a CRLF line', text: `[\r\n  private key = ${secret.slice(2)}\r\n]`, line: 2, column: 3 },
];

describe('a malformed JSON file is located, never quoted', { timeout: 120_000 }, () => {
  it.each(MALFORMED)('$name: every command names line and column, exit 2 (--json, and human output for the first)', async ({ name, text, line, column, human }) => {
    const f = file(`${name.replace(/\W+/g, '-')}.json`, text);
    const runs = await Promise.all(
      COMMANDS.flatMap((c) => [
        perpsInProcess([...c.args(f), '--json'], vars()).then((r) => ({ c, r, json: true })),
        ...(human === true ? [runPerps(c.args(f), env()).then((r) => ({ c, r, json: false }))] : []),
      ]),
    );
    for (const { c, r, json } of runs) {
      expect(r.code, `${c.name}: ${r.stderr}`).toBe(2);
      expectNothingOf(secret, r);
      const message = json ? String((JSON.parse(r.stdout) as { error: { message: string; code: string } }).error.message) : r.stderr;
      if (json) expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(c.code);
      expect(message, c.name).toContain(`line ${line}, column ${column}`);
      expect(message, c.name).toContain(f);
    }
  });

  it('a key that is valid JSON (a quoted string) is refused by each command without being quoted', async () => {
    const f = file('quoted-key.json', JSON.stringify(secret));
    const runs = await Promise.all(COMMANDS.map((c) => perpsInProcess([...c.args(f), '--json'], vars()).then((r) => ({ c, r }))));
    for (const { c, r } of runs) {
      expect(r.code, `${c.name}: ${r.stdout}`).toBe(2);
      expectNothingOf(secret, r);
    }
  });
});
