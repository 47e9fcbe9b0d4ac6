import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/sim/index.js';
import { REPO_ROOT } from '../../support/paths.js';

const WALLET = '0x5ec6B8eeF87319d7F9035260faeE6f8eE2405Ae1';
const ACCOUNT = WALLET.toLowerCase() + '0'.repeat(24);

function start(args: string[]): Promise<{ child: ChildProcess; urls: Record<string, string>; lines: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), 'sim', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      child.removeAllListeners('exit');
      resolve({ child, urls: JSON.parse(line) as Record<string, string>, lines: 1 });
    });
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

describe('perps sim (command line)', () => {
  it('prints one JSON line of loopback URLs, serves, and saves state on SIGTERM / SIGINT', async () => {
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'perps-cli-')), 'state.json');
    const first = await start(['--port', '0', '--manual-clock', '--seed', '3', '--state', state]);
    const u = first.urls;
    expect(u.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(u.bridge_url).toMatch(/\/bridge\/v1$/);
    expect(u.aggregator_url).toMatch(/\/aggregator\/v1$/);
    expect(u.platform_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/platform$/);
    expect(u.inference_url).toMatch(/\/inference$/);
    expect(u.venue_info_url).toMatch(/\/venue\/info$/);
    expect(u.venue_ws_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/venue\/ws$/);
    expect((await fetch(u.base_url + '/markets')).status).toBe(200);
    const dep = await fetch(u.control_url + '/deposit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wallet: WALLET, amount: '25' }) });
    expect(dep.status).toBe(200);
    await fetch(u.control_url + '/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 1000 }) });
    expect(await stop(first.child, 'SIGTERM')).toBe(0);
    expect(fs.existsSync(state)).toBe(true);

    const second = await start(['--port', '0', '--manual-clock', '--state', state]);
    const balance = (await (await fetch(second.urls.base_url + `/account/${ACCOUNT}/balance`)).json()) as { data: { free_balance: string } };
    expect(balance.data.free_balance).toBe('25');
    expect(await stop(second.child, 'SIGINT')).toBe(0);
  });

  it('refuses a state file whose saved history is damaged: exit 2, naming the file, and leaves the file as it was', async () => {
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'perps-cli-')), 'state.json');
    const sim = await startSimulator({ port: 0, manualClock: true, stateFile: state });
    await sim.stop();
    // One character of BTC's compact opens made not base64, as a damaged disk or a hand edit would.
    const text = fs.readFileSync(state, 'utf8').replace(/("o":\{"zz":")./, '$1!');
    fs.writeFileSync(state, text);
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), 'sim', '--port', '0', '--manual-clock', '--state', state], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`error [BAD_STATE_FILE]: state file ${state}: invalid venue market data snapshot: BTC: compact bars: column o is not base64\n`);
    expect(stdout).toBe('');
    expect(fs.readFileSync(state, 'utf8')).toBe(text);
  });

  it('refuses a bad option', async () => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), 'sim', '--port', 'x'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
  });
});
