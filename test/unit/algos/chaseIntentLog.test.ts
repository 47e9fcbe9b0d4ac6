/**
 * The chase's intent log (issue 38), on a real folder: a line appended is read back as the latest; an
 * emptied log has none; a torn or malformed last line is reported (the resume refuses on it), never used;
 * a link planted at the log's name is never written, emptied or read through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChaseIntentLog, chaseIntentLogFile, type ChaseIntentLine } from '../../../src/main/services/algos/chase/chaseIntentLog.js';

const dirs: string[] = [];
function folder(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-intents-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function line(send: number, price: string): ChaseIntentLine {
  return { send, moving: { client_order_id: `chase-a1b2c3d4e5f6-${send}`, from_order_id: '100000001', to_price: price, size: '0.0059', sent_at: 1_796_000_000_000, new_order_id: null } };
}

describe('chase intent log', () => {
  it('the last line appended is the latest; emptied, there is none; the file is private', () => {
    const file = chaseIntentLogFile(folder(), 'a1b2c3d4e5f6');
    expect(ChaseIntentLog.latest(file)).toBeNull();
    const log = new ChaseIntentLog(file);
    log.append(line(2, '3400'));
    log.append(line(3, '3400.1'));
    expect(ChaseIntentLog.latest(file)).toEqual({ line: line(3, '3400.1') });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    log.clear();
    expect(ChaseIntentLog.latest(file)).toBeNull();
    log.append(line(4, '3400.2'));
    expect(ChaseIntentLog.latest(file)).toEqual({ line: line(4, '3400.2') });
    log.close();
    // Emptied by a runner that has not appended yet (a resume).
    new ChaseIntentLog(file).clear();
    expect(fs.readFileSync(file, 'utf8')).toBe('');
    // A line that fails its check is never appended.
    expect(() => new ChaseIntentLog(file).append({ ...line(5, '3400'), send: 0 })).toThrow();
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('a torn or malformed last line is reported, never used', () => {
    const file = chaseIntentLogFile(folder(), 'a1b2c3d4e5f6');
    fs.writeFileSync(file, JSON.stringify(line(2, '3400')) + '\n{"send": 3, "moving": {"client_or');
    expect(ChaseIntentLog.latest(file)).toEqual({ bad: 'its last line is not JSON' });
    fs.writeFileSync(file, JSON.stringify({ ...line(2, '3400'), extra: 1 }) + '\n');
    expect(ChaseIntentLog.latest(file)).toMatchObject({ bad: expect.stringMatching(/fails its check/) });
    fs.writeFileSync(file, JSON.stringify({ send: 2, moving: { ...line(2, '3400').moving, to_price: 'lots' } }) + '\n');
    expect(ChaseIntentLog.latest(file)).toMatchObject({ bad: expect.stringMatching(/moving\.to_price/) });
  });

  it('a link planted at its name is refused: never appended, emptied or read through', () => {
    const dir = folder();
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me\n');
    const file = chaseIntentLogFile(dir, 'a1b2c3d4e5f6');
    fs.symlinkSync(victim, file);
    expect(() => new ChaseIntentLog(file).append(line(2, '3400'))).toThrow();
    expect(() => new ChaseIntentLog(file).clear()).toThrow();
    expect(ChaseIntentLog.latest(file)).toMatchObject({ bad: expect.stringMatching(/symbolic link/) });
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me\n');
  });
});
