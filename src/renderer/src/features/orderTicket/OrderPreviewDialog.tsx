/**
 * The readable preview of exactly what will be signed (from orders:preview) and, after the user
 * confirms, the per-leg outcome. Rejected legs stay on screen with their reason. An order that trips the
 * fat-finger guard (the review's `confirmations`) cannot be signed until the person ticks each one.
 */
import { useState } from 'react';
import type { ConfirmationCode, MarketView, OrderPreview, PlaceOrdersResult } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { IpcQueryError } from '../../ipc/client';
import { useMarkets } from '../../ipc/queries';
import { dec, fmt, fmtPct, fmtUsd } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { liquidationText, pricePlaces } from '../risk/liquidation';
import { allConfirmed, confirmedCodes, GuardConfirmations } from '../signing/GuardConfirmations';
import { TypedDataTable } from '../signing/SigningReviewView';
import { legTitle, protectionLost, usePlaceOrder } from './placeOrder';

/**
 * The position this order would leave (main's review, an estimate): after this fill, with this leverage,
 * with its liquidation estimate; "flat" when the order closes it.
 */
function PositionAfter({ after, market }: { after: OrderPreview['position_after']; market: MarketView | undefined }) {
  if (!after) return <KV k="Position after (est.)">flat</KV>;
  const size = dec(after.size);
  const places = pricePlaces(market);
  return (
    <>
      <KV k="Position after (est.)">
        {size?.isNegative() ? 'SHORT' : 'LONG'} {fmt(size?.abs() ?? after.size)} @ {fmt(after.entry_price, places !== undefined ? { places } : {})} · margin {fmtUsd(after.isolated_margin)}
      </KV>
      <KV k="Liq. price after (est.)" tone="liq">
        {liquidationText(after.size, after.liquidation_price, market)}
      </KV>
    </>
  );
}

/**
 * A scale-out on a position whose TP/SL is armed (main's review: services/positions/scaleOut.ts): which
 * triggers are cancelled first, and that the whole-position levels are re-armed once the ladder rests.
 * Once placed, what became of them; a level not back is an alert, with what to do.
 */
