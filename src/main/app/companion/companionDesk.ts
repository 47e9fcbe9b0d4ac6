/**
 * The companion screens' use cases for one profile, behind the bridge:*, swap:*, transfers:*, points:*,
 * assistant:* and companion:* channels: settings (service and per-chain JSON-RPC URLs, the partner code),
 * token look-ups, bridge quotes whose chosen route is encoded and sent from the main wallet, aggregator
 * swaps, points, and the assistant. Like AppCore it calls services, never HTTP, and holds no key: source
 * transactions are signed by the wallet session's transaction signer, the inference key stays in the OS
 * keychain.
 *
 * A quote stays in main under an opaque id, so what is sent is exactly what the user compared; one quote
 * sends at most once. A send answers at once with the transfer it started; its progress (encode, re-quote,
 * approve, sign, send, confirm, bridge order) arrives on the `transfers` event.
 */
import { randomUUID } from 'node:crypto';
import { sameAddress } from '../../../shared/identity/index.js';
import {
  BRIDGE_CHAIN_IDS,
  BRIDGE_PROTOCOL_IDS,
  COMPANION_SERVICE_NAMES,
  type AssistantAnswerView,
  type AssistantStatus,
  type BridgeQuoteRequest,
  type BridgeQuoteView,
  type CompanionSettingsView,
  type CreditedPointsView,
  type PointsEstimateView,
  type SwapQuoteRequest,
  type SwapQuoteView,
  type TokenInfo,
  type TransferView,
} from '../../../shared/ipc.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../shared/protocol/index.js';
import { withCompanionFailures } from '../../services/companion/companionFailures.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import { clearRpcUrl, describeCompanionUrl, describeRpcUrl, resolvePartnerCode, resolveReceiptTimeoutMs, saveCompanionUrl, savePartnerCode, setCheckedRpcUrl, type CompanionService } from '../../services/companion/companionSettings.js';
import { EVM_CHAIN_IDS, NATIVE_SYMBOLS, VENUE_CORE, isNativeToken, parseEvmChainId, parseUnits } from '../../services/chains/chainIds.js';
import { readTokenMetadata } from '../../services/chains/erc20.js';
import { parseWei, type SendProgress } from '../../services/chains/sendTransaction.js';
import { CORE_SPOT_MIN_USD, checkCoreSpotRules } from '../../services/bridge/coreSpotRules.js';
import { minimumOut } from '../../services/bridge/encode.js';
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS, validateQuoteInput } from '../../services/bridge/params.js';
import { REQUEST_ID_LIFETIME_MS } from '../../services/bridge/encode.js';
import { requestQuote, type BridgeQuote } from '../../services/bridge/quotes.js';
import { sendQuotedBridge, type BridgeSendProgress } from '../../services/bridge/send.js';
import { parseSrcTx } from '../../services/bridge/track.js';
import { executeSwap, type SwapProgress } from '../../services/swap/execute.js';
import { quoteSwap, validateSwapInput, type SwapParams } from '../../services/swap/quote.js';
import type { SwapQuote } from '../../api/companion/schemas.js';
import { estimatePoints, type PointsEstimateResult } from '../../services/points/estimate.js';
import { creditedPoints } from '../../services/points/leaderboard.js';
import { Assistant, assistantModel, chatModelIds, setAssistantModel, AssistantOffError } from '../../services/assistant/assistant.js';
import type { InferenceKeyStore } from '../../services/assistant/apiKeyStore.js';
import type { AccountReads } from '../../services/assistant/accountContext.js';
import { EvmRpcClient } from '../../api/evm/evmRpc.js';
import { OperationError, ValidationError, describeFailure } from '../../services/errors.js';
import type { AppLogger } from '../adapters.js';
import type { WalletSession } from '../wallet.js';
import type { TransferTracker } from './transferTracker.js';

/** Quotes kept for sending; the oldest goes first (each is also spent by its send). */
const MAX_QUOTES = 16;

export interface CompanionDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  tracker: TransferTracker;
  inferenceKeys: InferenceKeyStore;
  reads: AccountReads;
  logger: AppLogger;
  fetch?: typeof fetch;
}

