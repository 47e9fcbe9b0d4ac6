/**
 * The IPC contract of the companion screens: bridge funding, aggregator swaps, partner points, the
 * assistant, and their settings (service URLs, per-chain JSON-RPC URLs, the partner code). index.ts
 * attaches these schemas to their channels in the one channel table.
 *
 * Amounts the user types are decimal text in the token's own units plus the token's decimals (read from
 * the chain by bridge:tokenInfo); main turns them into the integer smallest units the services take, and
 * every amount it returns is such an integer string, with the decimals to show it by.
 */
import { z } from 'zod';
import { addressSchema, decimalIn, decimalOut } from '../fieldSchemas.js';
import { BRIDGE_CHAIN_IDS, BRIDGE_PROTOCOL_IDS } from '../protocol/index.js';

const integerOut = z.string().regex(/^(0|[1-9]\d*)$/, 'expected an integer string');
const dec = decimalOut;
const address = addressSchema;
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a transaction hash (0x + 64 hex)');
/** Chain ids are lowercase; ids beyond the spec's list still reach the service (which may know more). */
const chainId = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'expected a lowercase chain id such as "arbitrum"');
/** An address, the native placeholder, or (on venue_core) a 16-byte venue token id. */
const tokenRef = z.string().regex(/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{32})$/, 'expected a token address (0x + 40 hex) or a venue token id (0x + 32 hex)');
const unixMs = z.number().int().nonnegative();
const opaqueId = z.string().min(1).max(64);
const tokenDecimals = z.number().int().min(0).max(36);
const usd = decimalIn;
const httpUrl = z.string().min(1).max(2048);

export const COMPANION_SERVICE_NAMES = ['bridge', 'platform', 'aggregator', 'inference'] as const;
export const CompanionServiceSchema = z.enum(COMPANION_SERVICE_NAMES);

// ---- settings -----------------------------------------------------------------------------------------

export const CompanionSettingsViewSchema = z.object({
  /** Resolved service roots, or null with the reason when one is not set (mainnet needs them set). */
  services: z.array(
    z.object({
      service: CompanionServiceSchema,
      url: z.string().nullable(),
      /** 'stored', 'environment', 'simulator' (sim default) or 'unset'. */
      source: z.enum(['stored', 'environment', 'simulator', 'unset']),
    }),
  ),
  /** Every chain the spec names, with its JSON-RPC URL when it has one (venue_core has no EVM RPC). */
  chains: z.array(
    z.object({
      chain: z.string(),
      evm: z.boolean(),
      /** EIP-155 id the RPC must serve (decimal string), null for venue_core. */
      evm_chain_id: z.string().nullable(),
      rpc_url: z.string().nullable(),
      rpc_source: z.enum(['stored', 'environment', 'simulator', 'unset']),
    }),
  ),
  protocols: z.array(z.string()),
  native_token: address,
  partner_code: z.string().nullable(),
  /** The bridge's default slippage (100 = 1%) and the largest the app accepts. */
  default_slippage_bps: z.number().int(),
  max_slippage_bps: z.number().int(),
  /** The core-spot minimum for transfers to venue_evm, in USD. */
  core_spot_min_usd: dec,
});
export type CompanionSettingsView = z.infer<typeof CompanionSettingsViewSchema>;

export const SetRpcUrlRequestSchema = z.strictObject({ chain: chainId, url: httpUrl.nullable() });
export const SetPartnerCodeRequestSchema = z.strictObject({ code: z.string().min(1).max(64) });
export const SetServiceUrlRequestSchema = z.strictObject({ service: CompanionServiceSchema, url: httpUrl });

// ---- receivers ----------------------------------------------------------------------------------------
//
// Bridges and swaps deliver to the connected main wallet, or to an address on the profile's receiver
// allowlist; main refuses any other receiver (RECEIVER_NOT_ALLOWED) before quoting. The list changes only
// through these channels, and adding is two calls: companion:addReceiver checks the address and answers a
// pending confirmation with main's warning; companion:confirmReceiver adds it, and only with the address
// given AGAIN (the user types it a second time). An id alone cannot add anything, so a single injected call
// that replays an id does not either; the requests are strict objects so nothing else can ride along.

