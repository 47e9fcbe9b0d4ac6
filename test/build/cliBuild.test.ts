/**
 * The command line builds itself (issue 34): no `prepare` script (under .npmrc's strict-allow-scripts the
 * project's own install script made every `npx perps` fail), so bin/perps.js builds out/cli on its first
 * run, once however many start together, and again when a source it was built from changed. In a fresh
 * clone of this checkout (its committed HEAD), with the checkout's node_modules linked in. Nothing leaves
 * loopback: every Node process loads the loopback guard. `npx perps` under strict-allow-scripts is run by
 * test/build/readme.test.ts, as the README's quick start types it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

const GUARD = path.join(REPO_ROOT, 'test/support/loopbackOnlyGuard.mjs');
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let work = '';
let clone = '';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|NODE_OPTIONS$)/i.test(k)) e[k] = v;
  return {
    ...e,
    NODE_OPTIONS: `--import ${GUARD}`,
    PERPS_DATA_DIR: path.join(work, 'data'),
  };
}

function perps(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['bin/perps.js', ...args], { cwd: clone, env: env(), stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}


beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-cli-build-'));
  clone = path.join(work, 'perps-desk');
  execFileSync('git', ['clone', '--quiet', REPO_ROOT, clone], { stdio: 'pipe' });
  fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(clone, 'node_modules'));
}, 60_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('bin/perps.js builds the command line itself', () => {
  it('has no install-time build: package.json has no prepare (nor any install) script', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const hook of ['prepare', 'preinstall', 'install', 'postinstall']) expect(scripts, hook).not.toHaveProperty(hook);
  });

  it('on the first run in a fresh clone, once for three at the same time, saying why on stderr', async () => {
    expect(fs.existsSync(path.join(clone, 'out'))).toBe(false);
    const runs = await Promise.all([perps('--version'), perps('--version'), perps('--version')]);
    for (const r of runs) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
    }
    const built = runs.filter((r) => r.stderr.includes('perps: building the command line (out/cli) because it is not built yet'));
    expect(built).toHaveLength(1);
    // Built whole, then moved into place: no staging folder or lock is left behind.
    expect(fs.readdirSync(path.join(clone, 'out')).sort()).toEqual(['cli']);
    expect(fs.existsSync(path.join(clone, 'out/cli/main.js'))).toBe(true);
  });

  it('does not build again while its sources are unchanged', async () => {
    const r = await perps('--version');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('builds again after a source it was built from changed, and runs the new code', async () => {
    const file = path.join(clone, 'src/cli/main.ts');
    const source = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, source.replace("'print the version of Perps Desk'", "'print the version of this Perps Desk'"));
    const r = await perps('--help');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('because src/cli/main.ts changed since it was built');
    expect(r.stdout).toContain('print the version of this Perps Desk');
  });
});
