/**
 * The algorithms' engine (src/main/services/algos/engine/algoRunner.ts) by itself, with a toy algorithm
 * and a fake service clock (no simulator, no real sleeps): the lifecycle (claim and its lock, run once,
 * the stop ranking, the lock released however the run ends), waits on the clock that a stop cuts short,
 * the one lost-answer loop (gives up exactly at its deadline, retries a read that got no answer), and the
 * stamped notes capped at 100.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/main/api/errors.js';
import type { AlgoClock } from '../../../src/main/services/algos/algoClock.js';
import { AlgoStore, type AlgoRecordKind } from '../../../src/main/services/algos/algoStore.js';
import { AlgoRunner, MAX_ALGO_NOTES, noteText, type AlgoEvent, type AlgoRunnerOptions, type AlgoStep, type StopKind } from '../../../src/main/services/algos/engine/index.js';
import { runLockFile } from '../../../src/main/services/algos/runLock.js';
import { OperationError } from '../../../src/main/services/errors.js';
import type { TradingContext } from '../../../src/main/services/orders/orderContext.js';

// ---- a toy algorithm ---------------------------------------------------------------------------------

interface ToyRecord {
  id: string;
  profile: string;
  updated_at: number;
  notes: string[];
  status: 'running' | 'paused' | 'cancelled' | 'done';
  requested: 'pause' | 'cancel' | null;
  steps: number;
}
type ToySummary = { profile: string | null };

const TOY_KIND: AlgoRecordKind<ToyRecord, ToySummary> = {
  folder: 'toys',
  what: 'toy',
  code: 'TOY',
  listCommand: 'toy list',
  check: (raw) => {
    const r = raw as ToyRecord;
    return typeof r === 'object' && r !== null && typeof r.id === 'string' && Array.isArray(r.notes) ? { ok: true, record: r } : { ok: false, problems: ['not a toy'] };
  },
  summary: () => ({ profile: null }),
  createdAt: () => 0,
};
const NAMING = { what: 'toy', code: 'TOY', stopHint: () => 'stop it elsewhere' };
const ID = 'a1b2c3d4e5f6';
const PROFILE = 'sim';

/** The service clock, faked: time moves only when the test (or an auto-advancing sleep) moves it. */
class FakeClock implements AlgoClock {
  t = 1_765_000_000_000;
  readonly sleeps: number[] = [];
  private readonly timers: { until: number; resolve: () => void }[] = [];
  private sleeping: (() => void) | null = null;

  constructor(private readonly autoAdvance = false) {}

  async now(): Promise<number> {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (this.autoAdvance) {
      this.t += ms;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = { until: this.t + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers.splice(this.timers.indexOf(timer), 1);
        reject(signal.reason as Error);
      });
      this.sleeping?.();
    });
  }

  /** Resolves once something waits on the clock. */
  untilSleeping(): Promise<void> {
    if (this.timers.length > 0) return Promise.resolve();
    return new Promise((resolve) => (this.sleeping = resolve));
  }

  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.timers.filter((x) => x.until <= this.t)) {
      this.timers.splice(this.timers.indexOf(timer), 1);
      timer.resolve();
    }
  }

  get waiting(): number {
    return this.timers.length;
  }
}

type StepFn = (r: ToyRecord, runner: ToyRunner) => Promise<AlgoStep<ToyRecord>>;

class ToyRunner extends AlgoRunner<ToyRecord, ToySummary> {
  readonly stops: StopKind[] = [];
  begun = 0;

  constructor(
    ctx: TradingContext,
    store: AlgoStore<ToyRecord, ToySummary>,
    options: AlgoRunnerOptions<ToyRecord>,
    private readonly stepFn: StepFn,
  ) {
    super(ctx, store, ID, 'twap', NAMING, options, null);
  }

  protected isActive(r: ToyRecord): boolean {
    return r.status === 'running';
  }

  protected override begin(r: ToyRecord): Promise<{ record: ToyRecord }> {
    this.begun++;
    return Promise.resolve({ record: r });
  }

  protected step(r: ToyRecord): Promise<AlgoStep<ToyRecord>> {
    this.update((x) => ({ ...x, steps: x.steps + 1 }));
    return this.stepFn(r, this);
  }

