/**
 * Where a test run's time shows (README, "Running the tests"): every step of .ci/run and scripts/test.sh
 * prints its seconds, a nested step (npm test's own under .ci/run) is indented and counted once in the
 * closing table's total, a failing step stops the run with its exit recorded; and the slowest test files
 * are read from vitest's and Playwright's JSON reports.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { playwrightFileTimes, table, vitestFileTimes, vitestReportsFileTimes } from '../../../scripts/ci/testTimes.js';
import { REPO_ROOT } from '../../support/paths.js';

const STEPS = path.join(REPO_ROOT, 'scripts/ci/steps.sh');

function bash(script: string): { status: number | null; stdout: string } {
  // This test itself runs inside .ci/run's `npm test` step, whose STEP_DEPTH and STEP_TIMES_FILE would
  // nest these steps one level deeper and add them to CI's own table: the script starts at the top.
  const env = { ...process.env };
  delete env.STEP_DEPTH;
  delete env.STEP_TIMES_FILE;
  const r = spawnSync('bash', ['-c', `set -euo pipefail; STEP_TIMES_FILE=$(mktemp); export STEP_TIMES_FILE; source '${STEPS}'; trap step_table EXIT; ${script}`], { encoding: 'utf8', timeout: 20_000, env });
  return { status: r.status, stdout: r.stdout };
}

describe('step times', () => {
  it('prints each step with its seconds and a table whose total counts a nested step once', () => {
    const r = bash(`step outer bash -c "source '${STEPS}'; step inner sleep 1"; step after true`);
    expect(r.status).toBe(0);
    // SECONDS counts whole seconds, so a one-second sleep reads 1 or 2 (and 3 on a loaded machine) by
    // where the run falls between ticks: the test asserts the shape and the arithmetic, not the tick.
    const inner = Number(/^-- inner: (\d+) s$/m.exec(r.stdout)?.[1]);
    const outer = Number(/^-- outer: (\d+) s$/m.exec(r.stdout)?.[1]);
    const after = Number(/^-- after: (\d+) s$/m.exec(r.stdout)?.[1]);
    expect(inner).toBeGreaterThanOrEqual(1);
    expect(inner).toBeLessThanOrEqual(3);
    expect(outer).toBeGreaterThanOrEqual(inner);
    expect(outer).toBeLessThanOrEqual(inner + 1);
    const tableLines = r.stdout.slice(r.stdout.indexOf('== step times (seconds)')).split('\n');
    expect(tableLines).toContainEqual(expect.stringMatching(new RegExp(`^ +${inner} {4}inner$`)));
    expect(tableLines).toContainEqual(expect.stringMatching(new RegExp(`^ +${outer} {2}outer$`)));
    expect(tableLines).toContainEqual(expect.stringMatching(new RegExp(`^ +${after} {2}after$`)));
    // The total is outer + after, not outer + inner + after.
    expect(tableLines).toContainEqual(expect.stringMatching(new RegExp(`^ +${outer + after} {2}total$`)));
  });

  it('a failing step stops the run, and the table still names it with its exit', () => {
    const r = bash('step fine true; step broken false; step never true');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^-- broken: 0 s \(exit 1\)$/m);
    expect(r.stdout).toMatch(/^ +0 {2}broken {2}\(exit 1\)$/m);
    expect(r.stdout).not.toMatch(/== never/);
  });
});

describe('the slowest test files', () => {
  it('reads per-file times from vitest\'s and Playwright\'s JSON reports, slowest first', () => {
    const v = vitestFileTimes({ testResults: [{ name: path.join(REPO_ROOT, 'test/a.test.ts'), startTime: 1_000, endTime: 4_500, assertionResults: [{}, {}] }, { name: path.join(REPO_ROOT, 'test/b.test.ts'), startTime: 0, endTime: 9_000, assertionResults: [{}] }] }, REPO_ROOT);
    expect(v).toEqual([{ file: 'test/a.test.ts', ms: 3_500, tests: 2 }, { file: 'test/b.test.ts', ms: 9_000, tests: 1 }]);
    const p = playwrightFileTimes({ suites: [{ file: 'x.spec.ts', specs: [{ tests: [{ results: [{ duration: 2_000 }, { duration: 500 }] }] }], suites: [{ specs: [{ tests: [{ results: [{ duration: 1_000 }] }] }] }] }] });
    expect(p).toEqual([{ file: 'x.spec.ts', ms: 3_500, tests: 2 }]);
    const t = table('vitest per file', v, 1).split('\n');
    expect(t[0]).toBe('== vitest per file: 2 files, 13 s of file time (the slowest 1)');
    expect(t[1]).toMatch(/^ +9\.0 s +1 tests {2}test\/b\.test\.ts$/);
  });

  it("joins vitest's reports of one run (its README project runs beside Playwright, with a report of its own)", () => {
    const report = (file: string, ms: number) => ({ testResults: [{ name: path.join(REPO_ROOT, file), startTime: 0, endTime: ms, assertionResults: [{}] }] });
    const joined = vitestReportsFileTimes([report('test/a.test.ts', 2_000), undefined, report('test/build/readme.test.ts', 5_000)], REPO_ROOT);
    expect(joined).toEqual([
      { file: 'test/a.test.ts', ms: 2_000, tests: 1 },
      { file: 'test/build/readme.test.ts', ms: 5_000, tests: 1 },
    ]);
  });
});
