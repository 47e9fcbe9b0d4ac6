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
import { StateFileError, loadStateFile } from '../../../src/sim/state/persistence.js';
import { parseEngineHead } from '../../../src/sim/state/stateSchemas.js';
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

/**
 * The lines of a state file saved after one market order of a fresh trader (`seed`), filled: the file
 * holds an order, its history rows, a fill, the trader's position and the client order id and nonces.
 */
async function savedAfterATrade(seed: number): Promise<string[]> {
  const file = tempFile();
  const { sim, api } = await startTestSim(undefined, { stateFile: file });
  const t = await readyTrader(api, seed, '50000');
  await t.placeOne({ market: 'ETH', side: 'BUY', size: '1', limit_price: '3500', order_type: 'MARKET', time_in_force: 'IOC' });
  await api.advance(1000);
  await sim.stop();
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n');
}

const OPEN_RECORDS = ',"records":[';

/** The saved file's text with its head edited. */
function withHead(lines: readonly string[], edit: (head: any) => void): string {
  const head = JSON.parse(lines[0]!.slice(0, -OPEN_RECORDS.length) + '}');
  edit(head);
  return [JSON.stringify(head).slice(0, -1) + OPEN_RECORDS, ...lines.slice(1)].join('\n') + '\n';
}

/** The saved file's text with the first record of `kind` edited (the file must hold one). */
function withRecord(lines: readonly string[], kind: string, edit: (record: any[]) => void): string {
  const at = lines.findIndex((line, i) => i > 0 && line.replace(/^,/, '').startsWith(`["${kind}",`));
  expect(at, kind).toBeGreaterThan(0);
  const comma = lines[at]!.startsWith(',') ? ',' : '';
  const record = JSON.parse(lines[at]!.slice(comma.length)) as any[];
  edit(record);
  return [...lines.slice(0, at), comma + JSON.stringify(record), ...lines.slice(at + 1)].join('\n') + '\n';
}

/**
 * Each damaged file (name, text, what its refusal must say) is refused as the file's refusal: a
 * StateFileError naming the file, validation with exit 2 on the command line, and the file left as it was.
 */
