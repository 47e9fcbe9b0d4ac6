/** The columns of each history table. Cells format decimal strings without ever turning them into floats. */
import type { FillView, IpcResponse, OrderHistoryGroupView } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { fmt, fmtPct, fmtUsd, toneOf } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Badge, type Tone } from '../../ui/Badge';
import type { ExpandableRows, HistoryColumn } from './VirtualHistoryGrid';

type FundingRow = IpcResponse<'history:funding'>['rows'][number];
type DepositRow = IpcResponse<'history:deposits'>['rows'][number];
type WithdrawalRow = IpcResponse<'history:withdrawals'>['rows'][number];

const STATUS_TONE: Record<string, Tone> = {
  filled: 'buy',
  partially_filled_cancelled: 'buy',
  rejected: 'sell',
  cancelled: 'neutral',
  open: 'info',
  triggered: 'accent',
  COMPLETED: 'buy',
  CONFIRMED: 'buy',
  REJECTED: 'sell',
  FAILED: 'sell',
  REFUNDED: 'warn',
  BELOW_MIN: 'warn',
};

const side = (s: string | null) => (s ? <span className={s.toLowerCase() === 'buy' || s === 'B' ? 'buy' : 'sell'}>{s.toLowerCase() === 'buy' ? 'Buy' : s.toLowerCase() === 'sell' ? 'Sell' : s}</span> : '—');

const orderType = (o: OrderHistoryGroupView['order']) => (o.order_type === 'TRIGGER' ? (o.tpsl === 'tp' ? 'Take profit' : o.tpsl === 'sl' ? 'Stop loss' : 'Trigger') : o.order_type === 'LIMIT' ? 'Limit' : o.order_type === 'MARKET' ? 'Market' : o.order_type);
const statusBadge = (status: string) => <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status.replace(/_/g, ' ')}</Badge>;
/**
 * A status as a trader reads it (main labels it from the spec's fields: orderStatusLabel.ts): a trigger
 * armed on the position reads "armed", a bracket leg still waiting for its entry "awaiting entry", never
 * the service's bare "open".
 */
const LABEL_TONE: Record<string, Tone> = { armed: 'accent', 'awaiting entry': 'info' };
const labelBadge = (status: string, label: string) => (label !== status ? <Badge tone={LABEL_TONE[label] ?? 'neutral'}>{label}</Badge> : statusBadge(status));

/**
 * Order history, one row per order (main groups the service's one-row-per-status-change log): the latest
 * status, and a market order's average fill price where other orders show their limit price (its limit
 * price is only the slippage bound it was sent with, kept in the row's title).
 */
export const ORDER_COLUMNS: HistoryColumn<OrderHistoryGroupView>[] = [
  { id: 'time', header: 'Placed', width: '150px', cell: (g) => <span className="faint">{fmtDateTime(g.order.submitted_at)}</span> },
  { id: 'market', header: 'Market', width: '70px', cell: (g) => <strong>{g.order.market}</strong> },
  { id: 'type', header: 'Type', width: '90px', cell: (g) => orderType(g.order) },
  { id: 'side', header: 'Side', width: '50px', cell: (g) => side(g.order.side) },
  {
    id: 'price',
    header: 'Price',
    width: '110px',
    align: 'r',
    cell: (g) =>
      g.order.order_type === 'MARKET' ? (
        <span className="num" title={`Market order: ${g.price ? 'average fill price' : 'nothing filled'}; slippage bound ${g.order.limit_price}`}>
          {g.price ? fmt(g.price) : 'market'}
        </span>
      ) : (
        <span className="num">{fmt(g.price)}</span>
      ),
  },
  { id: 'trigger', header: 'Trigger', width: '90px', align: 'r', cell: (g) => <span className="num">{g.order.trigger_price ? fmt(g.order.trigger_price) : ''}</span> },
  // A whole-position trigger is sent with size 0: it reads as what it does, never "0".
  { id: 'size', header: 'Size', width: '132px', align: 'r', cell: (g) => <span className="num">{g.order.order_type === 'TRIGGER' && /^0(\.0*)?$/.test(g.order.size) ? 'whole position' : fmt(g.order.size)}</span> },
  { id: 'filled', header: 'Filled', width: '90px', align: 'r', cell: (g) => <span className="num">{fmt(g.order.filled_size)}</span> },
  { id: 'avg', header: 'Avg fill', width: '100px', align: 'r', cell: (g) => <span className="num">{fmt(g.avg_fill_price)}</span> },
  { id: 'status', header: 'Status', width: '170px', cell: (g) => <span title={`${g.changes.length} status change${g.changes.length === 1 ? '' : 's'}, latest ${fmtDateTime(g.order.status_at)}`}>{labelBadge(g.order.status, g.changes[g.changes.length - 1]?.label ?? g.order.status)}</span> },
  { id: 'reason', header: 'Reason', width: 'minmax(150px, 1fr)', cell: (g) => <span className={g.order.status === 'rejected' ? 'sell' : 'muted'} title={explainReason(g.order.reason)}>{g.order.reason ?? ''}</span> },
  { id: 'id', header: 'Order id', width: '130px', cell: (g) => <span className="num faint">{g.order.order_id}</span> },
];

