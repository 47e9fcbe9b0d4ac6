/**
 * The alert store and log against a hostile or failing data folder (issue 36, items 4, 5, 12):
 *  - a firing is logged only after its commit was written: a store write that fails logs nothing, however
 *    many observations cross the level;
 *  - a write after a lost lock (a holder that stalled while another process took the lock and wrote) is
 *    refused, and the other process's change stands;
 *  - a FIFO planted as alerts.log never blocks a firing (nor the lock): the firing is committed and the
 *    log's refusal is reported;
 *  - stored alerts are held to the rules of new ones: a move of 0 %, a price level of -5, a market the
 *    service does not list, a note with control characters, a mixed-case wallet are listed with why and
 *    never evaluated.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertFiring } from '../../../src/shared/alerts/alertRule.js';
import { AlertEvaluator, AlertStore, readAlertLog } from '../../../src/main/services/alerts/index.js';
import { writeFileAtomicSync } from '../../../src/main/files/atomicWrite.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-alerts-hard-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const WALLET = '0x00000000000000000000000000000000000000aa';

/** A store whose every write fails after the change was computed (a full disk, a lost lock). */
class FailingWrites extends AlertStore {
  override transact<T>(work: Parameters<AlertStore['transact']>[0]): T {
    return super.transact((file) => {
      const r = work(file);
      if (r.next) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return r;
    }) as T;
  }
}

describe('alert log after commit', () => {
  it('a store write that fails logs nothing: 50 observations of a crossing, 0 lines', () => {
    const dir = dataDir();
    new AlertStore(dir).add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, note: '', wallet: null }, true, 1);
    const fired: AlertFiring[] = [];
    const e = new AlertEvaluator({ store: new FailingWrites(dir), profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 0 });
    e.reload();
    let failures = 0;
    for (let i = 0; i < 50; i++) {
      try {
        e.observeMarket({ market: 'ETH', at: 10 + i, mark: '3600' });
      } catch (err) {
        expect((err as Error).message).toMatch(/ENOSPC/);
        failures++;
      }
    }
    expect(failures).toBe(50);
    expect(fired).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'alerts.log'))).toBe(false);
    expect(readAlertLog(dir, 100).firings).toEqual([]);
  });

  it('a FIFO planted as alerts.log blocks nothing: the firing is committed, and the log is reported unusable', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    const a = store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, note: '', wallet: null }, true, 1);
    execFileSync('mkfifo', [path.join(dir, 'alerts.log')]);
    const fired: AlertFiring[] = [];
    const e = new AlertEvaluator({ store, profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 0 });
    e.reload();
    expect(() => e.observeMarket({ market: 'ETH', at: 20, mark: '3600' })).toThrow(/alerts\.log is a FIFO, not a regular file; the firing was committed but not logged/);
    expect(fired.map((f) => f.id)).toEqual([a.id]);
    expect(store.list('sim')[0]).toMatchObject({ status: 'done', fired_count: 1 });
    expect(() => readAlertLog(dir, 10)).toThrow(/is a FIFO/);
    // The lock was released: another write goes through at once.
    store.remove('sim', a.id);
    expect(store.list('sim')).toEqual([]);
  });
});

describe('a write after a lost lock', () => {
  it('is refused: the alert another process added while this one stalled is kept', () => {
    const dir = dataDir();
    const stalled = new AlertStore(dir);
    const other = new AlertStore(dir);
    stalled.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, note: 'first', wallet: null }, true, 1);
    const lockDir = path.join(dir, 'alerts.json.lock');
    let added = '';
    const attempt = () =>
      stalled.transact((file) => {
        // Stalled past the lock's stale time (a blocked open, a stopped process): another process takes the
        // lock over and writes its change, as proper-lockfile lets it after 5 s.
        fs.rmSync(lockDir, { recursive: true, force: true });
        added = other.add('sim', { market: 'BTC', rule: { kind: 'price_below', level: '50000' }, repeat: false, note: 'second', wallet: null }, true, 2).id;
        fs.mkdirSync(lockDir);
        return { next: { ...file, alerts: file.alerts.map((x) => ({ ...x, note: 'stale copy' })) }, result: null };
      });
    expect(attempt).toThrow(expect.objectContaining({ code: 'ALERT_STORE_CONFLICT' }));
    const now = other.list('sim');
    expect(now.map((x) => x.note)).toEqual(['first', 'second']);
    expect(now[1]!.id).toBe(added);
  });

  it('a file replaced under a store between its read and its write is never overwritten', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, note: '', wallet: null }, true, 1);
    const file = path.join(dir, 'alerts.json');
    const foreign = JSON.stringify({ version: 1, alerts: [] }) + '\n';
    expect(() =>
      store.transact((f) => {
        writeFileAtomicSync(file, foreign);
        return { next: f, result: null };
      }),
    ).toThrow(/changed by another process while this one held its lock/);
    expect(fs.readFileSync(file, 'utf8')).toBe(foreign);
  });
});

