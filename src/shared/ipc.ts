/**
 * The IPC contract: every channel between the renderer and the main process, with its request and
 * response schema, in one place (as Ledger Live's src/bridge/contract.ts does). There is no generic
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
import { addressSchema, decimalIn, decimalOut, marketSymbol, signedDecimalIn } from './fieldSchemas.js';
import { FIRST_SCREEN_READS, type ChannelName, type EventName, type FirstScreenPart, type PreloadedChannel } from './ipcChannels.js';
import { ERROR_KINDS, type ErrorKind } from './errorKinds.js';
import { PALETTES } from './palette.js';
import { OrderIntentSchema, type BracketIntent, type BracketLevel, type OrderIntent, type OrderKind, type ScaleIntent, type SingleIntent } from './orders/intents.js';
import { CONFIRMATION_CODES, type ConfirmationCode } from './orders/priceGuard.js';
import { OrderReviewSchema, ReviewConfirmationSchema, ReviewLegSchema, type OrderReview, type ReviewConfirmation, type ReviewLeg } from './orders/review.js';
import { TypedDataViewSchema, type TypedDataView } from './signingViews.js';
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
  TransferViewSchema,
  TransfersSchema,
} from './ipcCompanion.js';
import { PortfolioCancelRequestSchema, PortfolioCancelResultSchema, PortfolioExportRequestSchema, PortfolioProgressEventSchema, PortfolioReportSchema, PortfolioRequestSchema } from './ipcPortfolio.js';
import { TrailOffRequestSchema, TrailResultSchema, TrailStartRequestSchema } from './ipcTrail.js';
import { AccountHealthViewSchema, LiquidationWarningPctSchema, POSITION_RISK_FIELDS, RiskWarningEventSchema } from './ipcRisk.js';
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
} from './ipcTwap.js';
import { TrezorAnswerPassphraseRequestSchema, TrezorAnswerPinRequestSchema, TrezorCancelRequestSchema, TrezorCancelResultSchema, TrezorConnectRequestSchema, TrezorPromptSchema } from './ipcTrezor.js';
import { AlertAddRequestSchema, AlertFiredEventSchema, AlertIdRequestSchema, AlertListSchema, AlertSetLevelRequestSchema, AlertsEventSchema } from './ipcAlerts.js';
import { AlertViewSchema } from './alerts/alertRule.js';
import { TradeHotkeysPatchSchema, TradeHotkeysSchema } from './ipcHotkeys.js';
import { SimFeedViewSchema, SimPricesSchema } from './ipcSimFeed.js';
import { TraySettingsPatchSchema, TraySettingsSchema } from './ipcTray.js';
import { MAX_STOP_TOLERANCE_BPS, MIN_STOP_TOLERANCE_BPS } from './orders/stopTolerance.js';
import { LimitsSetRequestSchema, LimitsViewSchema, PanicReportSchema, PanicRequestSchema } from './ipcLimits.js';

export { CHANNEL_NAMES, EVENT_NAMES, FIRST_SCREEN_READS, PRELOADED_CHANNELS, STREAM_EVENT_NAMES, PROMPT_EVENT_NAMES, eventWireChannel, splitChannel } from './ipcChannels.js';
export type { ChannelName, EventName, FirstScreenPart, PreloadedChannel, StreamEventName, PromptEventName } from './ipcChannels.js';
export * from './ipcCompanion.js';
export * from './ipcRisk.js';
export * from './ipcTwap.js';
export * from './ipcPortfolio.js';
export * from './ipcAlerts.js';
export * from './ipcTrezor.js';
export * from './ipcHotkeys.js';
export * from './ipcSimFeed.js';
export * from './ipcTray.js';
export * from './tradeHotkeys.js';

// ---- errors and results -------------------------------------------------------------------------------

/** An error as it crosses IPC: a stable code, a message for people, and an optional hint (what to do). */
export interface IpcError {
  code: string;
  /** What kind of failure (src/shared/errorKinds.ts): whether fixing the input or trying again can help. */
  kind?: ErrorKind;
  message: string;
  hint?: string;
  /** The input field that was refused, when one was. */
  field?: string;
  /** For code VALIDATION: the specific rule that refused the input (UNKNOWN_MARKET, INSUFFICIENT_BALANCE, ...). */
  reason?: string;
  /** HTTP status, when the service answered with one. */
  status?: number;
}

export const IpcErrorSchema = z.object({
  code: z.string(),
  kind: z.enum(ERROR_KINDS).optional(),
  message: z.string(),
  hint: z.string().optional(),
  field: z.string().optional(),
  reason: z.string().optional(),
  status: z.number().int().optional(),
});

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/**
 * Error codes the boundary itself produces (services add their own: VALIDATION, the service's codes such
 * as FORBIDDEN or INVALID_SIGNATURE, keychain codes such as KEYCHAIN_LOCKED, Ledger codes such as
 * DEVICE_LOCKED, ...).
 */
export const BOUNDARY_ERROR_CODES = {
  /** The request did not match the channel's schema; nothing ran. */
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  /** The request came from a frame that is not the app. */
  UNTRUSTED_SENDER: 'UNTRUSTED_SENDER',
  /** No main wallet is chosen yet (onboarding not done). */
  NO_WALLET: 'NO_WALLET',
  /** The main wallet is known but its signer is not connected this session (custody actions need it). */
  SIGNER_NOT_CONNECTED: 'SIGNER_NOT_CONNECTED',
  /** The review/preview id is unknown or expired: preview again. */
  REVIEW_EXPIRED: 'REVIEW_EXPIRED',
  /** What the service asked to sign differs from what was reviewed; nothing was signed. */
  REVIEW_MISMATCH: 'REVIEW_MISMATCH',
  /** A sim-only action (the faucet) on another profile. */
  NOT_SIM_PROFILE: 'NOT_SIM_PROFILE',
  /** The app core is switching profiles or shutting down. */
  NOT_READY: 'NOT_READY',
  /** Anything unexpected; the message is generic and the detail is in main's log. */
  INTERNAL: 'INTERNAL',
} as const;

// ---- field schemas ------------------------------------------------------------------------------------

const dec = decimalOut;
const address = addressSchema;
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes of hex');
const unixMs = z.number().int().nonnegative();
const id = z.string().min(1).max(128);
const opaqueId = z.string().min(1).max(64);
const empty = z.strictObject({});

export const PROFILE_NAMES = ['sim', 'mainnet'] as const;
export const ProfileNameSchema = z.enum(PROFILE_NAMES);
export type ProfileName = z.infer<typeof ProfileNameSchema>;

