/**
 * The swap:* channels of one profile: aggregator swaps under the app's partner code, quoted, then signed
 * by the main wallet and sent. Like a bridge, a swap delivers to the main wallet or to an address on the
 * receiver allowlist (any other is refused, RECEIVER_NOT_ALLOWED, before the aggregator is asked), and
 * the quote stays in main under an opaque id and executes at most once.
 */
import { sameAddress } from '../../../shared/identity/index.js';
import type { SwapQuoteRequest, SwapQuoteView, TransferView } from '../../../shared/ipc.js';
import type { SwapQuote } from '../../api/companion/schemas.js';
import { parseUnits } from '../../services/chains/chainIds.js';
import { parseWei } from '../../services/chains/sendTransaction.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import { requireAllowedReceiver } from '../../services/companion/receiverAllowlist.js';
import { OperationError, ValidationError } from '../../services/errors.js';
import { executeSwap, type SwapProgress } from '../../services/swap/execute.js';
import { quoteSwap, validateSwapInput, type SwapParams } from '../../services/swap/quote.js';
import type { AppLogger } from '../adapters.js';
import type { WalletSession } from '../wallet.js';
import { requireAppPartnerCode } from './appPartnerCode.js';
import type { TransferTracker } from './transferTracker.js';
import { QuoteBook, TransferRuns, pointsFailure, pointsView, recordTransactionProgress } from './transferRuns.js';

export interface SwapDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  tracker: TransferTracker;
  logger: AppLogger;
}

interface HeldSwap {
  params: SwapParams;
  quote: SwapQuote;
  /** The main wallet the swap was quoted for: the one that must sign it. */
  sender: string;
}

export class SwapDesk {
  private readonly quotes = new QuoteBook<HeldSwap>();

  constructor(
    private readonly o: SwapDeskOptions,
    private readonly runs: TransferRuns,
  ) {}

  private get c(): CompanionContext {
    return this.o.companion;
  }

  async quote(req: SwapQuoteRequest): Promise<SwapQuoteView> {
    const sender = this.o.wallet.requireAddress();
    const receiver = requireAllowedReceiver(this.c.resolveInput, sender, req.receiver ?? sender);
    const params = validateSwapInput({
      chain: req.chain,
      tokenIn: req.token_in,
      tokenOut: req.token_out,
      amountIn: parseUnits(req.amount, 'amount', req.decimals),
      slippage: req.slippage,
      receiver,
      source: requireAppPartnerCode(this.c.resolveInput, 'for aggregator swaps (it attributes the swap for bonus points)'),
    });
    const quote = await quoteSwap(this.c, params);
    const id = this.quotes.put({ params, quote, sender });
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
  execute(req: { quote_id: string; points_usd?: { src: string; dst: string } | undefined }): TransferView {
    const entry = this.quotes.get(req.quote_id);
    if (!entry) throw new OperationError('QUOTE_UNKNOWN', 'this swap quote is no longer available (it was executed already, or replaced by newer ones)', { hint: 'Quote the swap again.' });
    const signer = this.o.wallet.requireTransactionSigner();
    if (!sameAddress(entry.sender, signer.address)) {
      throw new ValidationError(`the quote was made for ${entry.sender}, but the connected wallet is ${signer.address}`, { field: 'quote_id', hint: 'Quote the swap again.' });
    }
    // Again at the send: the receiver may have been removed from the allowlist since the quote.
    requireAllowedReceiver(this.c.resolveInput, signer.address, entry.params.receiver);
    this.c.rpcUrl(entry.params.chain);
    this.quotes.spend(req.quote_id);
    const { params } = entry;
    const tracker = this.o.tracker;
    const t = tracker.create({
      kind: 'swap',
      from_chain: params.chain,
      to_chain: params.chain,
      from_token: params.tokenIn,
      to_token: params.tokenOut,
      amount_units: params.amountIn,
      protocol: null,
      expected_out: entry.quote.amountOut ?? null,
    });
    this.runs.start(t.id, async () => {
      const result = await executeSwap(this.c, {
        ...params,
        signer,
        reviewed: entry.quote,
        ...(req.points_usd ? { pointsUsd: req.points_usd } : {}),
        onProgress: (p: SwapProgress) => ('step' in p ? recordTransactionProgress(tracker, t.id, p) : tracker.update(t.id, { phase: p.phase })),
      });
      tracker.update(t.id, {
        phase: 'done',
        src_tx: result.transaction.hash,
        approve_tx: result.transaction.approval?.hash ?? null,
        expected_out: result.quote.amountOut ?? null,
        points: pointsView(result.points),
        points_error: pointsFailure(this.o.logger, t.id, result.pointsError),
      });
    });
    return t;
  }
}
