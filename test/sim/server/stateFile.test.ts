/* eslint-disable @typescript-eslint/no-explicit-any -- assertions over arbitrary JSON answers */
/**
 * The state file at scale (issue 17, item 2): version 2 is written and read a record per line; a
 * version 1 file written by the simulator before this change still loads and answers every read as it
 * did; a cut-off file is refused; and the retention setting keeps memory bounded without ever letting a
 * nonce or client order id be used again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../../src/main/services/errors.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { StateFileError } from '../../../src/sim/state/persistence.js';
import { REPO_ROOT } from '../../support/paths.js';
import { Api, Trader, quietConfig, readyTrader, startTestSim } from './helpers.js';

const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/sim-state-v1.json');
const READS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/sim-state-v1.reads.json'), 'utf8')) as { clock_now: number; reads: Record<string, any> };

const dirs: string[] = [];
function tempFile(name = 'state.json'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-state-file-'));
  dirs.push(dir);
  return path.join(dir, name);
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every read recorded from the simulator that wrote the version 1 fixture, asked again. */
async function expectRecordedReads(sim: RunningSimulator): Promise<void> {
  const api = new Api(sim);
  for (const [route, expected] of Object.entries(READS.reads)) {
    const answer = await api.get(route);
    if (route.startsWith('/orders/')) expect(answer.body, route).toEqual(expected);
    else expect(answer.body.data, route).toEqual(expected);
  }
}

/** The lines of a state file saved after one market order of a fresh trader (`seed`). */
async function savedAfterATrade(seed: number): Promise<string[]> {
  const file = tempFile();
  const { sim, api } = await startTestSim(undefined, { stateFile: file });
  const t = await readyTrader(api, seed, '50000');
  await t.placeOne({ market: 'ETH', side: 'BUY', size: '1', limit_price: '3500', order_type: 'MARKET', time_in_force: 'IOC' });
  await sim.stop();
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n');
}

