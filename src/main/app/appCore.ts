/**
 * AppCore: the desktop app's use cases behind the IPC contract, in plain Node (no Electron import).
 *
 * It composes the services for the active profile (on 'sim' it starts the simulator in-process on
 * loopback, with its state file in the app's data folder, and stops and saves it on quit), holds the
 * session (main wallet and its custody signer, short-lived signing reviews, prompts to the renderer),
 * runs the event pumps, and implements one method per IPC channel by calling services, never HTTP.
 *
 * Every signature goes through a review first (keys:review, orders:preview, withdraw:preview): the exact
 * typed data, nonce included, is returned to the renderer, and the acting call signs only that (see
 * reviews.ts).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Decimal, canonical, parseDecimal } from '../../shared/decimal/index.js';
import {
  authorizeAgentTypedData,
  orderTypedData,
  revokeAgentTypedData,
  withdrawTypedData,
  type RegisterBodyForSigning,
  type RevokeBodyForSigning,
  type TypedData,
} from '../../shared/eip712/index.js';
import { sameAddress } from '../../shared/identity/index.js';
import {
  CANDLE_INTERVALS,
  eventWireChannel,
  type AuthorizeResult,
  type BalanceView,
  type BookView,
  type CandleView,
  type DepositInfo,
  type EventName,
  type IpcEventPayload,
  type IpcResponse,
  type KeystoreChoice,
  type MainnetUrls,
  type MarketView,
  type NotificationPrefs,
  type OpenOrderView,
  type OrderPreview,
  type OrderRequest,
  type PlaceOrdersResult,
  type PositionView,
  type PreviewLeg,
  type ProfileName,
  type ProfileView,
  type Settings,
  type SigningReview,
  type TrackedWithdrawalView,
  type TradingKeyList,
  type WalletView,
  type WithdrawPreview,
} from '../../shared/ipc.js';
import type { RegisterBody } from '../../shared/protocol/index.js';
import type { NonceSource } from '../nonces/nonceSource.js';
import {
  readProfileUrls,
  resolveProfile,
  saveProfileUrls,
  simProfile,
  type Profile,
} from '../profiles/profiles.js';
import { OperationError, ValidationError } from '../services/errors.js';
import { createTradingKey } from '../services/keys/create.js';
import { submitRegisterBody } from '../services/keys/authorize.js';
import { DAY_MS, EXPIRY_SAFETY_MARGIN_MS, MAX_KEY_LIFETIME_DAYS, checkAddress, checkLifetimeDays, checkOptionalText, checkSignerIsWallet } from '../services/keys/common.js';
import { listTradingKeys } from '../services/keys/list.js';
import { revokeTradingKey } from '../services/keys/revoke.js';
import { balanceOf, depositHistory, depositInfo, withdrawalHistory } from '../services/money/funds.js';
import { checkWithdrawal, listTrackedWithdrawals, parseWithdrawAmount, withdraw } from '../services/money/withdrawals.js';
import { bracketLegInputs, newClientOrderId, type LegInput } from '../services/orders/index.js';
import { cancelAll, cancelOrder } from '../services/orders/cancelOrders.js';
import { modifyOrder } from '../services/orders/modifyOrder.js';
import { readMark, type TradingContext } from '../services/orders/orderContext.js';
import { prepareOrders, submitPrepared, type PreparedOrders } from '../services/orders/placeOrders.js';
import { adjustMargin } from '../services/positions/margin.js';
import { closePosition, reversePosition } from '../services/positions/closePosition.js';
import { FILL_CSV_COLUMNS, FUNDING_CSV_COLUMNS, ORDER_CSV_COLUMNS, readOpenOrders, readOrderHistory, readPositions, readTradeHistory, readFundingHistory, readTriggers } from '../services/reads/accountReads.js';
import { toCsv, type CsvColumn } from '../services/reads/csv.js';
import { createServiceContext, type ServiceContext, type ServiceContextOptions } from '../services/serviceContext.js';
import type { SettingsStore } from '../settings/settingsStore.js';
import { summarizeTypedData } from '../signers/offlineSigner.js';
import type { Signer } from '../signers/signer.js';
import type { DerivationScheme } from '../signers/ledger/derivationPaths.js';
import { joinMarkets } from '../venue/marketJoin.js';
import type { CandleInterval } from '../venue/schemas.js';
import { consoleLogger, type AppAdapters, type AppLogger } from './adapters.js';
import { AppSettings } from './appSettings.js';
import { EventPumps, type NotificationKind, type PumpTimings } from './pumps.js';
import { PromptBroker } from './prompts.js';
import { ReviewStore, digestHex, guardedSigner, reservedNonces } from './reviews.js';
import { simDeposit, type SimHandle, type SimLauncher } from './simulator.js';
import { Throttle } from './throttle.js';
import {
  MONEY_PLACES,
  depositView,
  fillView,
  fixed,
  fundingView,
  listedOrderView,
  marketView,
  openOrdersWithLegs,
  positionView,
  trackedWithdrawalView,
  typedDataView,
  withdrawalRowView,
} from './views.js';
import { WalletSession, usbLedgerAccess, type LedgerAccess } from './wallet.js';
import { CompanionDesk } from './companion/companionDesk.js';
import { BookFeed, type SigFigs } from './bookFeed.js';
import { TransferTracker } from './companion/transferTracker.js';
import { createCompanionContext } from '../services/companion/companionContext.js';
import { InferenceKeyStore } from '../services/assistant/apiKeyStore.js';
import { accountReadsOf } from '../services/assistant/accountContext.js';

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
  /** How long a review stays valid: orders are short (marks move), custody actions longer (a Ledger takes time). */
  reviewTtlMs?: { orders?: number; custody?: number };
  fetch?: typeof fetch;
  /** Companion services: timeouts, and how often a pending bridge order is polled. */
  companion?: { timeoutMs?: number; pollIntervalMs?: number; rpcPollingIntervalMs?: number };
}

interface Session {
  profile: Profile;
  ctx: ServiceContext;
  sim: SimHandle | null;
  pumps: EventPumps | null;
  /** Bridge, swap, points and assistant of this profile. */
  companion: CompanionDesk;
  /** The order book the trade view watches. */
  book: BookFeed;
}

type KeyReview = { action: 'authorize' | 'renew'; unsigned: RegisterBodyForSigning; name: string | undefined; digest: string; previous: number | null } | { action: 'revoke'; unsigned: RevokeBodyForSigning; digest: string };
type OrderReview = { prepared: PreparedOrders; nonces: number[]; digests: string[]; labels: PreviewLeg['label'][] };
type WithdrawReview = { amount: string; nonce: number; digest: string; intentId: string };

const HISTORY_TTL_MS = 5_000;
const FAUCET_MAX = new Decimal(1_000_000);
const INTERVAL_MS: Record<CandleInterval, number> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
  '1M': 2_592_000_000,
};