/** Main's warning, shown before the user confirms a receiver. */
export const RECEIVER_WARNING = 'Transfers to this address leave your wallet: only add addresses you control or trust.';
const receiverLabel = z.string().min(1).max(48);

export const ReceiverViewSchema = z.object({ address, label: z.string(), added_at: unixMs });
export type ReceiverView = z.infer<typeof ReceiverViewSchema>;
export const ReceiversSchema = z.object({ receivers: z.array(ReceiverViewSchema) });
export type ReceiversView = z.infer<typeof ReceiversSchema>;

export const AddReceiverRequestSchema = z.strictObject({ address, label: receiverLabel });
export const PendingReceiverSchema = z.object({
  /** Handle for companion:confirmReceiver; valid until expires_at, for this address only. */
  confirmation_id: opaqueId,
  /** Checksummed, as it will be stored. */
  address,
  label: z.string(),
  warning: z.string(),
  expires_at: unixMs,
});
export type PendingReceiver = z.infer<typeof PendingReceiverSchema>;
/** `address` is the address typed a second time; it must be the pending one's. */
export const ConfirmReceiverRequestSchema = z.strictObject({ confirmation_id: opaqueId, address });
export const RemoveReceiverRequestSchema = z.strictObject({ address });

/** The receiver channels' contract; src/shared/ipc.ts spreads it into its channel table. */
export const RECEIVER_CHANNELS = {
  'companion:listReceivers': { request: z.strictObject({}), response: ReceiversSchema },
  'companion:addReceiver': { request: AddReceiverRequestSchema, response: PendingReceiverSchema },
  'companion:confirmReceiver': { request: ConfirmReceiverRequestSchema, response: ReceiversSchema },
  'companion:removeReceiver': { request: RemoveReceiverRequestSchema, response: ReceiversSchema },
} as const;

// ---- tokens -------------------------------------------------------------------------------------------