function ProtectionLift({ protection, rearm }: { protection: NonNullable<OrderPreview['protection']>; rearm: PlaceOrdersResult['rearm'] }) {
  const lost = rearm ? rearm.past_mark.length + rearm.failed.length > 0 : false;
  return (
    <section className="leg-card" aria-label="TP/SL during the scale-out">
      <h3>
        TP/SL lifted and re-armed
        {rearm && <Badge tone={lost ? 'sell' : 'buy'}>{lost ? 'not all re-armed' : 're-armed'}</Badge>}
      </h3>
      <ul>
        {protection.summary.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {rearm && !lost && rearm.summary.length > 0 && (
        <p className="notice" role="status">
          {rearm.summary.join(' ')}
        </p>
      )}
      {rearm && lost && (
        <p className="notice notice-warn" role="alert">
          The position is less protected than before: {rearm.summary.join(' ')} Set the level again from the position&apos;s TP/SL, or close the rest.
        </p>
      )}
    </section>
  );
}

/**
 * A scale order's legs as one ladder table (up to 20 rungs): price, size, value and fee of each as it
 * will be signed, in the order sent, then each one's outcome once placed. The first leg's plain line
 * says what it is in words; every rung shares its side, type, time in force and flags.
 */
function LadderReview({ preview, result }: { preview: OrderPreview; result: PlaceOrdersResult | undefined }) {
  const first = preview.legs[0];
  return (
    <section className="leg-card" aria-label="Scale ladder legs">
      <h3>
        Scale ladder · {preview.legs.length} legs
        {first && <Badge tone={first.side === 'BUY' ? 'buy' : 'sell'}>{first.side}</Badge>}
        <Badge>LIMIT</Badge>
        {first?.time_in_force && <Badge>{first.time_in_force === 'ALO' ? 'Post-only (ALO)' : first.time_in_force}</Badge>}
        {first?.reduce_only && <Badge tone="info">Reduce-only</Badge>}
      </h3>
      {first && <p className="leg-line">Leg 1: {first.description}</p>}
      <table className="ladder ladder-review" aria-label="Ladder as signed">
        <thead>
          <tr>
            <th scope="col">Leg</th>
            <th scope="col">Price</th>
            <th scope="col">Size</th>
            <th scope="col">Value</th>
            <th scope="col">Fee</th>
            {result && <th scope="col">Status</th>}
          </tr>
        </thead>
        <tbody>
          {preview.legs.map((leg, i) => {
            const placed = result?.legs.find((l) => l.client_order_id === leg.client_order_id);
            return (
              <tr key={leg.client_order_id}>
                <td>{i + 1}</td>
                <td className="num">{fmt(leg.limit_price)}</td>
                <td className="num">{fmt(leg.size)}</td>
                <td className="num">{fmtUsd(leg.notional)}</td>
                <td className="num">
                  {fmtUsd(leg.fee_estimate, { fallback: '—' })} <span className="faint">{leg.fee_kind}</span>
                </td>
                {result && <td title={placed?.reason ? explainReason(placed.reason) : undefined}>{placed?.status ?? '—'}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The size a bracket's whole-position leg (size 0) will close: the position after its entry (the review's
 * position_after leaves attached legs out), as its notional is priced; null for any other leg.
 */
function wholeAfterEntry(leg: OrderPreview['legs'][number], after: OrderPreview['position_after']): string | null {
  if (leg.order_type !== 'TRIGGER' || !leg.parent_client_order_id || !after || !dec(leg.size)?.isZero()) return null;
  return fmt(dec(after.size)?.abs().toFixed() ?? null);
}

function shortAddress(a: string): string {
  return `${a.slice(0, 6)}…${a.slice(-4)}`;
}

/**
 * The review: one plain line per leg first (main's describeLeg, from the leg as it will be sent), the
 * totals (the same costs the ticket showed), whose wallet trades and which key signs, the warnings; the
 * raw signing material (typed data with its domain, the nonces, the digests) in one closed disclosure at
 * the end, for whoever wants to check the bytes. Sign and place stays in the footer, always in view.
 */
export function OrderPreviewDialog({ preview, onClose, onPlaced }: { preview: OrderPreview | null; onClose: () => void; onPlaced?: (r: PlaceOrdersResult) => void }) {
  const place = usePlaceOrder((r) => {
    if (r.success) {
      onPlaced?.(r);
      // A scale-out that left the position less protected stays open on its alert (ProtectionLift).
      if (!protectionLost(r)) onClose();
    }
  });
  const [confirmed, setConfirmed] = useState<Set<ConfirmationCode>>(() => new Set());
  const markets = useMarkets();
  const result = place.data;
  const expired = place.error instanceof IpcQueryError && place.error.code === 'REVIEW_EXPIRED';
  const close = () => {
    place.reset();
    onClose();
  };
  if (!preview) return null;
  const entry = preview.legs[0];
  const ready = allConfirmed(preview.confirmations, confirmed);
  const market = markets.data?.markets.find((m) => m.symbol === preview.market);
  const footer = (
    <>
      <span className="grow muted" style={{ fontSize: 'var(--fs-sm)' }}>
        {!result && (
          <>
            Preview valid for <Countdown at={preview.valid_until} warnWithinMs={10_000} />
          </>
        )}
      </span>
      {result ? (
        <Button variant="primary" onClick={close}>
          Done
        </Button>
      ) : (
        <>
          <Button variant="ghost" onClick={close} disabled={place.isPending}>
            Cancel
          </Button>
          <Button
            variant={entry?.side === 'SELL' ? 'sell' : 'buy'}
            busy={place.isPending}
            disabled={expired || !ready}
            title={ready ? undefined : 'Tick each confirmation above first'}
            onClick={() => place.mutate({ preview, confirm: confirmedCodes(preview.confirmations, confirmed) })}
          >
            {expired ? 'Preview expired — close and review again' : 'Sign and place'}
          </Button>
        </>
      )}
    </>
  );
  return (
    <Dialog open title={`Review order · ${preview.market}`} onClose={close} width={640} locked={place.isPending} footer={footer}>
      {/* What is unusual comes first, where it cannot be missed; each needs a tick before signing. */}
      <GuardConfirmations confirmations={preview.confirmations} confirmed={confirmed} onChange={setConfirmed} disabled={place.isPending || result !== undefined} />
      {preview.protection && <ProtectionLift protection={preview.protection} rearm={result?.rearm ?? null} />}
      {preview.kind === 'scale' && <LadderReview preview={preview} result={result} />}
      {preview.kind !== 'scale' && preview.legs.map((leg) => {
        const placed = result?.legs.find((l) => l.client_order_id === leg.client_order_id);
        return (
          <section key={leg.client_order_id} className="leg-card" aria-label={`${legTitle(leg.label)} leg`}>
            <h3>
              {legTitle(leg.label)}
              <Badge tone={leg.side === 'BUY' ? 'buy' : 'sell'}>{leg.side}</Badge>
              <Badge>{leg.order_type}</Badge>
              {leg.time_in_force && leg.order_type === 'LIMIT' && <Badge>{leg.time_in_force === 'ALO' ? 'Post-only (ALO)' : leg.time_in_force}</Badge>}
              {leg.reduce_only && <Badge tone="info">Reduce-only</Badge>}
              {leg.parent_client_order_id && <Badge tone="warn">Waits for entry</Badge>}
              {placed && <Badge tone={placed.status === 'SUBMITTED' ? 'buy' : placed.status === 'REJECTED' ? 'sell' : 'warn'}>{placed.status}</Badge>}
            </h3>
            <p className="leg-line">{leg.description}</p>
            {placed?.reason && (
              <p className="error-line" role="alert">
                Rejected: {explainReason(placed.reason)}
              </p>
            )}
            <p className="leg-costs">
              {wholeAfterEntry(leg, preview.position_after) && <>Closes {wholeAfterEntry(leg, preview.position_after)} {preview.market} (the position after the entry) · </>}
              Notional {fmtUsd(leg.notional)} · fee {fmtUsd(leg.fee_estimate, { fallback: '—' })} ({leg.fee_kind} {fmtPct(leg.fee_rate, 3)})
            </p>
          </section>
        );
      })}
      <KVList label="Order totals">
        <KV k="Mark">{fmt(preview.mark)}</KV>
        <KV k="Total notional">{fmtUsd(preview.total_notional)}</KV>
        <KV k="Estimated fees">{fmtUsd(preview.total_fee_estimate)}</KV>
        <KV k="Initial margin">{fmtUsd(preview.margin_required)}</KV>
        {preview.free_balance && <KV k="Free balance">{fmtUsd(preview.free_balance)}</KV>}
        <PositionAfter after={preview.position_after} market={market} />
        <KV k="Account (your main wallet)">
          <span className="addr" title={preview.wallet}>
            {preview.wallet}
          </span>
        </KV>
        <KV k="Signed by your trading key">
          <span className="addr" title={preview.signer}>
            {shortAddress(preview.signer)}
          </span>
        </KV>
      </KVList>
      {preview.warnings.map((w) => (
        <p key={w} className="notice notice-warn" role="status">
          {w}
        </p>
      ))}
      {place.error && <ErrorLine error={place.error} />}
      <details className="signing-details">
        <summary>Signing details: typed data, domain, nonces and digests</summary>
        {preview.legs.map((leg) => (
          <section key={leg.client_order_id} className="signing-leg" aria-label={`${legTitle(leg.label)} signing details`}>
            <h4>{legTitle(leg.label)}</h4>
            {/* Every member in signing order, the domain (chain id included) and the nonce: what a wallet would show. */}
            <TypedDataTable data={leg.typed_data} />
            <div className="kv">
              <dt>Digest</dt>
              <dd className="addr">{leg.digest}</dd>
            </div>
          </section>
        ))}
      </details>
    </Dialog>
  );
}
