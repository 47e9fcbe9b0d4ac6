/**
 * Bridge: move a token from the main wallet on one chain to another chain (or onto the venue). The form
 * asks for quotes (bridge:quote); the routes are compared by what arrives; the chosen route is reviewed
 * (amounts, minimum received, points, the signer) and sent (bridge:send), then followed on its timeline
 * as the `transfers` event reports each step.
 */
import { useState } from 'react';
import type { BridgeQuoteRequest, BridgeQuoteView, BridgeRouteView, CompanionSettingsView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { useWallet } from '../../ipc/queries';
import { dec, fmt } from '../../lib/decimal';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { amountProblem, fmtBps, fmtUnits, percentToBps } from '../../lib/units';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Checkbox, SelectField, TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { useNow } from '../../ui/useNow';
import { chainOptions, defaultSource, isRpcError, lacksRpc } from '../transfers/chains';
import { NATIVE_CHOICE, overBalanceWarning, TokenPicker, useTokenSide, type TokenChoice } from '../transfers/TokenPicker';
import { ReceiverOther, ReceiverSelect, useReceiverChoice } from '../transfers/ReceiverField';
import { MissingRpcNotice, usdProblem, UsdValueField } from '../transfers/TransferFields';
import { TransferPanels } from '../transfers/TransferPanels';
import { TransferScreen } from '../transfers/TransferScreen';
import { useTransferQuote } from '../transfers/useTransferQuote';
import type { BridgeQuoteContext } from './bridgeTypes';
import { BridgeReview } from './BridgeReview';
import { CORE_SPOT_PROTOCOL, coreSpotApplies, coreSpotMinimumApplies } from './coreSpot';

export function BridgeView() {
  return (
    <TransferScreen title="Bridge" summary="Move tokens between chains from your main wallet, compared across every bridge protocol">
      {(settings) => <BridgeWorkspace settings={settings} />}
    </TransferScreen>
  );
}

function BridgeWorkspace({ settings }: { settings: CompanionSettingsView }) {
  const wallet = useWallet();
  const form = useTransferQuote((r: BridgeQuoteRequest) => unwrap(perps().bridge.quote(r)));
  const { amount, srcUsd, dstUsd, quoted } = form;
  const chains = settings.chains;
  const [fromChain, setFromChain] = useState(() => defaultSource(chains, 'arbitrum'));
  const [toChain, setToChain] = useState(() => chains.find((c) => c.chain !== defaultSource(chains, 'arbitrum'))?.chain ?? '');
  const [fromChoice, setFromChoice] = useState<TokenChoice>(NATIVE_CHOICE);
  const [toChoice, setToChoice] = useState<TokenChoice>(NATIVE_CHOICE);
  const [protocols, setProtocols] = useState<string[]>(settings.protocols);
  const [slippage, setSlippage] = useState(() => fmt(dec(String(settings.default_slippage_bps))?.div(100) ?? null, { grouping: false, fallback: '1' }));
  const receiver = useReceiverChoice(wallet.data?.address);
  const [review, setReview] = useState<BridgeRouteView | null>(null);

  const from = chains.find((c) => c.chain === fromChain);
  const to = chains.find((c) => c.chain === toChain);
  const fromSide = useTokenSide(fromChoice, from, settings.native_token);
  const toSide = useTokenSide(toChoice, to, settings.native_token);

  const amountError = amountProblem(amount, fromSide.decimals);
  const slip = percentToBps(slippage, settings.max_slippage_bps);
  // Ticked protocols that can serve this pair (the core-spot swap only applies to the core-spot flow).
  const usable = protocols.filter((p) => p !== CORE_SPOT_PROTOCOL || coreSpotApplies(fromChain, toChain));
  // The minimum is main's rule only for the core-spot flow to venue_evm (venue_evm → venue_evm with
  // core_spot_swap asked for); any other transfer to venue_evm is an ordinary bridge with no minimum.
  const coreSpotMinimum = coreSpotMinimumApplies(fromChain, toChain, usable);
  const coreSpotMin = dec(settings.core_spot_min_usd);
  const coreSpotWarning =
    coreSpotMinimum && srcUsd.trim() !== '' && coreSpotMin && dec(srcUsd)?.lt(coreSpotMin) ? `Transfers to venue_evm through the venue’s spot layer need at least $${settings.core_spot_min_usd}` : undefined;
  const request: BridgeQuoteRequest | null =
    from && to && fromSide.token && toSide.token && fromSide.decimals !== null && amount.trim() !== '' && !amountError && 'bps' in slip && usable.length > 0 && !receiver.value.blocked && !usdProblem(srcUsd) && !usdProblem(dstUsd)
      ? {
          from_chain: from.chain,
          to_chain: to.chain,
          from_token: fromSide.token,
          to_token: toSide.token,
          amount: amount.trim(),
          decimals: fromSide.decimals,
          protocols: usable as BridgeQuoteRequest['protocols'],
          slippage_bps: slip.bps,
          ...(receiver.value.receiver ? { receiver: receiver.value.receiver } : {}),
          ...(srcUsd.trim() ? { source_usd_value: srcUsd.trim() } : {}),
        }
      : null;
  const stale = form.isStale(request);
  const err = form.error;
  const FIELDS = {
    fromChain: ['from_chain', 'fromChain', 'from'],
    toChain: ['to_chain', 'toChain'],
    fromToken: ['from_token', 'fromToken', 'token'],
    toToken: ['to_token', 'toToken'],
    amount: ['amount'],
    decimals: ['decimals'],
    protocols: ['protocols', 'protocol'],
    slippage: ['slippage', 'slippage_bps'],
    receiver: ['receiver'],
    usd: ['source_usd_value', 'usdValue', 'usd_value'],
  } as const;

  const pickFromChain = (c: string) => {
    setFromChain(c);
    setFromChoice((v) => ({ ...v, decimals: '' }));
  };

  return (
    <div className="wd">
      <Panel title="New bridge transfer" bodyClassName="panel-body-flow">
        <form
          className="section"
          aria-label="Bridge transfer"
          onSubmit={(e) => {
            e.preventDefault();
            if (request) form.ask(request, { sentSymbol: fromSide.symbol, receivedSymbol: toSide.symbol, receivedDecimals: toSide.decimals });
          }}
        >
          <div className="grid2">
            <SelectField label="From chain" value={fromChain} onChange={(e) => pickFromChain(e.target.value)} options={chainOptions(chains, 'source')} error={fieldError(err, FIELDS.fromChain)} />
            <SelectField label="To chain" value={toChain} onChange={(e) => setToChain(e.target.value)} options={chainOptions(chains, 'destination')} error={fieldError(err, FIELDS.toChain)} />
          </div>
          {from && (lacksRpc(from) || isRpcError(err)) && <MissingRpcNotice chain={from.chain} consequence="the app cannot read your balance there or send the transaction." />}
          <TokenPicker label="From token" chain={from} value={fromChoice} onChange={setFromChoice} side={fromSide} error={fieldError(err, FIELDS.fromToken)} />
          <TokenPicker label="To token" chain={to} value={toChoice} onChange={setToChoice} side={toSide} error={fieldError(err, FIELDS.toToken)} />
          <div className="grid2">
            <TextField
              label="Amount to send"
              value={amount}
              inputMode="decimal"
              placeholder="0.0"
              onChange={(e) => form.setAmount(e.target.value)}
              suffix={fromSide.info.data?.symbol ?? undefined}
              error={amountError ?? fieldError(err, FIELDS.amount) ?? fieldError(err, FIELDS.decimals)}
              warning={overBalanceWarning(fromSide, amount)}
              hint={fromSide.decimals === null && fromSide.token ? 'Needs the token’s decimals' : undefined}
            />
            <TextField
              label="Slippage"
              value={slippage}
              inputMode="decimal"
              suffix="%"
              onChange={(e) => setSlippage(e.target.value)}
              error={'error' in slip ? slip.error : fieldError(err, FIELDS.slippage)}
              hint={'bps' in slip ? `${slip.bps} bps · default ${fmtBps(settings.default_slippage_bps)}` : undefined}
            />
          </div>
          <fieldset className="protocols" aria-describedby="bridge-protocols-msg">
            <legend className="field-label">Protocols</legend>
            <div className="row">
              <button type="button" className="link-btn" onClick={() => setProtocols(settings.protocols)}>
                All
              </button>
              <button type="button" className="link-btn" onClick={() => setProtocols([])}>
                None
              </button>
              <span className="faint">
                {usable.length} of {settings.protocols.length}
              </span>
            </div>
            <div className="protocol-grid">
              {settings.protocols.map((p) => {
                const off = p === CORE_SPOT_PROTOCOL && !coreSpotApplies(fromChain, toChain);
                return (
                  <Checkbox
                    key={p}
                    label={p}
                    disabled={off}
                    hint={off ? 'venue only' : undefined}
                    checked={protocols.includes(p) && !off}
                    onChange={(e) => setProtocols((cur) => (e.target.checked ? settings.protocols.filter((x) => x === p || cur.includes(x)) : cur.filter((x) => x !== p)))}
                  />
                );
              })}
            </div>
            <div id="bridge-protocols-msg" className={`field-msg${usable.length === 0 || fieldError(err, FIELDS.protocols) ? ' field-msg-error' : ''}`}>
              {usable.length === 0 ? 'Choose at least one protocol' : fieldError(err, FIELDS.protocols) ?? 'Routes are quoted only through the protocols ticked here'}
            </div>
          </fieldset>
          <ReceiverSelect choice={receiver} wallet={wallet.data?.address} error={fieldError(err, FIELDS.receiver)} />
          <ReceiverOther choice={receiver} error={fieldError(err, FIELDS.receiver)} what="bridge" />
          <div className="grid2">
            <UsdValueField
              label="Value sent (USD)"
              value={srcUsd}
              onChange={form.setSrcUsd}
              error={fieldError(err, FIELDS.usd)}
              warning={coreSpotWarning}
              hint={coreSpotMinimum ? `Required: checks the $${settings.core_spot_min_usd} core-spot minimum` : 'For the points estimate'}
            />
            <UsdValueField label="Value received (USD)" value={dstUsd} onChange={form.setDstUsd} hint="With the value sent: estimates points" />
          </div>
          {err && !isShownAtField(err, Object.values(FIELDS)) && <ErrorLine error={err} />}
          {/* Sticks to the bottom of the view: the form's action is in view however small the window. */}
          <div className="form-submit">
            <Button type="submit" variant="primary" disabled={!request} busy={form.isAsking}>
              Get quotes
            </Button>
          </div>
        </form>
      </Panel>
      <div className="stack">
        {quoted && (
          <RoutesPanel
            quote={quoted.quote}
            ctx={quoted.ctx}
            coreSpotMinUsd={settings.core_spot_min_usd}
            stale={stale}
            refreshing={form.isAsking}
            onRefresh={form.refresh}
            onPick={setReview}
          />
        )}
        <TransferPanels kind="bridge" selected={form.selected} onSelect={form.setSelected} />
      </div>
      {quoted && review && (
        <BridgeReview
          quote={quoted.quote}
          ctx={quoted.ctx}
          route={review}
          fromChain={from}
          onClose={() => setReview(null)}
          onSent={(id) => {
            setReview(null);
            form.sent(id);
          }}
        />
      )}
    </div>
  );
}

function RoutesPanel({
  quote,
  ctx,
  coreSpotMinUsd,
  stale,
  refreshing,
  onRefresh,
  onPick,
}: {
  quote: BridgeQuoteView;
  ctx: BridgeQuoteContext;
  coreSpotMinUsd: string;
  stale: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onPick: (r: BridgeRouteView) => void;
}) {
  const now = useNow(1000);
  const expired = now >= quote.expires_at;
  const best = quote.routes.find((r) => r.best) ?? quote.routes[0];
  const out = (units: string) => fmtUnits(units, ctx.receivedDecimals, ctx.receivedSymbol);
  return (
    <Panel
      title="Routes"
      className="routes-panel"
      actions={
        <Button size="sm" variant="ghost" busy={refreshing} onClick={onRefresh}>
          Refresh quotes
        </Button>
      }
    >
      <div className="section">
        <p className="muted">
          {ctx.request.amount} {ctx.sentSymbol ?? 'units'} from {quote.from_chain} to {quote.to_chain} · slippage {fmtBps(quote.slippage_bps)} · {quote.routes.length}{' '}
          {quote.routes.length === 1 ? 'route' : 'routes'}
          {ctx.receivedDecimals === null ? ' · amounts in the destination token’s smallest units (its decimals are unknown)' : ''}
        </p>
        <div className={`notice ${expired ? 'notice-warn' : 'notice-info'}`} role="status">
          {expired ? (
            <>Quote expired. You can still send: the app re-quotes automatically, and never takes a route below its minimum received silently.</>
          ) : (
            <>
              Quote valid for <Countdown at={quote.expires_at} warnWithinMs={10_000} label="Quote expires in" />. If it runs out before the transfer is encoded, the app re-quotes automatically.
            </>
          )}
        </div>
        {stale && <p className="notice notice-warn">The form changed since these quotes: get quotes again to compare routes for it.</p>}
        {quote.core_spot && (
          <p className="notice notice-info">
            This transfer goes through the venue’s spot layer: the ${coreSpotMinUsd} minimum applies{quote.source_usd_value ? ` (declared value $${quote.source_usd_value})` : ''}.
          </p>
        )}
        {quote.routes.length === 0 ? (
          <p className="muted">No route offered for this transfer. Try more protocols, a larger amount or another token.</p>
        ) : (
          <table className="dt" aria-label="Bridge routes">
            <thead>
              <tr>
                <th scope="col">Protocol</th>
                <th scope="col" className="r">You receive</th>
                <th scope="col" className="r">Min received</th>
                <th scope="col" className="r">vs best</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {quote.routes.map((r) => {
                const bestOut = best ? dec(best.amount_out) : null;
                const pct = bestOut && !bestOut.isZero() && r.shortfall !== '0' ? dec(r.shortfall)?.div(bestOut).mul(100) : null;
                return (
                  <tr key={r.quote_idx} aria-label={`Route ${r.protocol}`}>
                    <td>
                      <span className="strong">{r.protocol}</span> {r.best && <Badge tone="buy">Best</Badge>}
                    </td>
                    <td className="r num">{out(r.amount_out)}</td>
                    <td className="r num">{out(r.min_amount_out)}</td>
                    <td className="r num">{r.shortfall === '0' ? '—' : <span className="sell">−{out(r.shortfall)}{pct ? ` (${fmt(pct, { places: 2 })}%)` : ''}</span>}</td>
                    <td className="r">
                      <Button size="sm" variant={r.best ? 'primary' : 'secondary'} disabled={stale} onClick={() => onPick(r)} aria-label={`Review route ${r.protocol}`}>
                        Review
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </Panel>
  );
}
