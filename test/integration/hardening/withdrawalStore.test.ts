/**
 * Issue 13, point 9: the app and the command line share a data folder. Tracked withdrawals used to be
 * one list in settings.json, rewritten whole without a lock: two processes inserting 150 records each
 * kept 149 of 300, and one then crashed with "withdrawal intent ... is not stored". A record lost after
 * its body was sent is a withdrawal neither tracked nor resumable.
 *
 * Real child processes (test/fixtures/withdrawalStoreProcess.ts) insert and update records while
 * writing another settings key, as the app and the command line do: 2 x 300 concurrently, then 10 rounds
 * of kill -9 of one writer in the middle of its writes while another writes, counting after each round. Every record a process reported as
 * inserted must be there, updated records must keep their update, and no file may be corrupt.
 * Records of older versions (the list in settings.json) are moved into the new store once.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import lockfile from 'proper-lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { WithdrawalStore, type TrackedWithdrawal } from '../../../src/main/services/money/withdrawalStore.js';
import { tempDir } from '../../support/keychain.js';
import { REPO_ROOT } from '../../support/paths.js';

const run = promisify(execFile);
/**
 * Node itself with tsx's loader, not the tsx command: that one runs the script in a child process of its
 * own, which a kill -9 of the command would leave running.
 */
const node = [process.execPath, '--import', 'tsx'] as const;
const fixture = path.join(REPO_ROOT, 'test/fixtures/withdrawalStoreProcess.ts');
const root = tempDir('withdrawal-store');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function records(dataDir: string): TrackedWithdrawal[] {
  return new WithdrawalStore(openNodeSettings(dataDir), 'sim').list();
}

/** Temporary files of an interrupted atomic write: never read as data (the rename never happened). */
function isTemporary(name: string): boolean {
  return /\.tmp$|\.tmp-/.test(name);
}

/** Every JSON file under the data folder that the app would read, and whether it parses. */
function corruptFiles(dataDir: string): string[] {
  const bad: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.endsWith('.lock')) walk(p);
      } else if (!isTemporary(e.name) && e.name.endsWith('.json')) {
        try {
          JSON.parse(fs.readFileSync(p, 'utf8'));
        } catch {
          bad.push(path.relative(dataDir, p));
        }
      }
    }
  };
  walk(dataDir);
  return bad;
}

interface Writer {
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  /** Intent ids the writer reported as inserted so far. */
  reported: () => string[];
  stderr: () => string;
}

