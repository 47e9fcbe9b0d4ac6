/**
 * The packaged build's Electron fuses (electron-builder.yml `electronFuses`). The configuration is read
 * and validated by electron-builder's own loader and schema (a misspelt fuse fails there), every fuse is
 * compared with the one the app needs, and electron-builder's own fuse step (LinuxPackager's
 * generateFuseConfig + addElectronFuses, which call @electron/fuses) flips them in a stand-in for the
 * Electron binary: a file holding the fuse sentinel and a wire in Electron's default state, which is
 * all @electron/fuses reads or writes. No Electron binary is needed.
 *
 * Also: the one file the main process reads from disk at run time (the simulator's default
 * configuration) is packed into app.asar, where the main bundle finds it by walking up from out/main.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- electron-builder's internals are untyped CommonJS here */
const requireHere = createRequire(import.meta.url);
// Every module is resolved the way electron-builder resolves it, so the test runs the code packaging runs.
const builderRequire = createRequire(requireHere.resolve('app-builder-lib'));
const { getConfig, validateConfiguration } = builderRequire('./util/config/config.js');
const { DebugLogger } = builderRequire('builder-util');
const { LinuxPackager } = builderRequire('./index.js');
const fuses = builderRequire('@electron/fuses');
const { SENTINEL } = builderRequire('@electron/fuses/dist/constants.js');
const asar = builderRequire('@electron/asar');
const { minimatch } = builderRequire('minimatch');

/** What the app needs, and the one left at Electron's default on purpose (see electron-builder.yml). */
const EXPECTED_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  onlyLoadAppFromAsar: true,
  enableEmbeddedAsarIntegrityValidation: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
  loadBrowserProcessSpecificV8Snapshot: false,
};

/** FuseV1Options index of each electron-builder key, from @electron/fuses itself. */
const FUSE_INDEX: Record<keyof typeof EXPECTED_FUSES, number> = {
  runAsNode: fuses.FuseV1Options.RunAsNode,
  enableCookieEncryption: fuses.FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: fuses.FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: fuses.FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: fuses.FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: fuses.FuseV1Options.OnlyLoadAppFromAsar,
  loadBrowserProcessSpecificV8Snapshot: fuses.FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
  grantFileProtocolExtraPrivileges: fuses.FuseV1Options.GrantFileProtocolExtraPrivileges,
};

/** Electron's defaults (its fuses guide): RunAsNode, NodeOptions, NodeCliInspect and file:// privileges on. */
const ELECTRON_DEFAULT_WIRE = [1, 0, 1, 1, 0, 0, 0, 1];
const ENABLE = 0x31; // '1'
const DISABLE = 0x30; // '0'

let config: any;
const temp: string[] = [];

beforeAll(async () => {
  config = await getConfig(REPO_ROOT, null, null);
});

afterAll(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `perps-${label}-`));
  temp.push(dir);
  return dir;
}

/** A stand-in for the Electron executable: some bytes, the sentinel, wire version 1, length, states, more bytes. */
function electronStandIn(file: string): void {
  const wire = Buffer.from([1, ELECTRON_DEFAULT_WIRE.length, ...ELECTRON_DEFAULT_WIRE.map((on) => (on ? ENABLE : DISABLE))]);
  fs.writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 0x90), Buffer.from(SENTINEL), wire, Buffer.alloc(4096, 0x90)]));
}

describe('electron-builder.yml: Electron fuses', () => {
  it('passes electron-builder’s own schema (a misspelt or unknown fuse fails here)', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, electronFuses: { ...config.electronFuses, runAsnode: false } }, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });

  it('sets every fuse of FuseOptionsV1 explicitly, each to what the app needs', () => {
    expect(config.electronFuses).toEqual(EXPECTED_FUSES);
  });

  it('fails when a fuse is missing or wrong (the check above is not vacuous)', () => {
    const missing: Record<string, boolean> = { ...config.electronFuses };
    delete missing['runAsNode'];
    expect(missing).not.toEqual(EXPECTED_FUSES);
    expect({ ...config.electronFuses, enableNodeCliInspectArguments: true }).not.toEqual(EXPECTED_FUSES);
  });

  it('is flipped by electron-builder’s fuse step in a stand-in Electron binary, as configured', async () => {
    const appOutDir = tempDir('fuses');
    const executableName = 'perps-desk';
    const binary = path.join(appOutDir, executableName);
    electronStandIn(binary);
    expect((await fuses.getCurrentFuseWire(binary))[fuses.FuseV1Options.RunAsNode]).toBe(ENABLE);

    // A packager whose only state the fuse step reads is the executable's name (Linux: no extension).
    const packager = Object.create(LinuxPackager.prototype, { executableName: { value: executableName } });
    const fuseConfig = await packager.generateFuseConfig(config.electronFuses);
    const flipped = await packager.addElectronFuses({ appOutDir, electronPlatformName: 'linux' }, fuseConfig);
    expect(flipped).toBe(1);

    const wire = await fuses.getCurrentFuseWire(binary);
    for (const [name, on] of Object.entries(EXPECTED_FUSES)) {
      expect(wire[FUSE_INDEX[name as keyof typeof EXPECTED_FUSES]], name).toBe(on ? ENABLE : DISABLE);
    }
  });
});

describe('what main reads from disk at run time is inside app.asar', () => {
  const DEFAULT_CONFIG = 'resources/sim/default-config.json';

  it('is matched by the packaged files and not excluded', () => {
    // electron-builder's loader turns the list of globs into one file set: { filter: [...] }.
    const patterns: string[] = (config.files as (string | { filter: string[] })[]).flatMap((f) => (typeof f === 'string' ? [f] : f.filter));
    const included = patterns.filter((p) => !p.startsWith('!')).some((p) => minimatch(DEFAULT_CONFIG, p));
    const excluded = patterns.filter((p) => p.startsWith('!')).some((p) => minimatch(DEFAULT_CONFIG, p.slice(1)));
    expect(included && !excluded).toBe(true);
  });

  it('is read from an archive laid out as packaged, from where the main bundle sits', async () => {
    const stage = tempDir('asar-stage');
    for (const file of ['package.json', DEFAULT_CONFIG]) {
      fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(stage, file));
    }
    fs.mkdirSync(path.join(stage, 'out/main'), { recursive: true });
    fs.writeFileSync(path.join(stage, 'out/main/index.js'), '');
    const archive = path.join(tempDir('asar'), 'app.asar');
    await asar.createPackage(stage, archive);
    // The loader walks up from out/main (src/sim/config/load.ts): two levels up is the archive's root.
    const relative = path.posix.join(path.posix.relative('out/main', '.'), DEFAULT_CONFIG);
    const fromMain = path.posix.normalize(path.posix.join('out/main', relative));
    const packed = JSON.parse(asar.extractFile(archive, fromMain).toString('utf8'));
    expect(packed).toEqual(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, DEFAULT_CONFIG), 'utf8')));
  });
});
