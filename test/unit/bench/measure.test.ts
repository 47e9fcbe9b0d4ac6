/**
 * The bench's measuring helper (test/bench/measure.ts), on scripted measurements: the verdict is the
 * median of per-round ratios (a few disturbed rounds do not move it), sides take turns going first, and
 * a miss is re-measured before it fails.
 */
import { describe, expect, it } from 'vitest';
import { formatResult, measureGates, roundOrder, spreadOf, type MeasureSpec } from '../../bench/measure.js';

/** Sides that return the next scripted number each time they are measured, recording the order. */
function scripted(values: Record<'app' | 'bare', number[]>, calls: string[] = []): MeasureSpec<'app' | 'bare'>['sides'] {
  const next = { app: 0, bare: 0 };
  return {
    app: () => (calls.push('app'), values.app[next.app++]!),
    bare: () => (calls.push('bare'), values.bare[next.bare++]!),
  };
}

const gate = { name: 'app / bare', of: (r: Record<'app' | 'bare', number>) => r.app / r.bare, target: { op: '<=' as const, value: 1.35 } };

describe('measureGates', () => {
  it('judges the median of per-round ratios: two rounds slowed by load on one side do not fail a steady 1.2x', async () => {
    const [r] = await measureGates({ rounds: 7, gates: [gate], sides: scripted({ app: [12, 12, 30, 12, 12, 29, 12], bare: [10, 10, 10, 10, 10, 10, 10] }) });
    expect(r!.passed).toBe(true);
    expect(r!.attempts).toHaveLength(1);
    expect(r!.attempts[0]!.spread).toMatchObject({ median: 1.2, min: 1.2, max: 3, rounds: 7 });
  });

  it('re-measures a miss and passes on a good second measurement, printing both', async () => {
    const calls: string[] = [];
    const [r] = await measureGates({ rounds: 3, gates: [gate], sides: scripted({ app: [20, 20, 20, 12, 12, 12], bare: [10, 10, 10, 10, 10, 10] }, calls) });
    expect(calls).toHaveLength(12);
    expect(r!.passed).toBe(true);
    expect(r!.attempts.map((a) => a.spread.median)).toEqual([2, 1.2]);
    expect(formatResult(r!)).toMatch(/^PASS {2}app \/ bare \(target <= 1\.350x\): 1\.200x .*re-measured after a first 2\.000x/);
  });

  it('fails when the second measurement misses too', async () => {
    const [r] = await measureGates({ rounds: 3, gates: [gate], sides: scripted({ app: [20, 20, 20, 19, 19, 19], bare: [10, 10, 10, 10, 10, 10] }) });
    expect(r!.passed).toBe(false);
    expect(formatResult(r!)).toMatch(/^FAIL .*1\.900x \(spread IQR 1\.900x\.\.1\.900x, range 1\.900x\.\.1\.900x, 3 rounds\)/);
  });

  it('keeps the first verdict of a gate that passed while another gate is re-measured', async () => {
    const inverse = { name: 'bare / app', of: (r: Record<'app' | 'bare', number>) => r.bare / r.app, target: { op: '>=' as const, value: 0.4 } };
    const [a, b] = await measureGates({ rounds: 1, gates: [gate, inverse], sides: scripted({ app: [20, 12], bare: [10, 10] }) });
    expect(a!.attempts).toHaveLength(2);
    expect(b!.attempts).toHaveLength(1);
    expect(b!.attempts[0]!.spread.median).toBe(0.5);
  });

  it('never re-measures for a report-only line: a miss there is printed as REPORT, measured once', async () => {
    const calls: string[] = [];
    const absolute = { name: 'app (absolute)', of: (r: Record<'app' | 'bare', number>) => r.app, target: { op: '<=' as const, value: 5 }, unit: '' as const, reportOnly: true };
    const [ratio, report] = await measureGates({ rounds: 3, gates: [gate, absolute], sides: scripted({ app: [12, 12, 12, 12, 12, 12], bare: [10, 10, 10, 10, 10, 10] }, calls) });
    expect(calls).toHaveLength(6);
    expect(ratio!.passed).toBe(true);
    expect(report!.passed).toBe(false);
    expect(report!.reportOnly).toBe(true);
    expect(report!.attempts).toHaveLength(1);
    expect(formatResult(report!)).toMatch(/^REPORT \(target not met yet, not gated\)/);
  });

  it('re-measures a gated miss but leaves a report-only line at its first measurement', async () => {
    const absolute = { name: 'app (absolute)', of: (r: Record<'app' | 'bare', number>) => r.app, target: { op: '<=' as const, value: 5 }, unit: '' as const, reportOnly: true };
    const [ratio, report] = await measureGates({ rounds: 1, gates: [gate, absolute], sides: scripted({ app: [20, 12], bare: [10, 10] }) });
    expect(ratio!.attempts).toHaveLength(2);
    expect(report!.attempts).toHaveLength(1);
  });

  it('refuses a measurement that is not a finite number', async () => {
    await expect(measureGates({ rounds: 1, gates: [gate], sides: scripted({ app: [Number.NaN], bare: [1] }) })).rejects.toThrow(/'app' measured NaN/);
  });

  it('judges several numbers of one play on the same rounds: each gate the median of its own per-round number', async () => {
    // One storm play per side and round gives both its layouts and its commits; the layouts gate reads
    // app / floor, the commits gate the app's commits per frame. Round 2 is disturbed on the app side.
    const plays = { app: [{ layouts: 30, commits: 60, frames: 60 }, { layouts: 90, commits: 300, frames: 30 }, { layouts: 33, commits: 66, frames: 60 }], floor: [{ layouts: 10, commits: 0, frames: 60 }, { layouts: 10, commits: 0, frames: 60 }, { layouts: 11, commits: 0, frames: 60 }] };
    const next = { app: 0, floor: 0 };
    const calls: string[] = [];
    const sides = { app: () => (calls.push('app'), plays.app[next.app++]!), floor: () => (calls.push('floor'), plays.floor[next.floor++]!) };
    type Play = Readonly<Record<'layouts' | 'commits' | 'frames', number>>;
    const layouts = { name: 'layouts app / floor', of: (r: Record<'app' | 'floor', Play>) => r.app.layouts / r.floor.layouts, target: { op: '<=' as const, value: 3.5 }, detail: (m: Record<'app' | 'floor', Play>) => `${m.app.layouts} vs ${m.floor.layouts}` };
    const commits = { name: 'commits per frame', of: (r: Record<'app' | 'floor', Play>) => r.app.commits / r.app.frames, target: { op: '<=' as const, value: 2 }, unit: '' as const };
    const [l, c] = await measureGates({ rounds: 3, gates: [layouts, commits], sides });
    expect(calls).toEqual(['app', 'floor', 'floor', 'app', 'app', 'floor']);
    expect(l!.attempts[0]!.spread).toMatchObject({ median: 3, min: 3, max: 9 });
    expect(l!.attempts[0]!.detail).toBe('33 vs 10');
    expect(c!.attempts[0]!.spread).toMatchObject({ median: 1.1, max: 10 });
    expect([l!.passed, c!.passed]).toEqual([true, true]);
  });

  it('refuses a record measurement with a number that is not finite, naming it', async () => {
    const layouts = { name: 'layouts', of: (r: Record<'app', Readonly<Record<string, number>>>) => r.app['layouts']!, target: { op: '<=' as const, value: 1 } };
    await expect(measureGates({ rounds: 1, gates: [layouts], sides: { app: () => ({ layouts: 3, commits: Number.NaN }) } })).rejects.toThrow(/'app' measured commits NaN in round 1/);
  });
});

describe('rounds and spread', () => {
  it('each side goes first equally often', () => {
    const firsts = Array.from({ length: 6 }, (_, r) => roundOrder(['node', 'help', 'markets'], r)[0]);
    expect(firsts).toEqual(['node', 'help', 'markets', 'node', 'help', 'markets']);
  });

  it('median and quartiles interpolate between the measured values', () => {
    expect(spreadOf([4, 1, 3, 2])).toEqual({ median: 2.5, q1: 1.75, q3: 3.25, min: 1, max: 4, rounds: 4 });
  });
});
