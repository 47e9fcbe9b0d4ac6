/**
 * Portfolio (issue 27, item 1): how the account is doing, every figure rebuilt by main from the service's
 * own records and the venue's candles (portfolio:get): the equity and PnL curves of the range, PnL per
 * day, fees, funding, volume, win rate, largest win and loss, drawdown, the per-market table, and the
 * ledger check against the service now, shown whether it balances or not. Tables export as CSV.
 *
 * A read of a long history (or from a slow service) takes time: while it runs, how far it is shows
 * (PortfolioProgress.tsx) with Cancel; a read that passes the 120 s deadline ends with that said plainly
 * (PORTFOLIO_DEADLINE: how far it got, try again later), and a cancelled one says so, with Retry.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PortfolioReportView } from '../../../../shared/ipc';
import type { PortfolioRange, PortfolioTable } from '../../../../shared/portfolio/ranges';
import { asIpcError, perps, unwrap } from '../../ipc/client';
import { fmt, fmtPct, fmtUsd, toneOf } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Button } from '../../ui/Button';
import { Panel } from '../../ui/Panel';
import { Segmented } from '../../ui/Segmented';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { DailyPnlChart, EquityChart } from './PortfolioCharts';
import { PortfolioReadProgress } from './PortfolioProgress';

/** The error's title by what ended the read: a slow service and a cancel are not failures of the figures. */
function readErrorTitle(error: unknown): string {
  const code = asIpcError(error).code;
  if (code === 'PORTFOLIO_DEADLINE') return 'The service answered too slowly: the read stopped at its deadline';
  if (code === 'PORTFOLIO_CANCELLED') return 'Reading cancelled';
  return 'Could not rebuild the portfolio';
}

const RANGES: { value: PortfolioRange; label: string }[] = [
  { value: '1d', label: '1D' },
  { value: '1w', label: '1W' },
  { value: '1m', label: '1M' },
  { value: 'all', label: 'All' },
];

const EXPORTS: { table: PortfolioTable; label: string }[] = [
  { table: 'points', label: 'Curve CSV' },
  { table: 'days', label: 'Days CSV' },
  { table: 'markets', label: 'Markets CSV' },
];

function Card({ label, value, tone, sub }: { label: string; value: string; tone?: '' | 'buy' | 'sell'; sub?: string }) {
  return (
    <div className="points-card portfolio-card">
      <span className="label">{label}</span>
      <span className={`value${tone ? ' ' + tone : ''}`}>{value}</span>
      {sub && <span className="faint portfolio-sub">{sub}</span>}
    </div>
  );
}

/**
 * The ledger check. Balanced, it is a small status in the title row (its sums in its title and for screen
 * readers): nothing to act on, so it does not take the top of the page. A mismatch is a banner over the
 * figures, with what does not add up.
 */
function LedgerBalanced({ ledger }: { ledger: PortfolioReportView['ledger'] }) {
  const sums = `rebuilt cash ${fmtUsd(ledger.reconstructed_cash)} = free balance + posted margin ${fmtUsd(ledger.service_cash)}; rebuilt equity ${fmtUsd(ledger.reconstructed_equity)} = live equity ${fmtUsd(ledger.service_equity)}`;
  return (
    <span className="portfolio-ledger-ok" role="status" title={`Ledger balanced: ${sums}`}>
      <span aria-hidden="true">✓ </span>Ledger balanced<span className="visually-hidden">: {sums}.</span>
    </span>
  );
}