export const SIDES = ['BUY', 'SELL'] as const;
export const ORDER_TYPES = ['MARKET', 'LIMIT', 'TRIGGER'] as const;
export const TIME_IN_FORCE = ['GTC', 'IOC', 'ALO'] as const;
export const TPSL = ['TP', 'SL'] as const;
/** Venue candle intervals (the venue's info API vocabulary). */
export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
/** Ledger derivation schemes (the same list main offers; a unit test keeps them equal). */
export const LEDGER_SCHEMES = [
  { scheme: 'ledger-live', label: 'Ledger Live', pattern: "m/44'/60'/N'/0/0" },
  { scheme: 'legacy', label: 'Legacy (MEW / MyCrypto)', pattern: "m/44'/60'/0'/N" },
  { scheme: 'bip44', label: 'BIP 44 standard (MetaMask)', pattern: "m/44'/60'/0'/0/N" },
] as const;
export const LedgerSchemeSchema = z.enum(['ledger-live', 'legacy', 'bip44']);

/** 'paper': the simulator's paper main wallet (its key in the OS keychain; it signs on the sim profile only). */
export const SIGNER_KINDS = ['keystore', 'env', 'offline', 'ledger', 'trezor', 'paper'] as const;
export const SignerKindSchema = z.enum(SIGNER_KINDS);

const ORDER_STATUSES = ['SUBMITTED', 'ACCEPTED', 'EXECUTING', 'PENDING_MODIFY', 'PENDING_PARENT', 'FILLED', 'PARTIALLY_FILLED_CANCELLED', 'CANCELLED', 'REJECTED', 'FAILED'] as const;
const LIST_STATUSES = ['open', 'triggered', 'filled', 'partially_filled_cancelled', 'cancelled', 'rejected'] as const;
const WITHDRAWAL_STATUSES = ['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED', 'REJECTED', 'REFUNDED', 'FAILED'] as const;
const WITHDRAWAL_PHASES = ['SIGNED', 'LANDED', 'TRACKING', 'DONE', 'UNMATCHED'] as const;

// ---- app ----------------------------------------------------------------------------------------------

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  profile: z.string(),
  platform: z.string(),
  /** Why the vault (the keychain) is closed for this session, with what to do; null when it is open. */
  vault_closed: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const MainnetUrlsSchema = z.strictObject({
  /** Trading API root including /api/v1. */
  base_url: z.string().min(1).max(2048),
  /** The venue's info API. */
  venue_info_url: z.string().min(1).max(2048),
  /** The venue's WebSocket; derived from the info URL when omitted and it ends in /info. */
  venue_ws_url: z.string().min(1).max(2048).optional(),
});
export type MainnetUrls = z.infer<typeof MainnetUrlsSchema>;

export const ProfileViewSchema = z.object({
  active: ProfileNameSchema,
  /** The signed environment literal of the active profile. */
  environment: z.enum(['Mainnet', 'Testnet']),
  sim: z.object({ running: z.boolean(), base_url: z.string().nullable() }),
  mainnet: z.object({
    base_url: z.string().nullable(),
    venue_info_url: z.string().nullable(),
    venue_ws_url: z.string().nullable(),
    /** Both required URLs are set: the profile can be switched to. */
    configured: z.boolean(),
  }),
});
export type ProfileView = z.infer<typeof ProfileViewSchema>;

export const SetProfileRequestSchema = z.strictObject({
  profile: ProfileNameSchema,
  /** Mainnet URLs to store first (validated; a bad URL is never stored). */
  mainnet: MainnetUrlsSchema.optional(),
});

// ---- wallet (main-wallet custody signer) --------------------------------------------------------------

export const WalletViewSchema = z.object({
  /** The main wallet (remembered across restarts), or null before onboarding. */
  address: address.nullable(),
  /** The connected custody signer of this session, or null (custody actions then need a reconnect). */
  signer: z
    .object({
      kind: SignerKindSchema,
      /** For people: "Keystore wallet.json", "Ledger Nano X m/44'/60'/0'/0/0", "Environment PERPS_KEY", "Offline signer". */
      label: z.string(),
      /** Ledger derivation path. */
      path: z.string().nullable(),
    })
    .nullable(),
  /** The last signer kind used with this wallet, to offer the same one after a restart. */
  last_signer_kind: SignerKindSchema.nullable(),
});
export type WalletView = z.infer<typeof WalletViewSchema>;

export const KeystoreChoiceSchema = z
  .object({
    /** Opaque handle for wallet:connectKeystore; the file path itself never leaves main. */
    file_token: opaqueId,
    file_name: z.string(),
    /** The address the keystore declares (read without decrypting), to show whose password is asked. */
    address: address.nullable(),
  })
  .nullable();
export type KeystoreChoice = z.infer<typeof KeystoreChoiceSchema>;

export const ConnectKeystoreRequestSchema = z.strictObject({
  file_token: opaqueId,
  /** Used once to decrypt and dropped; never stored, returned or logged. */
  password: z.string().max(1024),
});

export const ConnectEnvRequestSchema = z.strictObject({
  /**
   * Name of an environment variable of the app's process holding the key (automation only). Only names
   * starting with PERPS_ are eligible: the page must not be able to probe the app's other variables
   * (whether HOME or a cloud token is set, and what shape it has).
   */
  variable: z.string().regex(/^PERPS_[A-Z0-9_]{1,58}$/, 'expected an environment variable named PERPS_… (A-Z, 0-9, _)'),
});

export const ConnectOfflineRequestSchema = z.strictObject({ address });

export const DisconnectRequestSchema = z.strictObject({
  /** Also forget the wallet address (back to onboarding). Default false: only the signer is dropped. */
  forget: z.boolean().optional(),
});

export const LedgerDevicesSchema = z.object({ devices: z.array(z.object({ device_id: z.string(), label: z.string() })) });
export const LedgerListAccountsRequestSchema = z.strictObject({
  device_id: z.string().min(1).max(512),
  scheme: LedgerSchemeSchema,
  start: z.number().int().min(0).max(0x7fffffff).optional(),
  count: z.number().int().min(1).max(10).optional(),
});
export const LedgerAccountsSchema = z.object({ accounts: z.array(z.object({ path: z.string(), index: z.number().int(), address })) });
export const LedgerConnectRequestSchema = z.strictObject({
  device_id: z.string().min(1).max(512),
  /** Derivation path, e.g. m/44'/60'/0'/0/0; the address is shown on the device for confirmation. */
  path: z.string().min(1).max(64),
});

// ---- paper wallet (sim profile only: one click from nothing to a funded, trading-ready account) ---------

