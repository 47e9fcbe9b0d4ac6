/**
 * Item 5 of issue 28: a packaged Perps Desk started with a way for another program to drive it keeps its
 * vault closed and says why; started from a checkout it only warns. Each door is tried on the BUILT main
 * bundle under the fake Electron (bootRun.ts): Chromium's --remote-debugging-port and
 * --remote-debugging-pipe, Node's --inspect and --inspect-brk (as Electron receives them on its command
 * line), an inspector already open, and NODE_OPTIONS with --require, --import and --loader (real, no-op
 * modules: Node loads them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, bootTempDir, context, ensureBuilt, removeBootCopies, type BootOptions, type BootRun } from './bootRun.js';

beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => removeBootCopies());

function noopModules(): { cjs: string; mjs: string; loader: string } {
  const dir = bootTempDir('noop');
  const cjs = path.join(dir, 'noop.cjs');
  const mjs = path.join(dir, 'noop.mjs');
  const loader = path.join(dir, 'loader.mjs');
  fs.writeFileSync(cjs, '// loaded by NODE_OPTIONS --require\n');
  fs.writeFileSync(mjs, '// loaded by NODE_OPTIONS --import\n');
  fs.writeFileSync(loader, '// a loader with no hooks (NODE_OPTIONS --loader)\nexport {};\n');
  return { cjs, mjs, loader };
}

/** Runs the vault-guard scenario; `tryVault` also tries to create a trading key (only where it must be refused). */
function guard(options: BootOptions, tryVault: boolean): Promise<BootRun> {
  return bootApp('vault-guard', { ...options, env: { ...(options.env ?? {}), ...(tryVault ? { PERPS_BOOT_TRY_VAULT: '1' } : {}) } });
}

function ranToTheEnd(run: BootRun): void {
  expect(run.report?.fatal, context(run)).toBeUndefined();
  expect(run.report.errors, context(run)).toEqual([]);
  expect(run.report.violations, context(run)).toEqual([]);
  expect(run.report.steps, context(run)).toEqual(['imported', 'vault', 'quit']);
  expect(run.code, context(run)).toBe(0);
}

describe('a packaged app started with a debugging door open', () => {
  const cases: { name: string; shown: string; options: () => BootOptions }[] = [
    { name: '--remote-debugging-port', shown: '--remote-debugging-port', options: () => ({ args: ['--remote-debugging-port=9222'] }) },
    { name: '--remote-debugging-pipe', shown: '--remote-debugging-pipe', options: () => ({ args: ['--remote-debugging-pipe'] }) },
    { name: '--inspect', shown: '--inspect', options: () => ({ args: ['--inspect'] }) },
    { name: '--inspect-brk', shown: '--inspect-brk', options: () => ({ args: ['--inspect-brk=9229'] }) },
    { name: 'an inspector already open', shown: 'an open inspector', options: () => ({ env: { PERPS_BOOT_OPEN_INSPECTOR: '1' } }) },
    { name: 'NODE_OPTIONS --require', shown: 'NODE_OPTIONS --require', options: () => ({ env: { NODE_OPTIONS: `--require ${noopModules().cjs}` } }) },
    { name: 'NODE_OPTIONS --import', shown: 'NODE_OPTIONS --import', options: () => ({ env: { NODE_OPTIONS: `--import=${noopModules().mjs}` } }) },
    { name: 'NODE_OPTIONS --loader', shown: 'NODE_OPTIONS --loader', options: () => ({ env: { NODE_OPTIONS: `--no-warnings --loader ${noopModules().loader}` } }) },
  ];

  it.each(cases)('$name: the vault stays closed, the app says why, and no key is written', async ({ shown, options }) => {
    const run = await guard({ ...options(), packaged: true }, true);
    ranToTheEnd(run);
    const { info, wallet, createKey } = run.report.calls;
    // The UI's source (app:getInfo) names the door and what to do.
    expect(info.ok, JSON.stringify(info)).toBe(true);
    expect(info.value.vault_closed).toContain(shown);
    expect(info.value.vault_closed).toMatch(/vault stays closed/);
    expect(info.value.vault_closed).toMatch(/start it again normally/);
    // What does not need the vault still works; what does is refused before the keychain is touched.
    expect(wallet.ok, JSON.stringify(wallet)).toBe(true);
    expect(createKey).toMatchObject({ ok: false, error: { code: 'VAULT_CLOSED' } });
    expect(createKey.error.message).toContain(shown);
    expect(run.stderr).toContain('so the vault stays closed');
  });

  it('with no door open, the vault is open', async () => {
    const run = await guard({ packaged: true }, false);
    ranToTheEnd(run);
    expect(run.report.calls.info).toMatchObject({ ok: true, value: { vault_closed: null } });
    expect(run.stderr).not.toContain('vault stays closed');
  });
});

describe('run from a checkout (npm start, npm run dev)', () => {
  it.each([
    ['--remote-debugging-port', { args: ['--remote-debugging-port=9222'] }],
    ['--inspect', { args: ['--inspect'] }],
  ] as const)('%s only warns: the vault stays open', async (shown, options) => {
    const run = await guard({ ...options, packaged: false }, false);
    ranToTheEnd(run);
    expect(run.report.calls.info).toMatchObject({ ok: true, value: { vault_closed: null } });
    expect(run.stderr).toContain(`started with ${shown}`);
    expect(run.stderr).toMatch(/a checkout only warns/);
  });
});