  protected override requestedInRecord(r: ToyRecord): StopKind | null {
    return r.requested;
  }

  protected override onStop(kind: StopKind): ToyRecord {
    this.stops.push(kind);
    const status = kind === 'cancel' ? 'cancelled' : kind === 'pause' ? 'paused' : 'running';
    return this.update((x) => ({ ...x, status, requested: null }));
  }

  // The protected helpers, for the tests.
  settle<T>(deadline: number, look: () => Promise<T | null>): Promise<T | null> {
    return this.settleLostAnswer(deadline, look);
  }

  say(text: string): Promise<ToyRecord> {
    return this.note(text);
  }
}

let dir: string;
let store: AlgoStore<ToyRecord, ToySummary>;
let ctx: TradingContext;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-algo-engine-'));
  store = new AlgoStore(dir, TOY_KIND);
  store.create({ id: ID, profile: PROFILE, updated_at: 0, notes: [], status: 'running', requested: null, steps: 0 });
  // The engine reads only the profile of its context (the clock is the fake one).
  ctx = { profile: { name: PROFILE, dataDir: dir } } as unknown as TradingContext;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function toy(stepFn: StepFn, options: AlgoRunnerOptions<ToyRecord> & { clock: AlgoClock }): ToyRunner {
  return new ToyRunner(ctx, store, options, stepFn);
}

const done: StepFn = async (r) => ({ done: { ...r, status: 'done' } });

describe('the lifecycle', () => {
  it('claims once: a second runner of the same algorithm gets TOY_LOCKED naming the holder; a claim again by the holder is no second lock', async () => {
    const clock = new FakeClock();
    const a = toy(done, { clock });
    a.claim();
    a.claim();
    const b = toy(done, { clock });
    expect(() => b.claim()).toThrow(expect.objectContaining({ code: 'TOY_LOCKED', message: expect.stringMatching(/already running in this process/) }));
    await expect(b.run()).rejects.toMatchObject({ code: 'TOY_LOCKED' });
    // b never held it: the holder's lock stands until its run ends.
    expect(fs.existsSync(runLockFile(store.dir, ID))).toBe(true);
    await a.run();
    expect(fs.existsSync(runLockFile(store.dir, ID))).toBe(false);
    expect(() => toy(done, { clock }).claim()).not.toThrow();
  });

  it('runs once: a second run() is the same promise, and begin and the steps happen once', async () => {
    const clock = new FakeClock(true);
    let steps = 0;
    const runner = toy(
      async (r) => {
        steps++;
        return steps < 3 ? { wait: 10 } : { done: r };
      },
      { clock },
    );
    const first = runner.run();
    const second = runner.run();
    expect(second).toBe(first);
    await first;
    expect(await runner.run()).toBe(await first);
    expect(runner.begun).toBe(1);
    expect(steps).toBe(3);
    expect(store.require(ID, PROFILE).steps).toBe(3);
  });

  it('a cancel outranks a pause, which outranks letting go, in whatever order they are asked', async () => {
    const rank: Record<StopKind, number> = { interrupt: 0, pause: 1, cancel: 2 };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom<StopKind>('interrupt', 'pause', 'cancel'), { minLength: 1, maxLength: 6 }), async (asked) => {
        store.update(ID, (x) => ({ ...x, status: 'running', requested: null }));
        const clock = new FakeClock();
        const runner = toy(async () => ({ wait: 60_000 }), { clock });
        const running = runner.run();
        await clock.untilSleeping();
        for (const kind of asked) runner.requestStop(kind);
        await running;
        const strongest = asked.reduce((a, b) => (rank[b] > rank[a] ? b : a));
        expect(runner.stops).toEqual([strongest]);
      }),
      { numRuns: 60 },
    );
  });

  it('a stop asked through the record (another process) is acted on before the next step', async () => {
    const clock = new FakeClock(true);
    const runner = toy(
      async (r) => {
        if (r.steps === 0) store.update(ID, (x) => ({ ...x, requested: 'pause' }));
        // Bounded: a runner that never reads the record ends here and fails the expectations below.
        return r.steps < 3 ? { wait: 1_000 } : { done: r };
      },
      { clock },
    );
    const left = await runner.run();
    expect(runner.stops).toEqual(['pause']);
    expect(left.status).toBe('paused');
    expect(store.require(ID, PROFILE).steps).toBe(1);
  });

  it('releases the lock however the run ends: a step that throws fails the run (a failed event), and the algorithm can be claimed again', async () => {
    const clock = new FakeClock(true);
    const events: AlgoEvent[] = [];
    const runner = toy(
      async () => {
        throw new OperationError('TOY_BROKEN', 'the toy broke', { kind: 'internal' });
      },
      { clock, onAlgoEvent: (e) => events.push(e) },
    );
    await expect(runner.run()).rejects.toMatchObject({ code: 'TOY_BROKEN' });
    expect(fs.existsSync(runLockFile(store.dir, ID))).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['started', 'failed']);
    expect(() => toy(done, { clock }).claim()).not.toThrow();
  });

  it('a step that got no answer (transient) is tried again after the poll interval; the run goes on', async () => {
    const clock = new FakeClock(true);
    let calls = 0;
    const runner = toy(
      async (r) => {
        calls++;
        if (calls === 1) throw new NetworkError('GET', 'http://127.0.0.1:1/positions', 'connection refused', { readOnly: true });
        if (calls === 2) throw new OperationError('TOY_STORE_BUSY', 'busy', { kind: 'transient' });
        return { done: r };
      },
      { clock, pollMs: 750 },
    );
    await runner.run();
    expect(calls).toBe(3);
    expect(clock.sleeps).toEqual([750, 750]);
  });
});

