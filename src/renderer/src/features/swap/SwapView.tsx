/**
 * Swap: trade one token for another on one EVM chain through the aggregator, from the main wallet, under
 * the app's partner code. Quote (swap:quote) → review with the points estimate → execute (swap:execute),
 * then the same transfer timeline as a bridge (without the bridge step).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CompanionSettingsView, SwapQuoteRequest, SwapQuoteView } from '../../../../shared/ipc';
import { editRpcUrl } from '../../app/uiStore';
import { IpcQueryError, perps, unwrap } from '../../ipc/client';
import { putTransfers, useCompanionSettings } from '../../ipc/companionQueries';
import { useWallet } from '../../ipc/queries';
import { dec, isDecimalText } from '../../lib/decimal';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { fmtDateTime } from '../../lib/time';
import { amountProblem, fmtUnits, fromUnits, percentToFraction } from '../../lib/units';
import { Button } from '../../ui/Button';
import { CopyText } from '../../ui/CopyText';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextField } from '../../ui/Field';
import { KV, KVList, Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { PointsEstimate } from '../points/PointsEstimate';
import { chainOptions, defaultSource, hasRpc } from '../transfers/chains';
import { NATIVE_CHOICE, TokenPicker, useTokenSide, type TokenChoice } from '../transfers/TokenPicker';
import { TokenAmount } from '../transfers/TokenAmount';
import { TransferPanels } from '../transfers/TransferPanels';

/** The aggregator's own cap is enforced by main; this stops obvious unit mistakes early (50 meant as 0.5). */
const MAX_SLIPPAGE_FRACTION = '0.5';

interface SwapContext {
  request: SwapQuoteRequest;
  inSymbol: string | null;
  outSymbol: string | null;
  outDecimals: number | null;
  srcUsd: string;
  dstUsd: string;
}

export function SwapView() {
  const settings = useCompanionSettings();
  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>Swap</h1>
        <span className="muted">Trade tokens on one chain through the aggregator, from your main wallet</span>
      </div>
      {settings.isPending && <Loading label="Loading chains" />}
      {settings.error && <ErrorState error={settings.error} title="Could not read the companion settings" onRetry={() => void settings.refetch()} />}
      {settings.data && <SwapWorkspace settings={settings.data} />}
    </div>
  );
}

