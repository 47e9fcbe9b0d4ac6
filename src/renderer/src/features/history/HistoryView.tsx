/** History: orders, fills, funding, deposits and withdrawals, each virtualized, each exportable as CSV. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { perps, unwrap } from '../../ipc/client';
import { useMarkets, type HistoryKind } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { Tabs } from '../../ui/Tabs';
import { pushToast } from '../../ui/toast';
import { asIpcError } from '../../ipc/client';
import { DEPOSIT_COLUMNS, FILL_COLUMNS, FUNDING_COLUMNS, ORDER_CHANGES, ORDER_COLUMNS, WITHDRAWAL_COLUMNS } from './columns';
import { VirtualHistoryGrid } from './VirtualHistoryGrid';

const TABS: { id: HistoryKind; label: string }[] = [
  { id: 'orders', label: 'Orders' },
  { id: 'fills', label: 'Fills' },
  { id: 'funding', label: 'Funding' },
  { id: 'deposits', label: 'Deposits' },
  { id: 'withdrawals', label: 'Withdrawals' },
];

const PER_MARKET: ReadonlySet<HistoryKind> = new Set(['orders', 'fills', 'funding']);

export function HistoryView() {
  const [kind, setKind] = useState<HistoryKind>('orders');
  const [market, setMarket] = useState<string>('');
  const markets = useMarkets();
  const filter = PER_MARKET.has(kind) && market ? market : null;
  const exportCsv = useMutation({
    mutationFn: () => unwrap(perps().history.exportCsv({ kind, ...(filter ? { market: filter } : {}) })),
    onSuccess: (r) => {
      if (r.saved) pushToast({ tone: 'success', title: 'CSV exported', body: `${r.rows} rows to ${r.file_name ?? 'file'}` });
    },
    onError: (e) => pushToast({ tone: 'error', title: 'CSV export failed', error: asIpcError(e) }),
  });
  return (
    <div className="history">
      <section className="panel" aria-label="History">
        <Tabs
          label="History"
          tabs={TABS}
          value={kind}
          onChange={setKind}
          actions={
            <>
              {PER_MARKET.has(kind) && (
                <select className="select" aria-label="Filter by market" value={market} onChange={(e) => setMarket(e.target.value)}>
                  <option value="">All markets</option>
                  {(markets.data?.markets ?? []).map((m) => (
                    <option key={m.symbol} value={m.symbol}>
                      {m.symbol}
                    </option>
                  ))}
                </select>
              )}
              <Button size="sm" busy={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
                Export CSV
              </Button>
            </>
          }
        >
          {kind === 'orders' && <VirtualHistoryGrid key={`o${filter}`} kind="orders" market={filter} columns={ORDER_COLUMNS} expandable={ORDER_CHANGES} label="Order history" emptyText="Orders you place appear here, one row each; open a row for its status changes." />}
          {kind === 'fills' && <VirtualHistoryGrid key={`f${filter}`} kind="fills" market={filter} columns={FILL_COLUMNS} label="Fills" emptyText="Executions appear here." />}
          {kind === 'funding' && <VirtualHistoryGrid key={`u${filter}`} kind="funding" market={filter} columns={FUNDING_COLUMNS} label="Funding payments" emptyText="Hourly funding on open positions appears here." />}
          {kind === 'deposits' && <VirtualHistoryGrid key="d" kind="deposits" market={null} columns={DEPOSIT_COLUMNS} label="Deposits" emptyText="Transfers to your account appear here." />}
          {kind === 'withdrawals' && <VirtualHistoryGrid key="w" kind="withdrawals" market={null} columns={WITHDRAWAL_COLUMNS} label="Withdrawals" emptyText="Withdrawals appear here." />}
        </Tabs>
      </section>
    </div>
  );
}
