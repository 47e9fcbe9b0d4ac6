/**
 * The readable preview of exactly what will be signed (from orders:preview) and, after the user
 * confirms, the per-leg outcome. Rejected legs stay on screen with their reason.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderPreview, PlaceOrdersResult } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { perps, unwrap, IpcQueryError } from '../../ipc/client';
import { recordActivity } from '../../ipc/orderActivity';
import { qk } from '../../ipc/queries';
import { fmt, fmtPct, fmtUsd } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { TypedDataTable } from '../signing/SigningReviewView';

const LEG_TITLES: Record<string, string> = { order: 'Order', entry: 'Entry', tp: 'Take profit', sl: 'Stop loss', close: 'Close' };
/** A leg's title: the known labels in words, any other (a ladder's rung, say) as it is. */
const legTitle = (label: string): string => LEG_TITLES[label] ?? label;

export function usePlaceOrder(onPlaced: (r: PlaceOrdersResult) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (preview: OrderPreview) => unwrap(perps().orders.place({ preview_id: preview.preview_id })),
    onSuccess: (r, preview) => {
      recordActivity(
        r.legs
          .filter((l) => l.order_id)
          .map((l) => {
            const leg = preview.legs.find((p) => p.client_order_id === l.client_order_id);
            return {
              order_id: l.order_id as string,
              market: preview.market,
              order_type: leg?.order_type ?? null,
              status: l.status === 'SUBMITTED' ? (leg?.parent_client_order_id ? 'PENDING_PARENT' : 'SUBMITTED') : l.status === 'REJECTED' ? 'REJECTED' : 'UNKNOWN',
              list_status: null,
              reason: l.reason,
              filled_size: null,
              avg_fill_price: null,
              armed: false,
              terminal: l.status === 'REJECTED',
              replaced_by: null,
              label: l.label,
              side: leg?.side,
            };
          }),
      );
      void client.invalidateQueries({ queryKey: qk.openOrders });
      void client.invalidateQueries({ queryKey: qk.triggers });
      const rejected = r.legs.filter((l) => l.status === 'REJECTED');
      if (rejected.length === 0) pushToast({ tone: 'success', title: `Order submitted · ${preview.market}`, body: r.legs.map((l) => `${legTitle(l.label)} ${l.status.toLowerCase()}`).join(' · ') });
      else pushToast({ tone: 'error', title: `${rejected.length} leg${rejected.length > 1 ? 's' : ''} rejected · ${preview.market}`, body: rejected.map((l) => `${legTitle(l.label)}: ${explainReason(l.reason)}`).join('\n') });
      onPlaced(r);
    },
  });
}

export function OrderPreviewDialog({ preview, onClose }: { preview: OrderPreview | null; onClose: () => void }) {
  const place = usePlaceOrder((r) => {
    if (r.success) onClose();
  });
  const result = place.data;
  const expired = place.error instanceof IpcQueryError && place.error.code === 'REVIEW_EXPIRED';
  const close = () => {
    place.reset();
    onClose();
  };
  if (!preview) return null;
  const entry = preview.legs[0];
  return (
    <Dialog open title={`Review order · ${preview.market}`} onClose={close} width={640} locked={place.isPending}>
      <KVList label="Order totals">
        <KV k="Mark">{fmt(preview.mark)}</KV>
        <KV k="Total notional">{fmtUsd(preview.total_notional)}</KV>
        <KV k="Estimated fees">{fmtUsd(preview.total_fee_estimate)}</KV>
        {preview.margin_required && <KV k="Initial margin">{fmtUsd(preview.margin_required)}</KV>}
        <KV k="Signed by trading key">
          <span className="addr">{preview.signer}</span>
        </KV>
        <KV k="Account (main wallet)">
          <span className="addr">{preview.wallet}</span>
        </KV>
      </KVList>
      {preview.warnings.map((w) => (
        <p key={w} className="notice notice-warn" role="status">
          {w}
        </p>
      ))}
      {preview.legs.map((leg) => {
        const placed = result?.legs.find((l) => l.client_order_id === leg.client_order_id);
        return (
          <section key={leg.client_order_id} className="leg-card" aria-label={`${legTitle(leg.label)} leg`}>
            <h3>
              {legTitle(leg.label)}
              <Badge tone={leg.side === 'BUY' ? 'buy' : 'sell'}>{leg.side}</Badge>
              <Badge>{leg.order_type}</Badge>
              {leg.time_in_force && <Badge>{leg.time_in_force === 'ALO' ? 'Post-only (ALO)' : leg.time_in_force}</Badge>}
              {leg.reduce_only && <Badge tone="info">Reduce-only</Badge>}
              {leg.parent_client_order_id && <Badge tone="warn">Waits for entry</Badge>}
              {placed && (
                <Badge tone={placed.status === 'SUBMITTED' ? 'buy' : placed.status === 'REJECTED' ? 'sell' : 'warn'}>
                  {placed.status}
                </Badge>
              )}
            </h3>
            {placed?.reason && (
              <p className="error-line" role="alert">
                Rejected: {explainReason(placed.reason)}
              </p>
            )}
            <ul className="summary-lines">
              {leg.summary.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
            <KVList>
              <KV k="Size">{leg.size === '0' ? '0 (whole position when it fires)' : leg.size}</KV>
              <KV k={leg.order_type === 'TRIGGER' ? 'Fire price' : leg.order_type === 'MARKET' ? 'Slippage bound' : 'Limit price'}>{leg.limit_price}</KV>
              {leg.trigger && <KV k={`Trigger (${leg.trigger.tpsl})`}>{leg.trigger.trigger_price}</KV>}
              {leg.leverage !== null && <KV k="Leverage">{leg.leverage}x</KV>}
              <KV k="Notional">{fmtUsd(leg.notional)}</KV>
              <KV k={`Fee (${leg.fee_kind} ${fmtPct(leg.fee_rate, 3)})`}>{fmtUsd(leg.fee_estimate, { fallback: '—' })}</KV>
            </KVList>
            <details>
              <summary>Typed data to sign</summary>
              <TypedDataTable data={leg.typed_data} />
              <div className="kv">
                <dt>Digest</dt>
                <dd className="addr">{leg.digest}</dd>
              </div>
            </details>
          </section>
        );
      })}
      {place.error && <ErrorLine error={place.error} />}
      <div className="actions">
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
              disabled={expired}
              onClick={() => place.mutate(preview)}
            >
              {expired ? 'Preview expired — close and review again' : 'Sign and place'}
            </Button>
          </>
        )}
      </div>
    </Dialog>
  );
}
