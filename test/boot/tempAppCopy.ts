/**
 * A temporary copy of the built app in which `electron` is the fake (fakeElectron.cjs):
 *
 *   <root>/package.json            the app's (type: module, version)
 *   <root>/out/                    a copy of the build (main, preload, renderer)
 *   <root>/resources -> repo       read at run time by the in-process simulator
 *   <root>/node_modules/electron/  the fake, a real folder (CommonJS, for import and require alike)
 *   <root>/node_modules/<each>     a link to the repository's installed package, for every other one
 *
 * Why this and not a module.register() resolve hook: on Node 20 such hooks do not see require() calls
 * inside CommonJS modules, so `require('electron')` would still find the real package (which only
 * exports the path of a binary that is not here). A node_modules folder is honoured by both resolvers.
 * The child must run with --preserve-symlinks: otherwise a linked package (electron-store, which
 * imports electron) resolves from its real place in the repository, next to the real electron.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/paths.js';

export const FAKE_ELECTRON = path.join(REPO_ROOT, 'test/boot/fakeElectron.cjs');

export interface AppCopy {
  readonly root: string;
  readonly bundle: string;
  remove(): void;
}

export function makeAppCopy(): AppCopy {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-boot-app-'));
  fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'));
  fs.cpSync(path.join(REPO_ROOT, 'out'), path.join(root, 'out'), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'resources'), path.join(root, 'resources'), 'dir');
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry === 'electron' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  const fake = path.join(modules, 'electron');
  fs.mkdirSync(fake);
  fs.writeFileSync(path.join(fake, 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1-boot-test', main: 'index.cjs' }));
  fs.copyFileSync(FAKE_ELECTRON, path.join(fake, 'index.cjs'));
  return {
    root,
    bundle: path.join(root, 'out/main/index.js'),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
