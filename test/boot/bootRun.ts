/**
 * Boots the BUILT main bundle in a child process under the fake Electron (bootScenario.mjs) and returns
 * its report. Shared by the boot tests: mainBundle.test.ts (the app as a whole), vaultGuard.test.ts (the
 * vault stays closed when a packaged app is started with a debugging door open) and
 * connections.test.ts (what the main process connects to).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { REPO_ROOT } from '../support/paths.js';
import { makeAppCopy, type AppCopy } from './tempAppCopy.js';

const SCENARIO = path.join(REPO_ROOT, 'test/boot/bootScenario.mjs');
const BUILT_MAIN = path.join(REPO_ROOT, 'out/main/index.js');
export const DEV_SERVER_URL = 'http://localhost:5173';

/* eslint-disable @typescript-eslint/no-explicit-any -- the report is the child's JSON */
export interface BootRun {
  code: number | null;
  /** The home the run used (its data folder is `userData`), and its main wallet's key: a restart passes them back. */
  home: string;
  mainKey: string;
  stdout: string;
  stderr: string;
  report: any;
  userData: string;
}

export type BootMode = 'app' | 'dev-activate' | 'vault-guard' | 'tray-idle' | 'tray-twap' | 'tray-off' | 'oco-run' | 'oco-resume' | 'chase-run' | 'chase-resume';

export interface BootOptions {
  /** app.isPackaged in the fake Electron (default false: a checkout). */
  packaged?: boolean;
  /** Extra command-line arguments of the app process (Chromium and Node switches as Electron gets them). */
  args?: readonly string[];
  /** Node options of the child itself (before the scenario script). */
  execArgv?: readonly string[];
  /** Extra environment (NODE_OPTIONS, PERPS_BOOT_*). */
  env?: Record<string, string>;
  /** The home (and so the data folder) of an earlier run, to start the app again on it. */
  home?: string;
  /** The main wallet's key of an earlier run (else a new throwaway one). */
  mainKey?: string;
}

const copies: AppCopy[] = [];
const folders: string[] = [];

/** The suite runs after `electron-vite build` (scripts/test.sh); build here only when run on its own. */
export function ensureBuilt(): void {
  if (!fs.existsSync(BUILT_MAIN)) execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/electron-vite'), ['build'], { cwd: REPO_ROOT, stdio: 'ignore' });
}

export function removeBootCopies(): void {
  for (const c of copies.splice(0)) c.remove();
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
}

/** A throwaway folder removed with the copies. */
export function bootTempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `perps-boot-${label}-`));
  folders.push(dir);
  return dir;
}

export async function bootApp(mode: BootMode, options: BootOptions = {}): Promise<BootRun> {
  const copy = makeAppCopy();
  copies.push(copy);
  const home = options.home ?? bootTempDir('data');
  const mainKey = options.mainKey ?? Wallet.createRandom().privateKey;
  const userData = path.join(home, 'Perps Desk');
  const reportFile = path.join(home, 'report.json');
  fs.rmSync(reportFile, { force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PERPS_BOOT_USER_DATA: userData,
    PERPS_BOOT_APP_VERSION: (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    // A throwaway main wallet for wallet:connectEnv (read from the app process's environment).
    PERPS_BOOT_MAIN_KEY: mainKey,
  };
  delete env['NODE_OPTIONS'];
  delete env['ELECTRON_RENDERER_URL'];
  delete env['PERPS_BOOT_PACKAGED'];
  if (mode === 'dev-activate') env['ELECTRON_RENDERER_URL'] = DEV_SERVER_URL;
  if (options.packaged) env['PERPS_BOOT_PACKAGED'] = '1';
  Object.assign(env, options.env ?? {});
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...(options.execArgv ?? []), '--preserve-symlinks', '--preserve-symlinks-main', SCENARIO, copy.bundle, reportFile, mode, ...(options.args ?? [])],
      { env, cwd: copy.root, timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      (err, out, errOut) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out, stderr: errOut }),
    );
  });
  const report = fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')) : null;
  return { code, stdout, stderr, report, userData, home, mainKey };
}

/** What to print when an assertion fails: the child's own account of the run. */
export function context(run: BootRun): string {
  return `exit ${run.code}\nfatal: ${run.report?.fatal ?? '-'}\nerrors: ${JSON.stringify(run.report?.errors ?? [])}\nsteps: ${JSON.stringify(run.report?.steps ?? [])}\nstderr:\n${run.stderr.slice(-4000)}`;
}
