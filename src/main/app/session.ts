/**
 * The app's session: the main wallet and its custody signer, the open profile (its runtime,
 * profileRuntime.ts), short-lived signing reviews, the domain events desks raise, and where events and
 * notifications go. Desks (desks/*) hold the use cases and reach the session only through DeskContext
 * (deskContext.ts); the session knows nothing of trading.
 *
 * A review never crosses to another wallet or profile (its scope), and a wallet change clears them.
 */
import { sameAddress } from '../../shared/identity/index.js';
import { eventWireChannel, type EventName, type IpcEventPayload, type PositionView, type ProfileName, type SimFeedView, type WalletView } from '../../shared/ipc.js';
import { oneLineText, terminalText } from '../../shared/safeText.js';
import type { Profile } from '../profiles/profiles.js';
import { InferenceKeyStore } from '../services/assistant/apiKeyStore.js';
import type { ServiceContext } from '../services/serviceContext.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import type { VenueSocketPool } from '../venue/venueSocketPool.js';
import { consoleLogger, type AppLogger, type DialogAdapter } from './adapters.js';
import type { AppCoreOptions } from './appCoreOptions.js';
import { AppSettings } from './appSettings.js';
import { BackgroundWork } from './backgroundWork.js';
import type { BookFeed } from './bookFeed.js';
import type { CompanionDesks } from './companion/companionDesks.js';
import type { DeskContext } from './deskContext.js';
import { DomainEvents, type DomainEvent } from './domainEvents.js';
import { ProfileRuntime } from './profileRuntime.js';
import { PromptBroker } from './prompts.js';
import { DEFAULT_PUMP_TIMINGS, type NotificationKind, type PumpTimings } from './pumps/pump.js';
import type { SessionPumps } from './pumps/sessionPumps.js';
import { ReviewStore } from './reviews.js';
import type { SimHandle } from './simulator.js';
import { Throttle } from './throttle.js';
import type { TradeTape } from './tradeTape.js';
import { TrezorPrompts } from './trezorPrompts.js';
import { trezorOpener } from './trezorWallet.js';
import { WalletSession, usbLedgerAccess } from './wallet.js';

export type { AppCoreOptions };

export class Session implements DeskContext {
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
  readonly timings: PumpTimings;
  readonly inferenceKeys: InferenceKeyStore;
  private readonly runtime: ProfileRuntime;
  private readonly sessionThrottle: Throttle<IpcEventPayload<'session'>>;
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
    this.runtime = new ProfileRuntime({
      options,
      env: this.env,
      logger: this.logger,
      appSettings: this.appSettings,
      wallet: this.wallet,
      events: this.events,
      broker: this.broker,
      timings: this.timings,
      inferenceKeys: this.inferenceKeys,
      send: (event, payload) => this.send(event, payload),
      notify: (kind, title, body) => this.notify(kind, title, body),
      observePositions: (wallet, views, at) => {
        for (const l of this.positionListeners) l(wallet, views, at);
      },
      reset: () => this.reset(),
      publish: () => this.publish(),
    });
  }

  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  get settings(): SettingsStore {
    return this.options.settings;
  }

  get appInfo(): AppCoreOptions['appInfo'] {
    return this.options.appInfo;
  }

  get dialogs(): DialogAdapter {
    return this.options.adapters.dialogs;
  }

  get fetch(): typeof fetch {
    return this.options.fetch ?? fetch;
  }

  get portfolioDeadlineMs(): number | undefined {
    return this.options.portfolioDeadlineMs;
  }

  // ---- lifecycle ----------------------------------------------------------------------------------------

  /** Opens the remembered profile (falling back to sim when mainnet is not configured). */
  start(): Promise<void> {
    return this.runtime.start();
  }

  /** Stops the pumps, closes the wallet's devices and stops (and saves) the simulator. */
  async stop(): Promise<void> {
    await this.runtime.stop();
    this.sessionThrottle.close();
  }

  /** Restarts the simulator (saving its state) so a changed price source applies; a no-op off the sim profile. */
  restartSimulator(): Promise<void> {
    return this.runtime.restartSimulator();
  }

  /** Closes the open profile and opens `name` (a no-op when it is already open). */
  switchProfile(name: ProfileName, beforeSwitch?: () => void): Promise<void> {
    return this.runtime.switchProfile(name, beforeSwitch);
  }

  /** A new main wallet means new streams (its orders, its withdrawals), stale reviews and stale caches. */
  async afterWalletChange(view: WalletView, before?: string | null): Promise<WalletView> {
    const previous = before === undefined ? this.runtime.pumps?.wallet : before;
    if (!previous || !view.address || !sameAddress(previous, view.address) || !this.runtime.pumps) {
      this.reset();
      await this.runtime.restartPumps();
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

  // ---- the open profile (profileRuntime.ts) -------------------------------------------------------------

  ctx(): ServiceContext {
    return this.runtime.ctx();
  }

  get profile(): Profile | null {
    return this.runtime.profile;
  }

  requireProfile(): Profile {
    return this.runtime.requireProfile();
  }

  get sim(): SimHandle | null {
    return this.runtime.sim;
  }

  get pumps(): SessionPumps | null {
    return this.runtime.pumps;
  }

  companion(): CompanionDesks {
    return this.runtime.companion();
  }

  /** The open profile's venue sockets (one connection per URL, shared by every consumer). */
  venueSockets(): VenueSocketPool {
    return this.runtime.venueSockets();
  }

  book(): BookFeed {
    return this.runtime.book();
  }

  /** The trades tape of the watched market. */
  tape(): TradeTape {
    return this.runtime.tape();
  }

  /** The simulator's feed (simulated, or following a venue: live or down); null off the simulator profile. */
  simFeed(): SimFeedView | null {
    return this.runtime.simFeed();
  }

  // ---- reviews, events and notifications ----------------------------------------------------------------

  /** Reviews are valid only for the wallet and profile they were made for. */
  scope(): string {
    return `${this.runtime.profile?.name ?? '-'}|${(this.wallet.address() ?? '-').toLowerCase()}`;
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

  /** Tells the page the profile or the wallet changed (throttled). */
  publish(): void {
    const profile = this.runtime.profile;
    if (!profile) return;
    this.sessionThrottle.push({ profile: profile.name, wallet: this.wallet.view(), sim_running: this.runtime.sim !== null });
  }
}