describe('stored alerts pass the rules of new ones', () => {
  function plant(dir: string, alerts: Record<string, unknown>[]): void {
    const base = { created_at: 1, status: 'active', armed: null, fired_count: 0, last_fired_at: null, last_fired_value: null, repeat: true, note: '', wallet: null, profile: 'sim' };
    fs.writeFileSync(path.join(dir, 'alerts.json'), JSON.stringify({ version: 1, alerts: alerts.map((a) => ({ ...base, ...a })) }), { mode: 0o600 });
  }

  it('a move of 0 %, a level of -5, DOGE, control characters and a mixed-case wallet are listed with why and never fire', () => {
    const dir = dataDir();
    plant(dir, [
      { id: '00000000000a', market: 'ETH', rule: { kind: 'move', pct: '0', window_ms: 60_000 } },
      { id: '00000000000b', market: 'ETH', rule: { kind: 'price_above', level: '-5' }, armed: true },
      { id: '00000000000c', market: 'DOGE', rule: { kind: 'price_above', level: '1' }, armed: true },
      { id: '00000000000d', market: 'ETH', rule: { kind: 'price_above', level: '3500' }, armed: true, note: 'hi\u001b[2Jthere' },
      { id: '00000000000e', market: 'ETH', rule: { kind: 'pnl_below', level: '-100' }, wallet: '0x00000000000000000000000000000000000000AA', armed: true },
      { id: '00000000000f', market: 'ETH', rule: { kind: 'price_above', level: '3500' }, armed: true },
    ]);
    const store = new AlertStore(dir);
    const fired: AlertFiring[] = [];
    const e = new AlertEvaluator({ store, profile: 'sim', marketSymbols: ['ETH', 'BTC'], onFire: (f) => fired.push(f), reloadEveryMs: 0 });
    e.reload();
    // Eight seconds of marks, one every 500 ms, moving and crossing: only the healthy alert fires, once.
    for (let i = 0; i <= 16; i++) {
      e.observeMarket({ market: 'ETH', at: 1_000 + i * 500, mark: i % 2 === 0 ? '3400' : '3600' });
      e.observePosition({ market: 'ETH', wallet: WALLET, at: 1_000 + i * 500, unrealizedPnl: '-500', liquidationDistance: null });
      e.observeMarket({ market: 'DOGE', at: 1_000 + i * 500, mark: '2' });
    }
    expect(new Set(fired.map((f) => f.id))).toEqual(new Set(['00000000000f']));
    const { alerts, damaged } = store.checked('sim', ['ETH', 'BTC']);
    expect(alerts.map((a) => a.id)).toEqual(['00000000000f']);
    const why = Object.fromEntries(damaged.map((d) => [d.id, d.problems.join('; ')]));
    expect(why).toEqual({
      '00000000000a': expect.stringMatching(/move: a move is a percentage above 0/),
      '00000000000b': expect.stringMatching(/above: a price level must be above 0/),
      '00000000000c': expect.stringMatching(/market: 'DOGE' is not a market this service lists/),
      '00000000000d': expect.stringMatching(/note: no control characters/),
      '00000000000e': expect.stringMatching(/wallet: stored in mixed case, which never matches a position/),
    });
    // Without the service's markets only DOGE passes (it is checked where the markets are at hand).
    expect(store.list('sim').map((a) => a.id)).toEqual(['00000000000c', '00000000000f']);
  });
});