export const CreatePaperWalletRequestSchema = empty;
export const PaperWalletResultSchema = z.object({
  /** The session's wallet, now the new paper wallet with its signer connected. */
  wallet: WalletViewSchema,
  /** The trading key created in the keychain and authorized by the paper wallet. */
  agent: address,
  /** The account's free balance once the faucet's deposit was credited. */
  free_balance: dec,
});
export type PaperWalletResult = z.infer<typeof PaperWalletResultSchema>;

// ---- prompts (main asks, renderer answers) -------------------------------------------------------------

export const BlindSigningRequestSchema = z.object({
  prompt_id: opaqueId,
  primary_type: z.enum(['AuthorizeAgent', 'RevokeAgent', 'Withdraw']),
  /** Compare both with the device screen before accepting. */
  domain_separator: hex32,
  message_hash: hex32,
  summary: z.array(z.string()),
});
export type BlindSigningRequest = z.infer<typeof BlindSigningRequestSchema>;

export const OfflineSignatureRequestSchema = z.object({
  prompt_id: opaqueId,
  /** The wallet whose signature is expected. */
  signer: address,
  summary: z.array(z.string()),
  /** EIP-712 digest, for tools that sign a raw digest. */
  digest: hex32,
  /** The full request document (eth_signTypedData_v4 typed data, summary, signer, digest) as JSON text. */
  document: z.string(),
  /**
   * The same request as an animated QR code (eth-sign-request UR parts, for Keystone-style signers):
   * SVG markup per frame, rendered by main's qrcode package, shown in turn every interval_ms; or why
   * there is none (no signer fingerprint set).
   */
  qr: z.union([
    z.object({ frames: z.array(z.string().max(200_000)).min(1).max(200), interval_ms: z.number().int().min(50).max(5_000), request_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) }),
    z.object({ unavailable: z.string() }),
  ]),
});
export type OfflineSignatureRequest = z.infer<typeof OfflineSignatureRequestSchema>;

export const RespondBlindSigningRequestSchema = z.strictObject({ prompt_id: opaqueId, accept: z.boolean() });
export const RespondOfflineSignatureRequestSchema = z.union([
  /** 65-byte hex, or the lines of an eth-signature UR (`ur:eth-signature/...`, one or several parts, any order). */
  z.strictObject({ prompt_id: opaqueId, signature: z.string().min(1).max(20_000) }),
  z.strictObject({ prompt_id: opaqueId, cancel: z.literal(true) }),
]);
export const PromptIdRequestSchema = z.strictObject({ prompt_id: opaqueId });
/** false when no prompt with that id was waiting (answered already, or timed out). */
export const DeliveredSchema = z.object({ delivered: z.boolean() });
export const SavedFileSchema = z.object({ saved: z.boolean(), file_name: z.string().nullable() });
export const ImportedSignatureSchema = z.object({ signature: z.string().nullable() });

// ---- signing review -----------------------------------------------------------------------------------

export { TypedDataViewSchema, type TypedDataView };

export const SigningReviewSchema = z.object({
  review_id: opaqueId,
  primary_type: z.string(),
  /** Who signs: the main wallet's custody signer, or the trading key. */
  signer: z.object({ kind: z.enum([...SIGNER_KINDS, 'trading-key']), address }),
  /** Plain-language lines describing exactly what signing authorizes. */
  summary: z.array(z.string()),
  /** What the person should weigh before signing (a key this machine does not hold, ...). */
  warnings: z.array(z.string()),
  digest: hex32,
  typed_data: TypedDataViewSchema,
  /** Unix ms after which the review id is refused (preview again). */
  valid_until: unixMs,
});
export type SigningReview = z.infer<typeof SigningReviewSchema>;

export const ReviewIdRequestSchema = z.strictObject({ review_id: opaqueId });

// ---- trading keys -------------------------------------------------------------------------------------

export const TradingKeyRowSchema = z.object({
  agent: address,
  name: z.string().nullable(),
  /** ACTIVE (listed by the service), NOT_AUTHORIZED (created here, never authorized), EXPIRED, NOT_LISTED (revoked or registered elsewhere). */
  status: z.enum(['ACTIVE', 'NOT_AUTHORIZED', 'EXPIRED', 'NOT_LISTED']),
  listed: z.boolean(),
  /** Its private key is in this machine's keychain (it can sign here). */
  stored_locally: z.boolean(),
  expires_at: unixMs.nullable(),
  /** By the service's clock; negative once expired. */
  expires_in_ms: z.number().int().nullable(),
  /** Within the key-expiry warning window of the settings. */
  expiring_soon: z.boolean(),
  created_at: z.union([z.number(), z.string()]).nullable(),
});
export type TradingKeyRow = z.infer<typeof TradingKeyRowSchema>;

export const TradingKeyListSchema = z.object({ wallet: address, environment: z.string(), keys: z.array(TradingKeyRowSchema) });
export type TradingKeyList = z.infer<typeof TradingKeyListSchema>;

export const CreateKeyRequestSchema = z.strictObject({ name: z.string().min(1).max(64).optional() });
export const CreatedKeySchema = z.object({ agent: address, name: z.string(), created_at: unixMs, expires_at: unixMs.nullable() });

export const KeyReviewRequestSchema = z.strictObject({
  action: z.enum(['authorize', 'renew', 'revoke']),
  agent: address,
  /** authorize/renew: lifetime in days, default 90, at most 180. */
  expires_in_days: z.number().positive().max(180).optional(),
});

/**
 * Authorizing a trading key this machine does not hold (made on another device, the key ceremony): its own
 * channel, because main shows its own warning first and keys:review refuses such an agent.
 */
export const ForeignKeyReviewRequestSchema = z.strictObject({
  agent: address,
  expires_in_days: z.number().positive().max(180).optional(),
});

export const AuthorizeResultSchema = z.object({
  wallet: address,
  agent: address,
  environment: z.string(),
  expires_at: unixMs,
  stored_locally: z.boolean(),
  already_registered: z.boolean(),
  /** renew only: the expiry before. */
  previous_expires_at: unixMs.nullable(),
});
export type AuthorizeResult = z.infer<typeof AuthorizeResultSchema>;

export const RevokeResultSchema = z.object({ wallet: address, agent: address, environment: z.string(), revoked: z.literal(true), deleted_locally: z.boolean() });

// ---- funding and balance ------------------------------------------------------------------------------

