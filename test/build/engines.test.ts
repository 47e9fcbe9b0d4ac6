/**
 * Truthful engines (issue 34): package.json's `engines`, bin/perps.js's floor and README's "Which Node"
 * agree with what the locked dependencies declare. npm prints an EBADENGINE warning for each installed
 * package whose `engines.node` the running Node does not satisfy (the project itself included); the
 * README says, per Node line, how many and for which packages, and this reads the same from the lockfile.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { semver } from './semver.js';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

interface LockPackage {
  name?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const WHICH_NODE = README.slice(README.indexOf('### Which Node'), README.indexOf('### Quick start'));

/** Installed packages (the project first) whose declared Node range excludes this version. */
function warnedOn(version: string): { name: string; dev: boolean }[] {
  const out: { name: string; dev: boolean }[] = [];
  if (!semver.satisfies(version, manifest.engines.node)) out.push({ name: manifest.name, dev: false });
  for (const [key, pkg] of Object.entries(lock.packages)) {
    if (key === '' || Array.isArray(pkg.engines) || !pkg.engines?.node) continue;
    // An optional package left out on this platform (a wasm binding) is not installed: npm says nothing.
    if (!fs.existsSync(path.join(REPO_ROOT, key))) continue;
    if (!semver.satisfies(version, pkg.engines.node)) out.push({ name: pkg.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length), dev: pkg.dev === true });
  }
  return out;
}

const floor = (range: string): string => semver.minVersion(range)!.version;

describe('engines', () => {
  it("engines.node is the lowest Node on which the whole install needs nothing more, but the licence tool's 24", () => {
    const engineFloor = floor(manifest.engines.node);
    // Electron's installer is covered...
    for (const k of ['node_modules/electron', 'node_modules/@electron/get', 'node_modules/@electron-internal/extract-zip']) {
      expect(semver.satisfies(engineFloor, (lock.packages[k]!.engines as { node: string }).node), k).toBe(true);
    }
    // ...every installed package but one accepts it, and the patch before it does not hold (it is the lowest).
    expect(warnedOn(engineFloor).map((p) => p.name)).toEqual(['license-checker-rseidelsohn']);
    const below = `${semver.major(engineFloor)}.${semver.minor(engineFloor) - 1}.99`;
    expect(warnedOn(below).filter((p) => p.name !== manifest.name).length).toBeGreaterThan(1);
    expect(WHICH_NODE).toContain(`${semver.major(engineFloor)}.${semver.minor(engineFloor)} or newer (\`engines\`)`);
    expect(README).toContain(`With Node ${semver.major(engineFloor)}.${semver.minor(engineFloor)} or newer`);
  });

  it('the command line floor (bin/perps.js, README) covers every production dependency', () => {
    const bin = fs.readFileSync(path.join(REPO_ROOT, 'bin/perps.js'), 'utf8');
    const [, major, minor] = /const MIN_NODE = \[(\d+), (\d+)\]/.exec(bin)!;
    const cliFloor = `${major}.${minor}.0`;
    expect(warnedOn(cliFloor).filter((p) => !p.dev && p.name !== manifest.name)).toEqual([]);
    expect(WHICH_NODE).toMatch(new RegExp(`\\| the \`perps\` command line and \`perps sim\` \\| ${major}\\.${minor} or newer`));
  });

  it('npm warns on Node 24 about nothing, on 22.13 about one package, on 20.19 about ten: as the README says', () => {
    expect(warnedOn('24.0.0')).toEqual([]);
    expect(warnedOn('22.13.0').map((p) => p.name)).toEqual(['license-checker-rseidelsohn']);
    expect(WHICH_NODE).toContain('On Node 22.13\nto 23 it prints one, for `license-checker-rseidelsohn`');
    const on20 = warnedOn('20.19.0').map((p) => p.name);
    expect(on20).toHaveLength(10);
    expect(WHICH_NODE).toMatch(/it prints ten: one for Perps Desk itself/);
    // Every one of them is named in the section (node-abi as @electron/rebuild's).
    for (const name of on20.filter((n) => n !== manifest.name)) expect(WHICH_NODE, name).toContain(name === 'node-abi' ? '`node-abi`' : `\`${name}\``);
    // And none of them is a production dependency: the command line and simulator run on 20.19.
    expect(warnedOn('20.19.0').filter((p) => !p.dev && p.name !== manifest.name)).toEqual([]);
  });

  it('`npx perps` may warn about Perps Desk itself below 22.13, about nothing else, and runs: as the README says', () => {
    const said = WHICH_NODE.replace(/\s+/g, ' ');
    expect(said).toContain('Below Node 22.13, `npx perps` may print one too, for Perps Desk itself');
    expect(said).toContain('it warns about no other package. From 22.13 on it prints none.');
    // As from a shell: without the npm_* variables of the npm that started this test run, with which the
    // inner npm prints no warning at all.
    const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const r = spawnSync('npx', ['perps', '--version'], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...shellEnv, npm_config_update_notifier: 'false' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
    const warned = [...r.stderr.matchAll(/npm warn EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
    // Whether npm reads the tree again (and warns) on this run is npm's to decide; what it may warn about is not.
    const may = semver.satisfies(process.versions.node, manifest.engines.node) ? [] : [`${manifest.name}@${JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version}`];
    expect(warned.filter((w) => !may.includes(w!))).toEqual([]);
    expect(r.stderr.replace(/npm warn EBADENGINE.*\n/g, '').trim()).toBe('');
  });
});