function SwapWorkspace({ settings }: { settings: CompanionSettingsView }) {
  const evmChains = settings.chains.filter((c) => c.evm);
  const [chain, setChain] = useState(() => defaultSource(evmChains, 'base'));
  const [inChoice, setInChoice] = useState<TokenChoice>(NATIVE_CHOICE);
  const [outChoice, setOutChoice] = useState<TokenChoice>({ mode: 'custom', custom: '', decimals: '' });
  const [amount, setAmount] = useState('');
  const [slippage, setSlippage] = useState('0.5');
  const [srcUsd, setSrcUsd] = useState('');
  const [dstUsd, setDstUsd] = useState('');
  const [quoted, setQuoted] = useState<{ quote: SwapQuoteView; ctx: SwapContext } | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);

  const row = evmChains.find((c) => c.chain === chain);
  const inSide = useTokenSide(inChoice, row, settings.native_token, true);
  const outSide = useTokenSide(outChoice, row, settings.native_token, true);
  const amountError = amountProblem(amount, inSide.decimals);
  const slip = percentToFraction(slippage, MAX_SLIPPAGE_FRACTION);
  const usdError = (v: string) => (v.trim() === '' || isDecimalText(v) ? undefined : 'A USD amount such as 250.5');
  const sameToken = inSide.token !== null && outSide.token !== null && inSide.token.toLowerCase() === outSide.token.toLowerCase();
  const balance = fromUnits(inSide.info.data?.balance ?? null, inSide.decimals ?? 0);
  const overBalance = inSide.decimals !== null && balance && dec(amount)?.gt(balance) ? 'More than your wallet balance on this chain' : undefined;

  const request: SwapQuoteRequest | null =
    row && inSide.token && outSide.token && !sameToken && inSide.decimals !== null && amount.trim() !== '' && !amountError && 'fraction' in slip
      ? { chain: row.chain, token_in: inSide.token, token_out: outSide.token, amount: amount.trim(), decimals: inSide.decimals, slippage: slip.fraction }
      : null;
  // The quote belongs to the form as it was (the USD values included: the review estimates points with them).
  const stale = quoted !== null && JSON.stringify([quoted.ctx.request, quoted.ctx.srcUsd, quoted.ctx.dstUsd]) !== JSON.stringify([request, srcUsd.trim(), dstUsd.trim()]);

  const quote = useMutation({
    mutationFn: (r: SwapQuoteRequest) => unwrap(perps().swap.quote(r)),
    onSuccess: (q, r) => setQuoted({ quote: q, ctx: { request: r, inSymbol: inSide.symbol, outSymbol: outSide.symbol, outDecimals: outSide.decimals, srcUsd: srcUsd.trim(), dstUsd: dstUsd.trim() } }),
  });
  const err = quote.error;
  const FIELDS = {
    chain: ['chain'],
    tokenIn: ['token_in', 'tokenIn'],
    tokenOut: ['token_out', 'tokenOut'],
    amount: ['amount', 'decimals'],
    slippage: ['slippage'],
  } as const;
  const errIsRpc = err instanceof IpcQueryError && /RPC/i.test(`${err.code} ${err.field ?? ''}`);

  return (
    <div className="wd">
      <Panel title="New swap">
        <form
          className="section"
          aria-label="Swap"
          onSubmit={(e) => {
            e.preventDefault();
            if (request) quote.mutate(request);
          }}
        >
          <SelectField label="Chain" value={chain} onChange={(e) => setChain(e.target.value)} options={chainOptions(evmChains, 'source')} error={fieldError(err, FIELDS.chain)} />
          {row && (!hasRpc(row) || errIsRpc) && (
            <div className="notice notice-warn" role="status">
              {row.chain} has no JSON-RPC URL set: the app cannot read balances there or send the swap.{' '}
              <button type="button" className="link-btn" onClick={() => editRpcUrl(row.chain)}>
                Set the RPC URL for {row.chain}
              </button>
            </div>
          )}
          <TokenPicker label="Token in" chain={row} value={inChoice} onChange={setInChoice} side={inSide} evmOnly />
          {fieldError(err, FIELDS.tokenIn) && <p className="field-msg field-msg-error">{fieldError(err, FIELDS.tokenIn)}</p>}
          <TokenPicker label="Token out" chain={row} value={outChoice} onChange={setOutChoice} side={outSide} evmOnly />
          {sameToken && <p className="field-msg field-msg-error">Token in and token out are the same token</p>}
          {fieldError(err, FIELDS.tokenOut) && <p className="field-msg field-msg-error">{fieldError(err, FIELDS.tokenOut)}</p>}
          <div className="grid2">
            <TextField
              label="Amount to swap"
              value={amount}
              inputMode="decimal"
              placeholder="0.0"
              onChange={(e) => setAmount(e.target.value)}
              suffix={inSide.info.data?.symbol ?? undefined}
              error={amountError ?? fieldError(err, FIELDS.amount)}
              warning={overBalance}
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
          <div className="grid2">
            <TextField label="Value in (USD)" value={srcUsd} inputMode="decimal" prefix="$" placeholder="optional" onChange={(e) => setSrcUsd(e.target.value)} error={usdError(srcUsd)} hint="For the points estimate" />
            <TextField label="Value out (USD)" value={dstUsd} inputMode="decimal" prefix="$" placeholder="optional" onChange={(e) => setDstUsd(e.target.value)} error={usdError(dstUsd)} hint="Both values: estimates points" />
          </div>
          {settings.partner_code && <p className="muted">Swaps carry the partner code <strong>{settings.partner_code}</strong>.</p>}
          {err && !isShownAtField(err, Object.values(FIELDS)) && <ErrorLine error={err} />}
          <Button type="submit" variant="primary" disabled={!request || !!usdError(srcUsd) || !!usdError(dstUsd)} busy={quote.isPending}>
            Get quote
          </Button>
        </form>
      </Panel>
      <div className="stack">
        {quoted && (
          <Panel title="Quote" className="routes-panel">
            <div className="section">
              {stale && <p className="notice notice-warn">The form changed since this quote: get a new quote for it.</p>}
              <SwapQuoteSummary quote={quoted.quote} ctx={quoted.ctx} nativeToken={settings.native_token} />
              <div className="actions">
                <Button variant="ghost" busy={quote.isPending} onClick={() => quote.mutate(quoted.ctx.request)}>
                  Refresh quote
                </Button>
                <Button variant="primary" disabled={stale} onClick={() => setReviewing(true)}>
                  Review swap
                </Button>
              </div>
            </div>
          </Panel>
        )}
        <TransferPanels kind="swap" selected={selected} onSelect={setSelected} />
      </div>
      {quoted && reviewing && (
        <SwapReview
          quote={quoted.quote}
          ctx={quoted.ctx}
          nativeToken={settings.native_token}
          noRpc={row !== undefined && !hasRpc(row)}
          onClose={() => setReviewing(false)}
          onSent={(id) => {
            setReviewing(false);
            setQuoted(null);
            quote.reset();
            setAmount('');
            setSrcUsd('');
            setDstUsd('');
            setSelected(id);
          }}
        />
      )}
    </div>
  );
}

