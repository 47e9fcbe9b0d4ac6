/**
 * The one atomic writer (src/main/files/atomicWrite.ts) every file write goes through: 0600 whatever the
 * umask, a fresh unguessable temporary name each time, a symlink or a non-file at the target refused
 * (its target untouched), and no temporary file left behind, even when the write fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/main/files/atomicWrite.js';
import { hostileFolder } from '../../support/hostileFolder.js';

const { folder, loot, mode } = hostileFolder('atomic-writer');

describe('the atomic writer', () => {
  it('the atomic writer (both forms), also for a dangling link and for a folder at the path', async () => {
    const dir = folder('writer');
    const dangling = path.join(dir, 'dangling.json');
    fs.symlinkSync(loot('never-created'), dangling);
    await expect(writeFileAtomic(dangling, 'x')).rejects.toThrow(/symbolic link/);
    expect(() => writeFileAtomicSync(dangling, 'x')).toThrow(/symbolic link/);
    expect(fs.existsSync(loot('never-created'))).toBe(false);
    fs.mkdirSync(path.join(dir, 'a-folder'));
    await expect(writeFileAtomic(path.join(dir, 'a-folder'), 'x')).rejects.toThrow(/not a regular file/);
    expect(fs.readdirSync(dir).sort()).toEqual(['a-folder', 'dangling.json']);
  });
  it('writes 0600 under umask 0, replaces an existing 0644 file with a 0600 one, and leaves no temporary file', async () => {
    const dir = folder('modes');
    const file = path.join(dir, 'out.json');
    await writeFileAtomic(file, 'one');
    expect(mode(file)).toBe(0o600);
    fs.chmodSync(file, 0o644);
    writeFileAtomicSync(file, 'two');
    expect(mode(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(fs.readdirSync(dir)).toEqual(['out.json']);
  });

  it('uses a new unguessable temporary name each time, created exclusively', async () => {
    const dir = folder('names');
    const file = path.join(dir, 'out.json');
    const seen = new Set<string>();
    // Watch the folder while writing: every temporary name that appears is recorded.
    const watcher = fs.watch(dir, (_event, name) => {
      if (name && name !== 'out.json') seen.add(name);
    });
    try {
      for (let i = 0; i < 20; i++) await writeFileAtomic(file, String(i));
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      watcher.close();
    }
    expect(seen.size).toBe(20);
    for (const name of seen) expect(name).toMatch(/^\.out\.json\.[0-9a-f]{32}\.tmp$/);
    expect(fs.readFileSync(file, 'utf8')).toBe('19');
  });
});
