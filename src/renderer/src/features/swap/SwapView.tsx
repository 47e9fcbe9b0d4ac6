/**
 * Swap: trade one token for another on one EVM chain through the aggregator, from the main wallet, under
 * the app's partner code. Quote (swap:quote) → review with the points estimate → execute (swap:execute),
 * then the same transfer timeline as a bridge (without the bridge step).
 */
import { useState } from 'react';
import type { CompanionSettingsView, SwapQuoteRequest, SwapQuoteView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { useWallet } from '../../ipc/queries';
import { dec } from '../../lib/decimal';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { fmtDateTime } from '../../lib/time';
import { amountProblem, fmtUnits, percentToFraction } from '../../lib/units';
import { Button } from '../../ui/Button';
import { CopyText } from '../../ui/CopyText';
import { SelectField, TextField } from '../../ui/Field';
import { KV, KVList, Panel } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { chainOptions, defaultSource, isRpcError, lacksRpc } from '../transfers/chains';
import { NATIVE_CHOICE, overBalanceWarning, TokenPicker, useTokenSide, type TokenChoice } from '../transfers/TokenPicker';
import { TokenAmount } from '../transfers/TokenAmount';
import { ReceiverOther, ReceiverSelect, useReceiverChoice } from '../transfers/ReceiverField';
import { sameAddress } from '../transfers/receivers';
import { MissingRpcNotice, usdProblem, UsdValueField } from '../transfers/TransferFields';
import { TransferPanels } from '../transfers/TransferPanels';
import { TransferReview } from '../transfers/TransferReview';
import { TransferScreen } from '../transfers/TransferScreen';
import { pointsUsdOf, useTransferQuote, type QuoteContext } from '../transfers/useTransferQuote';

/** The aggregator's own cap is enforced by main; this stops obvious unit mistakes early (50 meant as 0.5). */
const MAX_SLIPPAGE_FRACTION = '0.5';

type SwapContext = QuoteContext<SwapQuoteRequest>;

export function SwapView() {
  return (
    <TransferScreen title="Swap" summary="Trade tokens on one chain through the aggregator, from your main wallet">
      {(settings) => <SwapWorkspace settings={settings} />}
    </TransferScreen>
  );
}

function SwapWorkspace({ settings }: { settings: CompanionSettingsView }) {
  const form = useTransferQuote((r: SwapQuoteRequest) => unwrap(perps().swap.quote(r)));
  const { amount, srcUsd, dstUsd, quoted } = form;
  const evmChains = settings.chains.filter((c) => c.evm);
  const [chain, setChain] = useState(() => defaultSource(evmChains, 'base'));
  const [inChoice, setInChoice] = useState<TokenChoice>(NATIVE_CHOICE);
  const [outChoice, setOutChoice] = useState<TokenChoice>({ mode: 'custom', custom: '', decimals: '' });
  const [slippage, setSlippage] = useState('0.5');
  const [reviewing, setReviewing] = useState(false);
  const wallet = useWallet();
  const receiver = useReceiverChoice(wallet.data?.address);

  const row = evmChains.find((c) => c.chain === chain);
  const inSide = useTokenSide(inChoice, row, settings.native_token, true);
  const outSide = useTokenSide(outChoice, row, settings.native_token, true);
  const amountError = amountProblem(amount, inSide.decimals);
  const slip = percentToFraction(slippage, MAX_SLIPPAGE_FRACTION);
  const sameToken = inSide.token !== null && outSide.token !== null && inSide.token.toLowerCase() === outSide.token.toLowerCase();

  const request: SwapQuoteRequest | null =
    row && inSide.token && outSide.token && !sameToken && inSide.decimals !== null && amount.trim() !== '' && !amountError && 'fraction' in slip && !receiver.value.blocked
      ? {
          chain: row.chain,
          token_in: inSide.token,
          token_out: outSide.token,
          amount: amount.trim(),
          decimals: inSide.decimals,
          slippage: slip.fraction,
          ...(receiver.value.receiver ? { receiver: receiver.value.receiver } : {}),
        }
      : null;
  const stale = form.isStale(request);
  const err = form.error;
  const FIELDS = {
    chain: ['chain'],
    tokenIn: ['token_in', 'tokenIn'],
    tokenOut: ['token_out', 'tokenOut'],
    amount: ['amount', 'decimals'],
    slippage: ['slippage'],
    receiver: ['receiver'],
  } as const;

  return (
    <div className="wd">
      <Panel title="New swap" bodyClassName="panel-body-flow">
        <form
          className="section"
          aria-label="Swap"
          onSubmit={(e) => {
            e.preventDefault();
            if (request) form.ask(request, { sentSymbol: inSide.symbol, receivedSymbol: outSide.symbol, receivedDecimals: outSide.decimals });
          }}
        >
          <SelectField label="Chain" value={chain} onChange={(e) => setChain(e.target.value)} options={chainOptions(evmChains, 'source')} error={fieldError(err, FIELDS.chain)} />
          {row && (lacksRpc(row) || isRpcError(err)) && <MissingRpcNotice chain={row.chain} consequence="the app cannot read balances there or send the swap." />}
          <TokenPicker label="Token in" chain={row} value={inChoice} onChange={setInChoice} side={inSide} evmOnly error={fieldError(err, FIELDS.tokenIn)} />
          <TokenPicker
            label="Token out"
            chain={row}
            value={outChoice}
            onChange={setOutChoice}
            side={outSide}
            evmOnly
            error={sameToken ? 'Token in and token out are the same token' : fieldError(err, FIELDS.tokenOut)}
          />
          <div className="grid2">
            <TextField
              label="Amount to swap"
              value={amount}
              inputMode="decimal"
              placeholder="0.0"
              onChange={(e) => form.setAmount(e.target.value)}
              suffix={inSide.info.data?.symbol ?? undefined}
              error={amountError ?? fieldError(err, FIELDS.amount)}
              warning={overBalanceWarning(inSide, amount)}
            />
            <TextField
              label="Slippage"
              value={slippage}
              inputMode="decimal"
              suffix="%"
              onChange={(e) => setSlippage(e.target.value)}
              error={'error' in slip ? slip.error : fieldError(err, FIELDS.slippage)}
              hint={'fraction' in slip ? `Sent as ${slip.fraction}` : undefined}
            />
          </div>
          <ReceiverSelect choice={receiver} wallet={wallet.data?.address} error={fieldError(err, FIELDS.receiver)} />
          <ReceiverOther choice={receiver} error={fieldError(err, FIELDS.receiver)} what="swap" />
          <div className="grid2">
            <UsdValueField label="Value in (USD)" value={srcUsd} onChange={form.setSrcUsd} hint="For the points estimate" />
            <UsdValueField label="Value out (USD)" value={dstUsd} onChange={form.setDstUsd} hint="Both values: estimates points" />
          </div>
          {settings.partner_code && <p className="muted">Swaps carry the partner code <strong>{settings.partner_code}</strong>.</p>}
          {err && !isShownAtField(err, Object.values(FIELDS)) && <ErrorLine error={err} />}
          {/* Sticks to the bottom of the view: the form's action is in view however small the window. */}
          <div className="form-submit">
            <Button type="submit" variant="primary" disabled={!request || !!usdProblem(srcUsd) || !!usdProblem(dstUsd)} busy={form.isAsking}>
              Get quote
            </Button>
          </div>
        </form>
      </Panel>
      <div className="stack">
        {quoted && (
          <Panel title="Quote" className="routes-panel">
            <div className="section">
              {stale && <p className="notice notice-warn">The form changed since this quote: get a new quote for it.</p>}
              <SwapQuoteSummary quote={quoted.quote} ctx={quoted.ctx} nativeToken={settings.native_token} />
              <div className="actions">
                <Button variant="ghost" busy={form.isAsking} onClick={form.refresh}>
                  Refresh quote
                </Button>
                <Button variant="primary" disabled={stale} onClick={() => setReviewing(true)}>
                  Review swap
                </Button>
              </div>
            </div>
          </Panel>
        )}
        <TransferPanels kind="swap" selected={form.selected} onSelect={form.setSelected} />
      </div>
      {quoted && reviewing && (
        <SwapReview
          quote={quoted.quote}
          ctx={quoted.ctx}
          nativeToken={settings.native_token}
          rpcMissingOn={row && lacksRpc(row) ? row.chain : null}
          onClose={() => setReviewing(false)}
          onSent={(id) => {
            setReviewing(false);
            form.sent(id);
          }}
        />
      )}
    </div>
  );
}

function SwapQuoteSummary({ quote, ctx, nativeToken }: { quote: SwapQuoteView; ctx: SwapContext; nativeToken: string }) {
  const out = (units: string | null) => (units === null ? 'not given by the aggregator' : fmtUnits(units, ctx.receivedDecimals, ctx.receivedSymbol));
  return (
    <KVList label="Swap quote">
      <KV k="You pay">
        {ctx.request.amount} {ctx.sentSymbol ?? ''} on {quote.chain}
      </KV>
      <KV k="You receive (quoted)">{out(quote.amount_out)}</KV>
      <KV k="Minimum received">{out(quote.min_amount_out)}</KV>
      <KV k="Slippage tolerance">{dec(quote.slippage)?.mul(100).toFixed() ?? quote.slippage}%</KV>
      <KV k="Router">
        <CopyText text={quote.router} label="router address" />
      </KV>
      <KV k="Value sent with the transaction">
        <TokenAmount units={quote.value} chain={quote.chain} token={nativeToken} />
      </KV>
      <KV k="Partner code">{quote.partner_code}</KV>
      <KV k="Quoted at">{fmtDateTime(quote.quoted_at)}</KV>
    </KVList>
  );
}

function SwapReview({
  quote,
  ctx,
  nativeToken,
  rpcMissingOn,
  onClose,
  onSent,
}: {
  quote: SwapQuoteView;
  ctx: SwapContext;
  nativeToken: string;
  rpcMissingOn: string | null;
  onClose: () => void;
  onSent: (id: string) => void;
}) {
  const pointsUsd = pointsUsdOf(ctx);
  const wallet = useWallet().data?.address ?? null;
  const ownReceiver = wallet !== null && sameAddress(quote.receiver, wallet);
  return (
    <TransferReview
      title={`Review swap · ${quote.chain}`}
      width={600}
      signLabel="Sign and swap"
      send={() => unwrap(perps().swap.execute({ quote_id: quote.quote_id, ...(pointsUsd ? { points_usd: pointsUsd } : {}) }))}
      started={{ title: `Swap started on ${quote.chain}`, body: `${ctx.request.amount} ${ctx.sentSymbol ?? ''} → ${ctx.receivedSymbol ?? 'token'}` }}
      onSent={onSent}
      onClose={onClose}
      points={{
        partnerCode: quote.partner_code,
        request: pointsUsd ? { src_chain: quote.chain, dst_chain: quote.chain, src_token: quote.token_in, dst_token: quote.token_out, src_usd: pointsUsd.src, dst_usd: pointsUsd.dst } : null,
      }}
      rpcMissingOn={rpcMissingOn}
      transaction="The swap transaction"
      signingNote={<>on {quote.chain} and calls the router above; an ERC-20 input is approved to the router first. Gas is paid from the same wallet.</>}
    >
      <SwapQuoteSummary quote={quote} ctx={ctx} nativeToken={nativeToken} />
      <KVList>
        {ownReceiver ? (
          <KV k="From and to (your main wallet)">
            <span className="addr">{quote.receiver}</span>
          </KV>
        ) : (
          <>
            <KV k="From (your main wallet)">
              <span className="addr">{wallet ?? '—'}</span>
            </KV>
            <KV k="To (another address)">
              <span className="addr">{quote.receiver}</span>
            </KV>
          </>
        )}
      </KVList>
      {!ownReceiver && <p className="notice notice-warn">The tokens go to {quote.receiver}, not to your main wallet. Check the address: a swap cannot be called back.</p>}
    </TransferReview>
  );
}
