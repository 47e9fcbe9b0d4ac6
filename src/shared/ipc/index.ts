/**
 * The IPC contract: every channel between the renderer and the main process, with its request and
 * response schema (as Ledger Live's src/bridge/contract.ts does). The schemas live in one file per
 * domain beside this one (app, wallet, keys, orders, positions, ...); the channel table below is the one
 * place that pairs a channel with its schemas. A new channel is named here, in CHANNELS, and in the
 * zod-free name list ./channels.ts the preload imports; the compiler refuses the two lists disagreeing.
 * There is no generic
 * invoke: the preload exposes one function per channel listed here, and main registers one validated
 * handler per channel. Requests are strict objects (an unknown key is refused, never ignored), because
 * the request schemas double as main's validation of whatever a compromised renderer might send.
 *
 * Conventions:
 *  - Every price, size, amount, rate and PnL is a decimal STRING, never a JS number: the service hashes
 *    the exact strings it receives, and one float round trip changes them. Numbers are only integers
 *    (timestamps in Unix ms, counts, leverage, basis points).
 *  - Errors cross as typed values { code, message, hint? } inside IpcResult, never as thrown Errors
 *    (Electron rewrites their text). `field` names the offending input when there is one.
 *  - Signing is always reviewed first: keys:review, orders:preview and withdraw:preview return the exact
 *    EIP-712 typed data that will be signed (nonce included) under a short-lived id, and the acting
 *    channel takes only that id. Main refuses to sign anything whose digest differs from the reviewed one.
 *  - Main-to-renderer events: the stream events are throttled to at most 10 deliveries a second each,
 *    coalesced so the latest value per key wins; the prompt events (blind-signing confirmation, offline
 *    signature) are requests the renderer answers through the prompt:* channels.
 */
