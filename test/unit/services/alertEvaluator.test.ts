/**
 * The alert store and evaluator (src/main/services/alerts) on a real data folder: two evaluators on the
 * same store (the app and `perps alert watch`) fire a one-shot crossing exactly once and log it once; a
 * repeating move alert fired by one is not fired again by the other for the same move; files are 0600;
 * a damaged alerts.json is reported by name and never rewritten; an alert removed by another process is
 * forgotten without a firing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertFiring } from '../../../src/shared/alerts/alertRule.js';
import { AlertEvaluator, AlertStore, OTHERS_LEAD_MS, readAlertLog } from '../../../src/main/services/alerts/index.js';
import { evaluatorRunning, thisEvaluator } from '../../../src/main/services/alerts/evaluatorLiveness.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-alerts-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function evaluator(store: AlertStore, fired: AlertFiring[]): AlertEvaluator {
  const e = new AlertEvaluator({ store, profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 0 });
  e.reload();
  return e;
}

describe('alert evaluator', () => {
  it('two evaluators on one store fire a one-shot crossing once, logged once', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    const a = store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: false, note: 'tp', wallet: null }, true, 1);
    const firedA: AlertFiring[] = [];
    const firedB: AlertFiring[] = [];
    const app = evaluator(new AlertStore(dir), firedA);
    const cli = evaluator(new AlertStore(dir), firedB);
    app.observeMarket({ market: 'ETH', at: 10, mark: '3490' });
    cli.observeMarket({ market: 'ETH', at: 10, mark: '3490' });
    app.observeMarket({ market: 'ETH', at: 20, mark: '3501' });
    cli.observeMarket({ market: 'ETH', at: 21, mark: '3502' });
    expect(firedA.map((f) => [f.id, f.value, f.done])).toEqual([[a.id, '3501', true]]);
    expect(firedB).toEqual([]);
    expect(readAlertLog(dir, 10).firings.map((f) => f.id)).toEqual([a.id]);
    expect(store.list('sim')[0]).toMatchObject({ status: 'done', fired_count: 1, last_fired_at: 20, last_fired_value: '3501' });
    expect(fs.statSync(path.join(dir, 'alerts.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'alerts.log')).mode & 0o777).toBe(0o600);
    // Another profile's evaluator does not see it.
    const other: AlertFiring[] = [];
    new AlertEvaluator({ store, profile: 'mainnet', onFire: (f) => other.push(f) }).observeMarket({ market: 'ETH', at: 30, mark: '3600' });
    expect(other).toEqual([]);
  });

  it('a repeating move alert fired by one evaluator is not fired again by the other for the same move', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'BTC', rule: { kind: 'move', pct: '1', window_ms: 60_000 }, repeat: true, note: '', wallet: null }, null, 1);
    const firedA: AlertFiring[] = [];
    const firedB: AlertFiring[] = [];
    const a = evaluator(store, firedA);
    const b = evaluator(new AlertStore(dir), firedB);
    for (const e of [a, b]) e.observeMarket({ market: 'BTC', at: 1_000, mark: '60000' });
    a.observeMarket({ market: 'BTC', at: 2_000, mark: '60700' });
    b.observeMarket({ market: 'BTC', at: 2_100, mark: '60710' });
    expect(firedA.map((f) => f.value)).toEqual(['1.16']);
    expect(firedB).toEqual([]);
    // A new move, after the window: each may fire it (whoever sees it first).
    a.observeMarket({ market: 'BTC', at: 70_000, mark: '61000' });
    a.observeMarket({ market: 'BTC', at: 100_000, mark: '61700' });
    expect(firedA).toHaveLength(2);
    expect(readAlertLog(dir, 10).firings).toHaveLength(2);
  });

  it('a watcher reading the stream late never fires a repeating crossing again from a mark the other already passed', () => {
    // The CI failure of stop 41: watcher B, one mark behind, re-armed the BTC alert from 59100 after A had
    // fired it at 58800, then fired it at 58800 a second time.
    const dir = dataDir();
    const store = new AlertStore(dir);
    const alert = store.add('sim', { market: 'BTC', rule: { kind: 'price_below', level: '59000' }, repeat: true, note: '', wallet: null }, true, 1);
    let clock = 1_000;
    const firedA: AlertFiring[] = [];
    const firedB: AlertFiring[] = [];
    const make = (fired: AlertFiring[]) => {
      const e = new AlertEvaluator({ store: new AlertStore(dir), profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 0, now: () => clock });
      e.reload();
      return e;
    };
    const a = make(firedA);
    const b = make(firedB);
    const marks = ['60000', '58990', '59050', '58900', '59100', '58800'];
    const seen = { a: 0, b: 0 };
    const step = (who: 'a' | 'b') => {
      clock += 10;
      (who === 'a' ? a : b).observeMarket({ market: 'BTC', at: clock, mark: marks[seen[who]++]! });
    };
    // B reads every mark, but one behind A from the re-arm on.
    for (let i = 0; i < 4; i++) {
      step('a');
      step('b');
    }
    step('a'); // 59100: re-armed
    step('a'); // 58800: fired the second time
    step('b'); // 59100, late
    step('b'); // 58800, late
    expect([...firedA, ...firedB].map((f) => f.value)).toEqual(['58990', '58800']);
    expect(readAlertLog(dir, 10).firings).toHaveLength(2);
    expect(store.list('sim').find((x) => x.id === alert.id)).toMatchObject({ fired_count: 2, armed: false });
    // Both read on alike from here: the next crossing fires once.
    for (const mark of ['59200', '58700']) for (const e of [b, a]) e.observeMarket({ market: 'BTC', at: (clock += 10), mark });
    expect([...firedA, ...firedB].map((f) => f.value)).toEqual(['58990', '58800', '58700']);
  });

  it('a watcher behind by more than the lead still never fires a crossing again while the other runs', () => {
    // The same late reading as above, on a starved machine: B reads each of A's marks more than
    // OTHERS_LEAD_MS after A. A still runs (state_by names it), so its state stands however old it is.
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'BTC', rule: { kind: 'price_below', level: '59000' }, repeat: true, note: '', wallet: null }, true, 1);
    let clock = 1_000;
    const fired: AlertFiring[] = [];
    const make = (id: string) => {
      const e = new AlertEvaluator({ store: new AlertStore(dir), profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 0, now: () => clock, id, running: (by) => by === 'host:A' });
      e.reload();
      return e;
    };
    const a = make('host:A');
    const b = make('host:B');
    const marks = ['60000', '58990', '59050', '58900', '59100', '58800', '59200', '58700'];
    // B one mark behind A, each of its readings more than the lead after A's latest change.
    const bReads = (mark: string) => b.observeMarket({ market: 'BTC', at: (clock += OTHERS_LEAD_MS + 1), mark });
    marks.forEach((mark, i) => {
      a.observeMarket({ market: 'BTC', at: (clock += 10), mark });
      if (i > 0) bReads(marks[i - 1]!);
    });
    bReads(marks.at(-1)!);
    expect(fired.map((f) => f.value)).toEqual(['58990', '58800', '58700']);
    expect(readAlertLog(dir, 10).firings).toHaveLength(3);
    expect(store.list('sim')[0]).toMatchObject({ fired_count: 3, armed: false });
  });

  /** B misses a crossing and the way back that A reads; returns B's firings on the next crossing, read later than any lag. */
  function partedStreams(aRunsThen: boolean): { firedA: string[]; firedB: string[]; logged: string[] } {
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '3500' }, repeat: true, note: '', wallet: null }, true, 1);
    let clock = 1_000;
    let aRuns = true;
    const running = (by: string) => by === 'host:A' && aRuns;
    const firedA: AlertFiring[] = [];
    const firedB: AlertFiring[] = [];
    const a = new AlertEvaluator({ store: new AlertStore(dir), profile: 'sim', onFire: (f) => firedA.push(f), reloadEveryMs: 0, now: () => clock, id: 'host:A', running });
    const b = new AlertEvaluator({ store: new AlertStore(dir), profile: 'sim', onFire: (f) => firedB.push(f), reloadEveryMs: 0, now: () => clock, id: 'host:B', running });
    a.reload();
    b.reload();
    b.observeMarket({ market: 'ETH', at: clock, mark: '3400' });
    // A alone sees a crossing and the way back (B's connection missed them).
    a.observeMarket({ market: 'ETH', at: (clock += 10), mark: '3510' });
    a.observeMarket({ market: 'ETH', at: (clock += 10), mark: '3300' });
    // The file names the evaluator that changed the state (the views never show it).
    expect((JSON.parse(fs.readFileSync(path.join(dir, 'alerts.json'), 'utf8')) as { alerts: unknown[] }).alerts[0]).toMatchObject({ armed: true, fired_count: 1, state_by: 'host:A' });
    expect(store.list('sim')[0]).not.toHaveProperty('state_by');
    aRuns = aRunsThen;
    clock += OTHERS_LEAD_MS;
    b.observeMarket({ market: 'ETH', at: clock, mark: '3530' });
    b.observeMarket({ market: 'ETH', at: (clock += 10), mark: '3540' });
    return { firedA: firedA.map((f) => f.value), firedB: firedB.map((f) => f.value), logged: readAlertLog(dir, 10).firings.map((f) => f.value) };
  }

  it('streams that parted: a stored state older than the lead is adopted once its evaluator has stopped, and the next crossing fires', () => {
    // B's reading (armed, none fired) is not the store's (re-armed, one fired), changed longer ago than any
    // lag by an evaluator that no longer runs: B adopts it, and judges its mark from there. The crossing
    // fires, once.
    expect(partedStreams(false)).toEqual({ firedA: ['3510'], firedB: ['3530'], logged: ['3530', '3510'] });
  });

  it('streams that parted while the other still runs: its state stands, and the crossing is its to fire', () => {
    // The store's state is further along than B's reading and A still runs: B is behind (or missed
    // messages), however long ago A changed it, and leaves the alert to A, which reads the same stream.
    expect(partedStreams(true)).toEqual({ firedA: ['3510'], firedB: [], logged: ['3510'] });
  });

  it("the evaluator's identity is this host and process; another host's, an ended process and a hand-edited one read as not running", async () => {
    expect(evaluatorRunning(thisEvaluator())).toBe(true);
    expect(thisEvaluator()).toBe(`${os.hostname()}:${process.pid}`);
    const ended = spawn(process.execPath, ['-e', '0']);
    const pid = ended.pid!;
    await new Promise((r) => ended.on('exit', r));
    expect(evaluatorRunning(`${os.hostname()}:${pid}`)).toBe(false);
    for (const edited of [`another-host:${process.pid}`, `${os.hostname()}:0`, `${os.hostname()}:-1`, `${os.hostname()}:1e3`, `${os.hostname()}:`, `:${process.pid}`, '', 'x'.repeat(300)]) {
      expect(evaluatorRunning(edited), edited).toBe(false);
    }
  });

  it('a hand-edited state_by too long to be an identity makes the file damaged, never evaluated', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '1' }, repeat: false, note: '', wallet: null }, true, 1);
    const file = path.join(dir, 'alerts.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { alerts: Record<string, unknown>[] };
    stored.alerts[0]!['state_by'] = 'h'.repeat(301);
    fs.writeFileSync(file, JSON.stringify(stored));
    expect(() => new AlertEvaluator({ store, profile: 'sim', onFire: () => undefined }).reload()).toThrow(expect.objectContaining({ code: 'ALERT_STORE_DAMAGED' }));
  });

  it('an alert removed by another process is forgotten without a firing', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    const a = store.add('sim', { market: 'ETH', rule: { kind: 'funding_below', level: '0' }, repeat: false, note: '', wallet: null }, true, 1);
    const fired: AlertFiring[] = [];
    const e = new AlertEvaluator({ store, profile: 'sim', onFire: (f) => fired.push(f), reloadEveryMs: 60_000, now: () => 0 });
    e.reload();
    new AlertStore(dir).remove('sim', a.id);
    e.observeMarket({ market: 'ETH', at: 5, funding: '-0.0001' });
    expect(fired).toEqual([]);
    expect(e.active()).toEqual([]);
  });

  it('a damaged store is reported by name, never rewritten', () => {
    const dir = dataDir();
    const store = new AlertStore(dir);
    store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '1' }, repeat: false, note: '', wallet: null }, null, 1);
    const file = path.join(dir, 'alerts.json');
    fs.writeFileSync(file, '{"version":1,"alerts":[{"id":"nope"}]}');
    expect(() => store.list('sim')).toThrow(expect.objectContaining({ code: 'ALERT_STORE_DAMAGED', message: expect.stringContaining(`${file} does not hold alerts (alerts.0.`) }));
    expect(() => store.add('sim', { market: 'ETH', rule: { kind: 'price_above', level: '1' }, repeat: false, note: '', wallet: null }, null)).toThrow(/does not hold alerts/);
    fs.writeFileSync(file, '{not json');
    expect(() => new AlertEvaluator({ store, profile: 'sim', onFire: () => undefined }).reload()).toThrow(expect.objectContaining({ code: 'ALERT_STORE_DAMAGED' }));
    expect(fs.readFileSync(file, 'utf8')).toBe('{not json');
  });
});