function writer(dataDir: string, label: string, count: string): Writer {
  const child = spawn(node[0], [...node.slice(1), fixture, dataDir, label, count], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return { child, exited, reported: () => [...out.matchAll(/^inserted (\S+)$/gm)].map((m) => m[1]!), stderr: () => err };
}

describe('withdrawal records shared by processes', { timeout: 300_000 }, () => {
  const dataDir = path.join(root, 'shared-data');

  it('2 processes x 300 inserts at once: all 600 stored, each with its update, no file corrupt', async () => {
    // A folder of its own: exactly these 600 are counted, whatever the kill rounds left in theirs.
    const dataDir = path.join(root, 'concurrent-data');
    const [a, b] = await Promise.allSettled([run(node[0], [...node.slice(1), fixture, dataDir, 'a', '300'], { cwd: REPO_ROOT }), run(node[0], [...node.slice(1), fixture, dataDir, 'b', '300'], { cwd: REPO_ROOT })]);
    // A process that died (the old store threw "withdrawal intent ... is not stored") fails here.
    expect([a.status, b.status], [a, b].map((r) => (r.status === 'rejected' ? String((r.reason as Error).message).slice(0, 600) : '')).join('\n')).toEqual(['fulfilled', 'fulfilled']);
    const stored = records(dataDir);
    const expected = ['a', 'b'].flatMap((l) => Array.from({ length: 300 }, (_, i) => `${l}-${i}`));
    expect(stored.map((r) => r.intent_id).sort()).toEqual([...expected].sort());
    expect(stored.filter((r) => r.phase !== 'TRACKING' || r.withdrawal_id !== `w-${r.intent_id}`)).toEqual([]);
    expect(corruptFiles(dataDir)).toEqual([]);
  });

  it('10 rounds of kill -9 of one writer while another writes: after each, every reported record is stored and no file is corrupt', async () => {
    const known = new Set(records(dataDir).map((r) => r.intent_id));
    const killedAfter: number[] = [];
    for (let round = 0; round < 10; round++) {
      const victim = writer(dataDir, `kill${round}`, 'forever');
      // The app and the command line at once: a second writer runs through the whole round.
      const survivor = writer(dataDir, `live${round}`, '40');
      // Let the victim write a varying number of records (5 to 50), then kill it wherever it is.
      const target = 5 + ((round * 17) % 46);
      const deadline = Date.now() + 60_000;
      while (victim.reported().length < target) {
        if (Date.now() > deadline || victim.child.exitCode !== null) throw new Error(`round ${round}: the writer stopped early:\n${victim.stderr()}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      victim.child.kill('SIGKILL');
      expect(await victim.exited).toBe('SIGKILL');
      expect(await survivor.exited, survivor.stderr()).toBe(0);
      const stored = new Set(records(dataDir).map((r) => r.intent_id));
      const reported = [...victim.reported(), ...survivor.reported()];
      expect(reported.filter((id) => !stored.has(id)), `round ${round}: reported but lost`).toEqual([]);
      expect([...known].filter((id) => !stored.has(id)), `round ${round}: earlier records lost`).toEqual([]);
      expect(corruptFiles(dataDir), `round ${round}`).toEqual([]);
      for (const id of stored) known.add(id);
      killedAfter.push(victim.reported().length);
    }
    expect(killedAfter.every((n) => n >= 5)).toBe(true);
  });
});

describe('the lock of a record', () => {
  it('an update from another process waits while the record is locked, then applies; a lock left by a killed writer is taken over', async () => {
    const dataDir = path.join(root, 'locking');
    const store = new WithdrawalStore(openNodeSettings(dataDir), 'sim');
    const a = writer(dataDir, 'lock', '1');
    expect(await a.exited, a.stderr()).toBe(0);
    const file = path.join(dataDir, 'withdrawals', 'lock-0.json');
    const release = await lockfile.lock(file, { realpath: false });
    const waiting = writer(dataDir, 'lock-0', 'note=from the other process');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(waiting.child.exitCode).toBeNull();
    expect(store.get('lock-0')?.note).toBeNull();
    await release();
    expect(await waiting.exited, waiting.stderr()).toBe(0);
    expect(store.get('lock-0')?.note).toBe('from the other process');

    // A writer killed while holding the lock leaves FILE.lock behind; once stale it is taken over.
    fs.mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(store.update('lock-0', { note: 'after a stale lock' }).note).toBe('after a stale lock');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('records of older versions', () => {
  function legacyRecord(intentId: string, profile: string, note: string | null = null): TrackedWithdrawal {
    const wallet = '0x' + '44'.repeat(20);
    return {
      intent_id: intentId, profile, wallet, account_id: wallet + '0'.repeat(24), amount: '10', destination: wallet, nonce: '1800000000001',
      body: { account_id: wallet + '0'.repeat(24), amount: '10', nonce: '1800000000001', signature: { r: '0x' + '55'.repeat(32), s: '0x' + '66'.repeat(32), v: 27 }, signature_chain_id: 998 },
      phase: 'SIGNED', signed_at: 1_800_000_000_000, send_attempts: 1, match_attempts: 0, withdrawal_id: null, status: null, reason: null,
      new_wallet_fee: null, failure_reason: null, l1_send_amount: null, l1_tx_hash: null, created_at: null, completed_at: null, updated_at: 1, note,
    };
  }

  it('the list in settings.json is found, moved into the store once (0600 files), and dropped; other settings stay', () => {
    const dataDir = path.join(root, 'legacy');
    const settings = openNodeSettings(dataDir);
    settings.set('money.withdrawals', [legacyRecord('old-sim', 'sim'), legacyRecord('old-mainnet', 'mainnet')]);
    settings.set('window.main', { maximized: true });

    const sim = new WithdrawalStore(settings, 'sim');
    expect(sim.list().map((r) => r.intent_id)).toEqual(['old-sim']);
    expect(new WithdrawalStore(settings, 'mainnet').list().map((r) => r.intent_id)).toEqual(['old-mainnet']);
    expect(settings.get('money.withdrawals')).toBeUndefined();
    expect(settings.get('window.main')).toEqual({ maximized: true });
    for (const f of ['old-sim.json', 'old-mainnet.json']) expect(fs.statSync(path.join(dataDir, 'withdrawals', f)).mode & 0o777).toBe(0o600);

    // Resumable as before: the record is updated in place.
    expect(sim.update('old-sim', { phase: 'TRACKING', withdrawal_id: 'w-1' })).toMatchObject({ intent_id: 'old-sim', phase: 'TRACKING' });
    // An older version writing the list again later (a stale copy) never overwrites the newer record;
    // an entry that is not a record is kept in settings.json, not destroyed.
    settings.set('money.withdrawals', [legacyRecord('old-sim', 'sim', 'stale copy'), 42]);
    expect(new WithdrawalStore(settings, 'sim').get('old-sim')).toMatchObject({ phase: 'TRACKING', withdrawal_id: 'w-1', note: null });
    expect(settings.get('money.withdrawals')).toEqual([42]);
  });
});