const DEPOSIT_CSV_COLUMNS: CsvColumn<ReturnType<typeof depositView>>[] = [
  { header: 'tx_hash', value: (d) => d.tx_hash },
  { header: 'amount', value: (d) => d.amount },
  { header: 'source', value: (d) => d.source },
  { header: 'status', value: (d) => d.status },
  { header: 'detected_at', value: (d) => d.detected_at },
  { header: 'credited_at', value: (d) => d.credited_at },
];
const WITHDRAWAL_CSV_COLUMNS: CsvColumn<ReturnType<typeof withdrawalRowView>>[] = [
  { header: 'withdrawal_id', value: (w) => w.withdrawal_id },
  { header: 'amount', value: (w) => w.amount },
  { header: 'l1_send_amount', value: (w) => w.l1_send_amount },
  { header: 'destination', value: (w) => w.destination },
  { header: 'status', value: (w) => w.status },
  { header: 'failure_reason', value: (w) => w.failure_reason },
  { header: 'l1_tx_hash', value: (w) => w.l1_tx_hash },
  { header: 'created_at', value: (w) => w.created_at },
  { header: 'completed_at', value: (w) => w.completed_at },
];

export class AppCore {
  private readonly logger: AppLogger;
  private readonly appSettings: AppSettings;
  private readonly broker: PromptBroker;
  readonly wallet: WalletSession;
  private readonly inferenceKeys: InferenceKeyStore;
  private readonly reviews = new ReviewStore();
  private readonly sessionThrottle: Throttle<IpcEventPayload<'session'>>;
  private session: Session | null = null;
  /** Profile switches and shutdown run one at a time. */
  private transition: Promise<unknown> = Promise.resolve();
  private readonly historyCache = new Map<string, { at: number; rows: unknown[] }>();
  private stopped = false;

  constructor(private readonly options: AppCoreOptions) {
    this.logger = options.logger ?? consoleLogger;
    this.appSettings = new AppSettings(options.settings);
    this.broker = new PromptBroker({
      blindSigningRequest: (payload) => this.send('blindSigningRequest', payload),
      offlineSignatureRequest: (payload) => this.send('offlineSignatureRequest', payload),
    });
    // The inference key has its own keychain service, next to the trading keys' (a test's own when it sets one).
    this.inferenceKeys = new InferenceKeyStore({ ...(options.keychainService !== undefined ? { service: `${options.keychainService}.inference` } : {}), env: options.env ?? process.env });
    this.wallet = new WalletSession(this.appSettings, this.broker, this.logger, options.env ?? process.env, options.ledger ?? usbLedgerAccess);
    this.sessionThrottle = new Throttle({ intervalMs: options.pumps?.throttleMs ?? 100, key: () => 'session', emit: (v) => this.send('session', v[v.length - 1]!) });
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
      await this.closeSession();
      await this.wallet.close();
      this.sessionThrottle.close();
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
    if (name === 'sim') {
      if (!this.options.startSimulator) throw new OperationError('NO_SIMULATOR', 'this build cannot start the simulator');
      const stateFile = path.join(this.options.dataDir, 'sim', 'state.json');
      await fs.mkdir(path.dirname(stateFile), { recursive: true });
      sim = await this.options.startSimulator({ stateFile });
      profile = simProfile(sim.urls, this.options.dataDir);
    } else {
      // Mainnet URLs come only from what the user stored (never a guess, never the environment).
      profile = resolveProfile({ profile: 'mainnet', dataDir: this.options.dataDir, settings: this.options.settings }, {});
    }
    const ctx = createServiceContext(profile, {
      ...this.options.service,
      settings: this.options.settings,
      ...(this.options.keychainService !== undefined ? { keychainService: this.options.keychainService } : {}),
      env: this.options.env ?? process.env,
    });
    const book = new BookFeed({ ctx, logger: this.logger, emit: (b) => this.send('book', b), ...(this.options.pumps?.throttleMs !== undefined ? { throttleMs: this.options.pumps.throttleMs } : {}) });
    this.session = { profile, ctx, sim, pumps: null, companion: this.openCompanion(profile, ctx), book };
    this.appSettings.rememberProfile(name);
    this.logger.info(`[app] profile ${name} open (${profile.baseUrl})`);
    this.startPumps();
    this.publishSession();
  }

  private async closeSession(): Promise<void> {
    const s = this.session;
    this.session = null;
    this.reviews.clear();
    this.historyCache.clear();
    this.broker.cancelAll('the profile was closed');
    if (!s) return;
    s.companion.close();
    await s.book.close();
    if (s.pumps) await s.pumps.stop();
    if (s.sim) {
      await s.sim.stop();
      this.logger.info('[app] simulator stopped and saved');
    }
  }

