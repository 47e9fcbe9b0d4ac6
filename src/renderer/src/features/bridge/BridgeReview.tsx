/**
 * The last look before a bridge transfer is signed: what leaves and from where, what arrives and where,
 * the route and its minimum, the points it earns, and which signer signs the source-chain transaction.
 */
import type { BridgeQuoteView, BridgeRouteView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { fmtBps, fmtUnits } from '../../lib/units';
import { Countdown } from '../../ui/Countdown';
import { KV, KVList } from '../../ui/Panel';
import { useNow } from '../../ui/useNow';
import { lacksRpc, type ChainRow } from '../transfers/chains';
import { TransferReview } from '../transfers/TransferReview';
import { pointsUsdOf } from '../transfers/useTransferQuote';
import type { BridgeQuoteContext } from './bridgeTypes';

export function BridgeReview({
  quote,
  ctx,
  route,
  fromChain,
  onClose,
  onSent,
}: {
  quote: BridgeQuoteView;
  ctx: BridgeQuoteContext;
  route: BridgeRouteView;
  fromChain: ChainRow | undefined;
  onClose: () => void;
  onSent: (transferId: string) => void;
}) {
  const now = useNow(1000);
  const pointsUsd = pointsUsdOf(ctx);
  const out = (units: string) => fmtUnits(units, ctx.receivedDecimals, ctx.receivedSymbol);
  const ownReceiver = quote.receiver.toLowerCase() === quote.sender.toLowerCase();
  return (
    <TransferReview
      title={`Review bridge · ${quote.from_chain} → ${quote.to_chain}`}
      width={620}
      signLabel="Sign and send"
      send={() => unwrap(perps().bridge.send({ quote_id: quote.quote_id, quote_idx: route.quote_idx, ...(pointsUsd ? { points_usd: pointsUsd } : {}) }))}
      started={{ title: `Bridge started · ${quote.from_chain} → ${quote.to_chain}`, body: `${ctx.request.amount} ${ctx.sentSymbol ?? ''} via ${route.protocol}` }}
      onSent={onSent}
      onClose={onClose}
      points={{
        partnerCode: quote.partner_code,
        request: pointsUsd ? { src_chain: quote.from_chain, dst_chain: quote.to_chain, src_token: quote.from_token, dst_token: quote.to_token, src_usd: pointsUsd.src, dst_usd: pointsUsd.dst } : null,
      }}
      rpcMissingOn={fromChain && lacksRpc(fromChain) ? fromChain.chain : null}
      transaction="The source-chain transaction"
      signingNote={
        <>
          and spends from {quote.sender} on {quote.from_chain}, including its gas. An ERC-20 may need an approval transaction first. If the quote expires before the route is encoded
          the app re-quotes, and stops rather than take a route below the minimum received.
        </>
      }
    >
      <KVList label="Bridge transfer">
        <KV k="You send">
          {ctx.request.amount} {ctx.sentSymbol ?? `(${quote.from_token})`} on {quote.from_chain}
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
    </TransferReview>
  );
}