export const TokenInfoRequestSchema = z.strictObject({ chain: chainId, token: tokenRef });
export const TokenInfoSchema = z.object({
  chain: z.string(),
  token: z.string(),
  native: z.boolean(),
  /** Read from the chain (ERC-20 symbol()); null when the chain has no RPC set or the token does not say. */
  symbol: z.string().nullable(),
  /** ERC-20 decimals(), 18 for the native token; null when unknown (the user then types them). */
  decimals: z.number().int().nullable(),
  /** The connected wallet's balance in smallest units, when it could be read. */
  balance: integerOut.nullable(),
  /** Why symbol/decimals are missing, for people. */
  note: z.string().nullable(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

// ---- bridge -------------------------------------------------------------------------------------------

export const BridgeQuoteRequestSchema = z.strictObject({
  from_chain: chainId,
  to_chain: chainId,
  from_token: tokenRef,
  to_token: tokenRef,
  /** In the source token's units ("0.25" ETH), with its decimals. */
  amount: decimalIn,
  decimals: tokenDecimals,
  protocols: z.array(z.enum(BRIDGE_PROTOCOL_IDS)).min(1).max(BRIDGE_PROTOCOL_IDS.length),
  /** Integer, 100 = 1%; the service's default when omitted. */
  slippage_bps: z.number().int().min(0).max(10_000).optional(),
  /** Default: the main wallet. Any other address must be on the receiver allowlist (RECEIVER_NOT_ALLOWED). */
  receiver: address.optional(),
  /** USD value of the amount, for the core-spot minimum on transfers to venue_evm. */
  source_usd_value: usd.optional(),
});
export type BridgeQuoteRequest = z.input<typeof BridgeQuoteRequestSchema>;

export const BridgeRouteViewSchema = z.object({
  /** Index in the service's answer: what /encode takes. */
  quote_idx: z.number().int().nonnegative(),
  protocol: z.string(),
  /** Smallest units of the destination token. */
  amount_out: integerOut,
  /** amount_out less the slippage tolerance: a re-quoted route below this is never taken silently. */
  min_amount_out: integerOut,
  /** Difference to the best route's amount_out (0 for the best). */
  shortfall: integerOut,
  best: z.boolean(),
});
export type BridgeRouteView = z.infer<typeof BridgeRouteViewSchema>;

export const BridgeQuoteViewSchema = z.object({
  /** Handle for bridge:send (the quote and its parameters stay in main). */
  quote_id: opaqueId,
  request_id: z.string().nullable(),
  quoted_at: unixMs,
  /** quoted_at + 30 s: encode before this, or the app re-quotes automatically. */
  expires_at: unixMs,
  from_chain: z.string(),
  to_chain: z.string(),
  from_token: z.string(),
  to_token: z.string(),
  amount_units: integerOut,
  sender: address,
  receiver: address,
  slippage_bps: z.number().int(),
  /** Best first. */
  routes: z.array(BridgeRouteViewSchema),
  core_spot: z.boolean(),
  source_usd_value: dec.nullable(),
  partner_code: z.string().nullable(),
});
export type BridgeQuoteView = z.infer<typeof BridgeQuoteViewSchema>;

const PointsUsdSchema = z.strictObject({ src: usd, dst: usd });

export const BridgeSendRequestSchema = z.strictObject({
  quote_id: opaqueId,
  /** The route chosen among the quote's (its quote_idx). */
  quote_idx: z.number().int().min(0).max(1000),
  /** USD values of both sides, to estimate points before sending. */
  points_usd: PointsUsdSchema.optional(),
});

export const TRANSFER_PHASES = [
  'preparing',
  'estimating-points',
  'quoting',
  'encoding',
  'requoting',
  'checking-allowance',
  'approving',
  'signing',
  'sending',
  'confirming',
  'tracking',
  'done',
  'refunded',
  'failed',
  'error',
] as const;
export type TransferPhase = (typeof TRANSFER_PHASES)[number];

export const TransferViewSchema = z.object({
  /** Local id of the transfer. */
  id: z.string(),
  kind: z.enum(['bridge', 'swap']),
  phase: z.enum(TRANSFER_PHASES),
  /** The phase reached an end: done, refunded, failed or error. */
  final: z.boolean(),
  from_chain: z.string(),
  to_chain: z.string(),
  from_token: z.string(),
  to_token: z.string(),
  /** Smallest units of the source token; null for a transfer only tracked by its hash. */
  amount_units: integerOut.nullable(),
  protocol: z.string().nullable(),
  /** What the chosen route (or swap quote) said would arrive, smallest units. */
  expected_out: integerOut.nullable(),
  requotes: z.number().int().nonnegative(),
  approve_tx: txHash.nullable(),
  src_tx: txHash.nullable(),
  /** The bridge's state of the orders of src_tx: unseen until indexed. */
  bridge_state: z.enum(['unseen', 'pending', 'done', 'refunded', 'failed']).nullable(),
  bridge_orders: z.number().int().nonnegative(),
  points: z.object({ point: z.number(), partner_bonus: z.number(), source: z.string() }).nullable(),
  /** Why no points estimate is recorded although one was asked for (the send went ahead without it). */
  points_error: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }).nullable(),
  /** The latest failed read of the bridge order while tracking (cleared by the next good read). */
  poll_error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional(), since: unixMs }).nullable(),
  /** Every phase reached, in order, with when (the event stream coalesces; this keeps them all). */
  steps: z.array(z.object({ phase: z.enum(TRANSFER_PHASES), at: unixMs })),
  created_at: unixMs,
  updated_at: unixMs,
});
export type TransferView = z.infer<typeof TransferViewSchema>;
export const TransfersSchema = z.object({ transfers: z.array(TransferViewSchema) });

export const TrackTransferRequestSchema = z.strictObject({ src_tx: txHash, from_chain: chainId.optional(), to_chain: chainId.optional() });
export const TransferIdRequestSchema = z.strictObject({ id: opaqueId });