function LedgerMismatch({ ledger }: { ledger: PortfolioReportView['ledger'] }) {
  return (
    <div className="notice notice-warn portfolio-ledger" role="alert">
      <strong>Ledger mismatch</strong> — rebuilt cash {fmtUsd(ledger.reconstructed_cash)}, service {fmtUsd(ledger.service_cash)} (difference {fmt(ledger.difference)}); rebuilt equity {fmtUsd(ledger.reconstructed_equity)}, live{' '}
      {fmtUsd(ledger.service_equity)}.
      <ul>
        {ledger.issues.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </div>
  );
}

export function PortfolioView() {
  const [range, setRange] = useState<PortfolioRange>('1w');
  const [curve, setCurve] = useState<'equity' | 'pnl'>('equity');
  // Refreshed every 30 s while it reads fine; after a failure (a slow service, a cancel) only on Retry.
  const report = useQuery({ queryKey: ['portfolio', range], queryFn: () => unwrap(perps().portfolio.get({ range })), refetchInterval: (q) => (q.state.status === 'error' ? false : 30_000), retry: false });
  const cancel = useMutation({ mutationFn: () => unwrap(perps().portfolio.cancel({})), onError: (e) => pushToast({ tone: 'error', title: 'Could not cancel the read', error: asIpcError(e) }) });
  const exportCsv = useMutation({
    mutationFn: (table: PortfolioTable) => unwrap(perps().portfolio.exportCsv({ range, table })),
    onSuccess: (r) => {
      if (r.saved) pushToast({ tone: 'success', title: 'CSV exported', body: `${r.rows} rows to ${r.file_name ?? 'file'}` });
    },
    onError: (e) => pushToast({ tone: 'error', title: 'CSV export failed', error: asIpcError(e) }),
  });
  const r = report.data;
  return (
    <div className="view-pad portfolio" aria-busy={report.isFetching}>
      <div className="view-title">
        <h1>Portfolio</h1>
        <Segmented label="Range" size="sm" value={range} options={RANGES} onChange={setRange} />
        <span className="muted grow">{r ? `${fmtDateTime(r.start)} – ${fmtDateTime(r.now)} · ${r.interval} bars · rebuilt from the service's records` : 'Rebuilt from the service’s records'}</span>
        {r?.ledger.balanced && <LedgerBalanced ledger={r.ledger} />}
        {EXPORTS.map((x) => (
          <Button key={x.table} size="sm" variant="ghost" disabled={!r} busy={exportCsv.isPending && exportCsv.variables === x.table} onClick={() => exportCsv.mutate(x.table)}>
            {x.label}
          </Button>
        ))}
      </div>
      {report.isFetching && <PortfolioReadProgress range={range} onCancel={() => cancel.mutate()} cancelling={cancel.isPending} />}
      {report.isPending && report.isFetching && <Loading label="Reading every page of the account's history" rows={4} />}
      {report.error && !report.isFetching && <ErrorState error={report.error} title={readErrorTitle(report.error)} onRetry={() => void report.refetch()} />}
      {r && (
        <>
          {!r.ledger.balanced && <LedgerMismatch ledger={r.ledger} />}
          <div className="points-cards portfolio-cards" aria-label="Portfolio summary">
            <Card label="Equity" value={fmtUsd(r.equity)} sub={`cash ${fmtUsd(r.cash)} · uPnL ${fmtUsd(r.unrealized_pnl, { signed: true })}`} />
            <Card label={`PnL · ${RANGES.find((x) => x.value === range)!.label}`} value={fmtUsd(r.pnl, { signed: true })} tone={toneOf(r.pnl)} sub="net of deposits and withdrawals" />
            <Card label="Realized PnL" value={fmtUsd(r.realized_pnl, { signed: true })} tone={toneOf(r.realized_pnl)} sub={`${r.trades} closing trades`} />
            <Card label="Fees paid" value={fmtUsd(r.fees_paid)} sub={`maker ${fmtUsd(r.maker_fees)} · taker ${fmtUsd(r.taker_fees)}`} />
            <Card label="Funding" value={fmtUsd(r.funding, { signed: true })} tone={toneOf(r.funding)} sub={`paid ${fmtUsd(r.funding_paid)} · received ${fmtUsd(r.funding_received)}`} />
            <Card label="Volume" value={fmtUsd(r.volume)} />
            <Card label="Win rate" value={r.win_rate === null ? '—' : fmtPct(r.win_rate, 1)} sub={`${r.wins} won · ${r.losses} lost`} />
            <Card label="Largest win / loss" value={`${toneOf(r.largest_win) ? fmtUsd(r.largest_win) : '—'} / ${toneOf(r.largest_loss) ? fmtUsd(r.largest_loss) : '—'}`} sub="one closing order each" />
            <Card label="Max drawdown" value={fmtUsd(r.max_drawdown)} tone={toneOf(r.max_drawdown) === 'buy' ? 'sell' : ''} sub="largest fall of the PnL curve" />
          </div>
          <div className="portfolio-grid">
            <Panel title={curve === 'equity' ? 'Equity' : 'PnL'} actions={<Segmented label="Curve" size="sm" value={curve} options={[{ value: 'equity', label: 'Equity' }, { value: 'pnl', label: 'PnL' }]} onChange={setCurve} />}>
              <EquityChart points={r.points} mode={curve} intraday={r.interval !== '1d'} />
            </Panel>
            <Panel title="PnL per day">{r.per_day.length === 0 ? <EmptyState title="No fills or funding in this range" /> : <DailyPnlChart days={r.per_day} />}</Panel>
          </div>
          <Panel title="Per market">
            {r.per_market.length === 0 ? (
              <EmptyState title="No fills or funding in this range">Markets you trade appear here with their realized PnL, fees, funding and volume.</EmptyState>
            ) : (
              <table className="dt" aria-label="Per market">
                <thead>
                  <tr>
                    <th scope="col">Market</th>
                    <th scope="col" className="r">Realized PnL</th>
                    <th scope="col" className="r">Fees</th>
                    <th scope="col" className="r">Funding</th>
                    <th scope="col" className="r">Volume</th>
                    <th scope="col" className="r">Trades</th>
                    <th scope="col" className="r">Won / lost</th>
                  </tr>
                </thead>
                <tbody>
                  {r.per_market.map((m) => (
                    <tr key={m.market}>
                      <td>{m.market}</td>
                      <td className={`r num ${toneOf(m.realized_pnl)}`}>{fmtUsd(m.realized_pnl, { signed: true })}</td>
                      <td className="r num">{fmtUsd(m.fees)}</td>
                      <td className={`r num ${toneOf(m.funding)}`}>{fmtUsd(m.funding, { signed: true })}</td>
                      <td className="r num">{fmtUsd(m.volume)}</td>
                      <td className="r num">{m.trades}</td>
                      <td className="r num">
                        {m.wins} / {m.losses}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
        </>
      )}
    </div>
  );
}