describe('state file', () => {
  it('loads a version 1 file written before the line layout, answering every read as the simulator that wrote it did', async () => {
    const file = tempFile();
    fs.copyFileSync(FIXTURE, file);
    const sim = await startSimulator({ port: 0, manualClock: true, stateFile: file, config: quietConfig() });
    try {
      expect(sim.clock.now()).toBe(READS.clock_now);
      await expectRecordedReads(sim);
    } finally {
      await sim.stop();
    }
    // Saved again it is version 2, and it answers the same once more.
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('{"version":2,')).toBe(true);
    const again = await startSimulator({ port: 0, manualClock: true, stateFile: file, config: quietConfig() });
    try {
      await expectRecordedReads(again);
      // The nonces survived both conversions: a new leg signed with the fixture trader's first trading nonce is a 409.
      const t = new Trader(new Api(again), 71);
      (t as unknown as { nonce: number }).nonce = 1_770_000_000_000 + 71 * 1_000_000 + 1;
      const replay = await t.place([{ market: 'ETH', side: 'BUY', size: '0.1', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'GTC' }]);
      expect(replay.status).toBe(409);
    } finally {
      await again.stop();
    }
  });

  it('is one JSON document laid out a record per line, read back record by record', async () => {
    const file = tempFile();
    const { sim, api } = await startTestSim(undefined, { stateFile: file });
    const t = await readyTrader(api, 81, '50000');
    await t.placeOne({ market: 'ETH', side: 'BUY', size: '1', limit_price: '3500', order_type: 'MARKET', time_in_force: 'IOC' });
    await t.placeOne({ market: 'BTC', side: 'BUY', size: '0.001', limit_price: '90000', order_type: 'LIMIT', time_in_force: 'GTC' });
    await api.advance(1000);
    const history = (await api.get(`/account/order-history?wallet=${t.wallet}&limit=200`)).body.data;
    const fills = (await api.get(`/account/trade-history?wallet=${t.wallet}&limit=200`)).body.data;
    await sim.stop();

    const text = fs.readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\{"version":2,.*,"records":\[$/);
    expect(lines.at(-1)).toBe(']}');
    const records = lines.slice(1, -1).map((line, i) => JSON.parse(i === 0 ? line : line.replace(/^,/, '')) as unknown[]);
    expect(new Set(records.map((r) => r[0]))).toEqual(new Set(['order', 'history', 'fill', 'cloids', 'nonces']));
    expect(records.filter((r) => r[0] === 'order')).toHaveLength(2);
    // Still valid JSON as a whole, for anyone who reads it with a plain parser.
    expect(JSON.parse(text)).toMatchObject({ version: 2, records: expect.any(Array) });

    const second = await startSimulator({ port: 0, manualClock: true, stateFile: file, config: quietConfig() });
    try {
      const api2 = new Api(second);
      expect((await api2.get(`/account/order-history?wallet=${t.wallet}&limit=200`)).body.data).toEqual(history);
      expect((await api2.get(`/account/trade-history?wallet=${t.wallet}&limit=200`)).body.data).toEqual(fills);
    } finally {
      await second.stop();
    }
  });

  it('refuses a cut-off or damaged file, naming the line, and never starts on half a state', async () => {
    const lines = await savedAfterATrade(82);

    const cut = tempFile('cut.json');
    fs.writeFileSync(cut, lines.slice(0, -1).join('\n') + '\n');
    await expect(startSimulator({ port: 0, manualClock: true, stateFile: cut })).rejects.toThrow(/cut off after line/);
    // A refusal of input: the command line's exit 2, not an internal error's 1.
    const refused = await startSimulator({ port: 0, manualClock: true, stateFile: cut }).catch((err: unknown) => err);
    expect(describeFailure(refused)).toMatchObject({ code: 'BAD_STATE_FILE', kind: 'validation', exitCode: 2 });

    const damaged = tempFile('damaged.json');
    fs.writeFileSync(damaged, [...lines.slice(0, 2), ',["order",{"order_id":', ...lines.slice(2)].join('\n') + '\n');
    await expect(startSimulator({ port: 0, manualClock: true, stateFile: damaged })).rejects.toThrow(/line 3 is not valid JSON/);
  });

  it("refuses a file whose snapshot a part's restore refuses as the file's refusal (validation, exit 2), naming the file, and leaves it as it is", async () => {
    const lines = await savedAfterATrade(83);
    const OPEN = ',"records":[';
    const withHead = (edit: (head: any) => void): string => {
      const head = JSON.parse(lines[0]!.slice(0, -OPEN.length) + '}');
      edit(head);
      return [JSON.stringify(head).slice(0, -1) + OPEN, ...lines.slice(1)].join('\n') + '\n';
    };
    const cases: [string, string, RegExp][] = [
      [
        'column.json',
        withHead((h) => (h.venue.assets[0].bars.compact.o.zz = `!${h.venue.assets[0].bars.compact.o.zz.slice(1)}`)),
        /: invalid venue market data snapshot: BTC: compact bars: column o is not base64$/,
      ],
      ['mark.json', withHead((h) => (h.venue.assets[1].mark = '-1')), /: invalid venue market data snapshot: [\s\S]*must be positive[\s\S]*assets\[1\]\.mark/],
      ['future.json', withHead((h) => (h.clock_now -= 3_600_000)), /: snapshot of BTC ends at \d+, after the clock's time \d+$/],
      ['companion.json', withHead((h) => (h.companion.points = 'x')), /: invalid companion snapshot: /],
      ['job.json', withHead((h) => h.engine.jobs.jobs.push({ id: 999_999, at: h.clock_now, kind: 'nope', payload: null })), /: state file has a job of unknown kind nope$/],
      ['record.json', [...lines.slice(0, -1), ',["nope"]', lines.at(-1)].join('\n') + '\n', /: unknown state record "nope"$/],
    ];
    for (const [name, text, message] of cases) {
      const damaged = tempFile(name);
      fs.writeFileSync(damaged, text);
      const refused = await startSimulator({ port: 0, manualClock: true, stateFile: damaged, config: quietConfig() }).then(
        async (started) => {
          await started.stop();
          return null;
        },
        (err: unknown) => err,
      );
      expect(refused, name).toBeInstanceOf(StateFileError);
      expect((refused as Error).message, name).toMatch(message);
      expect((refused as Error).message.startsWith(`state file ${damaged}: `), name).toBe(true);
      // What the command line reports: its code and exit 2 (a refusal of input), not an internal error's exit 1.
      expect(describeFailure(refused), name).toMatchObject({ code: 'BAD_STATE_FILE', kind: 'validation', exitCode: 2 });
      expect(fs.readFileSync(damaged, 'utf8'), name).toBe(text);
    }
  });

  it('retention keeps the newest rows per account, forgets orders whose rows left, and never frees a nonce or client order id', async () => {
    const file = tempFile();
    const config = quietConfig((c) => {
      c.retention = { rows_per_account: 100 };
    });
    const { sim, api } = await startTestSim(config, { stateFile: file });
    try {
      const t = await readyTrader(api, 83, '1000000');
      const first = await t.leg({ market: 'ETH', side: 'BUY', size: '0.01', limit_price: '3000', order_type: 'LIMIT', time_in_force: 'IOC', client_order_id: 'first-order' });
      const placed = [(await t.place([first])).body.data[0].order_id as string];
      await api.advance(1000);
      // IOC limits far below the mark: each is accepted, then cancelled unfilled (two history rows each).
      for (let i = 0; i < 4; i++) {
        const r = await t.place(Array.from({ length: 20 }, (_, j) => ({ market: 'ETH', side: 'BUY' as const, size: '0.01', limit_price: String(2000 + i * 20 + j), order_type: 'LIMIT' as const, time_in_force: 'IOC' as const })));
        placed.push(...r.body.data.map((l: any) => l.order_id as string));
        await api.advance(1000);
      }
      const page = (await api.get(`/account/order-history?wallet=${t.wallet}&limit=200`)).body.data;
      expect(page.total).toBe(100);
      expect(page.orders).toHaveLength(100);
      // 162 rows were written (two per order); the newest 100 are the last three batches' (the third
      // newest batch only by its cancelled rows). The first order and the first batch are forgotten.
      expect(new Set(page.orders.map((r: any) => r.order_id))).toEqual(new Set(placed.slice(-60)));
      for (const id of placed.slice(0, 21)) expect((await api.get(`/orders/${id}`)).status, id).toBe(404);
      expect((await api.get(`/orders/${placed.at(-1)}`)).status).toBe(200);
      // Replay guards outlive the orders: the first leg's nonce is still used, its client order id too.
      expect((await t.place([first])).status).toBe(409);
      const live = await t.placeOne({ market: 'ETH', side: 'BUY', size: '0.01', limit_price: '2500', order_type: 'LIMIT', time_in_force: 'GTC' });
      await api.advance(1000);
      const reuse = await t.modify(live.order_id, { client_order_id: 'first-order', limit_price: '2501', size: '0.01' });
      expect(reuse.status).toBe(400);
      expect(reuse.body.error.message).toMatch(/client_order_id/);
    } finally {
      await sim.stop();
    }
    // What was dropped is not in the state file either; what is kept comes back.
    const second = await startSimulator({ port: 0, manualClock: true, stateFile: file, config });
    try {
      const records = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('["history"'));
      expect(records.length).toBe(100);
      // The 60 orders with rows left, less the one whose cancelled row the resting order's row displaced, plus that resting order.
      expect(second.engine.ctx.store.orders.size).toBe(60);
    } finally {
      await second.stop();
    }
  });
});