// ---- swap ---------------------------------------------------------------------------------------------

export const SwapQuoteRequestSchema = z.strictObject({
  chain: chainId,
  token_in: address,
  token_out: address,
  amount: decimalIn,
  decimals: tokenDecimals,
  /** Fraction, 0.005 = 0.5% (this API's unit differs from the bridge's basis points). */
  slippage: decimalIn.refine((v) => /^0\.\d*[1-9]/.test(v), 'expected a fraction between 0 and 1 such as "0.005"'),
  /** Default: the main wallet. Any other address must be on the receiver allowlist (RECEIVER_NOT_ALLOWED). */
  receiver: address.optional(),
});
export type SwapQuoteRequest = z.input<typeof SwapQuoteRequestSchema>;

export const SwapQuoteViewSchema = z.object({
  quote_id: opaqueId,
  chain: z.string(),
  token_in: address,
  token_out: address,
  amount_units: integerOut,
  amount_out: integerOut.nullable(),
  min_amount_out: integerOut.nullable(),
  slippage: dec,
  receiver: address,
  partner_code: z.string(),
  /** The contract the swap transaction calls (an ERC-20 input is approved to it first). */
  router: address,
  /** Wei sent with the transaction. */
  value: integerOut,
  quoted_at: unixMs,
});
export type SwapQuoteView = z.infer<typeof SwapQuoteViewSchema>;

export const SwapExecuteRequestSchema = z.strictObject({ quote_id: opaqueId, points_usd: PointsUsdSchema.optional() });

// ---- points -------------------------------------------------------------------------------------------

export const PointsEstimateRequestSchema = z.strictObject({
  src_chain: chainId,
  dst_chain: chainId,
  src_token: tokenRef,
  dst_token: tokenRef,
  src_usd: usd,
  dst_usd: usd,
});
export const PointsEstimateViewSchema = z.object({
  point: z.number(),
  partner_bonus: z.number(),
  source: z.string(),
  /** Unix seconds the estimate is for. */
  from: z.number().int(),
});
export type PointsEstimateView = z.infer<typeof PointsEstimateViewSchema>;

export const CreditedPointsRequestSchema = z.strictObject({ from: unixMs, to: unixMs });
export const CreditedPointsViewSchema = z.object({
  user: address,
  /** Unix seconds. */
  from: z.number().int(),
  to: z.number().int(),
  point: z.number(),
  partner_bonuses: z.array(z.object({ code: z.string(), bonus: z.number() })),
  partner_code: z.string().nullable(),
  partner_bonus: z.number().nullable(),
});
export type CreditedPointsView = z.infer<typeof CreditedPointsViewSchema>;

// ---- assistant ----------------------------------------------------------------------------------------

export const AssistantStatusSchema = z.object({
  /** A key is in the OS keychain: the panel is on. */
  enabled: z.boolean(),
  model: z.string().nullable(),
  inference_url: z.string().nullable(),
});
export type AssistantStatus = z.infer<typeof AssistantStatusSchema>;
/** The key goes to the OS keychain and is never returned, logged or stored elsewhere. */
export const SetInferenceKeyRequestSchema = z.strictObject({ api_key: z.string().min(8).max(512) });
export const SetAssistantModelRequestSchema = z.strictObject({ model: z.string().min(1).max(128) });
export const AssistantModelsSchema = z.object({ models: z.array(z.string()) });
export const AskRequestSchema = z.strictObject({ question: z.string().min(1).max(2_000) });
export const AssistantAnswerViewSchema = z.object({
  answer: z.string(),
  model: z.string(),
  finish_reason: z.string().nullable(),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  context: z.object({ positions: z.number().int(), open_orders: z.number().int(), fills: z.number().int() }),
});
export type AssistantAnswerView = z.infer<typeof AssistantAnswerViewSchema>;

/** Re-exported so the renderer's pickers list exactly the spec's ids. */
export { BRIDGE_CHAIN_IDS, BRIDGE_PROTOCOL_IDS };