export const DepositInfoSchema = z.object({
  /** Destination of a venue spot transfer, from GET /config (never hardcoded). */
  address,
  rails: z.array(z.object({ rail: z.string(), min_amount: dec, address: address.nullable() })),
  note: z.string(),
  /** The sim profile offers a faucet instead of a real transfer. */
  faucet_available: z.boolean(),
});
export type DepositInfo = z.infer<typeof DepositInfoSchema>;

export const FaucetRequestSchema = z.strictObject({ amount: decimalIn });
export const FaucetResultSchema = z.object({ wallet: address, amount: dec });

export const BalanceViewSchema = z.object({ wallet: address, account_id: z.string(), free_balance: dec });
export type BalanceView = z.infer<typeof BalanceViewSchema>;

// ---- markets ------------------------------------------------------------------------------------------

export const MarketViewSchema = z.object({
  symbol: z.string(),
  venue_symbol: z.string(),
  /** The service's market record joined to venue data (on venue_asset_index / venue_symbol). */
  joined: z.boolean(),
  is_active: z.boolean(),
  only_isolated: z.boolean(),
  mark: dec.nullable(),
  oracle: dec.nullable(),
  mid: dec.nullable(),
  prev_day_px: dec.nullable(),
  /** (mark - prev_day_px) / prev_day_px as a fraction ("0.0123" is +1.23 %). */
  change_24h: dec.nullable(),
  /** The venue's current hourly funding rate, a raw fraction. */
  funding_rate: dec.nullable(),
  /** Open interest in base units. */
  open_interest: dec.nullable(),
  /** 24 h notional volume. */
  day_volume: dec.nullable(),
  max_leverage: z.number().int(),
  display_max_leverage: z.number().int(),
  tick_size: dec,
  sz_decimals: z.number().int(),
  px_decimals: z.number().int(),
  min_order_value: dec,
  /** '0' means no ceiling. */
  max_notional: dec,
  max_open_orders: z.number().int(),
  maker_fee_rate: dec,
  taker_fee_rate: dec,
  initial_margin_ratio: dec,
  maintenance_margin_ratio: dec,
  slippage_bps: z.number().int(),
});
export type MarketView = z.infer<typeof MarketViewSchema>;

export const MarketsListSchema = z.object({ markets: z.array(MarketViewSchema), at: unixMs });

export const CandlesRequestSchema = z.strictObject({
  market: marketSymbol,
  interval: z.enum(CANDLE_INTERVALS),
  /** Default: 200 intervals before end_time. */
  start_time: unixMs.optional(),
  /** Default: now. */
  end_time: unixMs.optional(),
});
export const CandleViewSchema = z.object({ t: unixMs, T: unixMs, o: dec, h: dec, l: dec, c: dec, v: dec, n: z.number().int() });
export type CandleView = z.infer<typeof CandleViewSchema>;
export const CandlesSchema = z.object({ market: z.string(), interval: z.enum(CANDLE_INTERVALS), candles: z.array(CandleViewSchema) });

/** Book aggregation as the venue offers it: 2 to 5 significant figures, or null for full precision. */
export const BookSigFigsSchema = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5)]).nullable();
export const BookRequestSchema = z.strictObject({ market: marketSymbol, n_sig_figs: BookSigFigsSchema.optional() });
/** null market: stop watching. */
export const WatchBookRequestSchema = z.strictObject({ market: marketSymbol.nullable(), n_sig_figs: BookSigFigsSchema.optional() });
export const BookLevelSchema = z.object({ price: dec, size: dec, orders: z.number().int().nonnegative() });
export const BookViewSchema = z.object({
  market: z.string(),
  n_sig_figs: BookSigFigsSchema,
  /** Best first on both sides. */
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
  /** The venue's time of the book. */
  at: unixMs,
});
export type BookView = z.infer<typeof BookViewSchema>;
export const WatchingBookSchema = z.object({ watching: z.string().nullable(), live: z.boolean() });

// ---- orders -------------------------------------------------------------------------------------------

export { OrderIntentSchema, type OrderIntent, type SingleIntent, type BracketIntent, type BracketLevel, type ScaleIntent, type OrderKind };
export { ReviewLegSchema as PreviewLegSchema, type ReviewLeg as PreviewLeg, type OrderReview };
export { CONFIRMATION_CODES, ReviewConfirmationSchema, type ConfirmationCode, type ReviewConfirmation };

/** An order's review (services' prepare step) under a short-lived id: orders:place takes only that id. */
export const OrderPreviewSchema = OrderReviewSchema.extend({
  preview_id: opaqueId,
  valid_until: unixMs,
});
export type OrderPreview = z.infer<typeof OrderPreviewSchema>;

