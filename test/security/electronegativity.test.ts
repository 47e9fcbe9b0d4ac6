/**
 * Doyensec's Electronegativity over the app's sources, with SARIF output. The tool exits 0 whatever it
 * finds, so its SARIF is parsed and checked: no finding of high or medium severity may remain.
 *
 * SARIF 2.1 as Electronegativity writes it has no severity (only level note/warning, which encodes
 * "needs manual review"), so each SARIF result is matched to the tool's own issue list, returned by its
 * programmatic runner in the same run, which carries the severity. The CLI entry point is not used: it
 * depends on an undeclared, older commander and crashes against the commander this project uses.
 *
 * It scans src/ (TypeScript): it parses every file there. The built out/ folder is the fallback when a
 * source file cannot be parsed; it is not the default because the bundled main process uses private
 * class fields (#x), which the tool's JavaScript parser rejects, and a main process it cannot read shows
 * up as false "no navigation limits / no permission handler" global findings.
 *
 * Findings reviewed and annotated inline (eng-disable, with the reason next to it) in
 * src/main/shell/electronShell.ts: OPEN_EXTERNAL_JS_CHECK (allowlisted https hosts only) and
 * PRELOAD_JS_CHECK (sandboxed, context-isolated preload exposing only window.perps).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';
import { tempDir } from '../support/keychain.js';

const run = promisify(execFile);

interface ToolIssue {
  id: string;
  severity: string;
  confidence: string;
  file: string;
  line: number;
  manualReview: boolean;
}

interface ScanResult {
  sarif: { runs: { tool: { driver: { name: string } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
  issues: ToolIssue[];
  errors: { file: string; message: string; tolerable: boolean }[];
}

const RUNNER = `
const run = require(${JSON.stringify(path.join(REPO_ROOT, 'node_modules/@doyensec/electronegativity/dist/runner.js'))});
const [input, output] = process.argv.slice(1);
run({ input, output, isSarif: true, customScan: [], excludeFromScan: [], isRelative: true, isVerbose: false,
      electronVersionOverride: process.env.ELECTRON_VERSION, parserPlugins: [] }, false)
  .then((r) => process.stdout.write('\\n@@RESULT@@' + JSON.stringify({
    errors: r.errors,
    issues: r.issues.map((i) => ({ id: i.id, severity: i.severity.name, confidence: i.confidence.name, file: i.file, line: i.location.line, manualReview: i.manualReview })),
  })))
  .catch((e) => { console.error(e && e.stack || e); process.exit(1); });
`;

async function scan(input: string): Promise<ScanResult> {
  const out = path.join(tempDir('eneg'), 'electronegativity.sarif');
  const electronVersion = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
  const { stdout } = await run(process.execPath, ['-e', RUNNER, input, out], {
    cwd: REPO_ROOT,
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ELECTRON_VERSION: electronVersion },
  });
  const marker = stdout.lastIndexOf('@@RESULT@@');
  expect(marker, 'the runner printed its result').toBeGreaterThanOrEqual(0);
  const result = JSON.parse(stdout.slice(marker + '@@RESULT@@'.length)) as Omit<ScanResult, 'sarif'>;
  const sarif = JSON.parse(fs.readFileSync(out, 'utf8')) as ScanResult['sarif'];
  return { sarif, ...result };
}

describe('Electronegativity', () => {
  it('finds nothing of high or medium severity in the app', async () => {
    let input = path.join(REPO_ROOT, 'src');
    let result = await scan(input);
    if (result.errors.some((e) => !e.tolerable)) {
      // The brief's fallback: a source the tool cannot parse is scanned as built JavaScript instead.
      console.warn(`electronegativity could not parse: ${result.errors.map((e) => e.file).join(', ')}; scanning out/ instead`);
      input = path.join(REPO_ROOT, 'out');
      result = await scan(input);
    }
    expect(result.errors.filter((e) => !e.tolerable)).toEqual([]);

    const run0 = result.sarif.runs[0]!;
    expect(run0.tool.driver.name).toBe('Electronegativity');
    // Every SARIF result is one of the tool's issues; its severity comes from there.
    expect(run0.results).toHaveLength(result.issues.length);
    const findings = run0.results.map((r) => {
      const loc = r.locations[0]!.physicalLocation;
      const issue = result.issues.find((i) => i.id === r.ruleId && (i.file === loc.artifactLocation.uri || loc.artifactLocation.uri === 'file:///'));
      expect(issue, `SARIF result ${r.ruleId} at ${loc.artifactLocation.uri}`).toBeDefined();
      return { rule: r.ruleId, severity: issue!.severity, file: loc.artifactLocation.uri, line: loc.region.startLine };
    });
    const serious = findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
    expect(serious).toEqual([]);
    // What remains is informational or low (today: the CSP global check's low-severity note).
    for (const f of findings) expect(['LOW', 'INFORMATIONAL']).toContain(f.severity);
  }, 240_000);
});
