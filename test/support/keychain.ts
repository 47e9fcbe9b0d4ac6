/**
 * Helpers for tests against the real OS keychain. Every test uses its own keychain service name, so a
 * developer's own entries are never read or touched, and cleans up what it created.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { REPO_ROOT } from './paths.js';

const run = promisify(execFile);

export interface RawKeytar {
  getPassword(service: string, account: string): Promise<string | null>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** keytar itself, for assertions about what the keychain holds (tests only). */
export const rawKeytar = createRequire(import.meta.url)('keytar') as RawKeytar;

export function testService(label: string): string {
  return `perps-desk-test.${label}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
}

export async function wipeService(service: string): Promise<void> {
  for (const c of await rawKeytar.findCredentials(service)) await rawKeytar.deletePassword(service, c.account);
}

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `perps-${label}-`));
}

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

export interface ChildResult {
  ok: boolean;
  out?: unknown;
  code?: string;
  message?: string;
}

/** Runs test/fixtures/vaultProcess.ts in a fresh Node process (optionally with a changed environment). */
export async function vaultInChild(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildResult> {
  const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
  const { stdout } = await run(tsx, [path.join(REPO_ROOT, 'test/fixtures/vaultProcess.ts'), ...args], { env, cwd: REPO_ROOT, timeout: 30_000 });
  const line = stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as ChildResult;
}

/** Runs a shell script (for a private D-Bus session with its own keyring). */
export async function shell(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('bash', ['-c', script], { env, cwd: REPO_ROOT, timeout: 60_000 });
  return stdout;
}