export const PlaceOrdersRequestSchema = z.strictObject({
  preview_id: opaqueId,
  /**
   * The codes of the review's `confirmations` the person confirmed: exactly those, or the place is refused
   * (VALIDATION, reason CONFIRMATION_REQUIRED or CONFIRMATION_MISMATCH) and the review stays usable.
   */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
export const PlacedLegSchema = z.object({
  label: z.string(),
  client_order_id: z.string(),
  order_id: z.string().nullable(),
  /** SUBMITTED means queued, not filled; follow orderStatus events. UNKNOWN: the answer was lost and the leg is not in history yet. */
  status: z.enum(['SUBMITTED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
});
export const PlaceOrdersResultSchema = z.object({ success: z.boolean(), reconciled: z.boolean(), legs: z.array(PlacedLegSchema) });
export type PlaceOrdersResult = z.infer<typeof PlaceOrdersResultSchema>;

export const ModifyOrderRequestSchema = z.strictObject({
  order_id: id,
  /** New limit price (the fire price of a trigger). */
  price: decimalIn,
  size: decimalIn,
  /** Triggers only; default: unchanged. */
  trigger_price: decimalIn.optional(),
});
export const ModifyOrderResultSchema = z.object({
  old_order_id: z.string(),
  new_order_id: z.string().nullable(),
  status: z.enum(['SUBMITTED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
});

export const CancelOrderRequestSchema = z.strictObject({ order_id: id, order_type: z.enum(['LIMIT', 'TRIGGER']).optional() });
export const CancelAllRequestSchema = z.strictObject({ market: marketSymbol.optional() });
export const CancelLegSchema = z.object({
  order_id: z.string(),
  order_type: z.enum(['LIMIT', 'TRIGGER']),
  /** The service's answer: SUBMITTED means queued (cancellation is asynchronous; follow orderStatus events). */
  status: z.enum(['SUBMITTED', 'REJECTED', 'FAILED', 'UNKNOWN']),
  reason: z.string().nullable(),
});
export const CancelResultSchema = z.object({ results: z.array(CancelLegSchema) });

export const ListedOrderViewSchema = z.object({
  order_id: z.string(),
  market: z.string(),
  side: z.enum(['buy', 'sell']),
  size: dec,
  filled_size: dec,
  limit_price: dec,
  order_type: z.string(),
  time_in_force: z.enum(TIME_IN_FORCE).nullable(),
  reduce_only: z.boolean(),
  trigger_price: dec.nullable(),
  tpsl: z.enum(['tp', 'sl']).nullable(),
  /** List vocabulary: open, triggered, filled, partially_filled_cancelled, cancelled, rejected. */
  status: z.enum(LIST_STATUSES),
  submitted_at: unixMs,
  status_at: unixMs,
  /** A modify is in flight: re-read instead of modifying again. */
  is_modifying: z.boolean(),
  /** A TP/SL leg awaiting its entry (PENDING_PARENT): not armed, cannot fire, cannot be modified. */
  pending_parent: z.boolean(),
  parent_order_id: z.string().nullable(),
  /** An armed trigger (open TRIGGER not waiting for an entry). */
  armed: z.boolean(),
  reason: z.string().nullable(),
  avg_fill_price: dec.nullable(),
});
export type ListedOrderView = z.infer<typeof ListedOrderViewSchema>;

/** An open order with the PENDING_PARENT legs that wait for it attached (they are not listed again at top level). */
export const OpenOrderViewSchema = ListedOrderViewSchema.extend({ legs: z.array(ListedOrderViewSchema) });
export type OpenOrderView = z.infer<typeof OpenOrderViewSchema>;

export const MarketFilterRequestSchema = z.strictObject({ market: marketSymbol.optional() });
export const OpenOrdersSchema = z.object({ orders: z.array(OpenOrderViewSchema) });
export const TriggersSchema = z.object({ triggers: z.array(ListedOrderViewSchema) });

// ---- positions ----------------------------------------------------------------------------------------

export const PositionViewSchema = z.object({
  id: z.string(),
  market: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  /** Signed: positive long, negative short. */
  size: dec,
  entry_price: dec,
  mark: dec.nullable(),
  /** |size| x mark. */
  notional: dec.nullable(),
  /** size x (mark - entry_price). */
  unrealized_pnl: dec.nullable(),
  /** unrealized_pnl / isolated_margin as a fraction. */
  return_on_margin: dec.nullable(),
  isolated_margin: dec,
  closeable: dec,
  status: z.string(),
  version: z.number().int(),
  // Risk (issue 14): liquidation estimate, its distance, the armed TP/SL, why closeable is 0 (ipcRisk.ts).
  ...POSITION_RISK_FIELDS,
});
export type PositionView = z.infer<typeof PositionViewSchema>;

export const PositionsListSchema = z.object({ positions: z.array(PositionViewSchema), at: unixMs });
export const ClosePositionRequestSchema = z.strictObject({
  market: marketSymbol,
  slippage_bps: z.number().int().min(0).max(5000).optional(),
  // ---- position management (partial and limit close) ----
  /** Close this percentage (1 to 100) of what is closeable. Not with `size`. */
  percent: decimalIn.optional(),
  /** Close this size (rounded down to sz_decimals, at most what is closeable). Not with `percent`. */
  size: decimalIn.optional(),
  /** A limit close: a reduce-only LIMIT GTC at this price, instead of a market close. */
  price: decimalIn.optional(),
  /** Guards the person confirmed (a limit close far past the mark is FAR_PRICE, refused without it). */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
/** An armed trigger a close cancelled first (lifecycle rule 4). */
export const CancelledTriggerSchema = z.strictObject({ order_id: z.string(), tpsl: z.enum(['tp', 'sl']).nullable(), trigger_price: dec.nullable() });
export const ClosePositionResultSchema = z.object({
  market: z.string(),
  closed: z.boolean(),
  order_id: z.string().nullable(),
  cancelled_triggers: z.number().int(),
  position_after: PositionViewSchema.nullable(),
  // ---- position management (partial and limit close) ----
  /** The armed triggers cancelled before the closing leg, with their levels. */
  cancelled: z.array(CancelledTriggerSchema),
  order_type: z.enum(['MARKET', 'LIMIT']),
  /** The closing leg's size and price (a market close's price is its slippage bound). */
  size: dec,
  limit_price: dec,
  /** A limit close resting on the book: the position closes as it fills (follow orderStatus and positions events). */
  resting: z.boolean(),
  /** The closing order's last known status (single-order vocabulary). */
  order_status: z.string().nullable(),
  /** The whole-position TP/SL lifted for the close and what became of them on what remains (issue 35). */
  rearm: z
    .object({
      rearmed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, limit_price: dec })),
      /** Levels the mark has passed: not re-armed; the trader chooses (close the rest, or a new level). */
      past_mark: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, mark: dec })),
      failed: z.array(z.object({ kind: z.enum(['tp', 'sl']), trigger_price: dec, message: z.string() })),
      summary: z.array(z.string()),
    })
    .nullable()
    .optional(),
});
export const ReversePositionRequestSchema = z.strictObject({
  market: marketSymbol,
  size: decimalIn.optional(),
  leverage: z.number().int().min(1).max(1000).optional(),
  slippage_bps: z.number().int().min(0).max(5000).optional(),
  /** Guards the person confirmed (LARGE_ORDER: the new position is above their notional cap). */
  confirm: z.array(z.enum(CONFIRMATION_CODES)).max(CONFIRMATION_CODES.length).optional(),
});
export const ReversePositionResultSchema = z.object({ market: z.string(), position_after: PositionViewSchema.nullable() });
export const AdjustMarginRequestSchema = z.strictObject({
  market: marketSymbol,
  /** Signed: positive adds margin from the free balance, negative removes it. */
  amount: signedDecimalIn,
});
export const AdjustMarginResultSchema = z.object({
  market: z.string(),
  amount: dec,
  request_id: z.string().nullable(),
  status: z.enum(['SUBMITTED', 'APPLIED', 'REJECTED', 'UNKNOWN']),
  reason: z.string().nullable(),
  explanation: z.string().nullable(),
});

// ---- position management: close all, TP/SL on the position --------------------------------------------

export const CloseAllRequestSchema = empty;
export const CloseAllMarketResultSchema = z.strictObject({
  market: z.string(),
  /** closed: flat; partly_closed: filled, but resting reduce-only orders kept part open; failed: see error; skipped: nothing closeable now. */
  outcome: z.enum(['closed', 'partly_closed', 'failed', 'skipped']),
  order_id: z.string().nullable(),
  cancelled: z.array(CancelledTriggerSchema),
  position_after: PositionViewSchema.nullable(),
  error: z.strictObject({ code: z.string(), message: z.string(), hint: z.string().nullable() }).nullable(),
});
export const CloseAllResultSchema = z.strictObject({ results: z.array(CloseAllMarketResultSchema) });

export const PositionTpslRequestSchema = z.strictObject({
  market: marketSymbol,
  /** A trigger price sets or moves the take-profit; null removes it; absent leaves it as it is. */
  tp: decimalIn.nullable().optional(),
  /** A trigger price sets or moves the stop-loss; null removes it; absent leaves it as it is. */
  sl: decimalIn.nullable().optional(),
  /** Tolerance of the fire price around the trigger price; default the user's default, else the market's slippage_bps. */
  slippage_bps: z.number().int().min(0).max(5000).optional(),
});
export const ArmedLevelSchema = z.strictObject({ order_id: z.string(), trigger_price: dec, limit_price: dec });
export const TpslChangeSchema = z.strictObject({
  kind: z.enum(['tp', 'sl']),
  action: z.enum(['set', 'move', 'remove']),
  /** The armed trigger moved or removed; null for a new level. */
  order_id: z.string().nullable(),
  from: dec.nullable(),
  to: dec.nullable(),
  /** Fire price of the new or moved trigger (the slippage bound around its trigger price). */
  fire_price: dec.nullable(),
  /** The change in words: "Move the stop-loss from 3,100 to 3,150". */
  summary: z.string(),
});
export type TpslChange = z.infer<typeof TpslChangeSchema>;
/** One signature of a review: what it is for, its EIP-712 digest and the exact typed data. */
export const SignRequestViewSchema = z.strictObject({ label: z.string(), digest: hex32, typed_data: TypedDataViewSchema });
export const PositionTpslPreviewSchema = z.strictObject({
  preview_id: opaqueId,
  valid_until: unixMs,
  wallet: address,
  /** The trading key that will sign. */
  signer: address,
  market: z.string(),
  side: z.enum(['LONG', 'SHORT']),
  size: dec,
  entry_price: dec,
  /** The mark the levels were checked against (TP above it for a long, SL below; a short the other way). */
  mark: dec,
  before: z.strictObject({ tp: ArmedLevelSchema.nullable(), sl: ArmedLevelSchema.nullable() }),
  after: z.strictObject({ tp: dec.nullable(), sl: dec.nullable() }),
  changes: z.array(TpslChangeSchema),
  summary: z.array(z.string()),
  warnings: z.array(z.string()),
  /** Every signature applying it takes, in signing order: Cancels, Modifies, then Orders. */
  requests: z.array(SignRequestViewSchema),
});
export type PositionTpslPreview = z.infer<typeof PositionTpslPreviewSchema>;
export const ApplyTpslRequestSchema = z.strictObject({ preview_id: opaqueId });
export const TpslChangeResultSchema = TpslChangeSchema.extend({
  /** The order that now carries the level (the new trigger, or the one that replaced the moved one). */
  new_order_id: z.string().nullable(),
  /** done: armed, moved or gone; dropped: the modify was dropped and the original stays; pending: not confirmed yet. */
  status: z.enum(['done', 'rejected', 'dropped', 'pending', 'unknown']),
  reason: z.string().nullable(),
});
export const PositionTpslResultSchema = z.strictObject({ market: z.string(), ok: z.boolean(), changes: z.array(TpslChangeResultSchema) });
export type PositionTpslResult = z.infer<typeof PositionTpslResultSchema>;

// ---- history ------------------------------------------------------------------------------------------

export const HistoryPageRequestSchema = z.strictObject({
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(200),
  market: marketSymbol.optional(),
});
/** Deposits and withdrawals are per account, with no market. */
export const MoneyHistoryPageRequestSchema = z.strictObject({
  offset: z.number().int().min(0).max(10_000_000),
  limit: z.number().int().min(1).max(200),
});

export const FillViewSchema = z.object({
  tid: z.string(),
  order_id: z.string(),
  market: z.string().nullable(),
  side: z.string().nullable(),
  dir: z.string(),
  price: dec,
  size: dec,
  fee: dec,
  closed_pnl: dec.nullable(),
  is_liquidation: z.boolean(),
  filled_at: unixMs,
});
export type FillView = z.infer<typeof FillViewSchema>;

export const FundingPaymentViewSchema = z.object({
  market: z.string().nullable(),
  direction: z.enum(['LONG', 'SHORT']),
  size: dec,
  /** Signed: negative paid, positive received. */
  payment: dec,
  /** Raw fraction, not a percentage. */
  funding_rate: dec,
  epoch_time: unixMs,
  settled_at: unixMs,
});
export const DepositViewSchema = z.object({
  tx_hash: z.string(),
  amount: dec,
  source: z.string(),
  status: z.enum(['DETECTED', 'CONFIRMED', 'BELOW_MIN']),
  detected_at: unixMs,
  credited_at: unixMs.nullable(),
});
export const WithdrawalRowViewSchema = z.object({
  withdrawal_id: z.string(),
  amount: dec,
  l1_send_amount: dec.nullable(),
  destination: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  failure_reason: z.string().nullable(),
  l1_tx_hash: z.string().nullable(),
  created_at: unixMs,
  completed_at: unixMs.nullable(),
});

function page<T extends z.ZodType>(row: T) {
  return z.object({ rows: z.array(row), total: z.number().int().nonnegative(), offset: z.number().int(), limit: z.number().int() });
}
export const OrderHistoryPageSchema = page(ListedOrderViewSchema);
export const FillsPageSchema = page(FillViewSchema);
export const FundingPageSchema = page(FundingPaymentViewSchema);
export const DepositsPageSchema = page(DepositViewSchema);
export const WithdrawalsPageSchema = page(WithdrawalRowViewSchema);

/**
 * Order history one row per order (src/shared/orders/orderHistory.ts): the latest row, its status changes
 * oldest first, the average fill price, and the price to show (a market order's average fill price).
 */
export const OrderStatusChangeViewSchema = z.object({ status: z.string(), at: unixMs, reason: z.string().nullable(), filled_size: dec, avg_fill_price: dec.nullable() });
export const OrderHistoryGroupViewSchema = z.object({
  order: ListedOrderViewSchema,
  changes: z.array(OrderStatusChangeViewSchema),
  avg_fill_price: dec.nullable(),
  price: dec.nullable(),
});
export type OrderHistoryGroupView = z.infer<typeof OrderHistoryGroupViewSchema>;
export const OrderHistoryGroupsPageSchema = page(OrderHistoryGroupViewSchema);

export const HISTORY_KINDS = ['orders', 'fills', 'funding', 'deposits', 'withdrawals'] as const;
export const ExportCsvRequestSchema = z.strictObject({ kind: z.enum(HISTORY_KINDS), market: marketSymbol.optional() });
/** saved is false when the user cancelled the save dialog. */
export const ExportCsvResultSchema = z.object({ saved: z.boolean(), file_name: z.string().nullable(), rows: z.number().int() });

// ---- withdrawals --------------------------------------------------------------------------------------

export const WithdrawPreviewRequestSchema = z.strictObject({ amount: decimalIn });
export const WithdrawCheckSchema = z.object({
  wallet: address,
  amount: dec,
  /** The default rail withdraws to the wallet itself. */
  destination: address,
  free_balance: dec,
  min_amount: dec,
  /** Present when the destination has no withdrawal history: the venue's one-time new-wallet fee will likely apply. */
  fee_preview: z.object({ new_wallet_fee: dec, estimated_l1_send_amount: dec, note: z.string() }).nullable(),
  warnings: z.array(z.string()),
});
export const WithdrawPreviewSchema = z.object({ check: WithdrawCheckSchema, review: SigningReviewSchema });
export type WithdrawPreview = z.infer<typeof WithdrawPreviewSchema>;

export const TrackedWithdrawalViewSchema = z.object({
  /** Local id of the intent: one intent, one signature, at most one withdrawal. */
  intent_id: z.string(),
  withdrawal_id: z.string().nullable(),
  amount: dec,
  destination: address,
  /** SIGNED (not confirmed sent), LANDED (finding it), TRACKING, DONE, UNMATCHED. */
  phase: z.enum(WITHDRAWAL_PHASES),
  status: z.enum(WITHDRAWAL_STATUSES).nullable(),
  reason: z.string().nullable(),
  new_wallet_fee: dec.nullable(),
  failure_reason: z.string().nullable(),
  l1_send_amount: dec.nullable(),
  l1_tx_hash: z.string().nullable(),
  created_at: unixMs.nullable(),
  completed_at: unixMs.nullable(),
  updated_at: unixMs,
  note: z.string().nullable(),
});
export type TrackedWithdrawalView = z.infer<typeof TrackedWithdrawalViewSchema>;
export const TrackedWithdrawalsSchema = z.object({ withdrawals: z.array(TrackedWithdrawalViewSchema) });

// ---- settings -----------------------------------------------------------------------------------------

/** A positive USDC amount with no sign: the order-notional cap. */
const orderNotionalCap = decimalIn
  .refine((v) => /[1-9]/.test(v), 'must be greater than 0 (use null to turn the cap off)');

export const PaletteSchema = z.enum(PALETTES);

const stopToleranceBps = z.number().int().min(MIN_STOP_TOLERANCE_BPS).max(MAX_STOP_TOLERANCE_BPS);
export const SettingsSchema = z.object({
  /** Default tolerance for MARKET orders; null: each market's own slippage_bps. */
  default_slippage_bps: z.number().int().min(0).max(5000).nullable(),
  /** Leverage of an opening order that names none, on every market without its own default below. */
  default_leverage: z.number().int().min(1).max(1000),
  /** Per-market defaults, by market symbol; they win over default_leverage. */
  leverage_by_market: z.record(marketSymbol, z.number().int().min(1).max(1000)),
  /** Show the signing review before every order (off: the renderer may place right after preview). */
  confirm_orders: z.boolean(),
  /** Keys expiring within this many days are flagged and reported by keyExpiry events. */
  key_expiry_warning_days: z.number().int().min(1).max(90),
  theme: z.enum(['dark', 'light']),
  /**
   * The colours of buy/sell and profit/loss: the usual green/red, a colour-blind-safe blue/orange, or a
   * high-contrast set (brighter text, stronger borders). Applied as data-palette on the root element.
   */
  palette: PaletteSchema,
  /** Warn (riskWarning event, notification) when a position's mark is within this percent of its liquidation estimate. */
  liquidation_warning_pct: LiquidationWarningPctSchema,
  /**
   * The fat-finger cap (USDC): an order whose notional is above it needs an explicit confirmation (the
   * review's LARGE_ORDER; `--allow-large` on the command line). null, the default, is off.
   */
  max_order_notional: orderNotionalCap.nullable(),
  /**
   * How far past its trigger a fired stop-loss (plain, bracket, trailing) may fill, in basis points:
   * default 1000 (10%, the venue's stop-market tolerance). Take-profits keep the market's slippage_bps.
   */
  stop_tolerance_bps: stopToleranceBps,
  /** Per-market stop tolerances, by market symbol; they win over stop_tolerance_bps. */
  stop_tolerance_by_market: z.record(marketSymbol, stopToleranceBps),
});
export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = z.strictObject({
  default_slippage_bps: z.number().int().min(0).max(5000).nullable().optional(),
  default_leverage: z.number().int().min(1).max(1000).optional(),
  /** Replaces the whole map; a market absent from it falls back to default_leverage. */
  leverage_by_market: z.record(marketSymbol, z.number().int().min(1).max(1000)).optional(),
  confirm_orders: z.boolean().optional(),
  key_expiry_warning_days: z.number().int().min(1).max(90).optional(),
  theme: z.enum(['dark', 'light']).optional(),
  palette: PaletteSchema.optional(),
  liquidation_warning_pct: LiquidationWarningPctSchema.optional(),
  max_order_notional: orderNotionalCap.nullable().optional(),
  stop_tolerance_bps: stopToleranceBps.optional(),
  /** Replaces the whole map; a market absent from it falls back to stop_tolerance_bps. */
  stop_tolerance_by_market: z.record(marketSymbol, stopToleranceBps).optional(),
});

export const NotificationPrefsSchema = z.object({
  /** Native notification on each fill. */
  fills: z.boolean(),
  /** When a TP/SL trigger fires. */
  trigger_fires: z.boolean(),
  /** When a withdrawal completes (or ends otherwise). */
  withdrawals: z.boolean(),
  /** When a trading key enters the expiry warning window or expires. */
  key_expiry: z.boolean(),
  /** When a position's mark comes within the warning distance of its liquidation estimate (once per crossing). */
  liquidation_warning: z.boolean(),
  /** When one of the user's alerts fires (price, move, funding, PnL, liquidation distance). */
  alerts: z.boolean(),
  // Sounds the window plays (generated, no audio files), each off until the user turns it on.
  /** A short chime on each fill. */
  sound_fills: z.boolean(),
  /** A double tone when a TP/SL trigger fires. */
  sound_trigger_fires: z.boolean(),
  /** A falling alarm on a liquidation-risk warning. */
  sound_risk_warnings: z.boolean(),
  /** A bell when an alert fires. */
  sound_alerts: z.boolean(),
});
export type NotificationPrefs = z.infer<typeof NotificationPrefsSchema>;
export const NotificationPrefsPatchSchema = z.strictObject({
  fills: z.boolean().optional(),
  trigger_fires: z.boolean().optional(),
  withdrawals: z.boolean().optional(),
  key_expiry: z.boolean().optional(),
  liquidation_warning: z.boolean().optional(),
  alerts: z.boolean().optional(),
  sound_fills: z.boolean().optional(),
  sound_trigger_fires: z.boolean().optional(),
  sound_risk_warnings: z.boolean().optional(),
  sound_alerts: z.boolean().optional(),
});

/**
 * The offline signer's identity for the animated eth-sign-request QR code (Keystone-style signers need
 * the wallet's master fingerprint and derivation path). No fingerprint: no QR code, the file and
 * hex-paste paths still work.
 */
export const AirgapSettingsSchema = z.object({ fingerprint: z.string().nullable(), path: z.string() });
export type AirgapSettings = z.infer<typeof AirgapSettingsSchema>;
export const AirgapSettingsPatchSchema = z.strictObject({
  fingerprint: z.string().regex(/^[0-9a-fA-F]{8}$/, 'expected the master fingerprint: 8 hex characters').nullable().optional(),
  path: z.string().min(1).max(64).optional(),
});

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

  // ---- Trezor (ipcTrezor.ts) ----
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

  // the portfolio rebuilt from the service's records (ipcPortfolio.ts)
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

  // ---- advanced execution (ipcTwap.ts) ----
  'markets:watchTrades': { request: WatchTradesRequestSchema, response: WatchingTradesSchema },
  'twap:preview': { request: TwapPreviewRequestSchema, response: TwapPreviewSchema },
  'twap:start': { request: TwapStartRequestSchema, response: TwapViewSchema },
  'twap:list': { request: empty, response: TwapListSchema },
  'twap:pause': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:resume': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:cancel': { request: TwapIdRequestSchema, response: TwapViewSchema },
  'twap:stop': { request: TwapIdRequestSchema, response: TwapViewSchema },
  // ---- alerts (ipcAlerts.ts) ----
  'alerts:list': { request: empty, response: AlertListSchema },
  'alerts:add': { request: AlertAddRequestSchema, response: AlertViewSchema },
  'alerts:remove': { request: AlertIdRequestSchema, response: AlertViewSchema },
  'alerts:setLevel': { request: AlertSetLevelRequestSchema, response: AlertViewSchema },
  // risk limits and panic (ipcLimits.ts)
  'risk:getLimits': { request: empty, response: LimitsViewSchema },
  'risk:setLimits': { request: LimitsSetRequestSchema, response: LimitsViewSchema },
  'risk:panic': { request: PanicRequestSchema, response: PanicReportSchema },
  'settings:getHotkeys': { request: empty, response: TradeHotkeysSchema },
  'settings:setHotkeys': { request: TradeHotkeysPatchSchema, response: TradeHotkeysSchema },
  // simulator prices: simulated, or live from a venue (ipcSimFeed.ts)
  'settings:getSimPrices': { request: empty, response: SimPricesSchema },
  'settings:setSimPrices': { request: SimPricesSchema, response: SimPricesSchema },
  'settings:getSimFeed': { request: empty, response: SimFeedViewSchema.nullable() },
  // tray mode: keep running in the tray while background work is active (ipcTray.ts)
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

// ---- events (main -> renderer) ------------------------------------------------------------------------

export const OrderStatusUpdateSchema = z.object({
  order_id: z.string(),
  market: z.string().nullable(),
  order_type: z.string().nullable(),
  /** Single-order vocabulary; UNKNOWN until first seen (orders persist asynchronously). */
  status: z.enum([...ORDER_STATUSES, 'UNKNOWN']),
  list_status: z.enum(LIST_STATUSES).nullable(),
  reason: z.string().nullable(),
  filled_size: dec.nullable(),
  avg_fill_price: dec.nullable(),
  armed: z.boolean(),
  terminal: z.boolean(),
  /** A modify replaced this order: follow the new id. */
  replaced_by: z.string().nullable(),
});
export type OrderStatusUpdate = z.infer<typeof OrderStatusUpdateSchema>;

export const MarkUpdateSchema = z.object({ market: z.string(), mark: dec, at: unixMs });
export type MarkUpdate = z.infer<typeof MarkUpdateSchema>;

export const KeyExpiryNoticeSchema = z.object({
  agent: address,
  name: z.string().nullable(),
  expires_at: unixMs,
  expires_in_ms: z.number().int(),
  expired: z.boolean(),
});
export type KeyExpiryNotice = z.infer<typeof KeyExpiryNoticeSchema>;

export const SessionEventSchema = z.object({ profile: ProfileNameSchema, wallet: WalletViewSchema, sim_running: z.boolean() });

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
  /** The Trezor needs the PIN, the passphrase or a press on the device, or is done (ipcTrezor.ts). */
  trezorPrompt: TrezorPromptSchema,
  /** Latest state per bridge or swap transfer (keyed by its local id). */
  transfers: z.object({ transfers: z.array(TransferViewSchema) }),
  /** Offline signer: show/export the request, answer with prompt:respondOfflineSignature. */
  offlineSignatureRequest: OfflineSignatureRequestSchema,
  /** Positions within the warning distance of their liquidation estimate (the latest set; empty clears). */
  riskWarning: RiskWarningEventSchema,
  /** TWAP progress, the latest view per TWAP that changed (ipcTwap.ts). */
  twap: TwapEventSchema,
  /** The watched market's trades tape (markets:watchTrades), newest first, latest per market. */
  trades: TradesEventSchema,
  /** The simulator's live feed changed (following a venue: live or down). */
  simFeed: SimFeedViewSchema,
  /** The profile's alerts, whole, whenever they change (ipcAlerts.ts). */
  alerts: AlertsEventSchema,
  /** Alerts that fired (toast, sound, live region); main also shows the native notification. */
  alertFired: AlertFiredEventSchema,
  /** The wallet's risk limits, lockout and room left, whenever they change or re-price (ipcLimits.ts). */
  riskLimits: LimitsViewSchema,
  /** The tray's Panic item: open the panic confirmation (the page asks; main never panics unconfirmed). */
  panicRequest: z.object({}),
  /** How far a portfolio read is while it pages, then how it ended (ipcPortfolio.ts). */
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
