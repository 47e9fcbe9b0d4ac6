/**
 * The whole app minus Electron, for end-to-end tests: the REAL AppCore on the sim profile (the simulator
 * started in-process by the core, on a manual clock so each scenario decides when time moves), the REAL
 * trading-key vault on the REAL OS keychain (a Secret Service the test runner provides) under a keychain
 * service name of this run, the REAL IPC handlers registered on a TestIpcMain, and the REAL preload in
 * the page (preloadBridge). AppCore's events are forwarded to the page with emit(), in order.
 *
 * Host adapters that would open native windows are doubles: the file dialogs answer what the test set
 * (a keystore file for onboarding), and native notifications are recorded.
 */
import { encryptKeystoreJson, Wallet } from 'ethers';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { AppCore, type AppCoreOptions } from '../../../src/main/app/appCore.js';
import type { AppLogger } from '../../../src/main/app/adapters.js';
import { createHandlers } from '../../../src/main/ipc/handlers/index.js';
import { registerHandlers } from '../../../src/main/ipc/registerHandlers.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import type { ChannelName, IpcRequest, IpcResponse, IpcResult } from '../../../src/shared/ipc.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';
import { sleepOnSimClock } from '../../support/simClockSleep.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { emit, installPreloadBridge, TestIpcMain } from './preloadBridge.js';

/** The environment variable the env signer reads in scenarios that skip onboarding. */
export const MAIN_KEY_VARIABLE = 'PERPS_E2E_MAIN_KEY';

export interface StartOptions {
  /** Move simulated time only through advance() (default true). */
  manualClock?: boolean;
  /**
   * The app's service waits (a TWAP's wait for its next slice, an order's fill poll, a retry's pause) on
   * the simulator's clock instead of the wall clock: they end when advance() moves the clock past them.
   * The service's clock as main reads it is the simulator's too (measured against it, not against this
   * machine's). With the manual clock (the default), a scenario decides when a TWAP's slice comes due, to
   * the millisecond. A wait of 0 stays a yield to the event loop.
   */
  sleepOnSimClock?: boolean;
  /** Simulator config override (merged onto the default config). */
  simConfig?: unknown;
  core?: Partial<AppCoreOptions>;
}

export class E2eApp {
  readonly ipc = new TestIpcMain();
  readonly notifications: { title: string; body: string }[] = [];
  readonly logs: string[] = [];
  readonly events: { channel: string; payload: unknown }[] = [];
  /** What the next native open/save dialog answers (null = the user cancelled). */
  nextOpenFile: string | null = null;
  nextSaveFile: string | null = null;
  readonly mainWallet = Wallet.createRandom();
  core!: AppCore;
  private simulator: RunningSimulator | null = null;
  private page: Page | null = null;
  private origin = '';
  /** Events go to the page one after another, in the order main sent them. */
  private outbox: Promise<void> = Promise.resolve();

  private constructor(
    readonly dataDir: string,
    readonly keychainService: string,
  ) {}

  static async start(label: string, options: StartOptions = {}): Promise<E2eApp> {
    const app = new E2eApp(tempDir(`e2e-${label}`), testService(`e2e-${label}`));
    app.options = options;
    app.core = app.buildCore();
    await app.core.start();
    return app;
  }

  private options: StartOptions = {};

  /**
   * Quits the app core as the app does on quit (running TWAPs are let go, the simulator saves its state)
   * and starts a new one on the same data folder and keychain, as the next launch would; the page keeps
   * its bridge, now answered by the new core. Reload the page after it.
   */
  async restartCore(): Promise<void> {
    await this.core.stop();
    // The old core's last events (a TWAP let go at quit) reach the old document, as the app's window
    // receives them before it closes; the reload after this must not get them.
    await this.outbox;
    this.ipc.listeners.clear();
    this.core = this.buildCore();
    await this.core.start();
    registerHandlers(this.ipc, createHandlers(this.core), (url) => url.startsWith(this.origin + '/'), { logger: { error: (m) => this.logs.push(`error ${m}`) } });
  }

  private buildCore(): AppCore {
    const options = this.options;
    const capture = (level: string) => (m: string) => this.logs.push(`${level} ${m}`);
    const logger: AppLogger = { info: capture('info'), warn: capture('warn'), error: capture('error') };
    return new AppCore({
      dataDir: this.dataDir,
      settings: openNodeSettings(this.dataDir),
      appInfo: { name: 'Perps Desk', version: '0.1.0-e2e', platform: process.platform },
      adapters: {
        events: { send: (channel, payload) => this.forward(channel, payload) },
        // Main's own confirmation dialog is a native one in the app; here the person always clicks confirm.
        dialogs: { chooseOpenFile: async () => this.nextOpenFile, chooseSaveFile: async () => this.nextSaveFile, confirm: async () => true },
        notifications: { notify: (n) => this.notifications.push(n) },
      },
      startSimulator: async ({ stateFile, followVenue }) => {
        const sim = await startSimulator({
          port: 0,
          seed: 7,
          stateFile,
          manualClock: options.manualClock ?? true,
          ...(options.simConfig !== undefined ? { config: options.simConfig } : {}),
          // Live prices from a venue (the Settings choice); an outage is noticed after 1.5 s so the banner shows quickly.
          ...(followVenue ? { followVenue: { ...followVenue, outageAfterMs: 1500, log: (line: string) => this.logs.push(`info ${line}`) } } : {}),
        });
        this.simulator = sim;
        return sim;
      },
      keychainService: this.keychainService,
      env: { [MAIN_KEY_VARIABLE]: this.mainWallet.privateKey },
      logger,
      pumps: { positionsRefreshMs: 1_000, keyExpiryCheckMs: 2_000, orderMinMs: 100, orderMaxMs: 400, withdrawalMinMs: 200, withdrawalMaxMs: 600 },
      ...options.core,
      ...(options.sleepOnSimClock ? { service: { ...options.core?.service, sleep: sleepOnSimClock(() => this.sim.clock), localNow: () => this.sim.clock.now() } } : {}),
    });
  }