describe('waits on the service clock', () => {
  it('waits what the step asked, on the fake clock; a stop cuts the wait short without the clock moving', async () => {
    const clock = new FakeClock();
    const runner = toy(async (r) => (r.steps === 0 ? { wait: 5_000 } : { wait: 3_600_000 }), { clock });
    const running = runner.run();
    await clock.untilSleeping();
    expect(clock.sleeps).toEqual([5_000]);
    clock.advance(4_999);
    // Not yet: the wait is 5 s on the service clock.
    expect(clock.waiting).toBe(1);
    expect(store.require(ID, PROFILE).steps).toBe(1);
    clock.advance(1);
    await clock.untilSleeping();
    expect(clock.sleeps).toEqual([5_000, 3_600_000]);
    const before = clock.t;
    runner.requestStop('pause');
    const left = await running;
    expect(left.status).toBe('paused');
    expect(clock.t).toBe(before);
    expect(clock.waiting).toBe(0);
    expect(store.require(ID, PROFILE).steps).toBe(2);
  });

  it('a stop asked before a wait skips the wait altogether', async () => {
    const clock = new FakeClock();
    const runner = toy(
      async (_r, self) => {
        self.requestStop('cancel');
        return { wait: 60_000 };
      },
      { clock },
    );
    const left = await runner.run();
    expect(left.status).toBe('cancelled');
    expect(clock.sleeps).toEqual([]);
  });
});

