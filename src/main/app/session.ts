/**
 * The app's session: which profile is open (on 'sim' the simulator runs in-process on loopback, with its
 * state file in the app's data folder, and is stopped and saved on quit), the main wallet and its custody
 * signer, the services of the profile, the event pumps of the wallet, short-lived signing reviews, and
 * the domain events desks raise. Desks (desks/*) hold the use cases and ask the session for what they
 * need; the session knows nothing of trading.
 *
 * Profile switches and shutdown run one at a time. A review never crosses to another wallet or profile
 * (its scope), and a wallet change clears them.
 */
import path from 'node:path';
import { sameAddress } from '../../shared/identity/index.js';
import { eventWireChannel, type EventName, type IpcEventPayload, type PositionView, type ProfileName, type WalletView } from '../../shared/ipc.js';
import { ensurePrivateFolder } from '../files/privateFolder.js';
import { resolveProfile, simProfile, type Profile } from '../profiles/profiles.js';
import { InferenceKeyStore } from '../services/assistant/apiKeyStore.js';
import { accountReadsOf } from '../services/assistant/accountContext.js';
import { createCompanionContext } from '../services/companion/companionContext.js';
import { OperationError } from '../services/errors.js';
import { createServiceContext, type ServiceContext, type ServiceContextOptions } from '../services/serviceContext.js';
import { PAPER_PROFILE } from '../vault/paperWalletVault.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import { consoleLogger, type AppAdapters, type AppLogger } from './adapters.js';
import { AppSettings } from './appSettings.js';
import { BackgroundWork } from './backgroundWork.js';
import { BookFeed } from './bookFeed.js';
import { openCompanionDesks, type CompanionDesks } from './companion/companionDesks.js';
import { TransferTracker } from './companion/transferTracker.js';
import { DomainEvents, type DomainEvent } from './domainEvents.js';
import { PromptBroker } from './prompts.js';
import { DEFAULT_PUMP_TIMINGS, type NotificationKind, type PumpTimings } from './pumps/pump.js';
import { SessionPumps } from './pumps/sessionPumps.js';
import { ReviewStore } from './reviews.js';
import type { SimHandle, SimLauncher } from './simulator.js';
import { startSimWithPrices, type StartedSim } from './simFeed.js';
import type { SimFeedView } from '../../shared/ipcSimFeed.js';
import { Throttle } from './throttle.js';
import { TradeTape } from './tradeTape.js';
import { loggingVenueSocketPool, type VenueSocketPool } from '../venue/venueSocketPool.js';
import { WalletSession, usbLedgerAccess, type LedgerAccess } from './wallet.js';
import { TrezorPrompts } from './trezorPrompts.js';
import { trezorOpener } from './trezorWallet.js';
import type { OpenTrezorDeps } from '../signers/trezor/openTrezor.js';
import { oneLineText, terminalText } from '../../shared/safeText.js';

export interface AppCoreOptions {
  /** The app's data folder (Electron's userData): settings, nonces, the simulator's state file. */
  dataDir: string;
  settings: SettingsStore;
  appInfo: { name: string; version: string; platform: string };
  adapters: AppAdapters;
  /** Starts the in-process simulator (required to run the sim profile). */
  startSimulator?: SimLauncher;
  /** Keychain service name (tests pass their own; the app uses the default). */
  keychainService?: string;
  /** The process environment (for env signers). */
  env?: NodeJS.ProcessEnv;
  logger?: AppLogger;
  /** Extra service-context options (fetch, timeouts, caches). */
  service?: Omit<ServiceContextOptions, 'settings' | 'keychainService' | 'env'>;
  pumps?: Partial<PumpTimings>;
  ledger?: LedgerAccess;
  /** Stand-ins for the Trezor's USB or Bridge (tests); the link itself is chosen by PERPS_TREZOR_TRANSPORT. */
  trezor?: OpenTrezorDeps;
  /** How long a review stays valid: orders are short (marks move), custody actions longer (a Ledger takes time). */
  reviewTtlMs?: { orders?: number; custody?: number };
  fetch?: typeof fetch;
  /** Companion services: timeouts, and how often a pending bridge order is polled. */
  companion?: { timeoutMs?: number; pollIntervalMs?: number; rpcPollingIntervalMs?: number };
  /** The Portfolio view's whole-read deadline (default the command line's, 120 s; tests shorten it). */
  portfolioDeadlineMs?: number;
}

