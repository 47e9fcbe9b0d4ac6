/**
 * The README's front doors, run as written in a fresh clone (issue 34): the set-up block (`npm install`,
 * `npm start`) and the quick start block (`npx perps sim &`, `npx perps quickstart --json`, the first
 * order). The commands are read from README.md each run, so the test follows the README, not a copy.
 *
 * The fresh clone is `git clone` of this checkout (its committed HEAD). `npm install` is the one line not
 * run: its result, the checkout's node_modules (CI ran `npm ci` before the tests), is linked into the
 * clone package by package, except the electron package, which is copied without its binary so the
 * clone starts as a fresh install does (and the checkout's own is never written to).
 *
 * Traffic stays on loopback, and the test proves it:
 * - every download setting points at a stand-in of Electron's download mirror on 127.0.0.1 before any
 *   command runs (ELECTRON_MIRROR; every npm_config_* and electron_* variable of the environment is
 *   dropped, so npm's electron_mirror cannot override it; the cache in a temporary folder), npm's
 *   registry at a closed loopback port, and the user's and global npmrc files are replaced by empty ones;
 * - every Node process of the run (npm and npx included) loads test/support/loopbackOnlyGuard.mjs (through
 *   readme/guard.mjs, which answers lookups of address literals itself), which ends it (exit 97,
 *   "LOOPBACK GUARD" on stderr) before a connection to, or a lookup of, anything else;
 * - the mirror records what it was asked, and the test checks the download came from it.
 * The stand-in Electron is a shell script that records how it was launched; its zip is served with a
 * SHASUMS256.txt that matches it (electron_use_remote_checksums), or checked against the checksums shipped
 * in the electron package (which it cannot match: the download is refused).
 *
 * The quick start needs the keychain (paper wallets live there): scripts/test.sh runs vitest in a
 * private D-Bus session with an unlocked gnome-keyring. It listens on the sim profile's port, 8645, on
 * loopback, as the README says.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { closedLoopbackPort, sha256, startMirror, type Mirror } from './readme/mirror.js';
import { readmeBlock, type ReadmeCommand } from './readme/readmeBlocks.js';
import { zip } from './readme/zip.js';

const GUARD = path.join(REPO_ROOT, 'test/build/readme/guard.mjs');
const ELECTRON_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
const ZIP_NAME = `electron-v${ELECTRON_VERSION}-${process.platform}-${process.arch}.zip`;
const SIM_PORT = 8645;

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const SETUP = readmeBlock(README, 'Set-up');
const QUICK_START = readmeBlock(README, 'Quick start: a paper trade in one step');

let work = '';
let clone = '';
let mirror: Mirror;
const background: ChildProcess[] = [];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The stand-in Electron binary: records its working folder and arguments, then exits 0. */
const STAND_IN = ['#!/bin/sh', '# Stand-in for Electron (test/build/readme.test.ts): records how it was launched.', '{ printf "cwd=%s\\n" "$PWD"; for a in "$@"; do printf "arg=%s\\n" "$a"; done; } > "$PERPS_STANDIN_ELECTRON_RECORD"', ''].join('\n');
const STAND_IN_ZIP = zip([
  { name: 'electron', data: Buffer.from(STAND_IN), mode: 0o755 },
  { name: 'version', data: Buffer.from(`v${ELECTRON_VERSION}`), mode: 0o644 },
]);

/** The clone's node_modules: the checkout's packages linked one by one, electron copied without a binary. */
function linkNodeModules(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from)) {
    // Tool caches and temporary files (.vite, .vite-temp, .cache): the clone makes its own.
    if (entry.startsWith('.') && entry !== '.bin' && entry !== '.package-lock.json') continue;
    const source = fs.realpathSync(path.join(from, entry));
    if (entry === 'electron') {
      fs.cpSync(source, path.join(to, entry), { recursive: true, filter: (src) => !['dist', 'path.txt'].includes(path.relative(source, src)) });
    } else if (entry === '.package-lock.json') {
      fs.copyFileSync(source, path.join(to, entry));
    } else {
      fs.symlinkSync(source, path.join(to, entry));
    }
  }
}

