/**
 * The app core as the desktop app runs it, minus Electron: AppCore on the sim profile (the simulator
 * started in-process on loopback by the core itself, with its state file in a temporary data folder),
 * the real OS keychain under a keychain service of this test, and every call made through the REAL
 * registered IPC handlers (validation, sender check, error mapping, response check). The host adapters
 * are recording doubles: events (what webContents.send would deliver), dialogs, notifications, logs.
 *
 * The simulator runs a manual clock unless a test asks for `manualClock: false` (issue 37): its time moves
 * only through advance(), and the core keeps that time (its service clock is read from the simulator's,
 * its waits end when the clock reaches them), so a TWAP's slices or a tracker's polls move when the test
 * moves the clock, deterministically, instead of taking seconds of wall time. The core's pumps still run
 * on wall-clock intervals; advanceUntil leaves them wall time between its steps. A test that needs the
 * wall clock says `manualClock: false` and why.
 */
import { encryptKeystoreJson, Wallet } from 'ethers';
import { afterEach, beforeEach, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { AppCore, type AppCoreOptions } from '../../../src/main/app/appCore.js';
import type { AppLogger } from '../../../src/main/app/adapters.js';
import { createHandlers } from '../../../src/main/ipc/handlers/index.js';
import { registerHandlers, type IpcEventLike } from '../../../src/main/ipc/registerHandlers.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import { Decimal } from '../../../src/shared/decimal/index.js';
import type { ChannelName, IpcRequest, IpcResponse, IpcResult } from '../../../src/shared/ipc.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { sleepOnSimClock } from '../../support/simClockSleep.js';

export interface RecordedEvent {
  channel: string;
  payload: unknown;
  at: number;
}

export interface Exchange {
  channel: string;
  payload: unknown;
  result: IpcResult<unknown>;
}

/** Sim timings shortened so a whole withdrawal completes in about a second. */
export const FAST_SIM_CONFIG = {
  timings: { deposit_confirm_ms: 200, withdrawal_accept_ms: 200, withdrawal_review_ms: 300, withdrawal_complete_ms: 300, venue_tick_ms: 250 },
};

export class AppHarness {
  readonly events: RecordedEvent[] = [];
  readonly exchanges: Exchange[] = [];
  readonly notifications: { title: string; body: string }[] = [];
  readonly logs: string[] = [];
  /** What the next open/save dialog answers (null = cancelled). */
  nextOpenFile: string | null = null;
  nextSaveFile: string | null = null;
  /** What main's own confirmation dialog answers next (the user's click), and what it was asked. */
  nextConfirm = true;
  readonly confirmations: { title: string; message: string; detail: string }[] = [];
  readonly listeners = new Map<string, (event: IpcEventLike, payload: unknown) => Promise<unknown>>();
  core!: AppCore;
  /** The simulator the core started (the sim profile's), to look at what the service saw. */
  sim: Awaited<ReturnType<typeof startSimulator>> | null = null;

  private constructor(
    readonly dataDir: string,
    readonly keychainService: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * `dataDir`: a folder of the test's choosing (it may not exist yet); by default a fresh temporary one.
   * `manualClock` (default true): the simulator's clock moves only through advance(); a test's own
   * `core.startSimulator` must then start its simulator with `manualClock: true` too.
   */
  static async start(label: string, options: { env?: NodeJS.ProcessEnv; core?: Partial<AppCoreOptions>; dataDir?: string; manualClock?: boolean } = {}): Promise<AppHarness> {
    const manualClock = options.manualClock ?? true;
    const h = new AppHarness(options.dataDir ?? tempDir(`app-${label}`), testService(`app-${label}`), options.env ?? {});
    const settings = openNodeSettings(h.dataDir);
    const capture = (level: string) => (m: string) => h.logs.push(`${level} ${m}`);
    const logger: AppLogger = { info: capture('info'), warn: capture('warn'), error: capture('error') };
    // A followed venue's outage is noticed after 1.5 s here, so tests of the banner's event stay short.
    const defaultSimulator = ({ stateFile, followVenue }: { stateFile: string; followVenue?: { infoUrl: string } }): Promise<RunningSimulator> =>
      startSimulator({ port: 0, seed: 11, stateFile, config: FAST_SIM_CONFIG, manualClock, ...(followVenue ? { followVenue: { ...followVenue, outageAfterMs: 1500, log: (line: string) => h.logs.push(`info ${line}`) } } : {}) });
    h.core = new AppCore({
      dataDir: h.dataDir,
      settings,
      appInfo: { name: 'Perps Desk', version: '0.0.0-test', platform: process.platform },
      adapters: {
        events: { send: (channel, payload) => h.events.push({ channel, payload: structuredClone(payload), at: Date.now() }) },
        dialogs: {
          chooseOpenFile: async () => h.nextOpenFile,
          chooseSaveFile: async () => h.nextSaveFile,
          confirm: async ({ title, message, detail }) => {
            h.confirmations.push({ title, message, detail });
            return h.nextConfirm;
          },
        },
        notifications: { notify: (n) => h.notifications.push(n) },
      },
      keychainService: h.keychainService,
      env: h.env,
      logger,
      pumps: { positionsRefreshMs: 1_000, keyExpiryCheckMs: 2_000 },
      ...options.core,
      // The simulator the core starts, the harness's or the test's own, is the one advance() moves.
      startSimulator: async (o) => {
        // Every launcher of these tests starts a whole simulator (startSimulator), more than the core needs.
        const sim = (await (options.core?.startSimulator ?? defaultSimulator)(o)) as RunningSimulator;
        if (manualClock && !sim.clock.manual) throw new Error('manualClock: the test started its simulator on the wall clock');
        h.sim = sim;
        return sim;
      },
      ...(manualClock ? { service: { ...options.core?.service, sleep: sleepOnSimClock(() => h.simulator().clock), localNow: () => h.simulator().clock.now() } } : {}),
    });
    registerHandlers({ handle: (c, l) => h.listeners.set(c, l) }, createHandlers(h.core), (url) => url.startsWith('app://perps/'), {
      logger: { error: (m) => h.logs.push(`error ${m}`) },
      onExchange: (x) => h.exchanges.push(structuredClone(x)),
    });
    await h.core.start();
    return h;
  }

  /** The simulator the core runs (it exists once the core has started). */
  simulator(): NonNullable<AppHarness['sim']> {
    if (!this.sim) throw new Error('the simulator is not running');
    return this.sim;
  }

  /** Moves the simulator's manual clock: what falls due in the window runs, in order. */
  advance(ms: number): void {
    this.simulator().clock.advance(ms);
  }

  /**
   * Moves the manual clock `stepMs` at a time until `check` answers, letting the core act between steps
   * (its HTTP round trips take real milliseconds): a wait on simulated time, bounded in steps.
   */
  async advanceUntil<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, stepMs = 1_000, maxSteps = 200): Promise<T> {
    for (let i = 0; ; i++) {
      // Between steps, up to 150 ms of wall time for the core's requests to come back.
      const seen = await pollUntil(check, 150, 25);
      if (seen !== undefined) return seen;
      if (i >= maxSteps) throw new Error(`${what}: not seen after ${maxSteps} steps of ${stepMs} ms of simulated time`);
      this.advance(stepMs);
    }
  }

  /**
   * Awaits work that itself waits on the manual clock (a close waiting for its fill, a paper wallet for
   * its deposit's credit), moving the clock `stepMs` at a time until the work settles: its answer, or its
   * failure.
   */
  async advanceDuring<T>(what: string, work: Promise<T>, stepMs = 100, maxSteps = 200): Promise<T> {
    let settled = false;
    const done = work.then(
      () => (settled = true),
      () => (settled = true),
    );
    await this.advanceUntil(what, () => settled, stepMs, maxSteps);
    await done;
    return work;
  }

  /** Calls a channel as the renderer would (from the app frame), returning the raw IpcResult. */
  async invoke(channel: string, payload: unknown): Promise<IpcResult<unknown>> {
    const listener = this.listeners.get(channel);
    if (!listener) throw new Error(`no handler registered for ${channel}`);
    return (await listener({ senderFrame: { url: 'app://perps/index.html' } }, payload)) as IpcResult<unknown>;
  }

  /** Calls a channel and returns its value, failing with the typed error otherwise. */
  async call<C extends ChannelName>(channel: C, payload: IpcRequest<C>): Promise<IpcResponse<C>> {
    const r = await this.invoke(channel, payload);
    if (!r.ok) throw new Error(`${channel} failed: ${r.error.code}: ${r.error.message}${r.error.hint ? ` (${r.error.hint})` : ''}`);
    return r.value as IpcResponse<C>;
  }

  /** Calls a channel that must fail, returning its error. */
  async fail(channel: ChannelName, payload: unknown): Promise<{ code: string; message: string; hint?: string; field?: string; reason?: string }> {
    const r = await this.invoke(channel, payload);
    if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
    return r.error;
  }

  eventsOf<T = unknown>(name: string): { payload: T; at: number }[] {
    return this.events.filter((e) => e.channel === `event:${name}`).map((e) => ({ payload: e.payload as T, at: e.at }));
  }

  async waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
    const seen = await pollUntil(check, timeoutMs, 50);
    if (seen === undefined) throw new Error(`timed out waiting for ${what}`);
    return seen;
  }

  /**
   * A trader as most app tests start from one: the main wallet in env `variable` connected, a new trading
   * key `name` authorized with its review, and `amount` USDC from the faucet, the clock moved until the
   * balance shows it.
   */
  async connectTrader(variable: string, name: string, amount: string): Promise<{ wallet: string; agent: string }> {
    const wallet = (await this.call('wallet:connectEnv', { variable })).address!;
    const { agent } = await this.call('keys:create', { name });
    await this.call('keys:authorize', { review_id: (await this.call('keys:review', { action: 'authorize', agent })).review_id });
    await this.faucet(amount);
    return { wallet, agent };
  }

  /** `amount` USDC from the faucet to the connected wallet, the clock moved until the free balance has grown by exactly it. */
  async faucet(amount: string): Promise<void> {
    const before = new Decimal((await this.call('account:balance', {})).free_balance);
    await this.call('funding:faucet', { amount });
    await this.advanceUntil('the deposit to be credited', async () => new Decimal((await this.call('account:balance', {})).free_balance).minus(before).eq(amount), 100);
  }

  /** Stops the core (which stops and saves the simulator) and removes this test's keychain entries. */
  async stop(): Promise<void> {
    try {
      await this.core.stop();
    } finally {
      await wipeService(this.keychainService);
    }
  }

  cleanup(): void {
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** `check`'s first answer (neither undefined nor false), asked every `everyMs` for `forMs` of wall time (once at least); undefined after. */
async function pollUntil<T>(check: () => T | undefined | false | Promise<T | undefined | false>, forMs: number, everyMs: number): Promise<T | undefined> {
  const deadline = Date.now() + forMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A main wallet and an encrypted keystore of it (light scrypt: the test is about the flow, not the KDF). */
/** The error lines among captured log lines (each starts with its level). */
export function errorLines(logs: readonly string[]): string[] {
  return logs.filter((l) => l.startsWith('error '));
}

/**
 * Checks after each test of the calling describe that the test logged no error line: a check per test,
 * so a test run alone or in any order is checked as well (issue 37). `harness` is read at each hook, so it
 * may name a harness the describe starts in its beforeAll.
 */
export function eachTestLogsNoError(harness: () => AppHarness | undefined): void {
  let from = 0;
  beforeEach(() => {
    from = harness()?.logs.length ?? 0;
  });
  afterEach(() => {
    const h = harness();
    if (h) expect(errorLines(h.logs.slice(from))).toEqual([]);
  });
}

export async function makeKeystore(dir: string, password: string): Promise<{ wallet: Wallet; file: string }> {
  const wallet = Wallet.createRandom();
  const json = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, password, { scrypt: { N: 1 << 10 } });
  const file = path.join(dir, 'main-wallet.json');
  fs.writeFileSync(file, json);
  return { wallet: new Wallet(wallet.privateKey), file };
}