/** What is open while a profile is: torn down and rebuilt on a profile switch. */
interface Open {
  profile: Profile;
  ctx: ServiceContext;
  sim: SimHandle | null;
  pumps: SessionPumps | null;
  companion: CompanionDesks;
  book: BookFeed;
  tape: TradeTape;
  /** One venue WebSocket per URL, shared by the book, the tape and the marks pump. */
  venueSockets: VenueSocketPool;
  /** The simulator's price source and live feed (sim profile only). */
  simFeed: StartedSim | null;
  stopSimFeed: () => void;
}

export class Session {
  readonly logger: AppLogger;
  readonly appSettings: AppSettings;
  readonly broker: PromptBroker;
  /** The Trezor's PIN, passphrase and on-device prompts, and its cancel. */
  readonly trezorPrompts: TrezorPrompts;
  readonly wallet: WalletSession;
  readonly reviews = new ReviewStore();
  readonly events: DomainEvents;
  /** What main runs on its own (TWAPs, and alerts, trailing stops, OCO pairs as they register): what keeps the app in the tray. */
  readonly backgroundWork: BackgroundWork;
  private readonly inferenceKeys: InferenceKeyStore;
  private readonly sessionThrottle: Throttle<IpcEventPayload<'session'>>;
  private readonly timings: PumpTimings;
  private open: Open | null = null;
  /** Profile switches and shutdown run one at a time. */
  private transition: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Called whenever the session's wallet or profile changes (caches of the old one are dropped). */
  private readonly resetListeners = new Set<() => void>();
  private readonly positionListeners = new Set<(wallet: string, views: readonly PositionView[], at: number) => void>();

  constructor(readonly options: AppCoreOptions) {
    this.logger = options.logger ?? consoleLogger;
    this.appSettings = new AppSettings(options.settings);
    this.events = new DomainEvents((err, event) => this.logger.error(`[app] a listener of ${event.type} failed: ${(err as Error).message}`));
    this.backgroundWork = new BackgroundWork((kind, err) => this.logger.error(`[app] listing the active ${kind} work failed: ${(err as Error).message}`));
    this.broker = new PromptBroker({
      blindSigningRequest: (payload) => this.send('blindSigningRequest', payload),
      offlineSignatureRequest: (payload) => this.send('offlineSignatureRequest', payload),
    });
    // The inference key has its own keychain service, next to the trading keys' (a test's own when it sets one).
    this.inferenceKeys = new InferenceKeyStore({ ...(options.keychainService !== undefined ? { service: `${options.keychainService}.inference` } : {}), env: this.env });
    this.trezorPrompts = new TrezorPrompts((payload) => this.send('trezorPrompt', payload));
    this.wallet = new WalletSession(this.appSettings, this.broker, this.logger, this.env, options.ledger ?? usbLedgerAccess, {
      prompts: this.trezorPrompts,
      open: trezorOpener(this.env, options.trezor),
    });
    this.timings = { ...DEFAULT_PUMP_TIMINGS, ...options.pumps };
    this.sessionThrottle = new Throttle({ intervalMs: this.timings.throttleMs, key: () => 'session', emit: (v) => this.send('session', v[v.length - 1]!) });
  }

  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  // ---- lifecycle ----------------------------------------------------------------------------------------