async function expectRefused(cases: readonly (readonly [string, string, RegExp])[]): Promise<void> {
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
    const edit = (h: (head: any) => void): string => withHead(lines, h);
    await expectRefused([
      [
        'column.json',
        edit((h) => (h.venue.assets[0].bars.compact.o.zz = `!${h.venue.assets[0].bars.compact.o.zz.slice(1)}`)),
        /: invalid venue market data snapshot: BTC: compact bars: column o is not base64$/,
      ],
      ['mark.json', edit((h) => (h.venue.assets[1].mark = '-1')), /: invalid venue market data snapshot: [\s\S]*must be positive[\s\S]*assets\[1\]\.mark/],
      ['future.json', edit((h) => (h.clock_now -= 3_600_000)), /: snapshot of BTC ends at \d+, after the clock's time \d+$/],
      ['companion.json', edit((h) => (h.companion.points = 'x')), /: invalid companion snapshot: /],
      ['job.json', edit((h) => h.engine.jobs.jobs.push({ id: 999_999, at: h.clock_now, kind: 'nope', payload: null })), /: invalid engine snapshot: [\s\S]*a job of unknown kind nope\n.*jobs\.jobs\[\d+\]\.kind$/],
      ['record.json', [...lines.slice(0, -1), ',["nope"]', lines.at(-1)].join('\n') + '\n', /: unknown state record "nope"$/],
    ]);
  });

  it("refuses a file whose engine part or store records are damaged (the engine's head, each record as it is read), naming the part, the record's kind and id", async () => {
    const lines = await savedAfterATrade(84);
    const head = (h: (head: any) => void): string => withHead(lines, h);
    const record = (kind: string, r: (record: any[]) => void): string => withRecord(lines, kind, r);
    const engine = (path: string): RegExp => new RegExp(`: invalid engine snapshot: [\\s\\S]*→ at ${path.replace(/[.[\]]/g, '\\$&')}$`);
    const wallet = JSON.parse(lines[0]!.slice(0, -OPEN_RECORDS.length) + '}').engine.store.accounts[0].wallet as string;
    const v1 = (edit: (store: any) => void): string => {
      const state = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
      edit(state.engine.store);
      return JSON.stringify(state);
    };
    await expectRefused([
      // The store's head: a part missing, a balance that is not decimal text, a position's size, a counter.
      ['no-accounts.json', head((h) => delete h.engine.store.accounts), engine('store.accounts')],
      ['balance.json', head((h) => (h.engine.store.accounts[0].free = '1e5')), engine('store.accounts[0].free')],
      ['position.json', head((h) => (h.engine.store.positions[wallet][0].size = 'long')), engine(`store.positions.${wallet}[0].size`)],
      ['counter.json', head((h) => (h.engine.store.counters.order = 'one')), engine('store.counters.order')],
      ['deposit.json', head((h) => (h.engine.store.deposits[0].amount = '-50000')), engine('store.deposits[0].amount')],
      // Jobs: a payload without its order, a next id that is not a number.
      ['job-payload.json', head((h) => (h.engine.jobs.jobs[0].payload = {})), /: invalid engine snapshot: [\s\S]*→ at jobs\.jobs\[0\]\.payload\./],
      ['job-next.json', head((h) => (h.engine.jobs.nextId = '4')), engine('jobs.nextId')],
      // Chaos settings: a rate past 1, and none at all; the engine's random state.
      ['chaos.json', head((h) => (h.engine.chaos.error_rate = 2)), engine('chaos.error_rate')],
      ['no-chaos.json', head((h) => delete h.engine.chaos), engine('chaos')],
      ['random.json', head((h) => (h.engine.random = 'x')), engine('random')],
      // A record of each main kind: an order's negative size, an order without its id, a history row's
      // status, a fill's price, a funding payment, a client order id list, a nonce.
      ['order-size.json', record('order', (r) => (r[1].size = '-1')), /: invalid order record 100000001: [\s\S]*must not be negative[\s\S]*→ at \[1\]\.size$/],
      ['order-id.json', record('order', (r) => delete r[1].order_id), /: invalid order record: [\s\S]*→ at \[1\]\.order_id$/],
      ['history.json', record('history', (r) => (r[2][1] = 'done')), /: invalid history record 100000001: [\s\S]*→ at \[2\]\[1\]$/],
      ['fill.json', record('fill', (r) => (r[2].price = 3400.2)), /: invalid fill record 100000001: [\s\S]*→ at \[2\]\.price$/],
      [
        'funding.json',
        [...lines.slice(0, -1), `,["funding","${wallet}",{"market":"ETH","direction":"LONG","size":"1","payment":"x","funding_rate":"0","epoch_time":0,"settled_at":0}]`, lines.at(-1)].join('\n') + '\n',
        new RegExp(`: invalid funding record ${wallet}: [\\s\\S]*→ at \\[2\\]\\.payment$`),
      ],
      ['cloids.json', record('cloids', (r) => (r[2] = 'c1')), new RegExp(`: invalid cloids record ${wallet}: [\\s\\S]*→ at \\[2\\]$`)],
      ['nonces.json', record('nonces', (r) => (r[2] = [1_770_082_000_001])), /: invalid nonces record \w+:0x[0-9a-f]+: [\s\S]*→ at \[2\]\[0\]$/],
      // A version 1 file: its store's collections, and the records made of them.
      ['v1-orders.json', v1((store) => (store.orders = 5)), /: invalid engine snapshot \(version 1 store\): [\s\S]*→ at orders$/],
      ['v1-history.json', v1((store) => (Object.values(store.history)[0] as any[])[0] = null), /: invalid engine snapshot \(version 1 store\): [\s\S]*→ at history\.0x[0-9a-f]+\[0\]$/],
      ['v1-order.json', v1((store) => (store.orders[0].filled_size = '-1')), /: invalid order record 100000001: [\s\S]*→ at \[1\]\.filled_size$/],
    ]);
  });

  it('a damaged record after good ones leaves nothing of the restore used: the engine keeps the store it had', async () => {
    const lines = await savedAfterATrade(85);
    const damaged = tempFile('last-record.json');
    fs.writeFileSync(damaged, [...lines.slice(0, -1), ',["nonces","trading:0x1",[7]]', lines.at(-1)].join('\n') + '\n');
    const sim = await startSimulator({ port: 0, manualClock: true, config: quietConfig() });
    try {
      const engine = sim.engine;
      const before = engine.ctx.store;
      const loaded = loadStateFile(damaged)!;
      expect(() => engine.restore(parseEngineHead(loaded.head.engine), loaded.records)).toThrow(/invalid nonces record trading:0x1: /);
      expect(engine.ctx.store).toBe(before);
      expect(engine.ctx.store.orders.size).toBe(0);
    } finally {
      await sim.stop();
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
