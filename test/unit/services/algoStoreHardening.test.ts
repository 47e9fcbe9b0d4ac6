/**
 * The algorithms' record store on a hostile data folder (issue 36, items 2, 5 and 6), on a real folder:
 *  - a write after a lost lock is refused (the other process's change stands), never silent;
 *  - a FIFO, a folder, a symlink to /dev/zero or a file past the cap named like a record is listed as
 *    damaged beside the healthy record, and never blocks or fails the list; a FIFO planted as a run lock
 *    never blocks taking the lock;
 *  - a record marked damaged (it disagrees with the service) is listed with why and refused;
 *  - an OCO leg is held to its order by market, side, price and size when the service's rows carry no
 *    client order id (the spec lists none on history rows).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTrailRecord, type TrailRecord } from '../../../src/shared/algos/trailRecord.js';
import { checkOcoRecord, ocoClientOrderId, type OcoRecord } from '../../../src/shared/algos/ocoRecord.js';
import fc from 'fast-check';
import type { ListedOrder } from '../../../src/shared/protocol/index.js';
import { writeFileAtomicSync } from '../../../src/main/files/atomicWrite.js';
import { TrailStore, TRAIL_NAMING } from '../../../src/main/services/algos/trailing/trailStore.js';
import { legDisagreement } from '../../../src/main/services/algos/oco/ocoRunner.js';
import { acquireRunLock } from '../../../src/main/services/algos/runLock.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-algos-hard-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function trail(id: string): TrailRecord {
  return {
    version: 1,
    id,
    profile: 'sim',
    wallet: '0x00000000000000000000000000000000000000aa',
    market: 'ETH',
    side: 'LONG',
    distance: { kind: 'price', value: '20' },
    activate: null,
    run_key: '0123abcd',
    status: 'trailing',
    end_reason: null,
    high_water: '3450',
    stop: { order_id: '7', trigger_price: '3430', fire_price: '3412.9' },
    last_move_at: null,
    last_seen_at: 1,
    moves: 1,
    moving: null,
    armed_candle: null,
    away: null,
    notes: [],
    created_at: 1,
    updated_at: 1,
  };
}

describe('algorithm records', () => {
  it('a write after a lost lock is refused and the other change stands', () => {
    const store = new TrailStore(dataDir());
    store.create(trail('0000000000a1'));
    const file = store.fileOf('0000000000a1');
    const theirs = JSON.stringify({ ...trail('0000000000a1'), status: 'off' }, null, 2) + '\n';
    const attempt = () =>
      store.update('0000000000a1', (x) => {
        // Another process took the stale lock and wrote while this one stalled.
        writeFileAtomicSync(file, theirs);
        return { ...x, high_water: '3460' };
      });
    expect(attempt).toThrow(expect.objectContaining({ code: 'TRAIL_STORE_CONFLICT' }));
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
  });

  it('a record held by its runner (issue 38): written over what it holds, a change from outside refused, never overwritten', async () => {
    const store = new TrailStore(dataDir());
    store.create(trail('0000000000b1'));
    const file = store.fileOf('0000000000b1');
    const held = store.readHeld('0000000000b1', 'sim');
    expect(held.text).toBe(fs.readFileSync(file, 'utf8'));
    const next = store.writeHeld(held, { ...held.record, high_water: '3460' });
    expect(store.get('0000000000b1')!.high_water).toBe('3460');
    expect(next.text).toBe(fs.readFileSync(file, 'utf8'));
    // The same on the thread pool: the file holds it once `written` resolves.
    const beside = store.writeHeldAsync(next, { ...next.record, high_water: '3465' });
    await beside.written;
    expect(fs.readFileSync(file, 'utf8')).toBe(beside.out.text);
    // A write over a text the file no longer holds (the runner's copy is stale) is refused at once; the file stands.
    expect(() => store.writeHeld(held, { ...held.record, high_water: '3470' })).toThrow(expect.objectContaining({ code: 'TRAIL_STORE_CONFLICT' }));
    expect(() => store.writeHeldAsync(next, { ...next.record, high_water: '3470' })).toThrow(expect.objectContaining({ code: 'TRAIL_STORE_CONFLICT' }));
    const theirs = JSON.stringify({ ...trail('0000000000b1'), status: 'off' }, null, 2) + '\n';
    writeFileAtomicSync(file, theirs);
    expect(() => store.writeHeld(beside.out, { ...beside.out.record, high_water: '3480' })).toThrow(expect.objectContaining({ code: 'TRAIL_STORE_CONFLICT' }));
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    // A record its own check refuses is never written, held or not.
    const fresh = store.readHeld('0000000000b1', 'sim');
    expect(() => store.writeHeld(fresh, { ...fresh.record, high_water: 'lots' })).toThrow(expect.objectContaining({ code: 'TRAIL_RECORD_INVALID' }));
    expect(() => store.writeHeldAsync(fresh, { ...fresh.record, high_water: 'lots' })).toThrow(expect.objectContaining({ code: 'TRAIL_RECORD_INVALID' }));
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    // Another profile's record is not found; a damaged one is refused.
    expect(() => store.readHeld('0000000000b1', 'mainnet')).toThrow(expect.objectContaining({ code: 'TRAIL_NOT_FOUND' }));
    fs.writeFileSync(file, '{ not json');
    expect(() => store.readHeld('0000000000b1', 'sim')).toThrow(expect.objectContaining({ code: 'TRAIL_RECORD_DAMAGED' }));
  });

  it('special files named like records are listed as damaged beside the healthy one, and never block', () => {
    const store = new TrailStore(dataDir());
    store.create(trail('0000000000a1'));
    execFileSync('mkfifo', [path.join(store.dir, '0000000000b1.json')]);
    fs.mkdirSync(path.join(store.dir, '0000000000b2.json'));
    fs.symlinkSync('/dev/zero', path.join(store.dir, '0000000000b3.json'));
    fs.writeFileSync(path.join(store.dir, '0000000000b4.json'), Buffer.alloc(8 * 1024 * 1024 + 1, 0x20));
    const listed = store.list('sim');
    expect(listed.records.map((r) => r.id)).toEqual(['0000000000a1']);
    expect(Object.fromEntries(listed.damaged.map((d) => [d.id, d.reason]))).toEqual({
      '0000000000b1': expect.stringMatching(/is a FIFO, not a regular file/),
      '0000000000b2': expect.stringMatching(/is a folder/),
      '0000000000b3': expect.stringMatching(/is a symbolic link/),
      '0000000000b4': expect.stringMatching(/is 8388609 bytes, more than the 8388608/),
    });
    expect(() => store.require('0000000000b3', 'sim')).toThrow(expect.objectContaining({ code: 'TRAIL_RECORD_DAMAGED' }));
  });

  it('a FIFO planted as a run lock never blocks taking the lock: it is refused as not a file', () => {
    const store = new TrailStore(dataDir());
    execFileSync('mkfifo', [path.join(store.dir, '0000000000a1.run')]);
    expect(() => acquireRunLock(store.dir, '0000000000a1', TRAIL_NAMING)).toThrow(/not a regular file/);
  });

  it('a record marked as disagreeing with the service is listed with why and refused', () => {
    const store = new TrailStore(dataDir());
    store.create(trail('0000000000a1'));
    store.markDamaged('0000000000a1', "the record's stop 7 is at 3000, and the service lists that order at 3430\u001b[2J");
    const listed = store.list('sim');
    expect(listed.records).toEqual([]);
    expect(listed.damaged[0]).toMatchObject({ id: '0000000000a1', reason: "it disagrees with what the service says: the record's stop 7 is at 3000, and the service lists that order at 3430?[2J" });
    expect(() => store.update('0000000000a1', (x) => x)).toThrow(expect.objectContaining({ code: 'TRAIL_RECORD_DAMAGED' }));
  });
});

describe('a record whose number fields are not numbers', () => {
  // zod runs a refinement even after its base refused the text: a refinement that read it as a number threw
  // a DecimalError out of the check instead of reporting the record as damaged.
  const oco = (): OcoRecord => ({
    version: 1,
    id: 'a1b2c3d4e5f6',
    profile: 'sim',
    wallet: '0x00000000000000000000000000000000000000aa',
    market: 'ETH',
    leverage: 5,
    legs: [
      { side: 'BUY', price: '3300', size: '0.01', client_order_id: ocoClientOrderId('a1b2c3d4e5f6', 0), status: 'open', order_id: '1', filled_size: '0', reason: null },
      { side: 'SELL', price: '3500', size: '0.01', client_order_id: ocoClientOrderId('a1b2c3d4e5f6', 1), status: 'open', order_id: '2', filled_size: '0', reason: null },
    ],
    status: 'working',
    winner: null,
    cancel_sent_at: null,
    sent_at: 1,
    notes: [],
    created_at: 1,
    updated_at: 1,
  });
  it('is damaged, never a thrown DecimalError: OCO legs and a trailing distance', () => {
    expect(checkOcoRecord(oco()).ok).toBe(true);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.constantFrom('price', 'size'), fc.constantFrom(0, 1), (text, field, i) => {
        const r = oco();
        (r.legs[i] as Record<string, unknown>)[field] = text;
        const checked = checkOcoRecord(r);
        if (!/^\d+(\.\d+)?$/.test(text) || Number(text) === 0) expect(checked.ok).toBe(false);
      }),
    );
    expect(checkTrailRecord(trail('a1b2c3d4e5f6')).ok).toBe(true);
    for (const value of ['lots', '', '1e5', '-', 'NaN']) {
      for (const kind of ['percent', 'price']) expect(checkTrailRecord({ ...trail('a1b2c3d4e5f6'), distance: { kind, value } }).ok).toBe(false);
    }
  });
});

describe('an OCO leg against its order', () => {
  const leg = { side: 'SELL' as const, price: '3500', size: '0.01', client_order_id: 'oco-0000000000a1-1', status: 'open' as const, order_id: '9', filled_size: '0', reason: null };
  const row = (o: Partial<ListedOrder>): ListedOrder =>
    ({ order_id: '9', market: 'ETH', side: 'sell', size: '0.01', filled_size: '0', limit_price: '3500', order_type: 'LIMIT', time_in_force: 'GTC', reduce_only: false, status: 'open', submitted_at: 100_000, status_at: 100_000, ...o }) as ListedOrder;
  const pair = { market: 'ETH', sent_at: 100_000, created_at: 100_000 };

  it('without a client order id on the row, the market, type, side, price, size and time decide', () => {
    expect(legDisagreement(pair, leg, row({}))).toBeNull();
    expect(legDisagreement(pair, leg, row({ market: 'BTC' }))).toBe('order 9 is on BTC, not ETH');
    expect(legDisagreement(pair, leg, row({ side: 'buy' }))).toBe('order 9 is a buy, not a sell');
    expect(legDisagreement(pair, leg, row({ limit_price: '3700' }))).toBe('order 9 is at 3700, not 3500');
    expect(legDisagreement(pair, leg, row({ size: '0.02' }))).toBe('order 9 is for 0.02, not 0.01');
    expect(legDisagreement(pair, leg, row({ order_type: 'TRIGGER' }))).toBe('order 9 is a TRIGGER order, not a limit');
    expect(legDisagreement(pair, leg, row({ submitted_at: 1_000 }))).toBe('order 9 was submitted before the pair was');
    expect(legDisagreement(pair, leg, row({ client_order_id: 'manual-1' }))).toBe('order 9 carries the client order id manual-1, not oco-0000000000a1-1');
  });
});