import { z } from 'zod';
import { AlertViewSchema } from '../alerts/alertRule.js';
import { OrderIntentSchema } from '../orders/intents.js';
import { AlertAddRequestSchema, AlertFiredEventSchema, AlertIdRequestSchema, AlertListSchema, AlertSetLevelRequestSchema, AlertsEventSchema } from './alerts.js';
import { AppInfoSchema, ProfileViewSchema, SessionEventSchema, SetProfileRequestSchema } from './app.js';
import { type ChannelName, type EventName, FIRST_SCREEN_READS, type FirstScreenPart, type PreloadedChannel } from './channels.js';
import {
  AskRequestSchema,
  AssistantAnswerViewSchema,
  AssistantModelsSchema,
  AssistantStatusSchema,
  BridgeQuoteRequestSchema,
  BridgeQuoteViewSchema,
  BridgeSendRequestSchema,
  CompanionSettingsViewSchema,
  CreditedPointsRequestSchema,
  CreditedPointsViewSchema,
  PointsEstimateRequestSchema,
  PointsEstimateViewSchema,
  RECEIVER_CHANNELS,
  SetAssistantModelRequestSchema,
  SetInferenceKeyRequestSchema,
  SetPartnerCodeRequestSchema,
  SetRpcUrlRequestSchema,
  SetServiceUrlRequestSchema,
  SwapExecuteRequestSchema,
  SwapQuoteRequestSchema,
  SwapQuoteViewSchema,
  TokenInfoRequestSchema,
  TokenInfoSchema,
  TrackTransferRequestSchema,
  TransferIdRequestSchema,
  TransfersSchema,
  TransferViewSchema,
} from './companion.js';
import { IpcErrorSchema, type IpcResult } from './errors.js';
import { empty, unixMs } from './fields.js';
import { BalanceViewSchema, DepositInfoSchema, FaucetRequestSchema, FaucetResultSchema } from './funding.js';
import {
  DepositsPageSchema,
  ExportCsvRequestSchema,
  ExportCsvResultSchema,
  FillsPageSchema,
  FillViewSchema,
  FundingPageSchema,
  HistoryPageRequestSchema,
  MoneyHistoryPageRequestSchema,
  OrderHistoryGroupsPageSchema,
  OrderHistoryPageSchema,
  WithdrawalsPageSchema,
} from './history.js';
import { TradeHotkeysPatchSchema, TradeHotkeysSchema } from './hotkeys.js';
import {
  AuthorizeResultSchema,
  CreatedKeySchema,
  CreateKeyRequestSchema,
  ForeignKeyReviewRequestSchema,
  KeyExpiryNoticeSchema,
  KeyReviewRequestSchema,
  RevokeResultSchema,
  TradingKeyListSchema,
} from './keys.js';
import { LimitsSetRequestSchema, LimitsViewSchema, PanicReportSchema, PanicRequestSchema } from './limits.js';
import {
  BookRequestSchema,
  BookViewSchema,
  CandlesRequestSchema,
  CandlesSchema,
  MarketsListSchema,
  MarkUpdateSchema,
  WatchBookRequestSchema,
  WatchingBookSchema,
} from './markets.js';
import {
  CancelAllRequestSchema,
  CancelOrderRequestSchema,
  CancelResultSchema,
  MarketFilterRequestSchema,
  ModifyOrderRequestSchema,
  ModifyOrderResultSchema,
  OpenOrdersSchema,
  OrderPreviewSchema,
  OrderStatusUpdateSchema,
  PlaceOrdersRequestSchema,
  PlaceOrdersResultSchema,
  TriggersSchema,
} from './orders.js';
import { PortfolioCancelRequestSchema, PortfolioCancelResultSchema, PortfolioExportRequestSchema, PortfolioProgressEventSchema, PortfolioReportSchema, PortfolioRequestSchema } from './portfolio.js';
import {
  AdjustMarginRequestSchema,
  AdjustMarginResultSchema,
  ApplyTpslRequestSchema,
  CloseAllRequestSchema,
  CloseAllResultSchema,
  ClosePositionRequestSchema,
  ClosePositionResultSchema,
  PositionsListSchema,
  PositionTpslPreviewSchema,
  PositionTpslRequestSchema,
  PositionTpslResultSchema,
  PositionViewSchema,
  ReversePositionRequestSchema,
  ReversePositionResultSchema,
} from './positions.js';
import {
  BlindSigningRequestSchema,
  DeliveredSchema,
  ImportedSignatureSchema,
  OfflineSignatureRequestSchema,
  PromptIdRequestSchema,
  RespondBlindSigningRequestSchema,
  RespondOfflineSignatureRequestSchema,
  SavedFileSchema,
} from './prompts.js';
import { AccountHealthViewSchema, RiskWarningEventSchema } from './risk.js';
import {
  AirgapSettingsPatchSchema,
  AirgapSettingsSchema,
  NotificationPrefsPatchSchema,
  NotificationPrefsSchema,
  SettingsPatchSchema,
  SettingsSchema,
} from './settings.js';
import { ReviewIdRequestSchema, SigningReviewSchema } from './signing.js';
import { SimFeedViewSchema, SimPricesSchema } from './simFeed.js';
import { ChaseEventSchema, ChaseListSchema, ChasePreviewRequestSchema, ChasePreviewSchema, ChaseStartRequestSchema, ChaseStopRequestSchema, ChaseViewSchema } from './chase.js';
import { OcoEventSchema, OcoIdRequestSchema, OcoListSchema, OcoPreviewRequestSchema, OcoPreviewSchema, OcoStartRequestSchema, OcoViewSchema } from './oco.js';
import { TrailOffRequestSchema, TrailResultSchema, TrailStartRequestSchema } from './trail.js';
import { TraySettingsPatchSchema, TraySettingsSchema } from './tray.js';
import {
  TrezorAnswerPassphraseRequestSchema,
  TrezorAnswerPinRequestSchema,
  TrezorCancelRequestSchema,
  TrezorCancelResultSchema,
  TrezorConnectRequestSchema,
  TrezorPromptSchema,
} from './trezor.js';
import {
  TradesEventSchema,
  TwapEventSchema,
  TwapIdRequestSchema,
  TwapListSchema,
  TwapPreviewRequestSchema,
  TwapPreviewSchema,
  TwapStartRequestSchema,
  TwapViewSchema,
  WatchingTradesSchema,
  WatchTradesRequestSchema,
} from './twap.js';
import {
  ConnectEnvRequestSchema,
  ConnectKeystoreRequestSchema,
  ConnectOfflineRequestSchema,
  CreatePaperWalletRequestSchema,
  DisconnectRequestSchema,
  KeystoreChoiceSchema,
  LedgerAccountsSchema,
  LedgerConnectRequestSchema,
  LedgerDevicesSchema,
  LedgerListAccountsRequestSchema,
  PaperWalletResultSchema,
  WalletViewSchema,
} from './wallet.js';
import { TrackedWithdrawalsSchema, TrackedWithdrawalViewSchema, WithdrawPreviewRequestSchema, WithdrawPreviewSchema } from './withdrawals.js';

