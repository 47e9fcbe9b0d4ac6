/**
 * The electron-builder configuration: it parses, it passes electron-builder's own schema validation
 * (when electron-builder is installed), it builds AppImage + deb, dmg and nsis without publishing, and
 * asarUnpack covers every native module of the production dependency tree (found by walking the tree
 * from package.json, not from a list kept by hand). Nothing here builds a package or needs Electron.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

const requireFromRoot = createRequire(path.join(REPO_ROOT, 'package.json'));

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: string[];
  asarUnpack?: string[];
  publish?: unknown;
  linux?: { target?: (string | { target: string })[] };
  mac?: { target?: (string | { target: string })[] };
  win?: { target?: (string | { target: string })[] };
  [k: string]: unknown;
}

function loadConfig(): BuilderConfig {
  const yaml = requireFromRoot('js-yaml') as { load(text: string): unknown };
  return yaml.load(fs.readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

function targets(t: { target?: (string | { target: string })[] } | undefined): string[] {
  return (t?.target ?? []).map((x) => (typeof x === 'string' ? x : x.target));
}

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  gypfile?: boolean;
}

/** Resolves a dependency the way Node does: the nearest node_modules up from the dependent's folder. */
function resolvePackageDir(name: string, fromDir: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Every package folder in the production dependency tree (dependencies and optional dependencies, recursively). */
function productionTree(): string[] {
  const root = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
  const seen = new Set<string>();
  const queue: [string, string][] = Object.keys({ ...root.dependencies, ...root.optionalDependencies }).map((n) => [n, REPO_ROOT]);
  while (queue.length > 0) {
    const [name, from] = queue.shift()!;
    const dir = resolvePackageDir(name, from);
    if (!dir || seen.has(dir)) continue; // an optional dependency for another platform may be absent
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) queue.push([dep, dir]);
  }
  return [...seen];
}

/** .node files of one package (not of the packages nested inside it). */
function nodeFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.node')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function isNative(dir: string): boolean {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
  return pkg.gypfile === true || fs.existsSync(path.join(dir, 'binding.gyp')) || fs.existsSync(path.join(dir, 'prebuilds')) || nodeFiles(dir).length > 0;
}

describe('electron-builder configuration', () => {
  const config = loadConfig();

  it('names the app and packs only the build output, the simulator defaults and package.json', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Perps Desk');
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'resources/sim/**/*', 'package.json']));
    expect(config.files!.some((f) => f.startsWith('src'))).toBe(false);
    // The in-process simulator reads its defaults relative to its bundled chunk (out/main/chunks).
    expect(fs.existsSync(path.join(REPO_ROOT, 'resources/sim/default-config.json'))).toBe(true);
  });

  it('targets AppImage + deb, dmg and nsis, and never publishes', () => {
    expect(targets(config.linux).sort()).toEqual(['AppImage', 'deb']);
    expect(targets(config.mac)).toEqual(['dmg']);
    expect(targets(config.win)).toEqual(['nsis']);
    expect(config.publish).toBeNull();
  });

  it('passes electron-builder’s own schema validation', async () => {
    let validate: ((c: unknown, logger: unknown) => Promise<void>) | undefined;
    let DebugLogger: (new (enabled?: boolean) => unknown) | undefined;
    try {
      validate = (requireFromRoot('app-builder-lib/out/util/config/config.js') as { validateConfiguration: typeof validate }).validateConfiguration;
      DebugLogger = (requireFromRoot('builder-util') as { DebugLogger: typeof DebugLogger }).DebugLogger;
    } catch {
      // electron-builder is a devDependency; without it there is no schema to check against.
      console.warn('electron-builder is not installed: schema validation skipped');
      return;
    }
    await expect(validate!(structuredClone(config), new DebugLogger!(false))).resolves.toBeUndefined();
    // And it does reject a broken configuration (the check is real).
    await expect(validate!({ ...structuredClone(config), notAnElectronBuilderOption: true }, new DebugLogger!(false))).rejects.toThrow(/Invalid configuration/);
  });

  it('unpacks every native module of the production dependency tree from the asar', () => {
    const minimatch = requireFromRoot('minimatch') as (p: string, pattern: string, o?: { dot?: boolean }) => boolean;
    const tree = productionTree();
    expect(tree.length).toBeGreaterThan(50);
    const native = tree.filter(isNative).map((d) => path.relative(REPO_ROOT, d).split(path.sep).join('/'));
    // The ones the app needs natively are found (the walk works), whatever else appears.
    expect(native).toEqual(expect.arrayContaining(['node_modules/keytar', 'node_modules/node-hid', 'node_modules/usb']));
    const patterns = config.asarUnpack ?? [];
    expect(patterns).toContain('**/*.node');
    for (const mod of native) {
      // The whole module folder is unpacked (a binding loads siblings: build/, prebuilds/, helpers).
      const probe = `${mod}/package.json`;
      expect(patterns.some((p) => minimatch(probe, p, { dot: true })), `${mod} is not unpacked by asarUnpack`).toBe(true);
      for (const file of nodeFiles(path.join(REPO_ROOT, mod))) {
        const rel = path.relative(REPO_ROOT, file).split(path.sep).join('/');
        expect(patterns.some((p) => minimatch(rel, p, { dot: true })), rel).toBe(true);
      }
    }
  });

  it('installing it cannot fetch an Electron binary: electron-builder has no install script that downloads one', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules/electron-builder/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(pkg.scripts?.['postinstall']).toBeUndefined();
    expect(pkg.scripts?.['install']).toBeUndefined();
  });
});
