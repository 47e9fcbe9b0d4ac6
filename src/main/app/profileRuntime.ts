/**
 * The profile runtime: what is open while a profile is (on 'sim' the simulator runs in-process on
 * loopback, with its state file in the app's data folder, and is stopped and saved on quit), built when
 * the profile opens and torn down when it closes: the services of the profile, its venue sockets, the
 * book and the trades tape, the companion desks, and the event pumps of the current wallet.
 *
 * Profile switches and shutdown run one at a time. The runtime knows nothing of trading; the session
 * (session.ts) gives it the app-wide parts it wires in (the wallet, the settings, where events go).
 */
import path from 'node:path';
import type { EventName, IpcEventPayload, PositionView, ProfileName, SimFeedView } from '../../shared/ipc.js';
import { ensurePrivateFolder } from '../files/privateFolder.js';
import { resolveProfile, simProfile, type Profile } from '../profiles/profiles.js';
import type { InferenceKeyStore } from '../services/assistant/apiKeyStore.js';
import { accountReadsOf } from '../services/assistant/accountContext.js';
import { createCompanionContext } from '../services/companion/companionContext.js';
import { OperationError } from '../services/errors.js';
import { createServiceContext, type ServiceContext } from '../services/serviceContext.js';
import { PAPER_PROFILE } from '../vault/paperWalletVault.js';
import { loggingVenueSocketPool, type VenueSocketPool } from '../venue/venueSocketPool.js';
import type { AppLogger } from './adapters.js';
import type { AppCoreOptions } from './appCoreOptions.js';
import type { AppSettings } from './appSettings.js';
import { BookFeed } from './bookFeed.js';
import { openCompanionDesks, type CompanionDesks } from './companion/companionDesks.js';
import { TransferTracker } from './companion/transferTracker.js';
import type { DomainEvents } from './domainEvents.js';
import type { PromptBroker } from './prompts.js';
import type { NotificationKind, PumpTimings } from './pumps/pump.js';
import { SessionPumps } from './pumps/sessionPumps.js';
import type { SimHandle } from './simulator.js';
import { startSimWithPrices, type StartedSim } from './simFeed.js';
import { TradeTape } from './tradeTape.js';
import type { WalletSession } from './wallet.js';

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

/** The app-wide parts a profile is wired to (the session provides them). */
export interface ProfileHost {
  readonly options: AppCoreOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: AppLogger;
  readonly appSettings: AppSettings;
  readonly wallet: WalletSession;
  readonly events: DomainEvents;
  readonly broker: Pick<PromptBroker, 'cancelAll'>;
  readonly timings: PumpTimings;
  readonly inferenceKeys: InferenceKeyStore;
  send<E extends EventName>(event: E, payload: IpcEventPayload<E>): void;
  notify(kind: NotificationKind, title: string, body: string): void;
  /** The pumps re-priced the wallet's positions. */
  observePositions(wallet: string, views: readonly PositionView[], at: number): void;
  /** The wallet or the profile changed: reviews and caches of the previous one are dropped. */
  reset(): void;
  /** Tells the page the profile or the wallet changed. */
  publish(): void;
}