export * from './errors.js';
export * from './app.js';
export * from './wallet.js';
export * from './prompts.js';
export * from './signing.js';
export * from './keys.js';
export * from './funding.js';
export * from './markets.js';
export * from './orders.js';
export * from './positions.js';
export * from './history.js';
export * from './withdrawals.js';
export * from './settings.js';
export * from './channels.js';
export * from './companion.js';
export * from './risk.js';
export * from './twap.js';
export * from './portfolio.js';
export * from './trail.js';
export * from './oco.js';
export * from './chase.js';
export * from './alerts.js';
export * from './trezor.js';
export * from './hotkeys.js';
export * from './simFeed.js';
export * from './tray.js';
export * from './limits.js';
export * from '../tradeHotkeys.js';

// ---- the channel table --------------------------------------------------------------------------------

interface ChannelDef {
  request: z.ZodType;
  response: z.ZodType;
}

/** Every channel but app:firstScreen, whose answer is made of theirs (below). */
const CHANNELS = {
  'app:getInfo': { request: empty, response: AppInfoSchema },
  'app:getProfile': { request: empty, response: ProfileViewSchema },
  'app:setProfile': { request: SetProfileRequestSchema, response: ProfileViewSchema },

  'wallet:current': { request: empty, response: WalletViewSchema },
  'wallet:chooseKeystoreFile': { request: empty, response: KeystoreChoiceSchema },
  'wallet:connectKeystore': { request: ConnectKeystoreRequestSchema, response: WalletViewSchema },
  'wallet:connectEnv': { request: ConnectEnvRequestSchema, response: WalletViewSchema },
  'wallet:connectOffline': { request: ConnectOfflineRequestSchema, response: WalletViewSchema },
  'wallet:disconnect': { request: DisconnectRequestSchema, response: WalletViewSchema },
  'wallet:createPaper': { request: CreatePaperWalletRequestSchema, response: PaperWalletResultSchema },

  'ledger:listDevices': { request: empty, response: LedgerDevicesSchema },
  'ledger:listAccounts': { request: LedgerListAccountsRequestSchema, response: LedgerAccountsSchema },
  'ledger:connect': { request: LedgerConnectRequestSchema, response: WalletViewSchema },

  // ---- Trezor (trezor.ts) ----
  'trezor:connect': { request: TrezorConnectRequestSchema, response: WalletViewSchema },
  'trezor:answerPin': { request: TrezorAnswerPinRequestSchema, response: DeliveredSchema },
  'trezor:answerPassphrase': { request: TrezorAnswerPassphraseRequestSchema, response: DeliveredSchema },
  'trezor:cancel': { request: TrezorCancelRequestSchema, response: TrezorCancelResultSchema },

  'prompt:respondBlindSigning': { request: RespondBlindSigningRequestSchema, response: DeliveredSchema },
  'prompt:respondOfflineSignature': { request: RespondOfflineSignatureRequestSchema, response: DeliveredSchema },
  'prompt:exportSigningRequest': { request: PromptIdRequestSchema, response: SavedFileSchema },
  'prompt:importSignatureFile': { request: PromptIdRequestSchema, response: ImportedSignatureSchema },

  'keys:list': { request: empty, response: TradingKeyListSchema },
  'keys:create': { request: CreateKeyRequestSchema, response: CreatedKeySchema },
  'keys:review': { request: KeyReviewRequestSchema, response: SigningReviewSchema },
  'keys:reviewForeign': { request: ForeignKeyReviewRequestSchema, response: SigningReviewSchema },
  'keys:authorize': { request: ReviewIdRequestSchema, response: AuthorizeResultSchema },
  'keys:renew': { request: ReviewIdRequestSchema, response: AuthorizeResultSchema },
  'keys:revoke': { request: ReviewIdRequestSchema, response: RevokeResultSchema },

  'funding:depositInfo': { request: empty, response: DepositInfoSchema },
  'funding:faucet': { request: FaucetRequestSchema, response: FaucetResultSchema },
  'account:balance': { request: empty, response: BalanceViewSchema },
  'account:health': { request: empty, response: AccountHealthViewSchema },

  'markets:list': { request: empty, response: MarketsListSchema },
  'markets:candles': { request: CandlesRequestSchema, response: CandlesSchema },
  'markets:book': { request: BookRequestSchema, response: BookViewSchema },
  'markets:watchBook': { request: WatchBookRequestSchema, response: WatchingBookSchema },

  'orders:preview': { request: z.strictObject({ intent: OrderIntentSchema }), response: OrderPreviewSchema },
  'orders:place': { request: PlaceOrdersRequestSchema, response: PlaceOrdersResultSchema },
  'orders:modify': { request: ModifyOrderRequestSchema, response: ModifyOrderResultSchema },
  'orders:cancel': { request: CancelOrderRequestSchema, response: CancelResultSchema },
  'orders:cancelAll': { request: CancelAllRequestSchema, response: CancelResultSchema },
  'orders:listOpen': { request: MarketFilterRequestSchema, response: OpenOrdersSchema },
  'orders:listTriggers': { request: MarketFilterRequestSchema, response: TriggersSchema },

  'positions:list': { request: empty, response: PositionsListSchema },
  'positions:close': { request: ClosePositionRequestSchema, response: ClosePositionResultSchema },
  'positions:reverse': { request: ReversePositionRequestSchema, response: ReversePositionResultSchema },
  'positions:adjustMargin': { request: AdjustMarginRequestSchema, response: AdjustMarginResultSchema },
  'positions:closeAll': { request: CloseAllRequestSchema, response: CloseAllResultSchema },
  'positions:previewTpsl': { request: PositionTpslRequestSchema, response: PositionTpslPreviewSchema },
  'positions:applyTpsl': { request: ApplyTpslRequestSchema, response: PositionTpslResultSchema },
  'trail:start': { request: TrailStartRequestSchema, response: TrailResultSchema },
  'trail:off': { request: TrailOffRequestSchema, response: TrailResultSchema },

  'history:orders': { request: HistoryPageRequestSchema, response: OrderHistoryPageSchema },
  'history:orderGroups': { request: HistoryPageRequestSchema, response: OrderHistoryGroupsPageSchema },
  'history:fills': { request: HistoryPageRequestSchema, response: FillsPageSchema },
  'history:funding': { request: HistoryPageRequestSchema, response: FundingPageSchema },
  'history:deposits': { request: MoneyHistoryPageRequestSchema, response: DepositsPageSchema },
  'history:withdrawals': { request: MoneyHistoryPageRequestSchema, response: WithdrawalsPageSchema },
  'history:exportCsv': { request: ExportCsvRequestSchema, response: ExportCsvResultSchema },

  // the portfolio rebuilt from the service's records (portfolio.ts)
  'portfolio:get': { request: PortfolioRequestSchema, response: PortfolioReportSchema },
  'portfolio:exportCsv': { request: PortfolioExportRequestSchema, response: ExportCsvResultSchema },
  'portfolio:cancel': { request: PortfolioCancelRequestSchema, response: PortfolioCancelResultSchema },

  'withdraw:preview': { request: WithdrawPreviewRequestSchema, response: WithdrawPreviewSchema },
  'withdraw:submit': { request: ReviewIdRequestSchema, response: TrackedWithdrawalViewSchema },
  'withdraw:list': { request: empty, response: TrackedWithdrawalsSchema },

  'settings:get': { request: empty, response: SettingsSchema },
  'settings:set': { request: SettingsPatchSchema, response: SettingsSchema },
  'settings:getAirgap': { request: empty, response: AirgapSettingsSchema },
  'settings:setAirgap': { request: AirgapSettingsPatchSchema, response: AirgapSettingsSchema },
  'notifications:get': { request: empty, response: NotificationPrefsSchema },
  'notifications:set': { request: NotificationPrefsPatchSchema, response: NotificationPrefsSchema },

  'companion:getSettings': { request: empty, response: CompanionSettingsViewSchema },
  'companion:setRpcUrl': { request: SetRpcUrlRequestSchema, response: CompanionSettingsViewSchema },
  'companion:setPartnerCode': { request: SetPartnerCodeRequestSchema, response: CompanionSettingsViewSchema },
  'companion:setServiceUrl': { request: SetServiceUrlRequestSchema, response: CompanionSettingsViewSchema },
  ...RECEIVER_CHANNELS,

  'bridge:tokenInfo': { request: TokenInfoRequestSchema, response: TokenInfoSchema },
  'bridge:quote': { request: BridgeQuoteRequestSchema, response: BridgeQuoteViewSchema },
  'bridge:send': { request: BridgeSendRequestSchema, response: TransferViewSchema },
  'bridge:track': { request: TrackTransferRequestSchema, response: TransferViewSchema },

  'swap:quote': { request: SwapQuoteRequestSchema, response: SwapQuoteViewSchema },
  'swap:execute': { request: SwapExecuteRequestSchema, response: TransferViewSchema },

  'transfers:list': { request: empty, response: TransfersSchema },
  'transfers:dismiss': { request: TransferIdRequestSchema, response: TransfersSchema },

  'points:estimate': { request: PointsEstimateRequestSchema, response: PointsEstimateViewSchema },
  'points:credited': { request: CreditedPointsRequestSchema, response: CreditedPointsViewSchema },

  'assistant:status': { request: empty, response: AssistantStatusSchema },
  'assistant:setKey': { request: SetInferenceKeyRequestSchema, response: AssistantStatusSchema },
  'assistant:clearKey': { request: empty, response: AssistantStatusSchema },
  'assistant:models': { request: empty, response: AssistantModelsSchema },
  'assistant:setModel': { request: SetAssistantModelRequestSchema, response: AssistantStatusSchema },
  'assistant:ask': { request: AskRequestSchema, response: AssistantAnswerViewSchema },

  // ---- advanced execution (twap.ts) ----
  'markets:watchTrades': { request: WatchTradesRequestSchema, response: WatchingTradesSchema },
  'twap:preview': { request: TwapPreviewRequestSchema, response: TwapPreviewSchema },
  'twap:start': { request: TwapStartRequestSchema, response: TwapViewSchema },
  'twap:list': { request: empty, response: TwapListSchema },
  'twap:pause': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:resume': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:cancel': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:stop': { request: TwapIdRequestSchema, response: TwapViewSchema },
  // ---- OCO pairs (oco.ts) ----
  'oco:preview': { request: OcoPreviewRequestSchema, response: OcoPreviewSchema },
  'oco:start': { request: OcoStartRequestSchema, response: OcoViewSchema },
  'oco:list': { request: empty, response: OcoListSchema },
  'oco:cancel': { request: OcoIdRequestSchema, response: OcoViewSchema },
  // ---- chase orders (chase.ts) ----
  'chase:preview': { request: ChasePreviewRequestSchema, response: ChasePreviewSchema },
  'chase:start': { request: ChaseStartRequestSchema, response: ChaseViewSchema },
  'chase:list': { request: empty, response: ChaseListSchema },
  'chase:stop': { request: ChaseStopRequestSchema, response: ChaseViewSchema },
  // ---- alerts (alerts.ts) ----
  'alerts:list': { request: empty, response: AlertListSchema },
  'alerts:add': { request: AlertAddRequestSchema, response: AlertViewSchema },
  'alerts:remove': { request: AlertIdRequestSchema, response: AlertViewSchema },
  'alerts:setLevel': { request: AlertSetLevelRequestSchema, response: AlertViewSchema },
  // risk limits and panic (limits.ts)
  'risk:getLimits': { request: empty, response: LimitsViewSchema },
  'risk:setLimits': { request: LimitsSetRequestSchema, response: LimitsViewSchema },
  'risk:panic': { request: PanicRequestSchema, response: PanicReportSchema },
  'settings:getHotkeys': { request: empty, response: TradeHotkeysSchema },
  'settings:setHotkeys': { request: TradeHotkeysPatchSchema, response: TradeHotkeysSchema },
  // simulator prices: simulated, or live from a venue (simFeed.ts)
  'settings:getSimPrices': { request: empty, response: SimPricesSchema },
  'settings:setSimPrices': { request: SimPricesSchema, response: SimPricesSchema },
  'settings:getSimFeed': { request: empty, response: SimFeedViewSchema.nullable() },
  // tray mode: keep running in the tray while background work is active (tray.ts)
  'settings:getTray': { request: empty, response: TraySettingsSchema },
  'settings:setTray': { request: TraySettingsPatchSchema, response: TraySettingsSchema },
} as const satisfies { [C in Exclude<ChannelName, 'app:firstScreen'>]: ChannelDef };

