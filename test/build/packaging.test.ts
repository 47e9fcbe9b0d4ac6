/**
 * Packaging as far as this machine allows (issue 34 item 6): electron-builder's own Linux `dir` target,
 * run through its API on this project's electron-builder.yml, with `electronDist` pointed at a stand-in
 * Electron (a file holding Electron's fuse wire, as in fuses.test.ts, so the fuse step runs and the build
 * completes) and native rebuilds off (they need Electron's headers, which cannot be downloaded here).
 * What is checked is the app.asar electron-builder wrote:
 * - it holds the built app (main, preload, renderer), package.json, the simulator's default configuration
 *   and the notices, and not the command line's build;
 * - of node_modules, only production packages, every package main's bundle loads at run time with all
 *   of its dependencies, and none of the renderer's own packages (they are inside its bundle);
 * - no TypeScript, source map, test, fixture or .env file;
 * - the native modules (keytar, usb, node-hid, keccak, secp256k1) are unpacked beside it with their
 *   binaries; the fuses are flipped in the binary.
 * It prints the archive's size and file count.
 *
 * The project is staged in a temporary folder (the files electron-builder reads, the built out/, and
 * node_modules as hard links, so the dependency walk sees a real tree and nothing here is written to).
 * Needs out/ built first (`npm run build`; scripts/test.sh does). Nothing is downloaded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- electron-builder's API is used from untyped CommonJS here */
const requireHere = createRequire(import.meta.url);
const builderRequire = createRequire(requireHere.resolve('app-builder-lib'));
const { build, Platform, Arch } = requireHere('electron-builder') as any;
const fuses = builderRequire('@electron/fuses');
const { SENTINEL } = builderRequire('@electron/fuses/dist/constants.js');
const asar = builderRequire('@electron/asar');

interface LockPackage {
  dev?: boolean;
}

const NATIVE = ['keytar', 'usb', 'node-hid', 'keccak', 'secp256k1'];
const lock = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> }).packages;

let work = '';
let archive = '';
let unpacked = '';
let appOutDir = '';
/** Every file in the archive, relative to its root with forward slashes ('node_modules/x/index.js'). */
let files: string[] = [];
let packages: Set<string>;

/** A stand-in Electron executable: some bytes, the fuse sentinel, wire version 1 with Electron's default states. */
function electronStandIn(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const wire = Buffer.from([1, 8, ...[1, 0, 1, 1, 0, 0, 0, 1].map((on) => (on ? 0x31 : 0x30))]);
  fs.writeFileSync(path.join(dir, 'electron'), Buffer.concat([Buffer.alloc(4096, 0x90), Buffer.from(SENTINEL), wire, Buffer.alloc(4096, 0x90)]), { mode: 0o755 });
}

/** The package directories (lockfile keys) under node_modules that the archive holds a file of. */
function packagesIn(list: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of list) {
    const m = /^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(f);
    if (m) out.add(m[1]!);
  }
  return out;
}

/** The bare package names main's bundle names in a string: what it imports, requires or loads lazily. */
function namedByMain(): Set<string> {
  const dir = path.join(REPO_ROOT, 'out/main');
  const text = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  const topLevel = Object.keys(lock).filter((k) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(k) && !lock[k]!.dev).map((k) => k.slice('node_modules/'.length));
  return new Set(topLevel.filter((name) => new RegExp(`["']${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[^"']*)?["']`).test(text)));
}

/** The renderer's own packages: what its sources import that main's bundle never names. */
function rendererOnly(main: ReadonlySet<string>): string[] {
  const dir = path.join(REPO_ROOT, 'src/renderer');
  const names = new Set<string>();
  for (const f of fs.readdirSync(dir, { recursive: true }).map(String)) {
    if (!/\.tsx?$/.test(f)) continue;
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/from '([^'./][^']*)'/g)) {
      const spec = m[1]!;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return [...names].filter((n) => !main.has(n) && lock[`node_modules/${n}`] && !lock[`node_modules/${n}`]!.dev);
}

