/** This session's order activity from orderStatus events: every status change, rejections with their reason. */
import { explainReason } from '../../ipc/events';
import { useActivity } from '../../ipc/orderActivity';
import { fmt } from '../../lib/decimal';
import { fmtTime } from '../../lib/time';
import { Badge, type Tone } from '../../ui/Badge';
import { EmptyState } from '../../ui/States';

const TONE: Record<string, Tone> = {
  FILLED: 'buy',
  PARTIALLY_FILLED_CANCELLED: 'buy',
  REJECTED: 'sell',
  FAILED: 'sell',
  CANCELLED: 'neutral',
  PENDING_PARENT: 'warn',
  SUBMITTED: 'info',
  ACCEPTED: 'info',
  EXECUTING: 'info',
  PENDING_MODIFY: 'info',
};

const LABEL: Record<string, string> = { entry: 'Entry', tp: 'Take profit', sl: 'Stop loss', order: 'Order' };

/** A trigger that is armed on the venue (SUBMITTED and not waiting for an entry). */
function armedTrigger(r: { armed?: boolean; status: string; order_type?: string | null }): boolean {
  return Boolean(r.armed) && r.status === 'SUBMITTED' && r.order_type === 'TRIGGER';
}

export function ActivityTable() {
  const rows = useActivity();
  if (rows.length === 0) return <EmptyState title="No activity yet">Order status changes of this session appear here as they happen.</EmptyState>;
  return (
    <table className="dt" aria-label="Order activity">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Market</th>
          <th scope="col">Order</th>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col" className="r">Filled</th>
          <th scope="col" className="r">Avg price</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.order_id} aria-label={`Order ${r.order_id} ${armedTrigger(r) ? 'armed' : r.status}`}>
            <td className="faint">{fmtTime(r.seen_at)}</td>
            <td className="strong">{r.market ?? '—'}</td>
            <td className="num">
              {r.label ? `${LABEL[r.label] ?? r.label} · ` : ''}
              {r.order_id}
            </td>
            <td>{r.order_type ?? '—'}</td>
            <td>
              {/* An armed trigger reads "Armed", not the service's "SUBMITTED" beside it: one word a trader acts on. */}
              {armedTrigger(r) ? <Badge tone="accent">Armed</Badge> : <Badge tone={TONE[r.status] ?? 'neutral'}>{r.status === 'PENDING_PARENT' ? 'Waiting for entry' : r.status}</Badge>}
              {r.replaced_by && <span className="faint"> → {r.replaced_by}</span>}
            </td>
            <td className="r num">{fmt(r.filled_size)}</td>
            <td className="r num">{fmt(r.avg_fill_price)}</td>
            <td className={r.status === 'REJECTED' || r.status === 'FAILED' ? 'sell' : 'muted'} style={{ whiteSpace: 'normal' }}>
              {explainReason(r.reason) || '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