describe('the one lost-answer loop (settleLostAnswer)', () => {
  it('looks with 250 ms to 2 s between looks, and gives up exactly at the deadline on the service clock', async () => {
    for (const [after, looks] of [
      [3_750, 5],
      [3_751, 6],
    ] as const) {
      const clock = new FakeClock(true);
      const runner = toy(done, { clock });
      const start = clock.t;
      const at: number[] = [];
      const found = await runner.settle(start + after, async () => {
        at.push(clock.t - start);
        return null;
      });
      expect(found).toBeNull();
      expect(at).toHaveLength(looks);
      expect(at.slice(0, 5)).toEqual([0, 250, 750, 1_750, 3_750]);
      // The last look is at or after the deadline, the one before it was not.
      expect(at.at(-1)!).toBeGreaterThanOrEqual(after);
      expect(at.at(-2)!).toBeLessThan(after);
      expect(clock.sleeps).toEqual([250, 500, 1_000, 2_000, 2_000].slice(0, looks - 1));
    }
  });

  it('a look at the deadline itself still counts: what it finds is returned', async () => {
    const clock = new FakeClock(true);
    const runner = toy(done, { clock });
    const deadline = clock.t + 3_750;
    const found = await runner.settle(deadline, async () => (clock.t >= deadline ? 'order-7' : null));
    expect(found).toBe('order-7');
  });

  it('retries a look that got no answer (a read error that is transient); any other error is thrown', async () => {
    const clock = new FakeClock(true);
    const runner = toy(done, { clock });
    let looks = 0;
    const found = await runner.settle(clock.t + 10_000, async () => {
      looks++;
      if (looks <= 2) throw new NetworkError('GET', 'http://127.0.0.1:1/account/order-history', 'connection reset', { readOnly: true });
      return 'order-9';
    });
    expect(found).toBe('order-9');
    expect(looks).toBe(3);
    await expect(
      runner.settle(clock.t + 10_000, async () => {
        throw new OperationError('FORBIDDEN', 'no key', { kind: 'rejected' });
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('notes', () => {
  it('are stamped with the service-clock time, said as typed events after they are written, and capped at 100 (the oldest dropped)', async () => {
    const clock = new FakeClock(true);
    const events: AlgoEvent[] = [];
    const texts: string[] = [];
    const runner = toy(async (r, self) => {
      for (let i = 1; i <= 150; i++) {
        await self.say(`note ${i}`);
        clock.advance(1_000);
      }
      return { done: r };
    }, { clock, onAlgoEvent: (e) => events.push(e), onEvent: (t) => texts.push(t) });
    const start = clock.t;
    await runner.run();
    const notes = store.require(ID, PROFILE).notes;
    expect(MAX_ALGO_NOTES).toBe(100);
    expect(notes).toHaveLength(100);
    expect(notes[0]).toBe(`${new Date(start + 50_000).toISOString()} note 51`);
    expect(notes.at(-1)).toBe(`${new Date(start + 149_000).toISOString()} note 150`);
    expect(notes.map(noteText)).toEqual(Array.from({ length: 100 }, (_, i) => `note ${i + 51}`));
    const acted = events.filter((e) => e.type === 'acted');
    expect(acted).toHaveLength(150);
    expect(acted[0]).toEqual({ kind: 'twap', id: ID, type: 'acted', text: 'note 1', at: start });
    expect(texts).toHaveLength(150);
  });
});

describe('event times', () => {
  it('every event, the engine\'s own started and failed included, carries the service clock\'s time, never this machine\'s', async () => {
    // The fake service clock runs a day behind this machine: a time taken from Date.now() would show.
    const clock = new FakeClock();
    clock.t = Date.now() - 86_400_000;
    const events: AlgoEvent[] = [];
    const runner = toy(
      async (_r, self) => {
        await self.say('a step said something');
        throw new OperationError('TOY_BROKEN', 'the toy broke', { kind: 'rejected' });
      },
      { clock, onAlgoEvent: (e) => events.push(e) },
    );
    await expect(runner.run()).rejects.toMatchObject({ code: 'TOY_BROKEN' });
    expect(events.map((e) => e.type)).toEqual(['started', 'acted', 'failed']);
    for (const e of events) expect(e.at, `${e.type} at ${new Date(e.at).toISOString()}`).toBe(clock.t);
  });
});

describe('updated_at', () => {
  it("never goes back: a record created at the service's time, ahead of this machine's, is changed with a later updated_at each time (the page keeps the later view)", async () => {
    // Created as the runners create records: at the service's time, here a minute ahead of this machine.
    const created = Date.now() + 60_000;
    fs.rmSync(path.join(dir, 'toys'), { recursive: true, force: true });
    store = new AlgoStore(dir, TOY_KIND);
    store.create({ id: ID, profile: PROFILE, updated_at: created, notes: [], status: 'running', requested: null, steps: 0 });
    const seen: number[] = [];
    const clock = new FakeClock(true);
    const runner = toy(async (r, self) => (r.steps < 3 ? (await self.say(`step ${r.steps}`), { wait: 10 }) : { done: { ...r, status: 'done' } }), { clock, onUpdate: (r) => seen.push(r.updated_at) });
    await runner.run();
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(seen[0]).toBeGreaterThan(created);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `update ${i}`).toBeGreaterThan(seen[i - 1]!);
    // A change through the store (a stop asked from another terminal) too.
    const last = store.require(ID, PROFILE).updated_at;
    expect(store.update(ID, (x) => ({ ...x, requested: 'pause' })).updated_at).toBeGreaterThan(last);
  });
});
