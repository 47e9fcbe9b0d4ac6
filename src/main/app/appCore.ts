/**
 * AppCore: the desktop app's use cases behind the IPC contract, in plain Node (no Electron import). It is
 * the composition root of the app layer: one Session (profile, wallet, lifecycle, reviews, pumps, domain
 * events) and one small desk per domain, each calling services, never HTTP. The IPC handler groups each
 * take their own desk (src/main/ipc/handlers).
 *
 * Every signature goes through a review first (keys:review, orders:preview, withdraw:preview): the
 * services' prepare step builds the exact typed data, nonce included, the review store keeps that
 * Prepared under a short-lived id, and the acting call submits exactly it.
 */
import type { Profile } from '../profiles/profiles.js';
import type { CompanionDesks } from './companion/companionDesks.js';
import { AlgoHost } from './algos/algoHost.js';
import type { BackgroundWork } from './backgroundWork.js';
import { AlertsDesk } from './desks/alertsDesk.js';
import { RiskDesk } from './desks/riskDesk.js';
import { AppDesk } from './desks/appDesk.js';
import { FundsDesk } from './desks/fundsDesk.js';
import { HistoryDesk } from './desks/historyDesk.js';
import { KeysDesk } from './desks/keysDesk.js';
import { MarketsDesk } from './desks/marketsDesk.js';
import { ChaseDesk } from './desks/chaseDesk.js';
import { OcoDesk } from './desks/ocoDesk.js';
import { OrdersDesk } from './desks/ordersDesk.js';
import { PortfolioDesk } from './desks/portfolioDesk.js';
import { PositionsDesk } from './desks/positionsDesk.js';
import { SettingsDesk } from './desks/settingsDesk.js';
import { TrailDesk } from './desks/trailDesk.js';
import { TwapDesk } from './desks/twapDesk.js';
import { WalletDesk } from './desks/walletDesk.js';
import type { SessionPumps } from './pumps/sessionPumps.js';
import { Session, type AppCoreOptions } from './session.js';
import type { WalletSession } from './wallet.js';

export type { AppCoreOptions };

export interface Desks {
  app: AppDesk;
  wallet: WalletDesk;
  keys: KeysDesk;
  funds: FundsDesk;
  markets: MarketsDesk;
  orders: OrdersDesk;
  positions: PositionsDesk;
  history: HistoryDesk;
  portfolio: PortfolioDesk;
  settings: SettingsDesk;
  twap: TwapDesk;
  alerts: AlertsDesk;
  trail: TrailDesk;
  oco: OcoDesk;
  chase: ChaseDesk;
  risk: RiskDesk;
}

export class AppCore {
  readonly desks: Desks;
  private readonly session: Session;
  /** The one host of the long-running algorithms (TWAP, trailing stops, OCO pairs, chases): each desk registers its kind. */
  private readonly algos: AlgoHost;

  constructor(options: AppCoreOptions) {
    this.session = new Session(options);
    const s = this.session;
    this.algos = new AlgoHost(s);
    this.desks = {
      app: new AppDesk(s),
      wallet: new WalletDesk(s),
      keys: new KeysDesk(s),
      funds: new FundsDesk(s),
      markets: new MarketsDesk(s),
      orders: new OrdersDesk(s),
      positions: new PositionsDesk(s),
      history: new HistoryDesk(s),
      portfolio: new PortfolioDesk(s),
      settings: new SettingsDesk(s),
      twap: new TwapDesk(s, this.algos),
      alerts: new AlertsDesk(s),
      trail: new TrailDesk(s, this.algos),
      oco: new OcoDesk(s, this.algos),
      chase: new ChaseDesk(s, this.algos),
      risk: new RiskDesk(s),
    };
  }

  /** Opens the remembered profile (falling back to sim when mainnet is not configured). */
  start(): Promise<void> {
    return this.session.start();
  }

  /**
   * Lets go of the running algorithms (a TWAP after its current slice; trailing stops and OCO pairs leave
   * what rests at the service; a chase leaves or cancels its order by its on-limit choice), stops evaluating alerts, stops the pumps, closes the wallet's devices and
   * stops (and saves) the simulator.
   */
  async stop(): Promise<void> {
    await this.algos.close();
    this.desks.twap.close();
    this.desks.oco.close();
    this.desks.chase.close();
    await this.desks.alerts.close();
    return this.session.stop();
  }

  /** The companion screens' desks of the open profile (bridge, swap, points, assistant, settings). */
  companion(): CompanionDesks {
    return this.session.companion();
  }

  /** What runs in the background now (the tray and the quit confirmation read it). */
  get backgroundWork(): BackgroundWork {
    return this.session.backgroundWork;
  }

  get wallet(): WalletSession {
    return this.session.wallet;
  }

  get profile(): Profile | null {
    return this.session.profile;
  }

  /** The session's event pumps (tests wait on their streams). */
  get eventPumps(): SessionPumps | null {
    return this.session.pumps;
  }
}