function SwapQuoteSummary({ quote, ctx, nativeToken }: { quote: SwapQuoteView; ctx: SwapContext; nativeToken: string }) {
  const out = (units: string | null) => (units === null ? 'not given by the aggregator' : fmtUnits(units, ctx.outDecimals, ctx.outSymbol));
  return (
    <KVList label="Swap quote">
      <KV k="You pay">
        {ctx.request.amount} {ctx.inSymbol ?? ''} on {quote.chain}
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
  noRpc,
  onClose,
  onSent,
}: {
  quote: SwapQuoteView;
  ctx: SwapContext;
  nativeToken: string;
  noRpc: boolean;
  onClose: () => void;
  onSent: (id: string) => void;
}) {
  const client = useQueryClient();
  const wallet = useWallet();
  const [connect, setConnect] = useState(false);
  const signer = wallet.data?.signer;
  const pointsUsd = ctx.srcUsd && ctx.dstUsd ? { src: ctx.srcUsd, dst: ctx.dstUsd } : null;
  const execute = useMutation({
    mutationFn: () => unwrap(perps().swap.execute({ quote_id: quote.quote_id, ...(pointsUsd ? { points_usd: pointsUsd } : {}) })),
    onSuccess: (t) => {
      putTransfers(client, [t]);
      pushToast({ tone: 'info', title: `Swap started on ${quote.chain}`, body: `${ctx.request.amount} ${ctx.inSymbol ?? ''} → ${ctx.outSymbol ?? 'token'}` });
      onSent(t.id);
    },
  });
  return (
    <>
      <Dialog
        open
        title={`Review swap · ${quote.chain}`}
        onClose={onClose}
        width={600}
        locked={execute.isPending}
        footer={
          <>
            <Button variant="ghost" onClick={onClose} disabled={execute.isPending}>
              Cancel
            </Button>
            <Button variant="primary" busy={execute.isPending} disabled={!signer || noRpc} onClick={() => execute.mutate()}>
              Sign and swap
            </Button>
          </>
        }
      >
        <SwapQuoteSummary quote={quote} ctx={ctx} nativeToken={nativeToken} />
        <KVList>
          <KV k="From and to (your main wallet)">
            <span className="addr">{quote.receiver}</span>
          </KV>
        </KVList>
        <PointsEstimate
          partnerCode={quote.partner_code}
          request={pointsUsd ? { src_chain: quote.chain, dst_chain: quote.chain, src_token: quote.token_in, dst_token: quote.token_out, src_usd: pointsUsd.src, dst_usd: pointsUsd.dst } : null}
        />
        <div className="field">
          <span className="field-label">Signer</span>
          <div className="row" style={{ justifyContent: 'space-between' }}>
            <span>{signer ? signer.label : <span className="warn">Not connected this session</span>}</span>
            <Button size="sm" onClick={() => setConnect(true)} disabled={execute.isPending}>
              {signer ? 'Change signer' : 'Connect signer'}
            </Button>
          </div>
        </div>
        <p className="notice notice-warn">
          The swap transaction is signed by your <strong>main wallet</strong>
          {signer ? ` (${signer.label})` : ''} on {quote.chain} and calls the router above; an ERC-20 input is approved to the router first. Gas is paid from the same wallet.
        </p>
        {noRpc && <p className="notice notice-warn">{quote.chain} has no JSON-RPC URL: set it in Settings before swapping.</p>}
        {execute.error && <ErrorLine error={execute.error} />}
      </Dialog>
      <Dialog open={connect} title="Main wallet signer" onClose={() => setConnect(false)} width={620}>
        <ConnectWallet
          expectedAddress={wallet.data?.address}
          onConnected={(w) => {
            setConnect(false);
            execute.reset();
            pushToast({ tone: 'success', title: 'Signer connected', body: w.signer?.label });
          }}
        />
      </Dialog>
    </>
  );
}