/** Each status change on its own line: when, the status, what had filled and at what average, why. */
const CHANGE_HEIGHT = 22;
export const ORDER_CHANGES: ExpandableRows<OrderHistoryGroupView> = {
  key: (g) => g.order.order_id,
  label: (g) => `status changes of ${g.order.market} ${orderType(g.order)} ${g.order.side ?? ''} ${g.order.order_id}`.replace(/\s+/g, ' '),
  detailHeight: (g) => g.changes.length * CHANGE_HEIGHT + 12,
  detail: (g) => (
    <ol className="status-changes" aria-label={`Status changes of ${g.order.order_id}`}>
      {g.changes.map((c, i) => (
        <li key={`${c.at}-${i}`}>
          <span className="faint">{fmtDateTime(c.at)}</span>
          {labelBadge(c.status, c.label)}
          {/^0*(\.0*)?$/.test(c.filled_size) ? null : (
            <span className="num">
              filled {fmt(c.filled_size)}
              {c.avg_fill_price ? ` @ ${fmt(c.avg_fill_price)}` : ''}
            </span>
          )}
          {c.reason && <span className="muted" title={explainReason(c.reason)}>{explainReason(c.reason)}</span>}
        </li>
      ))}
    </ol>
  ),
};

export const FILL_COLUMNS: HistoryColumn<FillView>[] = [
  { id: 'time', header: 'Time', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.filled_at)}</span> },
  { id: 'market', header: 'Market', width: '80px', cell: (r) => <strong>{r.market ?? '—'}</strong> },
  { id: 'dir', header: 'Direction', width: '110px', cell: (r) => <span className={/long/i.test(r.dir) === /open/i.test(r.dir) ? 'buy' : 'sell'}>{r.dir}</span> },
  { id: 'price', header: 'Price', width: '110px', align: 'r', cell: (r) => <span className="num">{fmt(r.price)}</span> },
  { id: 'size', header: 'Size', width: '100px', align: 'r', cell: (r) => <span className="num">{fmt(r.size)}</span> },
  { id: 'fee', header: 'Fee', width: '100px', align: 'r', cell: (r) => <span className="num">{fmtUsd(r.fee)}</span> },
  { id: 'pnl', header: 'Closed PnL', width: '120px', align: 'r', cell: (r) => <span className={`num ${toneOf(r.closed_pnl)}`}>{r.closed_pnl ? fmtUsd(r.closed_pnl, { signed: true }) : '—'}</span> },
  { id: 'liq', header: 'Liq.', width: '60px', cell: (r) => (r.is_liquidation ? <Badge tone="sell">Liq</Badge> : '') },
  { id: 'order', header: 'Order id', width: 'minmax(120px, 1fr)', cell: (r) => <span className="num faint">{r.order_id}</span> },
  { id: 'tid', header: 'Trade id', width: '120px', cell: (r) => <span className="num faint">{r.tid}</span> },
];

export const FUNDING_COLUMNS: HistoryColumn<FundingRow>[] = [
  { id: 'time', header: 'Settled', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.settled_at)}</span> },
  { id: 'market', header: 'Market', width: '80px', cell: (r) => <strong>{r.market ?? '—'}</strong> },
  { id: 'dir', header: 'Position', width: '80px', cell: (r) => <span className={r.direction === 'LONG' ? 'buy' : 'sell'}>{r.direction}</span> },
  { id: 'size', header: 'Size', width: '110px', align: 'r', cell: (r) => <span className="num">{fmt(r.size)}</span> },
  { id: 'rate', header: 'Rate', width: '110px', align: 'r', cell: (r) => <span className="num">{fmtPct(r.funding_rate, 4, true)}</span> },
  { id: 'payment', header: 'Payment', width: '120px', align: 'r', cell: (r) => <span className={`num ${toneOf(r.payment)}`}>{fmtUsd(r.payment, { signed: true })}</span> },
  { id: 'epoch', header: 'Funding hour', width: 'minmax(150px, 1fr)', cell: (r) => <span className="faint">{fmtDateTime(r.epoch_time)}</span> },
];

export const DEPOSIT_COLUMNS: HistoryColumn<DepositRow>[] = [
  { id: 'time', header: 'Detected', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.detected_at)}</span> },
  { id: 'amount', header: 'Amount', width: '130px', align: 'r', cell: (r) => <span className="num">{fmtUsd(r.amount)}</span> },
  { id: 'source', header: 'Source', width: '120px', cell: (r) => r.source },
  { id: 'status', header: 'Status', width: '110px', cell: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{r.status}</Badge> },
  { id: 'credited', header: 'Credited', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.credited_at)}</span> },
  { id: 'tx', header: 'Transfer', width: 'minmax(200px, 1fr)', cell: (r) => <span className="num faint">{r.tx_hash}</span> },
];

export const WITHDRAWAL_COLUMNS: HistoryColumn<WithdrawalRow>[] = [
  { id: 'time', header: 'Requested', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.created_at)}</span> },
  { id: 'amount', header: 'Amount', width: '120px', align: 'r', cell: (r) => <span className="num">{fmtUsd(r.amount)}</span> },
  { id: 'sent', header: 'Sent', width: '120px', align: 'r', cell: (r) => <span className="num">{fmtUsd(r.l1_send_amount)}</span> },
  { id: 'status', header: 'Status', width: '110px', cell: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{r.status}</Badge> },
  { id: 'reason', header: 'Failure', width: '140px', cell: (r) => <span className="sell">{r.failure_reason ?? ''}</span> },
  { id: 'dest', header: 'Destination', width: 'minmax(200px, 1fr)', cell: (r) => <span className="num faint">{r.destination}</span> },
  { id: 'done', header: 'Completed', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.completed_at)}</span> },
];