export class ProfileRuntime {
  private open: Open | null = null;
  /** Profile switches and shutdown run one at a time. */
  private transition: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly host: ProfileHost) {}

  // ---- lifecycle ----------------------------------------------------------------------------------------

  /** Opens the remembered profile (falling back to sim when mainnet is not configured). */
  async start(): Promise<void> {
    await this.serialized(async () => {
      const wanted = this.host.appSettings.profile();
      try {
        await this.openProfile(wanted);
      } catch (err) {
        if (wanted === 'sim') throw err;
        this.host.logger.warn(`[app] the ${wanted} profile could not be opened (${(err as Error).message}); starting on the simulator`);
        await this.openProfile('sim');
      }
    });
  }

  /** Stops the pumps, closes the wallet's devices and stops (and saves) the simulator. */
  async stop(): Promise<void> {
    await this.serialized(async () => {
      this.stopped = true;
      await this.closeProfile();
      await this.host.wallet.close();
    });
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
      const { options } = this.host;
      if (name === 'mainnet') {
        // Resolve first: an unconfigured mainnet is refused before the running session is torn down.
        resolveProfile({ profile: 'mainnet', dataDir: options.dataDir, settings: options.settings }, {});
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
    const { options, logger, timings } = this.host;
    let profile: Profile;
    let sim: SimHandle | null = null;
    let simFeed: StartedSim | null = null;
    if (name === 'sim') {
      if (!options.startSimulator) throw new OperationError('NO_SIMULATOR', 'this build cannot start the simulator', { kind: 'internal' });
      const stateFile = path.join(options.dataDir, 'sim', 'state.json');
      // Inside the private data folder, and private itself (the state holds every paper account).
      ensurePrivateFolder(path.dirname(stateFile));
      simFeed = await startSimWithPrices(options.startSimulator, stateFile, this.host.appSettings.simPrices(), logger);
      sim = simFeed.sim;
      profile = simProfile(sim.urls, options.dataDir);
    } else {
      // Mainnet URLs come only from what the user stored (never a guess, never the environment).
      profile = resolveProfile({ profile: 'mainnet', dataDir: options.dataDir, settings: options.settings }, {});
    }
    const ctx = createServiceContext(profile, {
      ...options.service,
      settings: options.settings,
      ...(options.keychainService !== undefined ? { keychainService: options.keychainService } : {}),
      env: this.host.env,
      onClockRefreshFailed: (err) => logger.warn(`[app] the service clock could not be read again (${err.message}); the last offset keeps answering`),
    });
    await this.syncPaperWallet(profile, ctx);
    const venueSockets = loggingVenueSocketPool(logger);
    const book = new BookFeed({ ctx, logger, emit: (b) => this.host.send('book', b), sockets: venueSockets, throttleMs: timings.throttleMs });
    const tape = new TradeTape({ ctx, logger, emit: (t) => this.host.send('trades', t), sockets: venueSockets, throttleMs: timings.throttleMs });
    const stopSimFeed = simFeed ? simFeed.onChange((view) => this.host.send('simFeed', view)) : () => undefined;
    this.open = { profile, ctx, sim, pumps: null, companion: this.openCompanion(profile, ctx), book, tape, venueSockets, simFeed, stopSimFeed };
    this.host.appSettings.rememberProfile(name);
    logger.info(`[app] profile ${name} open (${profile.baseUrl})`);
    this.host.reset();
    this.startPumps();
    this.host.publish();
  }

  /**
   * A paper wallet signs on the simulator only: another profile drops its signer, and the simulator
   * reconnects a remembered one from the keychain, with no password to ask. A wallet that cannot be
   * reconnected (its key gone from the keychain, a locked keychain) stays remembered and unconnected,
   * and the log says why.
   */
  private async syncPaperWallet(profile: Profile, ctx: ServiceContext): Promise<void> {
    const { wallet, logger } = this.host;
    if (profile.name !== PAPER_PROFILE) {
      await wallet.dropPaper(`a paper wallet signs on the simulator only, and the ${profile.name} profile is open`);
      return;
    }
    const address = wallet.paperToReconnect();
    if (address === null) return;
    try {
      const signer = ctx.paperSigner(address, () => this.profile);
      if (!(await ctx.paperWallets.unlockable(profile.name, address))) {
        logger.warn(`[app] the paper wallet ${address} is not in the keychain any more; it stays unconnected`);
        return;
      }
      await wallet.connectPaper(signer);
    } catch (err) {
      logger.warn(`[app] the paper wallet ${address} could not be reconnected: ${(err as Error).message}`);
    }
  }

  private async closeProfile(): Promise<void> {
    const s = this.open;
    this.open = null;
    this.host.reset();
    this.host.broker.cancelAll('the profile was closed');
    if (!s) return;
    s.stopSimFeed();
    s.companion.close();
    await s.book.close();
    await s.tape.close();
    if (s.pumps) await s.pumps.stop();
    await s.venueSockets.close();
    if (s.sim) {
      await s.sim.stop();
      this.host.logger.info('[app] simulator stopped and saved');
    }
  }

  /** The companion use cases of a profile, wired like the CLI's (same settings keys, same clients). */
  private openCompanion(profile: Profile, ctx: ServiceContext): CompanionDesks {
    const { options, logger } = this.host;
    const c = options.companion ?? {};
    const companion = createCompanionContext(
      { profile, settings: options.settings },
      {
        env: this.host.env,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(c.timeoutMs !== undefined ? { timeoutMs: c.timeoutMs } : {}),
        ...(c.rpcPollingIntervalMs !== undefined ? { rpcPollingIntervalMs: c.rpcPollingIntervalMs } : {}),
      },
    );
    const tracker = new TransferTracker({
      settings: options.settings,
      storeKey: `companion.${profile.name}.transfers`,
      emit: (transfers) => this.host.send('transfers', { transfers }),
      bridge: () => companion.bridge,
      sleep: companion.sleep,
      now: Date.now,
      logger,
      ...(c.pollIntervalMs !== undefined ? { pollIntervalMs: c.pollIntervalMs } : {}),
    });
    return openCompanionDesks({
      companion,
      wallet: this.host.wallet,
      tracker,
      inferenceKeys: this.host.inferenceKeys,
      reads: accountReadsOf(ctx),
      logger,
      confirm: (o) => options.adapters.dialogs.confirm(o),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** (Re)starts the pumps of the open profile for the current wallet. */
  private startPumps(): void {
    const s = this.open;
    const { host } = this;
    const wallet = host.wallet.address();
    if (!s || !wallet || this.stopped) return;
    const pumps = new SessionPumps({
      ctx: s.ctx,
      wallet,
      logger: host.logger,
      timings: host.timings,
      venueSockets: s.venueSockets,
      events: host.events,
      send: (event, payload) => host.send(event, payload),
      notify: (kind, title, body) => host.notify(kind, title, body),
      keyWarningDays: () => host.appSettings.settings().key_expiry_warning_days,
      liquidationWarningPct: () => host.appSettings.settings().liquidation_warning_pct,
      observePositions: (views, at) => host.observePositions(wallet, views, at),
    });
    s.pumps = pumps;
    pumps.start().catch((err: unknown) => host.logger.warn(`[app] starting the event streams failed: ${(err as Error).message}`));
  }

  /** Stops the current wallet's pumps and starts the new wallet's. */
  async restartPumps(): Promise<void> {
    const s = this.open;
    if (s?.pumps) {
      const old = s.pumps;
      s.pumps = null;
      await old.stop();
    }
    this.startPumps();
  }

  // ---- what is open -------------------------------------------------------------------------------------

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

  venueSockets(): VenueSocketPool {
    return this.require().venueSockets;
  }

  book(): BookFeed {
    return this.require().book;
  }

  tape(): TradeTape {
    return this.require().tape;
  }

  /** The simulator's feed (simulated, or following a venue: live or down); null off the simulator profile. */
  simFeed(): SimFeedView | null {
    return this.open?.simFeed?.view() ?? null;
  }
}
