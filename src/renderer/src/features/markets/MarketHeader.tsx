/**
 * The strip above the chart: the selected market's live mark and the venue's statistics. In a narrow
 * centre column the secondary figures fold behind a More button (styles/app.css: stat-p4, then p3, then p2) instead of pushing the strip into a sideways scroll; More lays them out on a second line.
 */
import { useState, type ReactNode } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { compactUsd, dec, fmt, fmtPct, placesOfStep, toneOf } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { useNow } from '../../ui/useNow';
import { fmtCountdown } from '../../lib/time';
import { liveChange, useLiveMark } from './live';

function Stat({ label, children, tone, className }: { label: string; children: ReactNode; tone?: string; className?: string }) {
  return (
    <div className={`stat${className ? ` ${className}` : ''}`}>
      <span className="label">{label}</span>
      <span className={`value ${tone ?? ''}`} aria-label={label}>
        {children}
      </span>
    </div>
  );
}

export function MarketHeader({ market }: { market: MarketView }) {
  const mark = useLiveMark(market);
  const change = liveChange(mark, market);
  const places = placesOfStep(market.tick_size);
  const now = useNow(1000);
  // Venue funding settles on the hour.
  const nextFunding = Math.ceil(now / 3_600_000) * 3_600_000;
  const m = dec(mark);
  const oi = dec(market.open_interest);
  const [more, setMore] = useState(false);
  return (
    <div className={`mkt-head${more ? ' is-open' : ''}`} role="region" aria-label={`${market.symbol} market`}>
      <div className="mkt-head-sym">
        <strong>{market.symbol}-PERP</strong>
        <span>
          venue {market.venue_symbol} · up to {market.display_max_leverage}x {market.only_isolated && '· isolated'}
        </span>
      </div>
      <div className="mkt-head-price" aria-label="Mark price">
        {fmt(mark, { places })}
      </div>
      <Stat label="24h change" tone={toneOf(change)}>
        {change ? fmtPct(change, 2, true) : '—'}
      </Stat>
      <Stat label="Funding (1h)" tone={toneOf(market.funding_rate)} className="stat-p1">
        {fmtPct(market.funding_rate, 4, true)} <span className="faint mkt-head-countdown">in {fmtCountdown(nextFunding - now)}</span>
      </Stat>
      {!market.is_active && <Badge tone="warn">Market inactive</Badge>}
      <Stat label="Oracle" className="stat-p2">
        {fmt(market.oracle, { places })}
      </Stat>
      <Stat label="Open interest" className="stat-p3">
        {oi && m ? compactUsd(oi.mul(m).toFixed(0)) : '—'}
      </Stat>
      <Stat label="24h volume" className="stat-p3">
        {market.day_volume ? compactUsd(dec(market.day_volume)?.toFixed(0) ?? '0') : '—'}
      </Stat>
      <Stat label="Fees maker / taker" className="stat-p4">
        {fmtPct(market.maker_fee_rate, 3)} / {fmtPct(market.taker_fee_rate, 3)}
      </Stat>
      <button type="button" className="link-btn mkt-head-more" aria-expanded={more} onClick={() => setMore((v) => !v)}>
        {more ? 'Less' : 'More'}
      </button>
    </div>
  );
}
