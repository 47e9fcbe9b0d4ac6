/** The latest fills (first window of the fills history), for the trading screen. */
import { useHistoryPage } from '../../ipc/queries';
import type { FillView } from '../../../../shared/ipc';
import { fmt, fmtUsd, toneOf } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { EmptyState, ErrorState, Loading } from '../../ui/States';

export function RecentFills() {
  const page = useHistoryPage('fills', null, 0, 50);
  if (page.isPending) return <Loading label="Loading fills" rows={3} />;
  if (page.error) return <ErrorState error={page.error} title="Fills unavailable" onRetry={() => void page.refetch()} />;
  const rows = page.data.rows as FillView[];
  if (rows.length === 0) return <EmptyState title="No fills yet">Executions of your orders appear here.</EmptyState>;
  return (
    <table className="dt" aria-label="Recent fills">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Market</th>
          <th scope="col">Direction</th>
          <th scope="col" className="r">Price</th>
          <th scope="col" className="r">Size</th>
          <th scope="col" className="r">Fee</th>
          <th scope="col" className="r">Closed PnL</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => (
          <tr key={f.tid}>
            <td className="faint">{fmtDateTime(f.filled_at)}</td>
            <td className="strong">{f.market ?? '—'}</td>
            <td>{f.dir}</td>
            <td className="r num">{fmt(f.price)}</td>
            <td className="r num">{fmt(f.size)}</td>
            <td className="r num">{fmtUsd(f.fee)}</td>
            <td className={`r num ${toneOf(f.closed_pnl)}`}>{f.closed_pnl ? fmtUsd(f.closed_pnl, { signed: true }) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
