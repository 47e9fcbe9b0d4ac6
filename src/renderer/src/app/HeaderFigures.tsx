/**
 * The figures a trader looks at first, in the top bar at every window size (issue 35, item 4): equity,
 * unrealized PnL and free margin (from account:health, the Account card's own read), and the trading
 * key's remaining life. Each figure keeps a visible label at every size: narrow windows show a shorter
 * label ("uPnL"), the figure's accessible name stays whole ("Unrealized PnL").
 *
 * One list, one item per figure: another figure (the risk limits' "Daily loss left") is one more
 * <HeaderFigure> in this list, and the top bar gives the list the room it needs.
 */
import type { ReactNode } from 'react';
import type { TradingKeyRow } from '../../../shared/ipc';
import { useAccountHealth, useKeys } from '../ipc/queries';
import { fmtUsd, toneOf } from '../lib/decimal';
import { Badge } from '../ui/Badge';
import { Countdown } from '../ui/Countdown';
import { goTo } from './uiStore';

export interface HeaderFigureProps {
  /** The figure's full name: its accessible name and its label on wide windows. */
  label: string;
  /** The label on narrow windows (styles/app.css), when the full one is too long for them. */
  short?: string;
  value: ReactNode;
  tone?: string;
  title?: string;
}

/** One labelled figure of the top bar: a term and its value (named by the full label, whatever is shown). */
export function HeaderFigure({ label, short, value, tone, title }: HeaderFigureProps) {
  return (
    <div className="topbar-stat" title={title}>
      <dt className="label">
        {short ? (
          <>
            <span className="label-long">{label}</span>
            <span className="label-short">{short}</span>
          </>
        ) : (
          label
        )}
      </dt>
      <dd className={`value${tone ? ` ${tone}` : ''}`} aria-label={label}>
        {value}
      </dd>
    </div>
  );
}

/** The active key that expires first (the one to watch). */
function watchedKey(keys: readonly TradingKeyRow[] | undefined): TradingKeyRow | undefined {
  return keys?.filter((k) => k.status === 'ACTIVE' && k.stored_locally && k.expires_at).sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0))[0];
}

export function HeaderFigures() {
  const health = useAccountHealth();
  const keys = useKeys();
  const key = watchedKey(keys.data?.keys);
  const h = health.data;
  // A failed refresh keeps the last figures (the Account card says they are stale); none yet reads "…".
  const usd = (v: string | null | undefined, signed = false) => (h ? fmtUsd(v, { signed }) : '…');
  const life = key?.expires_at ? <Countdown at={key.expires_at} warnWithinMs={(key.expiring_soon ? Infinity : 0) || 14 * 86_400_000} /> : keys.data ? <Badge tone="sell">none active</Badge> : '…';
  return (
    <div className="topbar-figures" role="group" aria-label="Account at a glance">
      <dl className="topbar-dl">
        <HeaderFigure label="Equity" value={usd(h?.equity)} title="Equity (computed): free balance + posted margin + unrealized PnL" />
        <HeaderFigure label="Unrealized PnL" short="uPnL" value={usd(h?.unrealized_pnl, true)} tone={h ? toneOf(h.unrealized_pnl) : undefined} title="Unrealized PnL of every open position at the venue's marks" />
        <HeaderFigure label="Free margin" short="Free" value={usd(h?.withdrawable)} title="Free balance: margin for new orders, and what can be withdrawn now" />
      </dl>
      {/* Named by what it shows ("Key expires in 29d 23h"); narrow windows show "Key" above the time. */}
      <button type="button" className="topbar-stat link-like" onClick={() => goTo('keys')} title="Trading key: time left (opens Keys)">
        <span className="label">
          <span className="label-long">Key expires in</span>
          <span className="label-short">
            Key<span className="visually-hidden"> expires in</span>
          </span>
        </span>{' '}
        <span className="value">{life}</span>
      </button>
    </div>
  );
}
