/**
 * The last look before a bridge transfer is signed: what leaves and from where, what arrives and where,
 * the route and its minimum, the points it earns, and which signer signs the source-chain transaction.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BridgeQuoteView, BridgeRouteView } from '../../../../shared/ipc';
import { editRpcUrl } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { putTransfers } from '../../ipc/companionQueries';
import { useWallet } from '../../ipc/queries';
import { fmtBps, fmtUnits } from '../../lib/units';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useNow } from '../../ui/useNow';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { PointsEstimate } from '../points/PointsEstimate';
import { hasRpc, type ChainRow } from '../transfers/chains';
import type { QuoteContext } from './BridgeView';

export function BridgeReview({
  quote,
  ctx,
  route,
  fromChain,
  onClose,
  onSent,
}: {
  quote: BridgeQuoteView;
  ctx: QuoteContext;
  route: BridgeRouteView;
  fromChain: ChainRow | undefined;
  onClose: () => void;
  onSent: (transferId: string) => void;
}) {
  const client = useQueryClient();
  const wallet = useWallet();
  const now = useNow(1000);
  const [connect, setConnect] = useState(false);
  const signer = wallet.data?.signer;
  const pointsUsd = ctx.srcUsd && ctx.dstUsd ? { src: ctx.srcUsd, dst: ctx.dstUsd } : null;
  const noRpc = fromChain !== undefined && !hasRpc(fromChain);
  const send = useMutation({
    mutationFn: () => unwrap(perps().bridge.send({ quote_id: quote.quote_id, quote_idx: route.quote_idx, ...(pointsUsd ? { points_usd: pointsUsd } : {}) })),
    onSuccess: (t) => {
      putTransfers(client, [t]);
      pushToast({ tone: 'info', title: `Bridge started · ${quote.from_chain} → ${quote.to_chain}`, body: `${ctx.request.amount} ${ctx.fromSymbol ?? ''} via ${route.protocol}` });
      onSent(t.id);
    },
  });
  const out = (units: string) => fmtUnits(units, ctx.toDecimals, ctx.toSymbol);
  const ownReceiver = quote.receiver.toLowerCase() === quote.sender.toLowerCase();
  return (
    <>
      <Dialog
        open
        title={`Review bridge · ${quote.from_chain} → ${quote.to_chain}`}
        onClose={onClose}
        width={620}
        locked={send.isPending}
        footer={
          <>
            <Button variant="ghost" onClick={onClose} disabled={send.isPending}>
              Cancel
            </Button>
            <Button variant="primary" busy={send.isPending} disabled={!signer || noRpc} onClick={() => send.mutate()}>
              Sign and send
            </Button>
          </>
        }
      >
        <KVList label="Bridge transfer">
          <KV k="You send">
            {ctx.request.amount} {ctx.fromSymbol ?? `(${quote.from_token})`} on {quote.from_chain}
          </KV>
          <KV k="From (your main wallet)">
            <span className="addr">{quote.sender}</span>
          </KV>
          <KV k="Route">{route.protocol}{route.best ? ' (best)' : ''}</KV>
          <KV k="You receive (quoted)">
            {out(route.amount_out)} on {quote.to_chain}
          </KV>
          <KV k="Minimum received">{out(route.min_amount_out)}</KV>
          {route.shortfall !== '0' && <KV k="Less than the best route by">{out(route.shortfall)}</KV>}
          <KV k="Slippage tolerance">{fmtBps(quote.slippage_bps)}</KV>
          <KV k={ownReceiver ? 'To (your main wallet)' : 'To (another address)'}>
            <span className="addr">{quote.receiver}</span>
          </KV>
          {quote.partner_code && <KV k="Partner code">{quote.partner_code}</KV>}
          <KV k="Quote expires in">{now < quote.expires_at ? <Countdown at={quote.expires_at} warnWithinMs={10_000} label="Quote expires in" /> : 'expired: re-quoted automatically when sent'}</KV>
        </KVList>
        {!ownReceiver && <p className="notice notice-warn">The tokens go to {quote.receiver}, not to your main wallet. Check the address: a transfer cannot be called back.</p>}
        <PointsEstimate
          partnerCode={quote.partner_code}
          request={pointsUsd ? { src_chain: quote.from_chain, dst_chain: quote.to_chain, src_token: quote.from_token, dst_token: quote.to_token, src_usd: pointsUsd.src, dst_usd: pointsUsd.dst } : null}
        />
        <div className="field">
          <span className="field-label">Signer</span>
          <div className="row" style={{ justifyContent: 'space-between' }}>
            <span>{signer ? signer.label : <span className="warn">Not connected this session</span>}</span>
            <Button size="sm" onClick={() => setConnect(true)} disabled={send.isPending}>
              {signer ? 'Change signer' : 'Connect signer'}
            </Button>
          </div>
        </div>
        <p className="notice notice-warn">
          The source-chain transaction is signed by your <strong>main wallet</strong>
          {signer ? ` (${signer.label})` : ''} and spends from {quote.sender} on {quote.from_chain}, including its gas. An ERC-20 may need an approval transaction first. If the quote
          expires before the route is encoded the app re-quotes, and stops rather than take a route below the minimum received.
        </p>
        {noRpc && fromChain && (
          <div className="notice notice-warn" role="alert">
            {fromChain.chain} has no JSON-RPC URL: nothing can be sent from it.{' '}
            <button
              type="button"
              className="link-btn"
              onClick={() => {
                onClose();
                editRpcUrl(fromChain.chain);
              }}
            >
              Set the RPC URL for {fromChain.chain}
            </button>
          </div>
        )}
        {send.error && <ErrorLine error={send.error} />}
      </Dialog>
      <Dialog open={connect} title="Main wallet signer" onClose={() => setConnect(false)} width={620}>
        <ConnectWallet
          expectedAddress={wallet.data?.address}
          onConnected={(w) => {
            setConnect(false);
            send.reset();
            pushToast({ tone: 'success', title: 'Signer connected', body: w.signer?.label });
          }}
        />
      </Dialog>
    </>
  );
}
