/**
 * The account's health above the ticket (account:health): equity, unrealized PnL, posted and maintenance
 * margin, margin ratio, account leverage and what can be withdrawn. Main computes every figure from the
 * free balance, the positions and the venue's marks (the service has no equity endpoint), so the panel
 * says equity is computed and how.
 */
import { memo, useState } from 'react';
import type { AccountHealthView } from '../../../shared/ipc';
import { useAccountHealth } from '../ipc/queries';
import { dec, fmt, fmtPct, fmtUsd, toneOf } from '../lib/decimal';
import { Panel } from '../ui/Panel';
import { ErrorLine } from '../ui/States';

/** Margin ratio from which the figure is shown as a warning, and from which as a danger (fractions). */
const RATIO_WARN = '0.5';
const RATIO_DANGER = '0.8';

function ratioTone(ratio: string | null): string {
  const r = dec(ratio);
  if (!r) return '';
  return r.gte(RATIO_DANGER) ? 'sell' : r.gte(RATIO_WARN) ? 'warn' : '';
}

function Stat({ label, value, tone, title, name, secondary }: { label: string; value: string; tone?: string; title?: string; name?: string; secondary?: boolean }) {
  return (
    <div className={`stat${secondary ? ' stat-secondary' : ''}`} title={title}>
      <dt className="label">{label}</dt>
      <dd className={`value${tone ? ` ${tone}` : ''}`} aria-label={name ?? label}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The figures a trader reads first make the top rows (equity, unrealized PnL, free, margin ratio); on a
 * short window the other four fold behind "More" (styles/app.css), so the ticket's side, type and leverage
 * stay in view at 1024x680.
 */
function HealthFigures({ h, open }: { h: AccountHealthView; open: boolean }) {
  return (
    <>
      <dl className={`acct${open ? ' is-open' : ''}`} id={FIGURES_ID} aria-label="Account health">
        <Stat label="Equity (computed)" value={fmtUsd(h.equity)} title={h.note} />
        <Stat label="Unrealized PnL" value={fmtUsd(h.unrealized_pnl, { signed: true })} tone={toneOf(h.unrealized_pnl)} />
        <Stat label="Free (withdrawable)" name="Free balance, withdrawable" value={fmtUsd(h.withdrawable)} title="The free balance: what can be withdrawn now (posted margin and unrealized PnL cannot)" />
        <Stat label="Margin ratio" value={fmtPct(h.margin_ratio, 2)} tone={ratioTone(h.margin_ratio)} title="Maintenance margin ÷ equity" />
        <Stat secondary label="Posted margin" value={fmtUsd(h.posted_margin)} title="The isolated margin of every open position" />
        <Stat secondary label="Maintenance margin" value={fmtUsd(h.maintenance_margin)} title="Sum of |size| × mark × the market's maintenance margin ratio" />
        <Stat secondary label="Account leverage" value={h.account_leverage === null ? '—' : `${fmt(h.account_leverage, { places: 2 })}x`} title="Open notional ÷ equity" />
        <Stat secondary label="Open notional" value={fmtUsd(h.open_notional)} title="Sum of |size| × mark" />
      </dl>
      <p className={`acct-note${open ? ' is-open' : ''}`}>Equity is computed: free balance + posted margin + unrealized PnL (the service reports none).</p>
      {h.unpriced_markets.length > 0 && (
        <p className="acct-note warn" role="status">
          No venue mark for {h.unpriced_markets.join(', ')}: the figures that need one are not shown.
        </p>
      )}
    </>
  );
}

const FIGURES_ID = 'account-figures';

export const AccountSummary = memo(function AccountSummary() {
  const health = useAccountHealth();
  const [open, setOpen] = useState(false);
  // Shown on a short window only (styles/app.css): a tall one has room for every figure.
  const toggle = health.data ? (
    <button type="button" className="btn btn-ghost btn-sm acct-more" aria-expanded={open} aria-controls={FIGURES_ID} onClick={() => setOpen((o) => !o)}>
      {open ? 'Less' : 'More'}
      <span className="visually-hidden"> account figures</span>
    </button>
  ) : undefined;
  return (
    <Panel title="Account" className="acct-panel" actions={toggle}>
      {health.data ? (
        <HealthFigures h={health.data} open={open} />
      ) : health.error ? (
        <div className="acct-error">
          <ErrorLine error={health.error} />
        </div>
      ) : (
        <p className="acct-note" role="status">
          Reading the account…
        </p>
      )}
      {/* A failed refresh keeps the last figures and says they are stale. */}
      {health.data && health.error && (
        <p className="acct-note warn" role="status">
          Not refreshed: {health.error.message}
        </p>
      )}
    </Panel>
  );
});