export class CompanionDesk {
  private readonly bridgeQuotes = new Map<string, BridgeQuote>();
  private readonly swapQuotes = new Map<string, { params: SwapParams; quote: SwapQuote }>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: CompanionDeskOptions) {}

  private get c(): CompanionContext {
    return this.o.companion;
  }

  // ---- settings -----------------------------------------------------------------------------------------

  settingsView(): CompanionSettingsView {
    const input = this.c.resolveInput;
    let partner: string | null = null;
    try {
      partner = resolvePartnerCode(input) ?? null;
    } catch (err) {
      // A malformed code in the environment is shown as unset and logged; saving a new one replaces it.
      this.o.logger.warn(`[companion] the partner code is not usable: ${(err as Error).message}`);
    }
    return {
      services: COMPANION_SERVICE_NAMES.map((service) => ({ service, ...describeCompanionUrl(input, service) })),
      chains: BRIDGE_CHAIN_IDS.map((chain) => {
        const id = EVM_CHAIN_IDS[chain];
        const rpc = id === undefined ? { url: null, source: 'unset' as const } : describeRpcUrl(input, chain);
        return { chain, evm: id !== undefined, evm_chain_id: id === undefined ? null : id.toString(), rpc_url: rpc.url, rpc_source: rpc.source };
      }),
      protocols: [...BRIDGE_PROTOCOL_IDS],
      native_token: NATIVE_TOKEN_PLACEHOLDER,
      partner_code: partner,
      default_slippage_bps: DEFAULT_SLIPPAGE_BPS,
      max_slippage_bps: MAX_SLIPPAGE_BPS,
      core_spot_min_usd: CORE_SPOT_MIN_USD,
    };
  }

  /**
   * Stores (or with null, clears) a chain's JSON-RPC URL. A URL is stored only after it answered
   * eth_chainId with the chain's own id: a URL of another chain would have transactions signed for it.
   */
  async setRpcUrl(req: { chain: string; url: string | null }): Promise<CompanionSettingsView> {
    const chain = parseEvmChainId(req.chain, 'chain');
    if (req.url === null) {
      clearRpcUrl(this.c.resolveInput, chain);
      return this.settingsView();
    }
    // The same check as `perps bridge rpc set` (companionSettings.setCheckedRpcUrl); the URL is never logged (it may carry a key).
    await setCheckedRpcUrl(this.c.resolveInput, chain, req.url, { field: 'url', ...(this.o.fetch ? { fetch: this.o.fetch } : {}) });
    this.o.logger.info(`[companion] JSON-RPC URL of ${chain} stored`);
    return this.settingsView();
  }

  setPartnerCode(req: { code: string }): CompanionSettingsView {
    savePartnerCode(this.c.resolveInput, req.code);
    return this.settingsView();
  }

  setServiceUrl(req: { service: CompanionService; url: string }): CompanionSettingsView {
    saveCompanionUrl(this.c.resolveInput, req.service, req.url);
    return this.settingsView();
  }

  // ---- tokens -------------------------------------------------------------------------------------------

  /** Symbol, decimals and the wallet's balance, read from the chain; a note says why any is missing. */
  async tokenInfo(req: { chain: string; token: string }): Promise<TokenInfo> {
    const native = isNativeToken(req.token);
    const base = { chain: req.chain, token: req.token, native };
    if (req.chain === VENUE_CORE) {
      return { ...base, symbol: null, decimals: null, balance: null, note: "A venue spot token id: the venue's spot metadata gives its decimals; enter them to read amounts in tokens." };
    }
    if (EVM_CHAIN_IDS[req.chain] === undefined) {
      return { ...base, symbol: null, decimals: native ? 18 : null, balance: null, note: `${req.chain} is not a chain the app has an EVM chain id for, so it cannot read the token.` };
    }
    const wallet = this.o.wallet.address();
    let rpc: EvmRpcClient;
    try {
      rpc = await this.c.rpc(req.chain);
    } catch (err) {
      // The picker still works without a chain connection: the user types the decimals.
      return { ...base, symbol: native ? (NATIVE_SYMBOLS[req.chain] ?? null) : null, decimals: native ? 18 : null, balance: null, note: (err as Error).message };
    }
    try {
      if (native) {
        const balance = wallet ? await withCompanionFailures(() => rpc.balance(wallet)) : null;
        return { ...base, symbol: NATIVE_SYMBOLS[req.chain] ?? null, decimals: 18, balance: balance === null ? null : balance.toString(), note: null };
      }
      const meta = await withCompanionFailures(() => readTokenMetadata(rpc, req.token, wallet));
      return { ...base, symbol: meta.symbol, decimals: meta.decimals, balance: meta.balance === null ? null : meta.balance.toString(), note: null };
    } finally {
      rpc.destroy();
    }
  }

  // ---- bridge -------------------------------------------------------------------------------------------

  /** Validates, checks the core-spot rules, and quotes with the main wallet as sender. */
  async bridgeQuote(req: BridgeQuoteRequest): Promise<BridgeQuoteView> {
    const sender = this.o.wallet.requireAddress();
    const partner = resolvePartnerCode(this.c.resolveInput);
    const params = validateQuoteInput({
      fromChain: req.from_chain,
      toChain: req.to_chain,
      fromToken: req.from_token,
      toToken: req.to_token,
      amount: parseUnits(req.amount, 'amount', req.decimals),
      protocols: req.protocols,
      ...(req.slippage_bps !== undefined ? { slippageBps: req.slippage_bps } : {}),
      sender,
      receiver: req.receiver ?? sender,
      ...(partner !== undefined ? { source: partner } : {}),
    });
    const check = await checkCoreSpotRules(params, { sourceUsdValue: req.source_usd_value });
    const quote = await requestQuote({ bridge: this.c.bridge, now: () => this.c.now() }, params, check);
    if (quote.routes.length === 0) {
      throw new OperationError('NO_ROUTES', 'the bridge returned no route for this transfer', {
        hint: 'Try other protocols, another amount (some rails have minimums or maximums) or other tokens.',
      });
    }
    const id = randomUUID();
    remember(this.bridgeQuotes, id, quote);
    const slippage = params.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
    const best = BigInt(quote.ranked[0]!.amountOut);
    return {
      quote_id: id,
      request_id: quote.requestId,
      quoted_at: quote.quotedAt,
      expires_at: quote.quotedAt + REQUEST_ID_LIFETIME_MS,
      from_chain: params.fromChain,
      to_chain: params.toChain,
      from_token: params.fromToken,
      to_token: params.toToken,
      amount_units: params.amount,
      sender,
      receiver: params.receiver ?? sender,
      slippage_bps: slippage,
      routes: quote.ranked.map((r, i) => ({
        quote_idx: r.quoteIdx,
        protocol: r.protocol,
        amount_out: r.amountOut,
        min_amount_out: minimumOut(r.amountOut, slippage).toString(),
        shortfall: (best - BigInt(r.amountOut)).toString(),
        best: i === 0,
      })),
      core_spot: quote.coreSpot,
      source_usd_value: quote.sourceUsdValue,
      partner_code: params.source ?? null,
    };
  }

  /** Starts sending the chosen route of a quote; answers with the transfer, whose progress follows as events. */
  bridgeSend(req: { quote_id: string; quote_idx: number; points_usd?: { src: string; dst: string } | undefined }): TransferView {
    const quote = this.bridgeQuotes.get(req.quote_id);
    if (!quote) throw new OperationError('QUOTE_UNKNOWN', 'this quote is no longer available (it was sent already, or replaced by newer ones)', { hint: 'Get quotes again.' });
    const route = quote.routes.find((r) => r.quoteIdx === req.quote_idx);
    if (!route) throw new ValidationError(`the quote has no route ${req.quote_idx}`, { field: 'quote_idx' });
    const signer = this.o.wallet.requireTransactionSigner();
    if (quote.params.sender !== undefined && !sameAddress(quote.params.sender, signer.address)) {
      throw new ValidationError(`the quote was made for ${quote.params.sender}, but the connected wallet is ${signer.address}`, { field: 'quote_id', hint: 'Get quotes again.' });
    }
    // An unset RPC URL (or a malformed receipt wait) is an answer now, not a transfer that fails a moment later.
    this.c.rpcUrl(quote.params.fromChain);
    const receiptTimeoutMs = resolveReceiptTimeoutMs(this.c.resolveInput);
    this.bridgeQuotes.delete(req.quote_id);
    const t = this.o.tracker.create({
      kind: 'bridge',
      from_chain: quote.params.fromChain,
      to_chain: quote.params.toChain,
      from_token: quote.params.fromToken,
      to_token: quote.params.toToken,
      amount_units: quote.params.amount,
      protocol: route.protocol,
      expected_out: route.amountOut,
    });
    this.background(t.id, async () => {
      let result;
      try {
        result = await sendQuotedBridge(this.c, {
          signer,
          quote: { existing: quote, quoteIdx: route.quoteIdx },
          ...(req.points_usd ? { pointsUsd: req.points_usd } : {}),
          ...(receiptTimeoutMs !== undefined ? { receiptTimeoutMs } : {}),
          onProgress: (p) => this.bridgeProgress(t.id, p),
        });
      } catch (err) {
        // Once the source transaction is broadcast (its hash is saved on `confirming`), only a reverted
        // receipt proves nothing moved: any other failure (the receipt wait timed out, the RPC went away)
        // leaves an order the bridge may deliver, so it is followed rather than ended.
        if (this.o.tracker.get(t.id)?.src_tx && describeFailure(err).code !== 'TX_REVERTED') {
          this.o.tracker.followAfterSendFailure(t.id, err);
          return;
        }
        throw err;
      }
      this.o.tracker.update(t.id, {
        phase: 'tracking',
        bridge_state: 'unseen',
        src_tx: result.srcTx,
        approve_tx: result.transaction.approval?.hash ?? null,
        protocol: result.route.protocol,
        expected_out: result.route.amountOut,
        requotes: result.requotes,
        points: pointsView(result.points),
        points_error: this.pointsFailure(t.id, result.pointsError),
      });
      this.o.tracker.follow(t.id);
    });
    return t;
  }

  /**
   * Follows a bridge order by its source transaction (one sent elsewhere, or after a reinstall). A known
   * transfer is followed again when it ended in error after its source transaction was sent (the user
   * asks explicitly); a reverted one, or one that reached the bridge's end, is returned as it is.
   */
  bridgeTrack(req: { src_tx: string; from_chain?: string | undefined; to_chain?: string | undefined }): TransferView {
    const srcTx = parseSrcTx(req.src_tx);
    const known = this.o.tracker.findBySrcTx(srcTx);
    if (known) return this.o.tracker.refollow(known.id);
    const t = this.o.tracker.create({
      kind: 'bridge',
      phase: 'tracking',
      src_tx: srcTx,
      from_chain: req.from_chain ?? 'unknown',
      to_chain: req.to_chain ?? 'unknown',
      from_token: '',
      to_token: '',
      amount_units: null,
      protocol: null,
      expected_out: null,
    });
    this.o.tracker.follow(t.id);
    return t;
  }

  private bridgeProgress(id: string, p: BridgeSendProgress): void {
    if ('step' in p) return this.transactionProgress(id, p);
    const t = this.o.tracker.get(id);
    if (p.phase === 'requoting') this.o.tracker.update(id, { phase: 'requoting', requotes: Math.max(t?.requotes ?? 0, p.attempt) });
    else if (p.phase === 'encoding') this.o.tracker.update(id, { phase: 'encoding', protocol: p.protocol, expected_out: p.amountOut });
    else this.o.tracker.update(id, { phase: p.phase });
  }

  private transactionProgress(id: string, p: SendProgress): void {
    // The source hash is saved as soon as it exists: a restart then follows the order instead of losing it.
    this.o.tracker.update(id, {
      phase: p.phase,
      ...(p.hash !== undefined && p.tx === 'approve' ? { approve_tx: p.hash } : {}),
      ...(p.hash !== undefined && p.tx === 'main' ? { src_tx: p.hash } : {}),
    });
  }

  // ---- swap ---------------------------------------------------------------------------------------------

  async swapQuote(req: SwapQuoteRequest): Promise<SwapQuoteView> {
    const receiver = this.o.wallet.requireAddress();
    const params = validateSwapInput({
      chain: req.chain,
      tokenIn: req.token_in,
      tokenOut: req.token_out,
      amountIn: parseUnits(req.amount, 'amount', req.decimals),
      slippage: req.slippage,
      receiver,
      source: this.partnerCode('for aggregator swaps (it attributes the swap for bonus points)'),
    });
    const quote = await quoteSwap(this.c, params);
    const id = randomUUID();
    remember(this.swapQuotes, id, { params, quote });
    return {
      quote_id: id,
      chain: params.chain,
      token_in: params.tokenIn,
      token_out: params.tokenOut,
      amount_units: params.amountIn,
      amount_out: quote.amountOut ?? null,
      min_amount_out: quote.minAmountOut ?? null,
      slippage: params.slippage,
      receiver: params.receiver,
      partner_code: params.source,
      router: quote.tx.to,
      value: parseWei(quote.tx.value).toString(),
      quoted_at: this.c.now(),
    };
  }

  /**
   * Quotes the same swap again (the transaction comes from a fresh quote, held to the reviewed quote's
   * minimum), signs and sends it.
   */
  swapExecute(req: { quote_id: string; points_usd?: { src: string; dst: string } | undefined }): TransferView {
    const entry = this.swapQuotes.get(req.quote_id);
    if (!entry) throw new OperationError('QUOTE_UNKNOWN', 'this swap quote is no longer available (it was executed already, or replaced by newer ones)', { hint: 'Quote the swap again.' });
    const signer = this.o.wallet.requireTransactionSigner();
    if (!sameAddress(entry.params.receiver, signer.address)) {
      throw new ValidationError(`the quote was made for ${entry.params.receiver}, but the connected wallet is ${signer.address}`, { field: 'quote_id', hint: 'Quote the swap again.' });
    }
    this.c.rpcUrl(entry.params.chain);
    this.swapQuotes.delete(req.quote_id);
    const { params } = entry;
    const t = this.o.tracker.create({
      kind: 'swap',
      from_chain: params.chain,
      to_chain: params.chain,
      from_token: params.tokenIn,
      to_token: params.tokenOut,
      amount_units: params.amountIn,
      protocol: null,
      expected_out: entry.quote.amountOut ?? null,
    });
    this.background(t.id, async () => {
      const result = await executeSwap(this.c, {
        ...params,
        signer,
        reviewed: entry.quote,
        ...(req.points_usd ? { pointsUsd: req.points_usd } : {}),
        onProgress: (p: SwapProgress) => ('step' in p ? this.transactionProgress(t.id, p) : this.o.tracker.update(t.id, { phase: p.phase })),
      });
      this.o.tracker.update(t.id, {
        phase: 'done',
        src_tx: result.transaction.hash,
        approve_tx: result.transaction.approval?.hash ?? null,
        expected_out: result.quote.amountOut ?? null,
        points: pointsView(result.points),
        points_error: this.pointsFailure(t.id, result.pointsError),
      });
    });
    return t;
  }

  /** A points estimate that failed while sending is shown on the transfer and logged; the send went on. */
  private pointsFailure(id: string, pointsError: string | null): string | null {
    if (pointsError !== null) this.o.logger.warn(`[companion] ${id}: no points estimate (${pointsError}); the transfer went ahead without it`);
    return pointsError;
  }

  // ---- transfers ----------------------------------------------------------------------------------------

  transfers(): { transfers: TransferView[] } {
    return { transfers: this.o.tracker.list() };
  }

  dismissTransfer(req: { id: string }): { transfers: TransferView[] } {
    this.o.tracker.dismiss(req.id);
    return this.transfers();
  }

  // ---- points -------------------------------------------------------------------------------------------

  async pointsEstimate(req: { src_chain: string; dst_chain: string; src_token: string; dst_token: string; src_usd: string; dst_usd: string }): Promise<PointsEstimateView> {
    const r = await estimatePoints(this.c, {
      user: this.o.wallet.requireAddress(),
      srcChain: req.src_chain,
      dstChain: req.dst_chain,
      srcToken: req.src_token,
      dstToken: req.dst_token,
      srcUsd: req.src_usd,
      dstUsd: req.dst_usd,
      source: this.partnerCode('to estimate partner points'),
    });
    return { point: r.point, partner_bonus: r.partnerBonus, source: r.source, from: r.from };
  }

  async creditedPoints(req: { from: number; to: number }): Promise<CreditedPointsView> {
    const partner = resolvePartnerCode(this.c.resolveInput);
    const r = await creditedPoints(this.c, {
      user: this.o.wallet.requireAddress(),
      from: Math.floor(req.from / 1000),
      to: Math.floor(req.to / 1000),
      ...(partner !== undefined ? { partnerCode: partner } : {}),
    });
    return {
      user: r.user,
      from: r.from,
      to: r.to,
      point: r.point,
      partner_bonuses: Object.entries(r.partnerBonuses).map(([code, bonus]) => ({ code, bonus })),
      partner_code: r.partnerCode,
      partner_bonus: r.partnerBonus,
    };
  }

  // ---- assistant ----------------------------------------------------------------------------------------

  async assistantStatus(): Promise<AssistantStatus> {
    return {
      enabled: await this.o.inferenceKeys.has(),
      model: assistantModel(this.c.settings),
      inference_url: describeCompanionUrl(this.c.resolveInput, 'inference').url,
    };
  }

  /** Checks the key with the service (GET /v1/models) before storing it: a refused key changes nothing. */
  async setInferenceKey(req: { api_key: string }): Promise<AssistantStatus> {
    const key = req.api_key.trim();
    if (key === '' || /\s/.test(key)) throw new ValidationError('an inference API key is one word with no spaces', { field: 'api_key' });
    const models = chatModelIds(await withCompanionFailures(() => this.c.inference.models(key)));
    await this.o.inferenceKeys.set(key);
    this.o.logger.info('[assistant] inference key stored in the OS keychain');
    // The first chat model becomes the model when none was chosen, or when the chosen one is not a chat model
    // of this service (a video model, another service's model), so the panel works right away.
    const current = assistantModel(this.c.settings);
    const first = models[0];
    if (first !== undefined && (current === null || !models.includes(current))) {
      setAssistantModel(this.c.settings, first);
      if (current !== null) this.o.logger.info(`[assistant] model ${current} is not a chat model of the inference service; using ${first}`);
    }
    return this.assistantStatus();
  }

  async clearInferenceKey(): Promise<AssistantStatus> {
    await this.o.inferenceKeys.clear();
    this.o.logger.info('[assistant] inference key removed from the OS keychain');
    return this.assistantStatus();
  }

  async assistantModels(): Promise<{ models: string[] }> {
    const key = await this.o.inferenceKeys.read();
    if (key === null) throw new AssistantOffError();
    const list = await withCompanionFailures(() => this.c.inference.models(key));
    // Chat models only: the assistant asks chat completions, which any other kind refuses.
    return { models: chatModelIds(list) };
  }

  /**
   * With a key set, only a chat model the service lists is accepted: anything else would fail every question.
   * Without a key nothing can be listed, so the id is stored as given; setInferenceKey replaces it by the
   * first chat model if the service does not list it as one.
   */
  async setAssistantModel(req: { model: string }): Promise<AssistantStatus> {
    const key = await this.o.inferenceKeys.read();
    if (key !== null) {
      const models = chatModelIds(await withCompanionFailures(() => this.c.inference.models(key)));
      if (!models.includes(req.model.trim())) {
        throw new ValidationError('is not a chat model of the inference service', { field: 'model', hint: 'Choose one of the models the assistant lists (its chat models, from GET /v1/models).' });
      }
    }
    setAssistantModel(this.c.settings, req.model);
    return this.assistantStatus();
  }

  async ask(req: { question: string }): Promise<AssistantAnswerView> {
    // Off comes first: without a key, which model is chosen does not matter yet.
    if (!(await this.o.inferenceKeys.has())) throw new AssistantOffError();
    const assistant = new Assistant({ inference: this.c.inference, keys: this.o.inferenceKeys, reads: this.o.reads, settings: this.c.settings });
    const a = await assistant.ask({ wallet: this.o.wallet.requireAddress(), question: req.question });
    return {
      answer: a.answer,
      model: a.model,
      finish_reason: a.finishReason,
      prompt_tokens: a.usage?.promptTokens ?? null,
      completion_tokens: a.usage?.completionTokens ?? null,
      context: { positions: a.context.positions, open_orders: a.context.openOrders, fills: a.context.fills },
    };
  }

  // ---- lifecycle ----------------------------------------------------------------------------------------

  /**
   * Stops following orders and saving. A send still under way (a Ledger waiting for a confirmation, a
   * receipt not in yet) is not waited for: the next session finds it under way in the saved list and
   * follows its source transaction, or marks it interrupted when none was known yet.
   */
  close(): void {
    this.o.tracker.close();
  }

  /** Sends still running (tests wait on them). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private partnerCode(why: string): string {
    const code = resolvePartnerCode(this.c.resolveInput);
    if (code === undefined) {
      throw new ValidationError(`a partner code is required ${why}`, { field: 'source', code: 'PARTNER_CODE_REQUIRED', hint: 'Set the partner code in Settings › Companion services.' });
    }
    return code;
  }

  /** Runs a send in the background; its failure becomes the transfer's error (never an unhandled rejection). */
  private background(id: string, work: () => Promise<void>): void {
    const run = work().catch((err: unknown) => {
      this.o.tracker.fail(id, err);
    });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }
}

function remember<T>(map: Map<string, T>, id: string, value: T): void {
  while (map.size >= MAX_QUOTES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
  map.set(id, value);
}

function pointsView(p: PointsEstimateResult | null): TransferView['points'] {
  return p === null ? null : { point: p.point, partner_bonus: p.partnerBonus, source: p.source };
}