/** One channel's answer carried inside another's: its value or its error, as IpcResult. */
function resultSchema<S extends z.ZodType>(value: S) {
  return z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: IpcErrorSchema })]);
}
/** app:firstScreen's answer: each part is what its channel (FIRST_SCREEN_READS) answers, checked by that channel's schema. */
export const FirstScreenSchema = z.object({
  wallet: resultSchema(CHANNELS[FIRST_SCREEN_READS.wallet].response),
  keys: resultSchema(CHANNELS[FIRST_SCREEN_READS.keys].response),
  markets: resultSchema(CHANNELS[FIRST_SCREEN_READS.markets].response),
  settings: resultSchema(CHANNELS[FIRST_SCREEN_READS.settings].response),
  profile: resultSchema(CHANNELS[FIRST_SCREEN_READS.profile].response),
  notifications: resultSchema(CHANNELS[FIRST_SCREEN_READS.notifications].response),
  appInfo: resultSchema(CHANNELS[FIRST_SCREEN_READS.appInfo].response),
  simFeed: resultSchema(CHANNELS[FIRST_SCREEN_READS.simFeed].response),
  hotkeys: resultSchema(CHANNELS[FIRST_SCREEN_READS.hotkeys].response),
} satisfies Record<FirstScreenPart, z.ZodType>);
export type FirstScreen = z.infer<typeof FirstScreenSchema>;

