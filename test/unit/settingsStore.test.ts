/**
 * The Node settings store reads conf's file itself until its first write (so a command that only reads
 * settings never loads conf). These hold those reads to conf's own answers, on the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-settings-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function confIn(dir: string): Conf<Record<string, unknown>> {
  return new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings', projectName: 'perps-desk' });
}

describe('the Node settings store', () => {
  it('is the file conf keeps, and reads what conf wrote there (dot paths, arrays, nested objects)', () => {
    const dir = tempDir();
    const conf = confIn(dir);
    conf.set('profiles.default', 'mainnet');
    conf.set('profiles.mainnet', { baseUrl: 'https://x.invalid/api/v1' });
    conf.set('vault.tradingKeys', [{ agent: '0xabc', expires_at: null }]);
    const store = openNodeSettings(dir);
    expect(store.path).toBe(conf.path);
    for (const key of ['profiles.default', 'profiles.mainnet', 'profiles.mainnet.baseUrl', 'vault.tradingKeys', 'vault', 'nothing.here', 'profiles.default.deeper']) {
      expect(store.get(key)).toEqual(conf.get(key));
      expect(store.has(key)).toBe(conf.has(key));
    }
  });

  it('reading a data folder with no settings yet finds nothing and creates nothing', () => {
    const dir = path.join(tempDir(), 'not-yet');
    const store = openNodeSettings(dir);
    expect(store.get('profiles.default')).toBeUndefined();
    expect(store.has('profiles.default')).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('a settings file that is not JSON is an error, as it is for conf', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'settings.json'), '{ not json');
    expect(() => openNodeSettings(dir).get('a')).toThrow(SyntaxError);
    expect(() => confIn(dir).get('a')).toThrow(SyntaxError);
  });

  it('each read sees the file as it is now, including another writer’s changes', () => {
    const dir = tempDir();
    const reader = openNodeSettings(dir);
    const writer = openNodeSettings(dir);
    writer.set('profiles.default', 'sim');
    expect(reader.get('profiles.default')).toBe('sim');
    writer.delete('profiles.default');
    expect(reader.has('profiles.default')).toBe(false);
  });

  it('any sequence of writes reads back as conf reads it, before and after the store’s own first write', () => {
    const key = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }).map((k) => k.join('.'));
    const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.constantFrom('a', 'x'), fc.integer()));
    const op = fc.oneof(fc.record({ set: key, value }), fc.record({ del: key }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const dir = tempDir();
        const conf = confIn(dir);
        const mine = openNodeSettings(dir);
        ops.forEach((o, i) => {
          // Alternate the writer: conf itself, and this store (after which it reads through conf).
          const w = i % 2 === 0 ? conf : mine;
          if ('set' in o) w.set(o.set, o.value);
          else w.delete(o.del);
          const fresh = openNodeSettings(dir);
          for (const k of ['a', 'b', 'c', 'a.b', 'a.a', 'b.c.a', 'c.c.c']) {
            expect(fresh.get(k)).toEqual(conf.get(k));
            expect(fresh.has(k)).toBe(conf.has(k));
            expect(mine.get(k)).toEqual(conf.get(k));
          }
        });
      }),
      { numRuns: 60 },
    );
  });
});
