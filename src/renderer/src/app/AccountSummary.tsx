/** Free balance, posted margin and live unrealized PnL, above the ticket. */
import { memo } from 'react';
import type { PositionView } from '../../../shared/ipc';
import { useBalance, usePositions } from '../ipc/queries';
import { Decimal, dec, fmtUsd, toneOf } from '../lib/decimal';
import { useMarkVersion, getMark } from '../features/markets/markStore';
import { Panel } from '../ui/Panel';

function totals(positions: readonly PositionView[]) {
  let margin = new Decimal(0);
  let pnl = new Decimal(0);
  for (const p of positions) {
    margin = margin.plus(dec(p.isolated_margin) ?? 0);
    const mark = dec(getMark(p.market)?.mark ?? p.mark);
    const size = dec(p.size);
    const entry = dec(p.entry_price);
    if (mark && size && entry) pnl = pnl.plus(size.mul(mark.minus(entry)));
  }
  return { margin, pnl };
}

export const AccountSummary = memo(function AccountSummary() {
  const balance = useBalance();
  const positions = usePositions();
  // Re-render with live marks (at most once a frame) so unrealized PnL tracks the market.
  useMarkVersion();
  const { margin, pnl } = totals(positions.data?.positions ?? []);
  const free = dec(balance.data?.free_balance ?? null);
  const equity = free ? free.plus(margin).plus(pnl) : null;
  return (
    <Panel title="Account">
      <dl className="acct" aria-label="Account summary">
        <div className="stat">
          <dt className="label">Free balance</dt>
          <dd className="value" aria-label="Free balance">
            {balance.error ? <span className="sell" title={balance.error.message}>unavailable</span> : fmtUsd(balance.data?.free_balance)}
          </dd>
        </div>
        <div className="stat">
          <dt className="label">Est. equity</dt>
          <dd className="value">{fmtUsd(equity)}</dd>
        </div>
        <div className="stat">
          <dt className="label">Posted margin</dt>
          <dd className="value">{fmtUsd(margin)}</dd>
        </div>
        <div className="stat">
          <dt className="label">Unrealized PnL</dt>
          <dd className={`value ${toneOf(pnl)}`}>{fmtUsd(pnl, { signed: true })}</dd>
        </div>
      </dl>
    </Panel>
  );
});