  /** Opens the remembered profile (falling back to sim when mainnet is not configured). */
  async start(): Promise<void> {
    await this.serialized(async () => {
      const wanted = this.appSettings.profile();
      try {
        await this.openProfile(wanted);
      } catch (err) {
        if (wanted === 'sim') throw err;
        this.logger.warn(`[app] the ${wanted} profile could not be opened (${(err as Error).message}); starting on the simulator`);
        await this.openProfile('sim');
      }
    });
  }

  /** Stops the pumps, closes the wallet's devices and stops (and saves) the simulator. */
  async stop(): Promise<void> {
    await this.serialized(async () => {
      this.stopped = true;
      await this.closeProfile();
      await this.wallet.close();
      this.sessionThrottle.close();
    });
  }

  /** The simulator's feed (simulated, or following a venue: live or down); null off the simulator profile. */
  simFeed(): SimFeedView | null {
    return this.open?.simFeed?.view() ?? null;
  }

  /** Restarts the simulator (saving its state) so a changed price source applies; a no-op off the sim profile. */
  async restartSimulator(): Promise<void> {
    await this.serialized(async () => {
      if (this.open?.profile.name !== 'sim') return;
      await this.closeProfile();
      await this.openProfile('sim');
    });
  }

  /** Closes the open profile and opens `name` (a no-op when it is already open). */
  async switchProfile(name: ProfileName, beforeSwitch: () => void = () => undefined): Promise<void> {
    await this.serialized(async () => {
      beforeSwitch();
      if (this.open?.profile.name === name) return;
      if (name === 'mainnet') {
        // Resolve first: an unconfigured mainnet is refused before the running session is torn down.
        resolveProfile({ profile: 'mainnet', dataDir: this.options.dataDir, settings: this.options.settings }, {});
      }
      await this.closeProfile();
      await this.openProfile(name);
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.transition.then(work, work);
    this.transition = run.catch(() => undefined);
    return run;
  }

  private async openProfile(name: ProfileName): Promise<void> {
    let profile: Profile;
    let sim: SimHandle | null = null;
    let simFeed: StartedSim | null = null;
    if (name === 'sim') {
      if (!this.options.startSimulator) throw new OperationError('NO_SIMULATOR', 'this build cannot start the simulator', { kind: 'internal' });
      const stateFile = path.join(this.options.dataDir, 'sim', 'state.json');
      // Inside the private data folder, and private itself (the state holds every paper account).
      ensurePrivateFolder(path.dirname(stateFile));
      simFeed = await startSimWithPrices(this.options.startSimulator, stateFile, this.appSettings.simPrices(), this.logger);
      sim = simFeed.sim;
      profile = simProfile(sim.urls, this.options.dataDir);
    } else {
      // Mainnet URLs come only from what the user stored (never a guess, never the environment).
      profile = resolveProfile({ profile: 'mainnet', dataDir: this.options.dataDir, settings: this.options.settings }, {});
    }
    const ctx = createServiceContext(profile, {
      ...this.options.service,
      settings: this.options.settings,
      ...(this.options.keychainService !== undefined ? { keychainService: this.options.keychainService } : {}),
      env: this.env,
    });
    await this.syncPaperWallet(profile, ctx);
    const venueSockets = loggingVenueSocketPool(this.logger);
    const book = new BookFeed({ ctx, logger: this.logger, emit: (b) => this.send('book', b), sockets: venueSockets, throttleMs: this.timings.throttleMs });
    const tape = new TradeTape({ ctx, logger: this.logger, emit: (t) => this.send('trades', t), sockets: venueSockets, throttleMs: this.timings.throttleMs });
    const stopSimFeed = simFeed ? simFeed.onChange((view) => this.send('simFeed', view)) : () => undefined;
    this.open = { profile, ctx, sim, pumps: null, companion: this.openCompanion(profile, ctx), book, tape, venueSockets, simFeed, stopSimFeed };
    this.appSettings.rememberProfile(name);
    this.logger.info(`[app] profile ${name} open (${profile.baseUrl})`);
    this.reset();
    this.startPumps();
    this.publish();
  }

  /**
   * A paper wallet signs on the simulator only: another profile drops its signer, and the simulator
   * reconnects a remembered one from the keychain, with no password to ask. A wallet that cannot be
   * reconnected (its key gone from the keychain, a locked keychain) stays remembered and unconnected,
   * and the log says why.
   */
  private async syncPaperWallet(profile: Profile, ctx: ServiceContext): Promise<void> {
    if (profile.name !== PAPER_PROFILE) {
      await this.wallet.dropPaper(`a paper wallet signs on the simulator only, and the ${profile.name} profile is open`);
      return;
    }
    const address = this.wallet.paperToReconnect();
    if (address === null) return;
    try {
      const signer = ctx.paperSigner(address, () => this.profile);
      if (!(await ctx.paperWallets.unlockable(profile.name, address))) {
        this.logger.warn(`[app] the paper wallet ${address} is not in the keychain any more; it stays unconnected`);
        return;
      }
      await this.wallet.connectPaper(signer);
    } catch (err) {
      this.logger.warn(`[app] the paper wallet ${address} could not be reconnected: ${(err as Error).message}`);
    }
  }

  private async closeProfile(): Promise<void> {
    const s = this.open;
    this.open = null;
    this.reset();
    this.broker.cancelAll('the profile was closed');
    if (!s) return;
    s.stopSimFeed();
    s.companion.close();
    await s.book.close();
    await s.tape.close();
    if (s.pumps) await s.pumps.stop();
    await s.venueSockets.close();
    if (s.sim) {
      await s.sim.stop();
      this.logger.info('[app] simulator stopped and saved');
    }
  }

  /** The companion use cases of a profile, wired like the CLI's (same settings keys, same clients). */
  private openCompanion(profile: Profile, ctx: ServiceContext): CompanionDesks {
    const c = this.options.companion ?? {};
    const companion = createCompanionContext(
      { profile, settings: this.options.settings },
      {
        env: this.env,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
        ...(c.timeoutMs !== undefined ? { timeoutMs: c.timeoutMs } : {}),
        ...(c.rpcPollingIntervalMs !== undefined ? { rpcPollingIntervalMs: c.rpcPollingIntervalMs } : {}),
      },
    );
    const tracker = new TransferTracker({
      settings: this.options.settings,
      storeKey: `companion.${profile.name}.transfers`,
      emit: (transfers) => this.send('transfers', { transfers }),
      bridge: () => companion.bridge,
      sleep: companion.sleep,
      now: Date.now,
      logger: this.logger,
      ...(c.pollIntervalMs !== undefined ? { pollIntervalMs: c.pollIntervalMs } : {}),
    });
    return openCompanionDesks({
      companion,
      wallet: this.wallet,
      tracker,
      inferenceKeys: this.inferenceKeys,
      reads: accountReadsOf(ctx),
      logger: this.logger,
      confirm: (o) => this.options.adapters.dialogs.confirm(o),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
  }

  /** (Re)starts the pumps of the open profile for the current wallet. */
  private startPumps(): void {
    const s = this.open;
    const wallet = this.wallet.address();
    if (!s || !wallet || this.stopped) return;
    const pumps = new SessionPumps({
      ctx: s.ctx,
      wallet,
      logger: this.logger,
      timings: this.timings,
      venueSockets: s.venueSockets,
      events: this.events,
      send: (event, payload) => this.send(event, payload),
      notify: (kind, title, body) => this.notify(kind, title, body),
      keyWarningDays: () => this.appSettings.settings().key_expiry_warning_days,
      liquidationWarningPct: () => this.appSettings.settings().liquidation_warning_pct,
      observePositions: (views, at) => {
        for (const l of this.positionListeners) l(wallet, views, at);
      },
    });
    s.pumps = pumps;
    pumps.start().catch((err: unknown) => this.logger.warn(`[app] starting the event streams failed: ${(err as Error).message}`));
  }

  private async restartPumps(): Promise<void> {
    const s = this.open;
    if (s?.pumps) {
      const old = s.pumps;
      s.pumps = null;
      await old.stop();
    }
    this.startPumps();
  }

  /** A new main wallet means new streams (its orders, its withdrawals), stale reviews and stale caches. */
  async afterWalletChange(view: WalletView, before?: string | null): Promise<WalletView> {
    const previous = before === undefined ? this.open?.pumps?.wallet : before;
    if (!previous || !view.address || !sameAddress(previous, view.address) || !this.open?.pumps) {
      this.reset();
      await this.restartPumps();
    }
    this.publish();
    return view;
  }

  /** Listens to every re-pricing of the current wallet's positions. */
  onPositions(listener: (wallet: string, views: readonly PositionView[], at: number) => void): void {
    this.positionListeners.add(listener);
  }

  /** Listens for wallet and profile changes (caches of the previous one are dropped). */
  onReset(listener: () => void): void {
    this.resetListeners.add(listener);
  }

  private reset(): void {
    this.reviews.clear();
    for (const l of this.resetListeners) l();
  }

  // ---- what desks use -----------------------------------------------------------------------------------

  private require(): Open {
    if (!this.open) throw new OperationError('NOT_READY', 'the app is switching profiles or shutting down', { kind: 'transient', hint: 'Try again in a moment.' });
    return this.open;
  }

  ctx(): ServiceContext {
    return this.require().ctx;
  }

  get profile(): Profile | null {
    return this.open?.profile ?? null;
  }

  requireProfile(): Profile {
    return this.require().profile;
  }

  get sim(): SimHandle | null {
    return this.open?.sim ?? null;
  }

  get pumps(): SessionPumps | null {
    return this.open?.pumps ?? null;
  }

  companion(): CompanionDesks {
    return this.require().companion;
  }

  /** The open profile's venue sockets (one connection per URL, shared by every consumer). */
  venueSockets(): VenueSocketPool {
    return this.require().venueSockets;
  }

  book(): BookFeed {
    return this.require().book;
  }

  /** The trades tape of the watched market. */
  tape(): TradeTape {
    return this.require().tape;
  }

  /** Reviews are valid only for the wallet and profile they were made for. */
  scope(): string {
    return `${this.open?.profile.name ?? '-'}|${(this.wallet.address() ?? '-').toLowerCase()}`;
  }

  reviewTtl(kind: 'orders' | 'custody'): number {
    return kind === 'orders' ? (this.options.reviewTtlMs?.orders ?? 30_000) : (this.options.reviewTtlMs?.custody ?? 10 * 60_000);
  }

  raise(event: DomainEvent): void {
    this.events.emit(event);
  }

  send<E extends EventName>(event: E, payload: IpcEventPayload<E>): void {
    try {
      this.options.adapters.events.send(eventWireChannel(event), payload);
    } catch (err) {
      this.logger.error(`[app] sending the ${event} event failed: ${(err as Error).message}`);
    }
  }

  notify(kind: NotificationKind, title: string, body: string): void {
    const prefs = this.appSettings.notifications();
    if (!prefs[kind]) return;
    try {
      // Titles and bodies carry text from the service, a device or a file (a fill's dir, an alert's
      // note): no control or bidi character reaches the desktop's notification (issue 36).
      this.options.adapters.notifications.notify({ title: oneLineText(title), body: terminalText(body) });
    } catch (err) {
      this.logger.warn(`[app] a notification could not be shown: ${(err as Error).message}`);
    }
  }

  publish(): void {
    const s = this.open;
    if (!s) return;
    this.sessionThrottle.push({ profile: s.profile.name, wallet: this.wallet.view(), sim_running: s.sim !== null });
  }

}
