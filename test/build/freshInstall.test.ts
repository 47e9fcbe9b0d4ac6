/**
 * Install scripts by name (npm 11's allowScripts, see package.json and .npmrc): a fresh `npm ci` of the
 * repository's files runs exactly the install scripts the app needs, prints no install-script warning,
 * skips the denied ones, and still builds keytar's native module.
 *
 * Which install is judged:
 *  - under .ci/run, its own `npm ci` (in a fresh clone, verbose, native modules from source; the log's
 *    path is in PERPS_CI_INSTALL_LOG): the same assertions, without a second 590 MB install;
 *  - elsewhere, a fresh `npm ci` of a copy of the repository's files, run when package.json,
 *    package-lock.json or .npmrc differ from those of the last such install that passed here (their hash
 *    is kept in node_modules/.cache); with the same inputs, that passing install is what is judged.
 *
 * That own install reads only npm's cache (`--offline`: a test sends nothing off loopback, the registry
 * included), and prebuilt-binary downloads are off (`build_from_source`), so nothing goes to a binary
 * host; keytar and node-hid are compiled from source against the machine's Node headers, as on a machine
 * without a prebuilt binary.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

interface Install {
  status: number | null;
  output: string;
  root: string;
  /** Where the judged install came from, printed with a failure. */
  source: string;
}

let install: Install;
let ownRoot = '';

/** The files whose change calls for a new fresh install. */
const INSTALL_INPUTS = ['package.json', 'package-lock.json', '.npmrc'];
const STAMP_DIR = path.join(REPO_ROOT, 'node_modules/.cache/perps-fresh-install');

function inputsHash(): string {
  const h = createHash('sha256');
  for (const f of INSTALL_INPUTS) h.update(f).update('\0').update(fs.readFileSync(path.join(REPO_ROOT, f))).update('\0');
  return h.digest('hex');
}

/** The repository's files as a fresh clone has them (tracked and new, not ignored): node_modules and out are not among them. */
function copyRepository(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(from, path.join(to, file));
  }
}

/** A fresh `npm ci` of a copy of the repository's files, from npm's cache only, native modules from source. */
function ownFreshInstall(): Install {
  ownRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-fresh-install-'));
  copyRepository(ownRoot);
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_build_from_source: 'true', npm_config_update_notifier: 'false' };
  // The denied es5-ext script prints a message when the time zone is one of Russia's: if it ran, it shows.
  env['TZ'] = 'Europe/Moscow';
  const r = spawnSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--foreground-scripts', '--loglevel=verbose'], {
    cwd: ownRoot,
    env,
    encoding: 'utf8',
    timeout: 540_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}`, root: ownRoot, source: `a fresh npm ci in ${ownRoot}` };
}

/**
 * The install to judge: CI's own, the last passing one for these same inputs, or a new one. A new one that
 * passes every assertion below is remembered (its log, keytar's binding loaded from it, and the inputs' hash).
 */
function chooseInstall(): Install {
  const ciLog = process.env['PERPS_CI_INSTALL_LOG'];
  if (ciLog) {
    // Under .ci/run the log must be there: a missing one is a broken CI script, not a reason to skip.
    return { status: fs.existsSync(ciLog) ? 0 : null, output: fs.existsSync(ciLog) ? fs.readFileSync(ciLog, 'utf8') : `no install log at ${ciLog}`, root: REPO_ROOT, source: `.ci/run's npm ci (${ciLog})` };
  }
  const hash = inputsHash();
  const stamp = path.join(STAMP_DIR, `${hash}.log`);
  if (fs.existsSync(stamp)) return { status: 0, output: fs.readFileSync(stamp, 'utf8'), root: REPO_ROOT, source: `the passing fresh install of these inputs (${stamp}), with this checkout's node_modules` };
  return ownFreshInstall();
}

describe('a fresh npm ci', () => {
  let failures = 0;
  beforeAll(() => {
    install = chooseInstall();
    console.log(`fresh install judged: ${install.source}`);
  }, 600_000);

  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') failures += 1;
  });

  afterAll(() => {
    // A new install that passed everything is remembered for these inputs, so the next run judges it
    // without installing again; one that failed is not, so the next run installs again.
    if (ownRoot && failures === 0 && install.status === 0) {
      fs.mkdirSync(STAMP_DIR, { recursive: true });
      fs.writeFileSync(path.join(STAMP_DIR, `${inputsHash()}.log`), install.output);
    }
    if (ownRoot) fs.rmSync(ownRoot, { recursive: true, force: true });
  }, 180_000);


  it('succeeds', () => {
    expect(install.status, `${install.source}\n${install.output.slice(-6000)}`).toBe(0);
  });

  it('prints no install-script warning: every dependency script is allowed or denied by name', () => {
    expect(install.output).not.toMatch(/install-scripts/);
    expect(install.output).not.toMatch(/not yet covered by allowScripts/);
  });

  it('runs the allowed install scripts (keytar, node-hid, usb, esbuild, keccak, secp256k1)', () => {
    for (const pkg of ['keytar', 'node-hid', 'usb', 'esbuild', 'keccak', 'secp256k1']) {
      expect(install.output, pkg).toMatch(new RegExp(`(^|\\n)> ${pkg}@[^ ]+ (pre|post)?install`));
    }
  });

  it('does not run the denied ones (es5-ext, electron-winstaller)', () => {
    expect(install.output).not.toMatch(/> es5-ext@/);
    expect(install.output).not.toMatch(/> electron-winstaller@/);
    // es5-ext's message would name the tor forum; electron-winstaller's script copies a 7-Zip binary.
    expect(install.output).not.toMatch(/torproject/);
    expect(fs.existsSync(path.join(install.root, 'node_modules/electron-winstaller/vendor/7z.exe'))).toBe(false);
  });

  it('builds keytar, which then loads and answers', () => {
    const binding = path.join(install.root, 'node_modules/keytar/build/Release/keytar.node');
    expect(fs.existsSync(binding)).toBe(true);
    // Loading the module is enough: no keychain call (that is the keychain tests' job, in their D-Bus session).
    const out = execFileSync(process.execPath, ['-e', "const k = require('keytar'); process.stdout.write(typeof k.getPassword)"], { cwd: install.root, encoding: 'utf8' });
    expect(out).toBe('function');
  });
});

describe('a dependency with an install script nobody reviewed', () => {
  it('fails the install (strict-allow-scripts) and its script does not run', () => {
    // A project with this repository's install-script policy (.npmrc and allowScripts) and one local
    // dependency whose install script would leave a file behind.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-unreviewed-script-'));
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
      fs.copyFileSync(path.join(REPO_ROOT, '.npmrc'), path.join(dir, '.npmrc'));
      fs.mkdirSync(path.join(dir, 'newcomer'));
      fs.writeFileSync(
        path.join(dir, 'newcomer/package.json'),
        JSON.stringify({ name: 'newcomer', version: '1.0.0', scripts: { install: 'node -e "require(\'fs\').writeFileSync(\'../script-ran\', \'\')"' } }),
      );
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: 'policy-check', version: '1.0.0', private: true, dependencies: { newcomer: 'file:./newcomer' }, allowScripts: manifest.allowScripts }),
      );
      const r = spawnSync('npm', ['install', '--offline', '--install-links', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/ESTRICTALLOWSCRIPTS/);
      expect(r.stderr).toMatch(/newcomer@1\.0\.0/);
      expect(fs.existsSync(path.join(dir, 'script-ran'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
