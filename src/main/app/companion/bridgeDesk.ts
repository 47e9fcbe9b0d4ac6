/**
 * The bridge:* and transfers:* channels of one profile: token look-ups, bridge quotes whose chosen route is
 * encoded and sent from the main wallet, following a bridge order by its source transaction, and the list
 * of bridge and swap transfers (the transfer tracker's).
 *
 * A transfer goes to the main wallet, or to an address on the profile's receiver allowlist: any other
 * receiver is refused (RECEIVER_NOT_ALLOWED) before anything is quoted, and checked again before the send.
 * A quote stays in main under an opaque id, so what is sent is exactly what the user compared; one quote
 * sends at most once. A send answers at once with the transfer it started; its progress (encode, re-quote,
 * approve, sign, send, confirm, bridge order) arrives on the `transfers` event.
 */
import { sameAddress } from '../../../shared/identity/index.js';
import type { BridgeQuoteRequest, BridgeQuoteView, TokenInfo, TransferView } from '../../../shared/ipc.js';
import { EvmRpcClient } from '../../api/evm/evmRpc.js';
import { EVM_CHAIN_IDS, NATIVE_SYMBOLS, VENUE_CORE, isNativeToken, parseUnits } from '../../services/chains/chainIds.js';
import { readTokenMetadata } from '../../services/chains/erc20.js';
import { checkCoreSpotRules } from '../../services/bridge/coreSpotRules.js';
import { REQUEST_ID_LIFETIME_MS, minimumOut } from '../../services/bridge/encode.js';
import { DEFAULT_SLIPPAGE_BPS, validateQuoteInput } from '../../services/bridge/params.js';
import { requestQuote, type BridgeQuote } from '../../services/bridge/quotes.js';
import { sendQuotedBridge, type BridgeSendProgress } from '../../services/bridge/send.js';
import { parseSrcTx } from '../../services/bridge/track.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import { withCompanionFailures } from '../../services/companion/companionFailures.js';
import { resolvePartnerCode, resolveReceiptTimeoutMs } from '../../services/companion/companionSettings.js';
import { requireAllowedReceiver } from '../../services/companion/receiverAllowlist.js';
import { OperationError, ValidationError, describeFailure } from '../../services/errors.js';
import type { AppLogger } from '../adapters.js';
import type { WalletSession } from '../wallet.js';
import type { TransferTracker } from './transferTracker.js';
import { QuoteBook, TransferRuns, pointsFailure, pointsView, recordTransactionProgress } from './transferRuns.js';

export interface BridgeDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  tracker: TransferTracker;
  logger: AppLogger;
}

export class BridgeDesk {
  private readonly quotes = new QuoteBook<BridgeQuote>();

  constructor(
    private readonly o: BridgeDeskOptions,
    private readonly runs: TransferRuns,
  ) {}

  private get c(): CompanionContext {
    return this.o.companion;
  }

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

