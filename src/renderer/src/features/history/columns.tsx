/** The columns of each history table. Cells format decimal strings without ever turning them into floats. */
import type { FillView, IpcResponse, ListedOrderView } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { fmt, fmtPct, fmtUsd, toneOf } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Badge, type Tone } from '../../ui/Badge';
import type { HistoryColumn } from './VirtualHistoryGrid';

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

export const ORDER_COLUMNS: HistoryColumn<ListedOrderView>[] = [
  { id: 'time', header: 'Time', width: '150px', cell: (r) => <span className="faint">{fmtDateTime(r.status_at)}</span> },
  { id: 'market', header: 'Market', width: '80px', cell: (r) => <strong>{r.market}</strong> },
  { id: 'type', header: 'Type', width: '90px', cell: (r) => (r.order_type === 'TRIGGER' ? (r.tpsl ?? 'trigger').toUpperCase() : r.order_type) },
  { id: 'side', header: 'Side', width: '60px', cell: (r) => side(r.side) },
  { id: 'price', header: 'Price', width: '110px', align: 'r', cell: (r) => <span className="num">{fmt(r.limit_price)}</span> },
  { id: 'size', header: 'Size', width: '100px', align: 'r', cell: (r) => <span className="num">{fmt(r.size)}</span> },
  { id: 'filled', header: 'Filled', width: '100px', align: 'r', cell: (r) => <span className="num">{fmt(r.filled_size)}</span> },
  { id: 'avg', header: 'Avg fill', width: '110px', align: 'r', cell: (r) => <span className="num">{fmt(r.avg_fill_price)}</span> },
  { id: 'status', header: 'Status', width: '150px', cell: (r) => <Badge tone={STATUS_TONE[r.status] ?? 'neutral'}>{r.status.replace(/_/g, ' ')}</Badge> },
  { id: 'reason', header: 'Reason', width: 'minmax(160px, 1fr)', cell: (r) => <span className={r.status === 'rejected' ? 'sell' : 'muted'} title={explainReason(r.reason)}>{r.reason ?? ''}</span> },
  { id: 'id', header: 'Order id', width: '140px', cell: (r) => <span className="num faint">{r.order_id}</span> },
];

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