beforeAll(async () => {
  expect(fs.existsSync(path.join(REPO_ROOT, 'out/main/index.js')), 'out/ is not built: run `npm run build` first').toBe(true);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-packaging-'));
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  for (const f of ['package.json', 'package-lock.json', 'electron-builder.yml', 'THIRD_PARTY_NOTICES.md']) fs.copyFileSync(path.join(REPO_ROOT, f), path.join(project, f));
  for (const d of ['out', 'resources']) fs.cpSync(path.join(REPO_ROOT, d), path.join(project, d), { recursive: true });
  execFileSync('cp', ['-al', fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(project, 'node_modules')]);
  electronStandIn(path.join(work, 'electron-dist'));
  const dist = path.join(work, 'dist');
  await build({
    projectDir: project,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    config: { electronDist: path.join(work, 'electron-dist'), npmRebuild: false, directories: { output: dist } },
    publish: 'never',
  });
  appOutDir = path.join(dist, 'linux-unpacked');
  archive = path.join(appOutDir, 'resources/app.asar');
  unpacked = `${archive}.unpacked`;
  files = (asar.listPackage(archive, { isPack: false }) as string[])
    .map((f) => f.replace(/\\/g, '/').replace(/^\//, ''))
    .filter((f) => !asar.statFile(archive, f, false).files);
  packages = packagesIn(files);
  const mb = (fs.statSync(archive).size / 1e6).toFixed(1);
  console.log(`app.asar: ${mb} MB, ${files.length} files (${packages.size} packages); unpacked beside it: ${fs.readdirSync(unpacked, { recursive: true }).length} entries`);
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('electron-builder --linux dir with a stand-in Electron', () => {
  it('packs the built app, its configuration and notices, and not the command line', () => {
    for (const f of ['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'resources/sim/default-config.json', 'THIRD_PARTY_NOTICES.md']) expect(files, f).toContain(f);
    expect(files.filter((f) => f.startsWith('out/cli/'))).toEqual([]);
  });

  it('packs no TypeScript, source map, test, fixture or .env file', () => {
    const stray = files.filter((f) => /\.(ts|mts|cts|tsx|map)$|(^|\/)\.env|\/(test|tests|__tests__|fixtures)\//.test(f));
    expect(stray).toEqual([]);
  });

  it('packs production packages only, and every package main loads with all its dependencies', () => {
    // electron-builder lays node_modules out afresh, so packages are compared by name, and dependencies
    // are resolved the way Node resolves them inside the archive.
    const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const production = new Set(Object.keys(lock).filter((k) => k && !lock[k]!.dev).map(nameOf));
    expect([...packages].filter((p) => !production.has(nameOf(p)))).toEqual([]);

    const resolveInArchive = (from: string, name: string): string | undefined => {
      let dir = from;
      for (;;) {
        const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
        if (packages.has(key)) return key;
        if (!dir) return undefined;
        const cut = dir.lastIndexOf('/node_modules/');
        dir = cut < 0 ? '' : dir.slice(0, cut);
      }
    };
    const missing: string[] = [];
    const seen = new Set<string>();
    const queue: [string, string][] = [...namedByMain()].map((n) => ['', n]);
    while (queue.length > 0) {
      const [from, name] = queue.pop()!;
      const key = resolveInArchive(from, name);
      if (!key) {
        missing.push(`${name} (needed by ${from || 'main'})`);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      const manifest = JSON.parse(asar.extractFile(archive, `${key}/package.json`).toString('utf8')) as { dependencies?: Record<string, string> };
      // Type declaration packages some libraries list as dependencies are never loaded.
      for (const dep of Object.keys(manifest.dependencies ?? {})) if (!dep.startsWith('@types/') && dep !== 'undici-types') queue.push([key, dep]);
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('does not ship the renderer’s own packages a second time (they are in its bundle)', () => {
    const own = rendererOnly(namedByMain());
    expect(own).toEqual(expect.arrayContaining(['react', 'react-dom', 'lightweight-charts', '@tanstack/react-table']));
    expect(own.filter((n) => packages.has(`node_modules/${n}`))).toEqual([]);
  });

  it('unpacks the native modules beside the archive, with their binaries', () => {
    for (const name of NATIVE) {
      const binaries = fs.readdirSync(path.join(unpacked, 'node_modules', name), { recursive: true }).map(String).filter((f) => f.endsWith('.node'));
      expect(binaries.length, name).toBeGreaterThan(0);
      // The archive's header sends every file of the module to the unpacked folder.
      expect(asar.statFile(archive, `node_modules/${name}/package.json`, false).unpacked, name).toBe(true);
    }
  });

  it('flips the fuses in the binary', async () => {
    const wire = await fuses.getCurrentFuseWire(path.join(appOutDir, 'perps-desk'));
    expect(wire[fuses.FuseV1Options.RunAsNode]).toBe(0x30);
    expect(wire[fuses.FuseV1Options.OnlyLoadAppFromAsar]).toBe(0x31);
    expect(wire[fuses.FuseV1Options.EnableNodeCliInspectArguments]).toBe(0x30);
  });
});