  /** Checks the receiver first, then validates, checks the core-spot rules, and quotes with the main wallet as sender. */
  async quote(req: BridgeQuoteRequest): Promise<BridgeQuoteView> {
    const sender = this.o.wallet.requireAddress();
    const receiver = requireAllowedReceiver(this.c.resolveInput, sender, req.receiver ?? sender);
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
      receiver,
      ...(partner !== undefined ? { source: partner } : {}),
    });
    const check = await checkCoreSpotRules(params, { sourceUsdValue: req.source_usd_value });
    const quote = await requestQuote({ bridge: this.c.bridge, now: () => this.c.now() }, params, check);
    if (quote.routes.length === 0) {
      throw new OperationError('NO_ROUTES', 'the bridge returned no route for this transfer', {
        hint: 'Try other protocols, another amount (some rails have minimums or maximums) or other tokens.',
      });
    }
    const id = this.quotes.put(quote);
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
  send(req: { quote_id: string; quote_idx: number; points_usd?: { src: string; dst: string } | undefined }): TransferView {
    const quote = this.quotes.get(req.quote_id);
    if (!quote) throw new OperationError('QUOTE_UNKNOWN', 'this quote is no longer available (it was sent already, or replaced by newer ones)', { hint: 'Get quotes again.' });
    const route = quote.routes.find((r) => r.quoteIdx === req.quote_idx);
    if (!route) throw new ValidationError(`the quote has no route ${req.quote_idx}`, { field: 'quote_idx' });
    const signer = this.o.wallet.requireTransactionSigner();
    if (quote.params.sender !== undefined && !sameAddress(quote.params.sender, signer.address)) {
      throw new ValidationError(`the quote was made for ${quote.params.sender}, but the connected wallet is ${signer.address}`, { field: 'quote_id', hint: 'Get quotes again.' });
    }
    // Again at the send: the receiver may have been removed from the allowlist since the quote.
    requireAllowedReceiver(this.c.resolveInput, signer.address, quote.params.receiver ?? signer.address);
    // An unset RPC URL (or a malformed receipt wait) is an answer now, not a transfer that fails a moment later.
    this.c.rpcUrl(quote.params.fromChain);
    const receiptTimeoutMs = resolveReceiptTimeoutMs(this.c.resolveInput);
    this.quotes.spend(req.quote_id);
    const tracker = this.o.tracker;
    const t = tracker.create({
      kind: 'bridge',
      from_chain: quote.params.fromChain,
      to_chain: quote.params.toChain,
      from_token: quote.params.fromToken,
      to_token: quote.params.toToken,
      amount_units: quote.params.amount,
      protocol: route.protocol,
      expected_out: route.amountOut,
    });
    this.runs.start(t.id, async () => {
      let result;
      try {
        result = await sendQuotedBridge(this.c, {
          signer,
          quote: { existing: quote, quoteIdx: route.quoteIdx },
          ...(req.points_usd ? { pointsUsd: req.points_usd } : {}),
          ...(receiptTimeoutMs !== undefined ? { receiptTimeoutMs } : {}),
          onProgress: (p) => this.progress(t.id, p),
        });
      } catch (err) {
        // Once the source transaction is broadcast (its hash is saved on `confirming`), only a reverted
        // receipt proves nothing moved: any other failure (the receipt wait timed out, the RPC went away)
        // leaves an order the bridge may deliver, so it is followed rather than ended.
        if (tracker.get(t.id)?.src_tx && describeFailure(err).code !== 'TX_REVERTED') {
          tracker.followAfterSendFailure(t.id, err);
          return;
        }
        throw err;
      }
      tracker.update(t.id, {
        phase: 'tracking',
        bridge_state: 'unseen',
        src_tx: result.srcTx,
        approve_tx: result.transaction.approval?.hash ?? null,
        protocol: result.route.protocol,
        expected_out: result.route.amountOut,
        requotes: result.requotes,
        points: pointsView(result.points),
        points_error: pointsFailure(this.o.logger, t.id, result.pointsError),
      });
      tracker.follow(t.id);
    });
    return t;
  }

  /**
   * Follows a bridge order by its source transaction (one sent elsewhere, or after a reinstall). A known
   * transfer is followed again when it ended in error after its source transaction was sent (the user
   * asks explicitly); a reverted one, or one that reached the bridge's end, is returned as it is.
   */
  track(req: { src_tx: string; from_chain?: string | undefined; to_chain?: string | undefined }): TransferView {
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

  // ---- transfers:* --------------------------------------------------------------------------------------

  transfers(): { transfers: TransferView[] } {
    return { transfers: this.o.tracker.list() };
  }

  dismissTransfer(req: { id: string }): { transfers: TransferView[] } {
    this.o.tracker.dismiss(req.id);
    return this.transfers();
  }

  private progress(id: string, p: BridgeSendProgress): void {
    if ('step' in p) return recordTransactionProgress(this.o.tracker, id, p);
    const t = this.o.tracker.get(id);
    if (p.phase === 'requoting') this.o.tracker.update(id, { phase: 'requoting', requotes: Math.max(t?.requotes ?? 0, p.attempt) });
    else if (p.phase === 'encoding') this.o.tracker.update(id, { phase: 'encoding', protocol: p.protocol, expected_out: p.amountOut });
    else this.o.tracker.update(id, { phase: p.phase });
  }
}
