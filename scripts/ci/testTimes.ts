/**
 * Per-file times from the test runs' JSON reports (vitest's `--reporter=json`, Playwright's json
 * reporter): the slowest files first, with each runner's total, so a slow file shows in CI's log
 * without re-running anything. Usage: tsx scripts/ci/testTimes.ts VITEST_JSON[,VITEST_JSON...] PLAYWRIGHT_JSON [TOP]
 * (scripts/test.sh runs vitest twice, its README project beside Playwright: one report each).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface FileTime {
  file: string;
  ms: number;
  tests: number;
}

/** vitest's json report (Jest's shape): testResults[] with name, startTime and endTime per file. */
export function vitestFileTimes(report: unknown, root: string): FileTime[] {
  const results = (report as { testResults?: { name?: string; startTime?: number; endTime?: number; assertionResults?: unknown[] }[] }).testResults ?? [];
  return results.map((r) => ({
    file: path.relative(root, r.name ?? '?'),
    ms: Math.max(0, (r.endTime ?? 0) - (r.startTime ?? 0)),
    tests: r.assertionResults?.length ?? 0,
  }));
}

interface PwSuite {
  file?: string;
  suites?: PwSuite[];
  specs?: { tests?: { results?: { duration?: number }[] }[] }[];
}

/** Playwright's json report: suites per file, nested; a file's time is the sum of its tests' results. */
export function playwrightFileTimes(report: unknown): FileTime[] {
  const byFile = new Map<string, FileTime>();
  const walk = (suite: PwSuite, file: string): void => {
    const f = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      const t = byFile.get(f) ?? { file: f, ms: 0, tests: 0 };
      for (const test of spec.tests ?? []) {
        t.tests += 1;
        for (const r of test.results ?? []) t.ms += r.duration ?? 0;
      }
      byFile.set(f, t);
    }
    for (const s of suite.suites ?? []) walk(s, f);
  };
  for (const s of (report as { suites?: PwSuite[] }).suites ?? []) walk(s, s.file ?? '?');
  return [...byFile.values()];
}

export function table(title: string, times: FileTime[], top: number): string {
  const total = times.reduce((a, t) => a + t.ms, 0);
  const lines = [...times].sort((a, b) => b.ms - a.ms).slice(0, top).map((t) => `${(t.ms / 1000).toFixed(1).padStart(8)} s  ${String(t.tests).padStart(4)} tests  ${t.file}`);
  return [`== ${title}: ${times.length} files, ${(total / 1000).toFixed(0)} s of file time (the slowest ${Math.min(top, times.length)})`, ...lines].join('\n');
}

function readJson(file: string | undefined): unknown {
  if (!file || !fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** The files of several vitest reports as one list (a missing report adds nothing). */
export function vitestReportsFileTimes(reports: readonly unknown[], root: string): FileTime[] {
  return reports.flatMap((r) => (r === undefined ? [] : vitestFileTimes(r, root)));
}

/** Prints both tables; exit 1 only when no report exists. */
export function main(args: readonly string[]): number {
  const [vitestFiles, playwrightFile, topArg] = args;
  const top = Number(topArg ?? 15);
  const vitestReports = (vitestFiles ?? '').split(',').filter(Boolean).map(readJson).filter((r) => r !== undefined);
  const vitest = vitestReports.length > 0;
  const playwright = readJson(playwrightFile);
  if (vitest) console.log(table('vitest per file', vitestReportsFileTimes(vitestReports, process.cwd()), top));
  if (playwright) console.log(table('Playwright per file', playwrightFileTimes(playwright), top));
  if (!vitest && !playwright) {
    console.error('no test report found');
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