/** Every channel with its schemas. `satisfies` makes the compiler refuse a missing or an extra channel. */
export const IPC_CHANNELS = {
  ...CHANNELS,
  'app:firstScreen': { request: empty, response: FirstScreenSchema },
} as const satisfies { [C in ChannelName]: ChannelDef };

export type IpcChannel = ChannelName;
export type IpcRequest<C extends IpcChannel> = z.input<(typeof IPC_CHANNELS)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = z.infer<(typeof IPC_CHANNELS)[C]['response']>;

export const IPC_EVENTS = {
  /** Latest status per order id. */
  orderStatus: z.object({ updates: z.array(OrderStatusUpdateSchema) }),
  /** New fills (keyed by tid: nothing is dropped, a repeat tid replaces). */
  fills: z.object({ fills: z.array(FillViewSchema) }),
  /** The whole positions snapshot, PnL from the latest mark. */
  positions: z.object({ positions: z.array(PositionViewSchema), at: unixMs }),
  /** The watched market's order book (markets:watchBook), latest per market. */
  book: BookViewSchema,
  /** Latest mark per market. */
  marks: z.object({ marks: z.array(MarkUpdateSchema) }),
  /** Latest state per withdrawal intent. */
  withdrawals: z.object({ withdrawals: z.array(TrackedWithdrawalViewSchema) }),
  /** Keys entering the warning window or expiring (latest per agent). */
  keyExpiry: z.object({ keys: z.array(KeyExpiryNoticeSchema) }),
  /** The profile or the wallet changed: reload views. */
  session: SessionEventSchema,
  /** Ledger fallback to blind signing: answer with prompt:respondBlindSigning. */
  blindSigningRequest: BlindSigningRequestSchema,
  /** The Trezor needs the PIN, the passphrase or a press on the device, or is done (trezor.ts). */
  trezorPrompt: TrezorPromptSchema,
  /** Latest state per bridge or swap transfer (keyed by its local id). */
  transfers: z.object({ transfers: z.array(TransferViewSchema) }),
  /** Offline signer: show/export the request, answer with prompt:respondOfflineSignature. */
  offlineSignatureRequest: OfflineSignatureRequestSchema,
  /** Positions within the warning distance of their liquidation estimate (the latest set; empty clears). */
  riskWarning: RiskWarningEventSchema,
  /** TWAP progress, the latest view per TWAP that changed (twap.ts). */
  twap: TwapEventSchema,
  /** OCO pairs, the latest view per pair that changed (oco.ts). */
  oco: OcoEventSchema,
  /** Chase orders, the latest view per chase that changed (chase.ts). */
  chase: ChaseEventSchema,
  /** The watched market's trades tape (markets:watchTrades), newest first, latest per market. */
  trades: TradesEventSchema,
  /** The simulator's live feed changed (following a venue: live or down). */
  simFeed: SimFeedViewSchema,
  /** The profile's alerts, whole, whenever they change (alerts.ts). */
  alerts: AlertsEventSchema,
  /** Alerts that fired (toast, sound, live region); main also shows the native notification. */
  alertFired: AlertFiredEventSchema,
  /** The wallet's risk limits, lockout and room left, whenever they change or re-price (limits.ts). */
  riskLimits: LimitsViewSchema,
  /** The tray's Panic item: open the panic confirmation (the page asks; main never panics unconfirmed). */
  panicRequest: z.object({}),
  /** How far a portfolio read is while it pages, then how it ended (portfolio.ts). */
  portfolioProgress: PortfolioProgressEventSchema,
} as const satisfies { [E in EventName]: z.ZodType };

export type IpcEventPayload<E extends EventName> = z.infer<(typeof IPC_EVENTS)[E]>;

// ---- window.perps -------------------------------------------------------------------------------------

type GroupOf<C extends string> = C extends `${infer G}:${string}` ? G : never;
/** A channel whose request fields are all optional may be called without an argument. */
type ChannelFn<C extends ChannelName> = Record<never, never> extends IpcRequest<C>
  ? (request?: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>
  : (request: IpcRequest<C>) => Promise<IpcResult<IpcResponse<C>>>;

/** window.perps: perps.<group>.<name>(request) for every channel `group:name`, plus on(event, listener). */
export type PerpsApi = {
  readonly [G in GroupOf<ChannelName>]: { readonly [C in ChannelName as C extends `${G}:${infer N}` ? N : never]: ChannelFn<C> };
} & {
  /** Subscribes to a main-to-renderer event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
  /**
   * The answer the preload asked for as the page was created (PRELOADED_CHANNELS), when it has arrived
   * and was not taken yet: the page takes it once, synchronously. Null otherwise: the channel's first
   * call then returns the answer still on its way.
   */
  preloaded<C extends PreloadedChannel>(channel: C): IpcResult<IpcResponse<C>> | null;
};