  get sim(): RunningSimulator {
    if (!this.simulator) throw new Error('the simulator is not running');
    return this.simulator;
  }

  /** Registers the real handlers for pages served from `origin` and installs the real preload in `page`. */
  async attach(page: Page, origin: string): Promise<void> {
    registerHandlers(this.ipc, createHandlers(this.core), (url) => url.startsWith(origin + '/'), { logger: { error: (m) => this.logs.push(`error ${m}`) } });
    await installPreloadBridge(page, this.ipc);
    this.page = page;
    this.origin = origin;
  }

  private forward(channel: string, payload: unknown): void {
    this.events.push({ channel, payload });
    const page = this.page;
    // Before the renderer has loaded there is no window to deliver to, as in the app before its window opens.
    if (!page || !page.url().startsWith(this.origin + '/')) return;
    const copy = structuredClone(payload);
    this.outbox = this.outbox.then(async () => {
      if (page.isClosed()) return;
      try {
        await emit(page, channel, copy);
      } catch (err) {
        // A navigation in progress drops the event, as a reloading window would; record why.
        this.logs.push(`warn event ${channel} not delivered: ${(err as Error).message}`);
      }
    });
  }

  /** Calls a channel exactly as the page would, returning its value (or failing with the typed error). */
  async call<C extends ChannelName>(channel: C, payload: IpcRequest<C>): Promise<IpcResponse<C>> {
    const listener = this.ipc.listeners.get(channel);
    if (!listener) throw new Error(`no handler for ${channel} (attach first)`);
    const r = (await listener({ senderFrame: { url: `${this.origin}/index.html` } }, payload)) as IpcResult<IpcResponse<C>>;
    if (!r.ok) throw new Error(`${channel} failed: ${r.error.code}: ${r.error.message}`);
    return r.value;
  }

  /**
   * Holds the page's calls of `channel` until release(): `asked` settles when the page first calls it. For
   * putting an event before an answer on purpose (a race that otherwise depends on timing).
   */
  holdAnswers(channel: ChannelName): { asked: Promise<void>; release: () => void } {
    const listener = this.ipc.listeners.get(channel);
    if (!listener) throw new Error(`no handler for ${channel} (attach first)`);
    let onAsked!: () => void;
    let release!: () => void;
    const asked = new Promise<void>((resolve) => (onAsked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.ipc.listeners.set(channel, async (event, payload) => {
      onAsked();
      await released;
      return listener(event, payload);
    });
    return { asked, release };
  }

  /**
   * Delivers an event to the page now, as main's `webContents.send` would; resolves to the number of the
   * page's listeners that took it (0 while a reloaded page has not subscribed yet).
   */
  async deliver(channel: string, payload: unknown): Promise<number> {
    if (!this.page) throw new Error('no page (attach first)');
    await this.outbox;
    return emit(this.page, channel, payload);
  }

  /** POSTs to the simulator's control API (/sim/...): the one simulator bed's (test/support/simBed.ts). */
  async control(route: string, body: unknown): Promise<unknown> {
    return new SimBed(this.sim).control('/' + route.replace(/^\//, ''), body);
  }

  /** POSTs to the simulator's companion control API (chains' balances, the bridge's outcomes). */
  async companionControl(route: string, body: unknown): Promise<void> {
    await new SimBed(this.sim).companionControl(route, body);
  }

  /** Moves simulated time (jobs due in the window run in order). */
  async advance(ms: number): Promise<void> {
    await this.control('advance', { ms });
  }

  /** Sets the venue mark of a market (triggers, fills and liquidations follow). */
  async setMark(market: string, price: string): Promise<void> {
    await this.control('mark', { market, price });
  }

  /** The live mark the simulator holds for a market (decimal text). */
  async mark(market: string): Promise<string> {
    const res = await fetch(`${this.sim.urls.control_url}/state`);
    const json = (await res.json()) as { data: { marks: Record<string, string> } };
    const m = json.data.marks[market];
    if (m === undefined) throw new Error(`no mark for ${market}`);
    return m;
  }

  /** A keystore of the main wallet (light scrypt: the scenarios test the flow, not the KDF). */
  async writeKeystore(password: string): Promise<string> {
    const json = await encryptKeystoreJson({ address: this.mainWallet.address, privateKey: this.mainWallet.privateKey }, password, { scrypt: { N: 1 << 10 } });
    const file = path.join(this.dataDir, 'main-wallet.json');
    fs.writeFileSync(file, json);
    return file;
  }

  /**
   * Everything onboarding does, through the real handlers, for scenarios about trading: connect the main
   * wallet (env signer), create and authorize a trading key in the keychain, and fund the account.
   */
  async onboard(funds = '100000'): Promise<void> {
    await this.call('wallet:connectEnv', { variable: MAIN_KEY_VARIABLE });
    const key = await this.call('keys:create', { name: 'e2e' });
    const review = await this.call('keys:review', { action: 'authorize', agent: key.agent, expires_in_days: 30 });
    await this.call('keys:authorize', { review_id: review.review_id });
    await this.call('funding:faucet', { amount: funds });
    // The simulator credits a deposit after its confirmation delay.
    await this.advance(2_000);
  }

  /** Polls `check` (wall clock) until it returns something. */
  async waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await check();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops the core (and the simulator), removes this run's keychain entries and the data folder. */
  async stop(): Promise<void> {
    this.page = null;
    try {
      await this.core.stop();
    } finally {
      await wipeService(this.keychainService);
      fs.rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}
