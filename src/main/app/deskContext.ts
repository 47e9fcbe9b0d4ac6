/**
 * What a desk may use of the session, and nothing more: the open profile's parts (its services, the
 * book, the tape), the wallet, short-lived signing reviews, where events and notifications go, and the
 * few host services desks call (dialogs, fetch). The session (session.ts) implements it; desks take this
 * type, never the session itself, so the lifecycle (start, stop, the pumps' wiring) stays out of reach.
 */
import type { EventName, IpcEventPayload, PositionView, ProfileName, SimFeedView, WalletView } from '../../shared/ipc.js';
import type { Profile } from '../profiles/profiles.js';
import type { ServiceContext } from '../services/serviceContext.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import type { VenueSocketPool } from '../venue/venueSocketPool.js';
import type { AppLogger, DialogAdapter } from './adapters.js';
import type { AppSettings } from './appSettings.js';
import type { BackgroundWork } from './backgroundWork.js';
import type { BookFeed } from './bookFeed.js';
import type { DomainEvent, DomainEvents } from './domainEvents.js';
import type { PromptBroker } from './prompts.js';
import type { NotificationKind, PumpTimings } from './pumps/pump.js';
import type { SessionPumps } from './pumps/sessionPumps.js';
import type { ReviewStore } from './reviews.js';
import type { SimHandle } from './simulator.js';
import type { TradeTape } from './tradeTape.js';
import type { TrezorPrompts } from './trezorPrompts.js';
import type { WalletSession } from './wallet.js';

export interface DeskContext {
  readonly logger: AppLogger;
  /** The app's own settings (profile, preferences, hotkeys, tray, simulator prices). */
  readonly appSettings: AppSettings;
  /** The settings store itself (the mainnet URLs are read and saved through it). */
  readonly settings: SettingsStore;
  readonly appInfo: { name: string; version: string; platform: string };
  /** Native dialogs: open and save files, and confirmations main draws itself. */
  readonly dialogs: DialogAdapter;
  /** The fetch the app was built with (tests pass theirs). */
  readonly fetch: typeof fetch;
  /** Pump and throttle timings (the defaults, or what the app was built with). */
  readonly timings: PumpTimings;
  /** The Portfolio view's whole-read deadline in ms, when the app was built with one (else the command line's). */
  readonly portfolioDeadlineMs: number | undefined;

  // ---- the wallet and its prompts ----
  readonly wallet: WalletSession;
  readonly broker: Pick<PromptBroker, 'respond' | 'document'>;
  readonly trezorPrompts: Pick<TrezorPrompts, 'answerPin' | 'answerPassphrase' | 'cancel'>;
  /** A wallet was connected or changed: new streams, stale reviews and caches dropped, the page told. */
  afterWalletChange(view: WalletView, before?: string | null): Promise<WalletView>;

  // ---- the open profile ----
  /** The open profile's services (NOT_READY while switching profiles or shutting down). */
  ctx(): ServiceContext;
  readonly profile: Profile | null;
  requireProfile(): Profile;
  readonly sim: SimHandle | null;
  readonly pumps: SessionPumps | null;
  venueSockets(): VenueSocketPool;
  book(): BookFeed;
  tape(): TradeTape;
  simFeed(): SimFeedView | null;
  switchProfile(name: ProfileName, beforeSwitch?: () => void): Promise<void>;
  restartSimulator(): Promise<void>;

  // ---- reviews ----
  readonly reviews: ReviewStore;
  /** Reviews are valid only for the wallet and profile they were made for. */
  scope(): string;
  reviewTtl(kind: 'orders' | 'custody'): number;

  // ---- what desks raise and listen to ----
  raise(event: DomainEvent): void;
  readonly events: Pick<DomainEvents, 'on'>;
  send<E extends EventName>(event: E, payload: IpcEventPayload<E>): void;
  notify(kind: NotificationKind, title: string, body: string): void;
  readonly backgroundWork: Pick<BackgroundWork, 'register'>;
  onReset(listener: () => void): void;
  onPositions(listener: (wallet: string, views: readonly PositionView[], at: number) => void): void;
}
