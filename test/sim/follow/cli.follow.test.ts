/**
 * `perps sim --follow-venue` through the built command line: it follows a loopback upstream, serves its
 * marks, logs which markets follow and which keep the walk, logs an outage and the recovery on stderr,
 * and refuses a bad URL before starting anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/paths.js';
import { UpstreamVenue } from './upstreamVenue.js';

const PERPS = path.join(REPO_ROOT, 'bin/perps.js');
let child: ChildProcess | null = null;
let upstream: UpstreamVenue | null = null;

afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  child = null;
  await upstream?.stop();
  upstream = null;
});

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [PERPS, 'sim', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.once('exit', (code) => resolve({ code, stderr }));
  });
}

async function waitFor(read: () => string, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!read().includes(text)) {
    if (Date.now() > deadline) throw new Error(`stderr never said ${JSON.stringify(text)}:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('perps sim --follow-venue', () => {
  it('follows the upstream, logs the markets it cannot follow, an outage and the recovery', async () => {
    upstream = new UpstreamVenue();
    await upstream.start();
    upstream.setBook('BTC', [{ px: '96999.0', sz: '1.0', n: 1 }], [{ px: '97001.0', sz: '1.0', n: 1 }]);
    const c = spawn(process.execPath, [PERPS, 'sim', '--port', '0', '--manual-clock', '--follow-venue', upstream.infoUrl, '--follow-band', '5%'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const urls = await new Promise<Record<string, string>>((resolve, reject) => {
      c.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      readline.createInterface({ input: c.stdout }).once('line', (line) => resolve(JSON.parse(line) as Record<string, string>));
    });
    expect(stderr).toContain(`[sim follow] following BTC, ETH, SOL, kPEPE from ${upstream.infoUrl}`);
    expect(stderr).toContain('WIF: not listed by the upstream; it keeps the simulated walk');
    const status = (await (await fetch(`${urls.control_url!}/follow`)).json()) as { data: { mode: string; feed: string } };
    expect(status.data).toMatchObject({ mode: 'follow', feed: 'live', band: '0.05' });
    const mids = (await (await fetch(urls.venue_info_url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"allMids"}' })).json()) as Record<string, string>;
    expect(mids.BTC).toBe('97000');

    upstream.goDown();
    await waitFor(() => stderr, 'marks frozen, triggers, liquidations, funding and new orders paused');
    upstream.comeBack();
    await waitFor(() => stderr, 'following resumes', 20_000);
  }, 40_000);

  it('refuses a URL that is not http(s), and a WebSocket URL without --follow-venue, before starting', async () => {
    const bad = await run(['--port', '0', '--follow-venue', 'api.hyperliquid.xyz/info']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--follow-venue must be an http or https URL');
    const lonely = await run(['--port', '0', '--follow-venue-ws', 'wss://api.hyperliquid.xyz/ws']);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toContain('--follow-venue-ws needs --follow-venue');
  });

  it('refuses credentials in either URL without echoing them, and a band that is not a percentage in (0, 100)', async () => {
    for (const args of [
      ['--follow-venue', 'http://127.0.0.1:1/info', '--follow-venue-ws', 'ws://user:s3cret@127.0.0.1:1/ws'],
      ['--follow-venue', 'http://user:s3cret@127.0.0.1:1/info'],
      ['--follow-venue', 'http://127.0.0.1:1/info', '--follow-venue-ws', 'http://user:s3cret@127.0.0.1:1/ws'],
    ]) {
      const r = await run(['--port', '0', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('must not carry credentials');
      expect(r.stderr).not.toContain('s3cret');
    }
    const wide = await run(['--port', '0', '--follow-venue', 'http://127.0.0.1:1/info', '--follow-band', '150%']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain('the band must be above 0% and below 100%');
    const bare = await run(['--port', '0', '--follow-venue', 'http://127.0.0.1:1/info', '--follow-band', '0.1']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('the band must be a percentage such as 10%');
    const lonely = await run(['--port', '0', '--follow-band', '10%']);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toContain('--follow-band needs --follow-venue');
  });

  it('exits 1 saying which URL when the upstream cannot be read', async () => {
    const r = await run(['--port', '0', '--follow-venue', 'http://127.0.0.1:9/info']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot follow the venue at http://127.0.0.1:9/info');
  });
});