/** Everything a command of the run sees: only loopback, only temporary folders. */
function runEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // npm's own settings, the package's, proxies and Electron's download settings are all set below or left out.
    if (/^(npm_|electron_|ELECTRON_|NODE_OPTIONS$|https?_proxy$|all_proxy$|no_proxy$|GLOBAL_AGENT_)/i.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    NODE_OPTIONS: `--import ${GUARD}`,
    npm_config_userconfig: path.join(work, 'user-npmrc'),
    npm_config_globalconfig: path.join(work, 'global-npmrc'),
    npm_config_registry: `http://127.0.0.1:${closedPort}/`,
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ELECTRON_MIRROR: mirror.url,
    electron_config_cache: path.join(work, 'electron-cache'),
    ELECTRON_GET_NO_PROGRESS: '1',
    PERPS_STANDIN_ELECTRON_RECORD: path.join(work, 'electron-launch.txt'),
    PERPS_DATA_DIR: path.join(work, 'data'),
    ...extra,
  };
}
let closedPort = 0;

/**
 * Runs one line with bash in the clone. Asynchronously: the stand-in mirror answers from this process,
 * so blocking it (spawnSync) would leave the download waiting forever.
 */
function sh(line: string, env: NodeJS.ProcessEnv, timeout = 120_000): Promise<Run> {
  const child = spawn('bash', ['-c', line], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], timeout, killSignal: 'SIGKILL' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      expect(`${stdout}${stderr}`, `${line}: the loopback guard tripped`).not.toMatch(/LOOPBACK GUARD/);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Starts a background line (`... &`) in its own process group; resolves with its first stdout line, or
 * with all of its output up to a line matching `until`.
 */
function startBackground(line: string, env: NodeJS.ProcessEnv, until?: RegExp): Promise<{ child: ChildProcess; firstLine: string; stderr: () => string }> {
  const child = spawn('bash', ['-c', `exec ${line}`], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  background.push(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${line}: no output within 60 s; stderr: ${err}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (until ? until.test(out) : nl >= 0) {
        clearTimeout(timer);
        resolve({ child, firstLine: until ? out : out.slice(0, nl), stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${line} exited (${code}) before listening; stderr: ${err}`));
    });
  });
}

async function stopBackground(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** The one README line of a block that runs this command (the test fails when the README drops it). */
function lineOf(block: readonly ReadmeCommand[], pattern: RegExp): ReadmeCommand {
  const found = block.filter((c) => pattern.test(c.line));
  expect(found, `README line matching ${pattern}`).toHaveLength(1);
  return found[0]!;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-readme-'));
  // npm reads no npmrc of this machine's user or installation: empty ones stand in.
  for (const file of ['user-npmrc', 'global-npmrc']) fs.writeFileSync(path.join(work, file), '');
  clone = path.join(work, 'perps-desk');
  execFileSync('git', ['clone', '--quiet', REPO_ROOT, clone], { stdio: 'pipe' });
  // The spec and vectors sit beside every clone (.ci/run).
  fs.symlinkSync(path.resolve(REPO_ROOT, '../shared'), path.join(work, 'shared'));
  mirror = await startMirror(ELECTRON_VERSION, { [ZIP_NAME]: STAND_IN_ZIP, 'SHASUMS256.txt': Buffer.from(`${sha256(STAND_IN_ZIP)} *${ZIP_NAME}\n`) });
  closedPort = await closedLoopbackPort();
}, 60_000);

afterAll(async () => {
  for (const child of background) await stopBackground(child).catch(() => undefined);
  await mirror?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('README set-up, in a fresh clone', () => {
  it('is `npm install` then `npm start`', () => {
    const steps = SETUP.flatMap((c) => c.line.split('&&').map((s) => s.trim()));
    expect(steps).toEqual(['npm install', 'npm start']);
    // npm install: the checkout's installed tree (see the header), electron without its binary.
    linkNodeModules(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    expect(fs.existsSync(path.join(clone, 'node_modules/electron/path.txt'))).toBe(false);
    expect(fs.existsSync(path.join(clone, 'out'))).toBe(false);
  });

  it('npm start, the mirror unreachable: one clear message, exit 1, nothing built', async () => {
    const start = lineOf(SETUP.flatMap((c) => c.line.split('&&').map((line) => ({ ...c, line: line.trim() }))), /^npm start$/);
    const unreachable = `http://127.0.0.1:${closedPort}/`;
    const r = await sh(start.line, runEnv({ ELECTRON_MIRROR: unreachable }));
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain("Electron's binary is missing and could not be fetched");
    expect(r.stderr).toContain(`Cause: could not download ${unreachable}v${ELECTRON_VERSION}/${ZIP_NAME} (connect ECONNREFUSED 127.0.0.1:${closedPort})`);
    expect(r.stderr).toContain('npx install-electron');
    expect(r.stderr).toContain('ELECTRON_MIRROR=');
    expect(r.stderr).not.toMatch(/Electron uninstall|\n\s+at /);
    expect(fs.existsSync(path.join(clone, 'out'))).toBe(false);
    expect(mirror.requests).toEqual([]);
  });

  it('npm start checks the download against the checksums shipped in the electron package by default', async () => {
    const r = await sh('npm start', runEnv());
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toContain('checked against the checksums shipped in the electron package');
    expect(r.stderr).toMatch(/Cause: .*checksum/i);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(mirror.requests).toEqual([`/v${ELECTRON_VERSION}/${ZIP_NAME}`]);
    expect(fs.existsSync(path.join(clone, 'node_modules/electron/path.txt'))).toBe(false);
  });

  it('npm start fetches Electron from the mirror, verifies it with the mirror’s SHASUMS256.txt, builds the app and launches it', async () => {
    mirror.requests.length = 0;
    const r = await sh('npm start', runEnv({ electron_use_remote_checksums: '1' }));
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(mirror.requests).toEqual([`/v${ELECTRON_VERSION}/${ZIP_NAME}`, `/v${ELECTRON_VERSION}/SHASUMS256.txt`]);
    expect(r.stderr).toContain(`Electron ${ELECTRON_VERSION} is installed (checksum verified)`);
    // Electron's installer put the binary where electron-vite looks, and kept the zip in the given cache.
    expect(fs.readFileSync(path.join(clone, 'node_modules/electron/path.txt'), 'utf8')).toBe('electron');
    const cached = fs.readdirSync(path.join(work, 'electron-cache'), { recursive: true }).map(String);
    expect(cached.some((f) => f.endsWith(ZIP_NAME))).toBe(true);
    // The stand-in was launched on the clone with the built app (package.json main: out/main/index.js).
    const record = fs.readFileSync(path.join(work, 'electron-launch.txt'), 'utf8').trim().split('\n');
    expect(record).toEqual([`cwd=${clone}`, 'arg=.']);
    const main = (JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')) as { main: string }).main;
    expect(fs.existsSync(path.join(clone, main))).toBe(true);
    expect(fs.existsSync(path.join(clone, 'out/renderer/index.html'))).toBe(true);
  });

  it('npm run dev uses the installed Electron and launches the app with its renderer on the dev server', async () => {
    mirror.requests.length = 0;
    fs.rmSync(path.join(work, 'electron-launch.txt'));
    const r = await sh('npm run dev', runEnv());
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(mirror.requests).toEqual([]);
    expect(r.stderr).not.toContain('fetching it once');
    expect(fs.readFileSync(path.join(work, 'electron-launch.txt'), 'utf8').trim().split('\n')).toEqual([`cwd=${clone}`, 'arg=.']);
    // electron-vite colours its banner when the run looks like CI or a terminal (the port in bold).
    expect(stripVTControlCharacters(r.stdout)).toMatch(/dev server running for the electron renderer process at:[\s\S]*http:\/\/localhost:\d+/);
  });
});

describe('README quick start, in the same clone', () => {
  let wallet = '';

  it('npx perps sim & listens where the sim profile looks (npx under .npmrc’s strict-allow-scripts)', async () => {
    expect(fs.readFileSync(path.join(clone, '.npmrc'), 'utf8')).toMatch(/^strict-allow-scripts=true$/m);
    expect(await portFree(SIM_PORT), `port ${SIM_PORT} on 127.0.0.1 is taken by another program: the README's quick start needs it`).toBe(true);
    const simLine = lineOf(QUICK_START, /^npx perps sim$/);
    expect(simLine.background).toBe(true);
    const { firstLine } = await startBackground(simLine.line, runEnv());
    expect((JSON.parse(firstLine) as { base_url: string }).base_url).toBe(`http://127.0.0.1:${SIM_PORT}/api/v1`);
  });

  it('npx perps quickstart --json prints what the README shows', async () => {
    const line = lineOf(QUICK_START, /^npx perps quickstart/);
    const r = await sh(line.line, runEnv());
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, string>;
    // The README's example output: its keys, and the balance it names.
    const example = line.comments.join(' ');
    for (const key of [...example.matchAll(/"(\w+)":/g)].map((m) => m[1]!)) expect(doc, key).toHaveProperty(key);
    expect(doc['free_balance']).toBe(/"free_balance": "(\d+)"/.exec(example)![1]);
    expect(doc['wallet']).toMatch(/^0x[0-9a-fA-F]{40}$/);
    wallet = doc['wallet']!;
    // npx prints no engine warning, whatever the Node (npm checks engines when it installs, not here).
    expect(r.stderr).not.toMatch(/EBADENGINE/);
  });

  it("the README's first order fills", async () => {
    const line = lineOf(QUICK_START, /^npx perps order place/);
    expect(line.line).toContain('0xThatWallet');
    const r = await sh(line.line.replace('0xThatWallet', wallet), runEnv());
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/FILLED/);
  });

  it('after the simulator restarts, it says what started, and reads of the remembered paper wallet say it forgot them', async () => {
    // Not README lines: bin/perps.js directly (what npx runs), the simulator on a terminal (script(1)'s
    // pseudo-terminal) so it speaks to a person.
    await stopBackground(background.at(-1)!);
    const { firstLine: screen } = await startBackground('script -qfec "node bin/perps.js sim" /dev/null', runEnv(), /stop: [^\n]*\n/);
    expect(screen).toContain(`"base_url":"http://127.0.0.1:${SIM_PORT}/api/v1"`);
    expect(screen).toContain(`Perps Desk simulator (paper trading) listening at http://127.0.0.1:${SIM_PORT}/api/v1`);
    expect(screen).toMatch(/profile: +sim \(the default\)/);
    expect(screen).toMatch(/markets: +\d+: BTC, ETH/);
    expect(screen).toMatch(/clock: +real time/);
    expect(screen).toMatch(/state: +in memory only/);
    expect(screen).toMatch(/stop: +Ctrl-C/);
    const balance = await sh(`node bin/perps.js balance --wallet ${wallet}`, runEnv());
    expect(balance.status, balance.stderr).toBe(0);
    expect(balance.stdout).toMatch(/free balance:\s+0 USDC/);
    expect(balance.stderr).toContain('the simulator was restarted');
    expect(balance.stderr).toContain(`perps quickstart --wallet ${wallet}`);
    const orders = await sh(`node bin/perps.js orders open --wallet ${wallet} --json`, runEnv());
    expect(orders.status, orders.stderr).toBe(0);
    expect(JSON.parse(orders.stdout)).toMatchObject({ orders: [] });
    expect(orders.stderr).toContain('the simulator was restarted');
  });
});
