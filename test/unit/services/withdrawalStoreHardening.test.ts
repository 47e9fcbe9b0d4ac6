/**
 * The withdrawal record store on a hostile data folder (issue 36, as the TWAP, trailing, OCO and alert
 * stores already are), on a real folder:
 *  - a write after a lost lock is refused with WITHDRAWAL_STORE_CONFLICT (the other change stands), never silent;
 *  - a FIFO, a folder, a symlink to /dev/zero, a file past the 8 MiB cap, a file that is not JSON and one
 *    that is not a whole record, named like records, are listed apart as damaged (with why, control
 *    characters of the name removed) beside the healthy record; the list neither fails nor blocks;
 *  - acting on a damaged record is refused (WITHDRAWAL_RECORD_DAMAGED), and reconciliation on start
 *    returns the damaged ones apart, resending none of them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../../src/main/files/atomicWrite.js';
import { WithdrawalStore, type TrackedWithdrawal } from '../../../src/main/services/money/withdrawalStore.js';
import { resumeWithdrawals } from '../../../src/main/services/money/withdrawals/resume.js';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-withdrawals-hard-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const wallet = '0x' + '11'.repeat(20);
function record(intentId: string, phase: TrackedWithdrawal['phase'] = 'TRACKING'): TrackedWithdrawal {
  const account = wallet + '0'.repeat(24);
  return {
    intent_id: intentId,
    profile: 'sim',
    wallet,
    account_id: account,
    amount: '25',
    destination: wallet,
    nonce: '1800000000000',
    body: { account_id: account, amount: '25', nonce: '1800000000000', signature: { r: '0x' + '22'.repeat(32), s: '0x' + '33'.repeat(32), v: 27 }, signature_chain_id: 998 },
    phase,
    signed_at: 1_000,
    send_attempts: 1,
    match_attempts: 0,
    withdrawal_id: phase === 'TRACKING' ? 'w-1' : null,
    status: phase === 'TRACKING' ? 'REQUESTED' : null,
    reason: null,
    new_wallet_fee: null,
    failure_reason: null,
    l1_send_amount: null,
    l1_tx_hash: null,
    created_at: null,
    completed_at: null,
    updated_at: 1_000,
    note: null,
  };
}

function storeIn(dir: string, now?: () => number): WithdrawalStore {
  return new WithdrawalStore(openNodeSettings(dir), 'sim', now);
}

describe('withdrawal records', () => {
  it('a write after a lost lock is refused with WITHDRAWAL_STORE_CONFLICT, and the other change stands', () => {
    const dir = dataDir();
    storeIn(dir).insert(record('intent-1'));
    const file = path.join(dir, 'withdrawals', 'intent-1.json');
    const theirs = JSON.stringify({ ...record('intent-1'), status: 'COMPLETED', phase: 'DONE' }, null, 2) + '\n';
    // The clock is read between this process's read and its write: there, another process that took the
    // stale lock writes, as it would while this one stalled.
    const stalled = storeIn(dir, () => {
      writeFileAtomicSync(file, theirs);
      return 2_000;
    });
    expect(() => stalled.update('intent-1', { note: 'mine' })).toThrow(expect.objectContaining({ code: 'WITHDRAWAL_STORE_CONFLICT', kind: 'transient' }));
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    // Without a stall, the update applies.
    expect(storeIn(dir).update('intent-1', { note: 'later' })).toMatchObject({ note: 'later', status: 'COMPLETED' });
  });

  it('damaged and special files are listed apart beside the healthy record; the list never fails or blocks', () => {
    const dir = dataDir();
    const store = storeIn(dir);
    store.insert(record('intent-ok'));
    const folder = path.join(dir, 'withdrawals');
    execFileSync('mkfifo', [path.join(folder, 'fifo.json')]);
    fs.mkdirSync(path.join(folder, 'folder.json'));
    fs.symlinkSync('/dev/zero', path.join(folder, 'zero.json'));
    fs.writeFileSync(path.join(folder, 'huge.json'), Buffer.alloc(8 * 1024 * 1024 + 1, 0x20));
    fs.writeFileSync(path.join(folder, 'torn.json'), '{"intent_id": "torn", "body": {"signature"');
    fs.writeFileSync(path.join(folder, 'partial.json'), JSON.stringify({ ...record('partial'), body: 'not a body', wallet: 7 }));
    fs.writeFileSync(path.join(folder, 'other.json'), JSON.stringify({ ...record('other'), profile: 'mainnet', phase: 'NOPE' }));
    fs.writeFileSync(path.join(folder, 'evil\u001b[2J\u202e.json'), 'x');

    const listed = store.listChecked();
    expect(listed.records.map((r) => r.intent_id)).toEqual(['intent-ok']);
    expect(store.list({ open: true }).map((r) => r.intent_id)).toEqual(['intent-ok']);
    expect(Object.fromEntries(listed.damaged.map((d) => [d.name, d.reason]))).toEqual({
      'fifo.json': expect.stringMatching(/is a FIFO, not a regular file/),
      'folder.json': expect.stringMatching(/is a folder/),
      'zero.json': expect.stringMatching(/is a symbolic link/),
      'huge.json': expect.stringMatching(/is 8388609 bytes, more than the 8388608/),
      'torn.json': expect.stringMatching(/is not valid JSON/),
      'partial.json': expect.stringMatching(/does not hold a whole withdrawal record \((wallet|body)/),
      'evil[2J.json': expect.stringMatching(/is not valid JSON/),
    });
    // Another profile's damaged record is that profile's to show.
    expect(listed.damaged.map((d) => d.name)).not.toContain('other.json');
    expect(() => store.get('torn')).toThrow(expect.objectContaining({ code: 'WITHDRAWAL_RECORD_DAMAGED' }));
    expect(() => store.update('torn', { note: 'x' })).toThrow(expect.objectContaining({ code: 'WITHDRAWAL_RECORD_DAMAGED' }));
    expect(fs.readFileSync(path.join(folder, 'torn.json'), 'utf8')).toBe('{"intent_id": "torn", "body": {"signature"');
  });

  it('reconciliation on start returns the damaged records apart and resends none of them', async () => {
    const dir = dataDir();
    const settings = openNodeSettings(dir);
    new WithdrawalStore(settings, 'sim').insert(record('intent-done', 'DONE'));
    fs.writeFileSync(path.join(dir, 'withdrawals', 'torn.json'), '{"intent_id": "torn", "phase": "SIGNED"');
    const sent: unknown[] = [];
    const ctx = { settings, profile: { name: 'sim' }, api: new Proxy({}, { get: () => (...args: unknown[]) => (sent.push(args), Promise.reject(new Error('no service here'))) }) } as unknown as ServiceContext;
    const resumed = await resumeWithdrawals(ctx);
    expect(resumed.records).toEqual([]);
    expect(resumed.errors).toEqual([]);
    expect(resumed.damaged).toEqual([expect.objectContaining({ name: 'torn.json', reason: expect.stringMatching(/not valid JSON/) })]);
    expect(sent).toEqual([]);
  });
});
