/**
 * A folder to attack file writers in: the most permissive umask for each test (a file's mode must come
 * from the writer, not from the environment), a fresh sub-folder per case, and an attacker's folder that
 * a planted link points into, so a test can prove not a byte reached it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { tempDir } from './keychain.js';

export interface HostileFolder {
  /** A fresh folder for one case. */
  folder(label: string): string;
  /** A path in the attacker's folder (where planted links point). */
  loot(name: string): string;
  /** A path's permission bits (of the link itself, never followed). */
  mode(p: string): number;
}

/** Registers the umask and clean-up hooks of the calling test file. */
export function hostileFolder(label: string): HostileFolder {
  const root = tempDir(label);
  const attacker = path.join(root, 'attacker');
  fs.mkdirSync(attacker);
  let umask = 0;
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    folder: (name) => fs.mkdtempSync(path.join(root, `${name}-`)),
    loot: (name) => path.join(attacker, name),
    mode: (p) => fs.lstatSync(p).mode & 0o777,
  };
}