  /** The companion use cases of a profile, wired like the CLI's (same settings keys, same clients). */
  private openCompanion(profile: Profile, ctx: ServiceContext): CompanionDesk {
    const env = this.options.env ?? process.env;
    const c = this.options.companion ?? {};
    const companion = createCompanionContext(
      { profile, settings: this.options.settings },
      {
        env,
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
    return new CompanionDesk({ companion, wallet: this.wallet, tracker, inferenceKeys: this.inferenceKeys, reads: accountReadsOf(ctx), logger: this.logger, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) });
  }

  /** The companion screens' use cases of the open profile. */
  companion(): CompanionDesk {
    return this.requireSession().companion;
  }

  /** (Re)starts the pumps of the current session for the current wallet. */
  private startPumps(): void {
    const s = this.session;
    const wallet = this.wallet.address();
    if (!s || !wallet || this.stopped) return;
    const pumps = new EventPumps(
      {
        ctx: s.ctx,
        wallet,
        logger: this.logger,
        send: (event, payload) => this.send(event, payload),
        notify: (kind, title, body) => this.notify(kind, title, body),
        keyWarningDays: () => this.appSettings.settings().key_expiry_warning_days,
        invalidate: (kind) => this.invalidateHistory(kind),
      },
      this.options.pumps,
    );
    s.pumps = pumps;
    pumps.start().catch((err: unknown) => this.logger.warn(`[app] starting the event streams failed: ${(err as Error).message}`));
  }

  private async restartPumps(): Promise<void> {
    const s = this.session;
    if (s?.pumps) {
      const old = s.pumps;
      s.pumps = null;
      await old.stop();
    }
    this.startPumps();
  }

  private send<E extends EventName>(event: E, payload: IpcEventPayload<E>): void {
    try {
      this.options.adapters.events.send(eventWireChannel(event), payload);
    } catch (err) {
      this.logger.error(`[app] sending the ${event} event failed: ${(err as Error).message}`);
    }
  }

  private notify(kind: NotificationKind, title: string, body: string): void {
    const prefs = this.appSettings.notifications();
    if (!prefs[kind]) return;
    try {
      this.options.adapters.notifications.notify({ title, body });
    } catch (err) {
      this.logger.warn(`[app] a notification could not be shown: ${(err as Error).message}`);
    }
  }

  private publishSession(): void {
    const s = this.session;
    if (!s) return;
    this.sessionThrottle.push({ profile: s.profile.name, wallet: this.wallet.view(), sim_running: s.sim !== null });
  }

  private requireSession(): Session {
    if (!this.session) throw new OperationError('NOT_READY', 'the app is switching profiles or shutting down', { hint: 'Try again in a moment.' });
    return this.session;
  }

  private ctx(): ServiceContext {
    return this.requireSession().ctx;
  }

  private pumps(): EventPumps | null {
    return this.session?.pumps ?? null;
  }

  /** The session's event pumps (tests wait on their streams). */
  get eventPumps(): EventPumps | null {
    return this.pumps();
  }

  get profile(): Profile | null {
    return this.session?.profile ?? null;
  }

  // ---- app ----------------------------------------------------------------------------------------------

  async getInfo(): Promise<IpcResponse<'app:getInfo'>> {
    return { ...this.options.appInfo, profile: this.session?.profile.name ?? this.appSettings.profile() };
  }

  async getProfile(): Promise<ProfileView> {
    const stored = readProfileUrls(this.options.settings, 'mainnet');
    const s = this.session;
    return {
      active: s?.profile.name ?? this.appSettings.profile(),
      environment: s?.profile.environment ?? (this.appSettings.profile() === 'mainnet' ? 'Mainnet' : 'Testnet'),
      sim: { running: s?.sim !== null && s?.sim !== undefined, base_url: s?.sim ? s.profile.baseUrl : null },
      mainnet: {
        base_url: stored.baseUrl ?? null,
        venue_info_url: stored.venueInfoUrl ?? null,
        venue_ws_url: stored.venueWsUrl ?? null,
        configured: stored.baseUrl !== undefined && stored.venueInfoUrl !== undefined,
      },
    };
  }

  async setProfile(req: { profile: ProfileName; mainnet?: MainnetUrls | undefined }): Promise<ProfileView> {
    await this.serialized(async () => {
      if (req.mainnet) {
        saveProfileUrls(this.options.settings, 'mainnet', {
          baseUrl: req.mainnet.base_url,
          venueInfoUrl: req.mainnet.venue_info_url,
          ...(req.mainnet.venue_ws_url !== undefined ? { venueWsUrl: req.mainnet.venue_ws_url } : {}),
        });
      }
      if (this.session?.profile.name === req.profile) return;
      if (req.profile === 'mainnet') {
        // Resolve first: an unconfigured mainnet is refused before the running session is torn down.
        resolveProfile({ profile: 'mainnet', dataDir: this.options.dataDir, settings: this.options.settings }, {});
      }
      await this.closeSession();
      await this.openProfile(req.profile);
    });
    return this.getProfile();
  }

  // ---- wallet -------------------------------------------------------------------------------------------

  walletView(): WalletView {
    return this.wallet.view();
  }

  async chooseKeystoreFile(): Promise<KeystoreChoice> {
    const file = await this.options.adapters.dialogs.chooseOpenFile({ title: 'Choose the main wallet keystore', filters: [{ name: 'Keystore', extensions: ['json'] }, { name: 'All files', extensions: ['*'] }] });
    if (file === null) return null;
    return this.wallet.rememberKeystoreFile(file);
  }

  /** Registers a keystore file by path, as the dialog would (tests; the command line has its own flow). */
  async rememberKeystoreFile(file: string): Promise<KeystoreChoice> {
    return this.wallet.rememberKeystoreFile(file);
  }

  async connectKeystore(req: { file_token: string; password: string }): Promise<WalletView> {
    return this.afterWalletChange(await this.wallet.connectKeystore(req.file_token, req.password));
  }

  async connectEnv(req: { variable: string }): Promise<WalletView> {
    return this.afterWalletChange(await this.wallet.connectEnv(req.variable));
  }

  async connectOffline(req: { address: string }): Promise<WalletView> {
    return this.afterWalletChange(await this.wallet.connectOffline(checkAddress(req.address, 'address')));
  }

  async disconnect(req: { forget?: boolean | undefined }): Promise<WalletView> {
    const before = this.wallet.address();
    const view = await this.wallet.disconnect(req.forget === true);
    return this.afterWalletChange(view, before);
  }

  async ledgerDevices(): Promise<IpcResponse<'ledger:listDevices'>> {
    return { devices: await this.wallet.listLedgerDevices() };
  }

  async ledgerAccounts(req: { device_id: string; scheme: DerivationScheme; start?: number | undefined; count?: number | undefined }): Promise<IpcResponse<'ledger:listAccounts'>> {
    const accounts = await this.wallet.listLedgerAccounts(req.device_id, req.scheme, req.start, req.count);
    return { accounts: accounts.map((a) => ({ path: a.path, index: a.index, address: a.address })) };
  }

  async ledgerConnect(req: { device_id: string; path: string }): Promise<WalletView> {
    return this.afterWalletChange(await this.wallet.connectLedger(req.device_id, req.path));
  }

  /** A new main wallet means new streams (its orders, its withdrawals) and stale reviews. */
  private async afterWalletChange(view: WalletView, before?: string | null): Promise<WalletView> {
    const previous = before === undefined ? this.pumps()?.tracker.wallet : before;
    if (!previous || !view.address || !sameAddress(previous, view.address) || !this.pumps()) {
      this.reviews.clear();
      this.historyCache.clear();
      await this.restartPumps();
    }
    this.publishSession();
    return view;
  }

  // ---- prompts ------------------------------------------------------------------------------------------

  respondBlindSigning(req: { prompt_id: string; accept: boolean }): { delivered: boolean } {
    return { delivered: this.broker.respond(req.prompt_id, { accept: req.accept }) };
  }

  respondOfflineSignature(req: { prompt_id: string; signature: string } | { prompt_id: string; cancel: true }): { delivered: boolean } {
    return { delivered: this.broker.respond(req.prompt_id, 'signature' in req ? { signature: req.signature } : { cancel: true }) };
  }

  async exportSigningRequest(req: { prompt_id: string }): Promise<{ saved: boolean; file_name: string | null }> {
    const doc = this.broker.document(req.prompt_id);
    if (doc === null) throw new ValidationError('no offline signature request is waiting with that id', { field: 'prompt_id', code: 'UNKNOWN_PROMPT' });
    const file = await this.options.adapters.dialogs.chooseSaveFile({ title: 'Save the signing request', defaultName: 'perps-signing-request.json', filters: [{ name: 'JSON', extensions: ['json'] }] });
    if (file === null) return { saved: false, file_name: null };
    await fs.writeFile(file, doc, 'utf8');
    return { saved: true, file_name: path.basename(file) };
  }

  async importSignatureFile(req: { prompt_id: string }): Promise<{ signature: string | null }> {
    if (this.broker.document(req.prompt_id) === null) throw new ValidationError('no offline signature request is waiting with that id', { field: 'prompt_id', code: 'UNKNOWN_PROMPT' });
    const file = await this.options.adapters.dialogs.chooseOpenFile({ title: 'Choose the signature file', filters: [{ name: 'Signature', extensions: ['txt', 'sig', 'json'] }, { name: 'All files', extensions: ['*'] }] });
    if (file === null) return { signature: null };
    const stat = await fs.stat(file);
    // A signature is 132 characters; anything large is not one (and is not read into memory).
    if (stat.size > 4096) throw new ValidationError('that file is too large to be a signature', { field: 'file', code: 'NOT_A_SIGNATURE' });
    const text = (await fs.readFile(file, 'utf8')).trim();
    let signature = text;
    if (text.startsWith('{')) {
      try {
        const parsed = JSON.parse(text) as { signature?: unknown };
        if (typeof parsed.signature === 'string') signature = parsed.signature;
      } catch {
        // Not JSON after all: the text itself is checked as a signature when it is submitted.
      }
    }
    // A saved eth-signature UR (its parts one per line) is passed on whole; hex is at most 200 characters.
    return { signature: /^ur:/i.test(signature) ? signature : signature.slice(0, 200) };
  }

  // ---- trading keys -------------------------------------------------------------------------------------

  async listKeys(): Promise<TradingKeyList> {
    const ctx = this.ctx();
    const wallet = this.wallet.requireAddress();
    const [list, now] = await Promise.all([listTradingKeys(ctx, wallet), ctx.clock.now()]);
    const windowMs = this.appSettings.settings().key_expiry_warning_days * DAY_MS;
    return {
      wallet: list.wallet,
      environment: list.environment,
      keys: list.keys.map((k) => ({
        agent: k.agent,
        name: k.name,
        status: k.status,
        listed: k.listed,
        stored_locally: k.stored_locally,
        expires_at: k.expires_at,
        expires_in_ms: k.expires_at === null ? null : Math.round(k.expires_at - now),
        expiring_soon: k.expires_at !== null && k.expires_at - now <= windowMs,
        created_at: k.created_at,
      })),
    };
  }

  async createKey(req: { name?: string | undefined }): Promise<IpcResponse<'keys:create'>> {
    const ctx = this.ctx();
    const meta = await createTradingKey(ctx, { wallet: this.wallet.requireAddress(), ...(req.name !== undefined ? { name: req.name } : {}) });
    return { agent: meta.agent, name: meta.name, created_at: meta.created_at, expires_at: meta.expires_at };
  }

  async reviewKey(req: { action: 'authorize' | 'renew' | 'revoke'; agent: string; expires_in_days?: number | undefined }): Promise<SigningReview> {
    const { ctx, profile } = this.requireSession();
    const wallet = checkAddress(this.wallet.requireAddress(), 'wallet');
    const signer = this.wallet.requireSigner();
    const agent = checkAddress(req.agent, 'agent');
    if (sameAddress(wallet, agent)) throw new ValidationError('the trading key must be a separate key, not the main wallet', { field: 'agent' });
    checkSignerIsWallet(signer, wallet);
    const ttl = this.options.reviewTtlMs?.custody ?? 10 * 60_000;
    if (req.action === 'revoke') {
      const unsigned: RevokeBodyForSigning = {
        wallet_address: wallet,
        agent_wallet_address: agent,
        service_environment: profile.environment,
        signature_chain_id: profile.tradingChainId,
        nonce: await ctx.nonces.next(wallet),
      };
      const typed = revokeAgentTypedData(unsigned);
      const entry = this.reviews.put<'key', KeyReview>('key', this.scope(), ttl, { action: 'revoke', unsigned, digest: digestHex(typed) });
      return this.review(entry.id, entry.validUntil, signer, typed);
    }
    const days = checkLifetimeDays(req.expires_in_days);
    const local = ctx.vault.get({ environment: profile.name, wallet, agent });
    if (req.action === 'renew' && !local) {
      throw new ValidationError(`no trading key ${agent} for ${wallet} on profile '${profile.name}' on this machine`, { field: 'agent', code: 'KEY_NOT_FOUND', hint: 'Only keys stored here can be renewed; list them with keys.list.' });
    }
    const name = checkOptionalText(local?.name, 64, 'name');
    // As buildRegisterBody does: expiry from the service's clock, a full-length key shortened by a margin.
    const now = await ctx.clock.now();
    const lifetime = Math.min(Math.round(days * DAY_MS), MAX_KEY_LIFETIME_DAYS * DAY_MS - EXPIRY_SAFETY_MARGIN_MS);
    const unsigned: RegisterBodyForSigning = {
      wallet_address: wallet,
      agent_wallet_address: agent,
      service_environment: profile.environment,
      signature_chain_id: profile.tradingChainId,
      expires_at: now + lifetime,
      nonce: await ctx.nonces.next(wallet),
    };
    const typed = authorizeAgentTypedData(unsigned);
    const entry = this.reviews.put<'key', KeyReview>('key', this.scope(), ttl, { action: req.action, unsigned, name, digest: digestHex(typed), previous: local?.expires_at ?? null });
    return this.review(entry.id, entry.validUntil, signer, typed);
  }

  async authorizeKey(req: { review_id: string }, action: 'authorize' | 'renew' = 'authorize'): Promise<AuthorizeResult> {
    const ctx = this.ctx();
    const { payload } = this.reviews.take<'key', KeyReview>(req.review_id, 'key', this.scope());
    if (payload.action !== action) throw new OperationError('REVIEW_EXPIRED', `review ${req.review_id} is a ${payload.action} review, not ${action}`, { hint: 'Review the key action again.' });
    const signer = guardedSigner(this.wallet.requireSigner(), [payload.digest]);
    const signature = await signer.signTypedData(authorizeAgentTypedData(payload.unsigned));
    const body: RegisterBody = { ...payload.unsigned, signature };
    if (payload.name !== undefined) body.name = payload.name;
    // submitRegisterBody checks the signature recovers the wallet and the expiry is ahead before sending.
    const result = await submitRegisterBody(ctx, body);
    this.pumps()?.kickKeys();
    return { ...result, previous_expires_at: payload.previous };
  }

  async revokeKey(req: { review_id: string }): Promise<IpcResponse<'keys:revoke'>> {
    const ctx = this.ctx();
    const { payload } = this.reviews.take<'key', KeyReview>(req.review_id, 'key', this.scope());
    if (payload.action !== 'revoke') throw new OperationError('REVIEW_EXPIRED', `review ${req.review_id} is a ${payload.action} review, not revoke`, { hint: 'Review the revocation again.' });
    const wallet = payload.unsigned.wallet_address;
    // The service builds and signs RevokeAgent itself; it gets exactly the reviewed nonce, and its
    // signer signs only the reviewed digest.
    const reviewedCtx: ServiceContext = { ...ctx, nonces: reservedNonces(wallet, [payload.unsigned.nonce]) as unknown as NonceSource };
    const result = await revokeTradingKey(reviewedCtx, { wallet, agent: payload.unsigned.agent_wallet_address, signer: guardedSigner(this.wallet.requireSigner(), [payload.digest]) });
    this.pumps()?.kickKeys();
    return result;
  }

  // ---- funding ------------------------------------------------------------------------------------------

  async depositInfo(): Promise<DepositInfo> {
    const s = this.requireSession();
    const info = await depositInfo(s.ctx);
    return { address: info.address, rails: info.rails, note: info.note, faucet_available: s.sim !== null };
  }

  async faucet(req: { amount: string }): Promise<IpcResponse<'funding:faucet'>> {
    const s = this.requireSession();
    if (!s.sim || s.profile.name !== 'sim') {
      throw new OperationError('NOT_SIM_PROFILE', 'the faucet exists only on the simulator profile', { hint: 'On mainnet, deposit by a venue spot transfer to the deposit address.' });
    }
    const wallet = this.wallet.requireAddress();
    const amount = parseWithdrawAmount(req.amount);
    if (parseDecimal(amount).gt(FAUCET_MAX)) throw new ValidationError(`at most ${FAUCET_MAX.toFixed()} USDC per faucet request`, { field: 'amount', code: 'FAUCET_LIMIT' });
    await simDeposit(s.sim.urls.control_url, wallet, amount, this.options.fetch ?? fetch);
    this.invalidateHistory('deposits');
    return { wallet, amount };
  }

  async balance(): Promise<BalanceView> {
    return balanceOf(this.ctx(), this.wallet.requireAddress());
  }

  // ---- markets ------------------------------------------------------------------------------------------

  async markets(): Promise<{ markets: MarketView[]; at: number }> {
    const ctx = this.ctx();
    const [markets, [meta, ctxs]] = await Promise.all([ctx.config.markets(), ctx.venue.metaAndAssetCtxs()]);
    const join = joinMarkets(markets, meta, ctxs);
    return { markets: markets.map((m) => marketView(m, join.bySymbol.get(m.symbol)?.ctx ?? null)), at: Date.now() };
  }

  async candles(req: { market: string; interval: CandleInterval; start_time?: number | undefined; end_time?: number | undefined }): Promise<{ market: string; interval: CandleInterval; candles: CandleView[] }> {
    const ctx = this.ctx();
    if (!(CANDLE_INTERVALS as readonly string[]).includes(req.interval)) throw new ValidationError(`unknown interval ${req.interval}`, { field: 'interval' });
    const market = await ctx.config.market(req.market, { allowInactive: true });
    const end = req.end_time ?? Date.now();
    const start = req.start_time ?? end - 200 * INTERVAL_MS[req.interval];
    if (start > end) throw new ValidationError('start_time is after end_time', { field: 'start_time' });
    // Venue data is keyed by the venue's coin (venue_symbol), never the service's symbol.
    const rows = await ctx.venue.candleSnapshot({ coin: market.venue_symbol, interval: req.interval, startTime: start, endTime: end });
    return { market: market.symbol, interval: req.interval, candles: rows.map((c) => ({ t: c.t, T: c.T, o: c.o, h: c.h, l: c.l, c: c.c, v: c.v, n: c.n })) };
  }

  // ---- orders -------------------------------------------------------------------------------------------

  async book(req: { market: string; n_sig_figs?: SigFigs | undefined }): Promise<BookView> {
    return this.requireSession().book.snapshot(req.market, req.n_sig_figs ?? null);
  }

  async watchBook(req: { market: string | null; n_sig_figs?: SigFigs | undefined }): Promise<{ watching: string | null; live: boolean }> {
    return this.requireSession().book.watch(req.market, req.n_sig_figs ?? null);
  }

  private tradingContext(): TradingContext {
    return this.ctx();
  }

  private legInputs(order: OrderRequest): { legs: LegInput[]; labels: PreviewLeg['label'][] } {
    const settings = this.appSettings.settings();
    const slippage = order.slippage_bps ?? settings.default_slippage_bps ?? undefined;
    const entry: LegInput = {
      market: order.market,
      side: order.side,
      size: order.size,
      order_type: order.order_type,
      client_order_id: newClientOrderId(),
      ...(order.limit_price !== undefined ? { limit_price: order.limit_price } : {}),
      ...(order.time_in_force !== undefined ? { time_in_force: order.time_in_force } : {}),
      ...(order.reduce_only !== undefined ? { reduce_only: order.reduce_only } : {}),
      ...(order.leverage !== undefined ? { leverage: order.leverage } : {}),
      ...(slippage !== undefined ? { slippage_bps: slippage } : {}),
      ...(order.trigger ? { trigger: { trigger_price: order.trigger.trigger_price, tpsl: order.trigger.tpsl, is_market: true } } : {}),
    };
    if (!order.bracket || (!order.bracket.tp && !order.bracket.sl)) return { legs: [entry], labels: ['order'] };
    if (order.order_type === 'TRIGGER') throw new ValidationError('a bracket attaches to a MARKET or LIMIT entry, not a trigger', { field: 'bracket' });
    const levels = {
      ...(order.bracket.tp ? { tp: order.bracket.tp.trigger_price, ...(order.bracket.tp.limit_price !== undefined ? { tpPrice: order.bracket.tp.limit_price } : {}) } : {}),
      ...(order.bracket.sl ? { sl: order.bracket.sl.trigger_price, ...(order.bracket.sl.limit_price !== undefined ? { slPrice: order.bracket.sl.limit_price } : {}) } : {}),
      ...(slippage !== undefined ? { slippage_bps: slippage } : {}),
    };
    const children = bracketLegInputs({ market: order.market, side: order.side, client_order_id: entry.client_order_id! }, levels);
    const labels: PreviewLeg['label'][] = ['entry'];
    if (order.bracket.tp) labels.push('tp');
    if (order.bracket.sl) labels.push('sl');
    return { legs: [entry, ...children], labels };
  }

  async previewOrder(req: { order: OrderRequest }): Promise<OrderPreview> {
    const { ctx, profile } = this.requireSession();
    const walletAddress = this.wallet.requireAddress();
    const { legs: inputs, labels } = this.legInputs(req.order);
    // The trading key that will sign: refused here (NO_TRADING_KEY with a hint) before anything else.
    const tradingSigner = await ctx.tradingSigner(walletAddress);
    const prepared = await prepareOrders(ctx, { wallet: walletAddress, legs: inputs, labels });
    const market = prepared.markets.get(req.order.market)!;
    let mark: Decimal | null = null;
    try {
      mark = await readMark(ctx, market);
    } catch (err) {
      // The preview still shows the exact legs; only the mark-based fee estimate loses precision.
      this.logger.warn(`[orders] no mark for the preview of ${market.symbol}: ${(err as Error).message}`);
    }
    const nonces: number[] = [];
    for (let i = 0; i < prepared.legs.length; i++) nonces.push(await ctx.nonces.next(prepared.wallet));
    const entrySize = prepared.legs[0]!.size;
    const warnings: string[] = [];
    const legs: PreviewLeg[] = prepared.legs.map((leg, i) => {
      const typed = orderTypedData(prepared.accountId, { ...leg, nonce: String(nonces[i]!) }, profile.network);
      const sizeForNotional = leg.size === '0' ? entrySize : leg.size;
      const notional = new Decimal(sizeForNotional).times(leg.limit_price);
      const crosses =
        mark !== null && leg.order_type === 'LIMIT' && (leg.side === 'BUY' ? new Decimal(leg.limit_price).gte(mark) : new Decimal(leg.limit_price).lte(mark));
      const maker = leg.order_type === 'LIMIT' && (leg.time_in_force === 'ALO' || (leg.time_in_force === 'GTC' && !crosses));
      if (crosses && leg.time_in_force === 'ALO') warnings.push(`${labels[i]}: a post-only order at ${leg.limit_price} crosses the mark ${mark!.toFixed()} and will likely be rejected (post_only_would_take)`);
      else if (crosses) warnings.push(`${labels[i]}: the limit price ${leg.limit_price} crosses the mark ${mark!.toFixed()}: it will likely execute at once and pay the taker fee`);
      const rate = maker ? market.maker_fee_rate : market.taker_fee_rate;
      return {
        label: labels[i]!,
        client_order_id: leg.client_order_id,
        market: leg.market,
        side: leg.side,
        order_type: leg.order_type,
        size: leg.size,
        limit_price: leg.limit_price,
        time_in_force: leg.time_in_force ?? null,
        reduce_only: leg.reduce_only,
        leverage: leg.leverage ?? null,
        trigger: leg.trigger ? { trigger_price: leg.trigger.trigger_price, tpsl: leg.trigger.tpsl, is_market: leg.trigger.is_market } : null,
        parent_client_order_id: leg.parent_client_order_id ?? null,
        notional: fixed(notional, MONEY_PLACES),
        fee_kind: maker ? 'maker' : 'taker',
        fee_rate: rate,
        fee_estimate: fixed(notional.times(rate), MONEY_PLACES),
        summary: summarizeTypedData(typed),
        digest: digestHex(typed),
        typed_data: typedDataView(typed),
      };
    });
    const entry = legs[0]!;
    // Attached legs close the position the entry opens: only the entry adds notional and pays at once.
    const totalNotional = new Decimal(entry.notional);
    const totalFee = new Decimal(entry.fee_estimate);
    const lev = prepared.legs[0]!.leverage;
    if (entry.reduce_only) warnings.push('reduce-only: it can only shrink an open position');
    const review = this.reviews.put<'orders', OrderReview>('orders', this.scope(), this.options.reviewTtlMs?.orders ?? 30_000, {
      prepared,
      nonces,
      digests: legs.map((l) => l.digest),
      labels,
    });
    return {
      preview_id: review.id,
      valid_until: review.validUntil,
      wallet: prepared.wallet,
      signer: tradingSigner.address,
      market: market.symbol,
      mark: mark ? canonical(mark) : null,
      legs,
      total_notional: fixed(totalNotional, MONEY_PLACES),
      total_fee_estimate: fixed(totalFee, MONEY_PLACES),
      margin_required: lev !== undefined && lev > 0 ? fixed(totalNotional.div(lev), MONEY_PLACES) : null,
      warnings,
    };
  }

  async placeOrder(req: { preview_id: string }): Promise<PlaceOrdersResult> {
    const ctx = this.tradingContext();
    const { payload } = this.reviews.take<'orders', OrderReview>(req.preview_id, 'orders', this.scope());
    const wallet = payload.prepared.wallet;
    const reviewedCtx: TradingContext = {
      ...ctx,
      nonces: reservedNonces(wallet, payload.nonces) as unknown as NonceSource,
      tradingSigner: async (w: string) => guardedSigner(await ctx.tradingSigner(w), payload.digests) as Awaited<ReturnType<TradingContext['tradingSigner']>>,
    };
    const result = await submitPrepared(reviewedCtx, payload.prepared, { wait: false });
    const pumps = this.pumps();
    const entryTypes = new Map(payload.prepared.legs.map((l) => [l.client_order_id, l.order_type]));
    for (const leg of result.legs) {
      if (!leg.order_id || !pumps) continue;
      const child = leg.leg.parent_client_order_id !== undefined && entryTypes.has(leg.leg.parent_client_order_id);
      pumps.track(leg.order_id, {
        market: leg.leg.market,
        order_type: leg.leg.order_type,
        status: leg.status === 'REJECTED' ? 'REJECTED' : child ? 'PENDING_PARENT' : leg.status === 'SUBMITTED' ? 'SUBMITTED' : 'UNKNOWN',
        reason: leg.reason,
        justSubmitted: true,
      });
    }
    this.invalidateHistory('orders');
    return {
      success: result.success,
      reconciled: result.reconciled,
      legs: result.legs.map((l, i) => ({ label: payload.labels[i] ?? 'order', client_order_id: l.client_order_id, order_id: l.order_id, status: l.status, reason: l.reason })),
    };
  }

  async modifyOrder(req: { order_id: string; price: string; size: string; trigger_price?: string | undefined }): Promise<IpcResponse<'orders:modify'>> {
    const ctx = this.tradingContext();
    const pumps = this.pumps();
    const result = await modifyOrder(
      ctx,
      { wallet: this.wallet.requireAddress(), orderId: req.order_id, price: req.price, size: req.size, ...(req.trigger_price !== undefined ? { triggerPrice: req.trigger_price } : {}) },
      { wait: false, ...(pumps ? { tracker: pumps.tracker } : {}) },
    );
    pumps?.kickOrders();
    this.invalidateHistory('orders');
    return { old_order_id: result.old_order_id, new_order_id: result.new_order_id, status: result.status, reason: result.reason };
  }

  async cancelOrder(req: { order_id: string; order_type?: 'LIMIT' | 'TRIGGER' | undefined }): Promise<IpcResponse<'orders:cancel'>> {
    const res = await cancelOrder(this.tradingContext(), { wallet: this.wallet.requireAddress(), orderId: req.order_id, ...(req.order_type ? { orderType: req.order_type } : {}) }, { confirm: false });
    return this.afterCancel(res.results);
  }

  async cancelAllOrders(req: { market?: string | undefined }): Promise<IpcResponse<'orders:cancelAll'>> {
    const res = await cancelAll(this.tradingContext(), { wallet: this.wallet.requireAddress(), ...(req.market ? { market: req.market } : {}) }, { confirm: false });
    return this.afterCancel(res.results);
  }

  /** A cancel is asynchronous: the orders are followed so their CANCELLED (or FILLED) status arrives as events. */
  private afterCancel(results: { order_id: string; order_type: 'LIMIT' | 'TRIGGER'; status: 'SUBMITTED' | 'REJECTED' | 'FAILED' | 'UNKNOWN'; reason: string | null }[]): IpcResponse<'orders:cancel'> {
    const pumps = this.pumps();
    for (const r of results) pumps?.track(r.order_id, { order_type: r.order_type, justSubmitted: false });
    this.invalidateHistory('orders');
    return { results: results.map((r) => ({ order_id: r.order_id, order_type: r.order_type, status: r.status, reason: r.reason })) };
  }

  async openOrders(req: { market?: string | undefined }): Promise<{ orders: OpenOrderView[] }> {
    const rows = await readOpenOrders(this.ctx(), this.wallet.requireAddress(), req.market ? { market: req.market } : {});
    return { orders: openOrdersWithLegs(rows) };
  }

  async triggers(req: { market?: string | undefined }): Promise<IpcResponse<'orders:listTriggers'>> {
    const rows = await readTriggers(this.ctx(), this.wallet.requireAddress(), req.market ? { market: req.market } : {});
    return { triggers: rows.map(listedOrderView) };
  }

  // ---- positions ----------------------------------------------------------------------------------------

  async positions(): Promise<{ positions: PositionView[]; at: number }> {
    const pumps = this.pumps();
    if (pumps) return { positions: await pumps.refreshPositions(), at: Date.now() };
    // Without running streams there are no marks yet: positions come back without PnL.
    const ctx = this.ctx();
    const rows = await readPositions(ctx, this.wallet.requireAddress());
    return { positions: rows.map((p) => positionView(p, undefined)), at: Date.now() };
  }

  async closePosition(req: { market: string; slippage_bps?: number | undefined }): Promise<IpcResponse<'positions:close'>> {
    const wallet = this.wallet.requireAddress();
    const res = await closePosition(this.tradingContext(), { wallet, market: req.market, ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}) }, { timeoutMs: 60_000 });
    this.afterPositionChange();
    const pumps = this.pumps();
    return {
      market: res.market,
      closed: res.closed,
      order_id: res.order.order_id,
      cancelled_triggers: res.cancelled_triggers.length,
      position_after: res.position_after ? positionView(res.position_after, pumps?.latestMark(res.market)) : null,
    };
  }

  async reversePosition(req: { market: string; size?: string | undefined; leverage?: number | undefined; slippage_bps?: number | undefined }): Promise<IpcResponse<'positions:reverse'>> {
    const wallet = this.wallet.requireAddress();
    const res = await reversePosition(
      this.tradingContext(),
      {
        wallet,
        market: req.market,
        ...(req.size !== undefined ? { size: req.size } : {}),
        ...(req.leverage !== undefined ? { leverage: req.leverage } : {}),
        ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
      },
      { timeoutMs: 60_000 },
    );
    this.afterPositionChange();
    return { market: res.market, position_after: positionView(res.position_after, this.pumps()?.latestMark(res.market)) };
  }

  async adjustMargin(req: { market: string; amount: string }): Promise<IpcResponse<'positions:adjustMargin'>> {
    const res = await adjustMargin(this.tradingContext(), { wallet: this.wallet.requireAddress(), market: req.market, amount: req.amount }, { wait: true, timeoutMs: 30_000 });
    this.afterPositionChange();
    return { market: res.market, amount: res.amount, request_id: res.request_id, status: res.status, reason: res.reason, explanation: res.explanation };
  }

  private afterPositionChange(): void {
    this.invalidateHistory('orders');
    this.invalidateHistory('fills');
    const pumps = this.pumps();
    pumps?.kickOrders();
    pumps?.refreshPositionsSoon();
  }

  // ---- history ------------------------------------------------------------------------------------------

  private invalidateHistory(kind: 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals'): void {
    for (const key of [...this.historyCache.keys()]) if (key.startsWith(`${kind}|`)) this.historyCache.delete(key);
  }

  /**
   * Every row of a history, newest first, cached briefly so a virtualized table scrolling through windows
   * sees one consistent list (and the service is not walked again for each window). New activity drops
   * the cached copy.
   */
  private async historyRows<T>(kind: 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals', market: string | undefined, load: () => Promise<T[]>): Promise<T[]> {
    const key = `${kind}|${this.scope()}|${market ?? ''}`;
    const hit = this.historyCache.get(key);
    if (hit && Date.now() - hit.at < HISTORY_TTL_MS) return hit.rows as T[];
    const rows = await load();
    this.historyCache.set(key, { at: Date.now(), rows });
    return rows;
  }

  private page<T, V>(rows: readonly T[], offset: number, limit: number, view: (r: T) => V): { rows: V[]; total: number; offset: number; limit: number } {
    return { rows: rows.slice(offset, offset + limit).map(view), total: rows.length, offset, limit };
  }

  private loadHistory(kind: 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals', market: string | undefined): Promise<unknown[]> {
    const ctx = this.ctx();
    const wallet = this.wallet.requireAddress();
    const filter = market ? { market } : {};
    switch (kind) {
      case 'orders':
        return this.historyRows(kind, market, () => readOrderHistory(ctx, wallet, filter));
      case 'fills':
        return this.historyRows(kind, market, () => readTradeHistory(ctx, wallet, filter));
      case 'funding':
        return this.historyRows(kind, market, () => readFundingHistory(ctx, wallet, filter));
      case 'deposits':
        return this.historyRows(kind, undefined, () => depositHistory(ctx, wallet));
      case 'withdrawals':
        return this.historyRows(kind, undefined, () => withdrawalHistory(ctx, wallet));
    }
  }

  async orderHistory(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:orders'>> {
    const rows = (await this.loadHistory('orders', req.market)) as Parameters<typeof listedOrderView>[0][];
    return this.page(rows, req.offset, req.limit, listedOrderView);
  }

  async fillHistory(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:fills'>> {
    const rows = (await this.loadHistory('fills', req.market)) as Parameters<typeof fillView>[0][];
    return this.page(rows, req.offset, req.limit, fillView);
  }

  async fundingHistory(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:funding'>> {
    const rows = (await this.loadHistory('funding', req.market)) as Parameters<typeof fundingView>[0][];
    return this.page(rows, req.offset, req.limit, fundingView);
  }

  async depositHistory(req: { offset: number; limit: number }): Promise<IpcResponse<'history:deposits'>> {
    const rows = (await this.loadHistory('deposits', undefined)) as Parameters<typeof depositView>[0][];
    return this.page(rows, req.offset, req.limit, depositView);
  }

  async withdrawalHistory(req: { offset: number; limit: number }): Promise<IpcResponse<'history:withdrawals'>> {
    const rows = (await this.loadHistory('withdrawals', undefined)) as Parameters<typeof withdrawalRowView>[0][];
    return this.page(rows, req.offset, req.limit, withdrawalRowView);
  }

  async exportCsv(req: { kind: 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals'; market?: string | undefined }): Promise<IpcResponse<'history:exportCsv'>> {
    const market = req.kind === 'deposits' || req.kind === 'withdrawals' ? undefined : req.market;
    // Read before asking for a file: a failing read should not leave the user with an empty file.
    this.invalidateHistory(req.kind);
    const rows = await this.loadHistory(req.kind, market);
    let csv: string;
    switch (req.kind) {
      case 'orders':
        csv = toCsv(rows as Parameters<typeof listedOrderView>[0][], ORDER_CSV_COLUMNS);
        break;
      case 'fills':
        csv = toCsv(rows as Parameters<typeof fillView>[0][], FILL_CSV_COLUMNS);
        break;
      case 'funding':
        csv = toCsv(rows as Parameters<typeof fundingView>[0][], FUNDING_CSV_COLUMNS);
        break;
      case 'deposits':
        csv = toCsv((rows as Parameters<typeof depositView>[0][]).map(depositView), DEPOSIT_CSV_COLUMNS);
        break;
      case 'withdrawals':
        csv = toCsv((rows as Parameters<typeof withdrawalRowView>[0][]).map(withdrawalRowView), WITHDRAWAL_CSV_COLUMNS);
        break;
    }
    const day = new Date().toISOString().slice(0, 10);
    const file = await this.options.adapters.dialogs.chooseSaveFile({
      title: `Export ${req.kind} history`,
      defaultName: `perps-${req.kind}${market ? `-${market}` : ''}-${day}.csv`,
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
    if (file === null) return { saved: false, file_name: null, rows: rows.length };
    await fs.writeFile(file, csv, 'utf8');
    return { saved: true, file_name: path.basename(file), rows: rows.length };
  }

  // ---- withdrawals --------------------------------------------------------------------------------------

  async previewWithdraw(req: { amount: string }): Promise<WithdrawPreview> {
    const { ctx, profile } = this.requireSession();
    const wallet = this.wallet.requireAddress();
    const signer = this.wallet.requireSigner();
    checkSignerIsWallet(signer, wallet);
    const check = await checkWithdrawal(ctx, { wallet, amount: req.amount });
    const nonce = await ctx.nonces.next(check.wallet);
    const typed = withdrawTypedData({ account_id: check.account_id, amount: check.amount, nonce: String(nonce), signature_chain_id: profile.tradingChainId }, profile.environment);
    const entry = this.reviews.put<'withdraw', WithdrawReview>('withdraw', this.scope(), this.options.reviewTtlMs?.custody ?? 10 * 60_000, {
      amount: check.amount,
      nonce,
      digest: digestHex(typed),
      // One intent per review: a repeated submit can never sign a second withdrawal.
      intentId: randomUUID(),
    });
    return {
      check: {
        wallet: check.wallet,
        amount: check.amount,
        destination: check.destination,
        free_balance: check.free_balance,
        min_amount: check.min_amount,
        fee_preview: check.fee_preview ? { new_wallet_fee: check.fee_preview.new_wallet_fee, estimated_l1_send_amount: check.fee_preview.estimated_l1_send_amount, note: check.fee_preview.note } : null,
        warnings: check.warnings,
      },
      review: this.review(entry.id, entry.validUntil, signer, typed),
    };
  }

  async submitWithdraw(req: { review_id: string }): Promise<TrackedWithdrawalView> {
    const ctx = this.ctx();
    const wallet = this.wallet.requireAddress();
    const { payload } = this.reviews.take<'withdraw', WithdrawReview>(req.review_id, 'withdraw', this.scope());
    const reviewedCtx: ServiceContext = { ...ctx, nonces: reservedNonces(wallet, [payload.nonce]) as unknown as NonceSource };
    const outcome = await withdraw(reviewedCtx, { wallet, amount: payload.amount, signer: guardedSigner(this.wallet.requireSigner(), [payload.digest]), intentId: payload.intentId });
    this.pumps()?.kickWithdrawals();
    this.invalidateHistory('withdrawals');
    const view = trackedWithdrawalView(outcome.withdrawal);
    this.send('withdrawals', { withdrawals: [view] });
    return view;
  }

  async trackedWithdrawals(): Promise<{ withdrawals: TrackedWithdrawalView[] }> {
    return { withdrawals: listTrackedWithdrawals(this.ctx(), { wallet: this.wallet.requireAddress() }).map(trackedWithdrawalView) };
  }

  // ---- settings -----------------------------------------------------------------------------------------

  getSettings(): Settings {
    return this.appSettings.settings();
  }

  setSettings(patch: Partial<Settings>): Settings {
    const next = this.appSettings.updateSettings(patch);
    if (patch.key_expiry_warning_days !== undefined) this.pumps()?.kickKeys();
    return next;
  }

  getAirgap(): { fingerprint: string | null; path: string } {
    return this.appSettings.airgap();
  }

  setAirgap(patch: { fingerprint?: string | null | undefined; path?: string | undefined }): { fingerprint: string | null; path: string } {
    return this.appSettings.updateAirgap(patch);
  }

  getNotifications(): NotificationPrefs {
    return this.appSettings.notifications();
  }

  setNotifications(patch: Partial<NotificationPrefs>): NotificationPrefs {
    return this.appSettings.updateNotifications(patch);
  }

  // ---- helpers ------------------------------------------------------------------------------------------

  /** Reviews are valid only for the wallet and profile they were made for. */
  private scope(): string {
    return `${this.session?.profile.name ?? '-'}|${(this.wallet.address() ?? '-').toLowerCase()}`;
  }

  private review(id: string, validUntil: number, signer: Signer, typed: TypedData): SigningReview {
    return {
      review_id: id,
      primary_type: typed.primaryType,
      signer: { kind: signer.kind, address: signer.address },
      summary: summarizeTypedData(typed),
      digest: digestHex(typed),
      typed_data: typedDataView(typed),
      valid_until: validUntil,
    };
  }
}

