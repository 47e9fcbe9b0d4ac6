/**
 * Points: what the platform credited the main wallet over a date range (points:credited): the base
 * points, the bonus of the app's partner code, and every partner bonus the range earned.
 */
import { useEffect, useState } from 'react';
import { lastDaysRange, useCreditedPoints, type PointsRange } from '../../ipc/companionQueries';
import { fmtDateTime } from '../../lib/time';
import { fmtPoints } from '../../lib/units';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { EmptyState, ErrorState, Loading } from '../../ui/States';
import { useNow } from '../../ui/useNow';

const pad = (n: number): string => String(n).padStart(2, '0');
/** A local date as the date input spells it (YYYY-MM-DD). */
const dateText = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
/** Local midnight of a YYYY-MM-DD date, `days` later; null when it is not a date. */
function midnight(text: string, days = 0): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  // Calendar arithmetic (not + 24 h), so a daylight-saving day is still one day.
  const ms = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** Both ends of the range in Unix ms: from the first day's local midnight to the end of the last day. */
function rangeOf(fromText: string, toText: string): { from: number; to: number } | { error: string } {
  const from = midnight(fromText);
  const next = midnight(toText, 1);
  if (from === null) return { error: 'Choose the first day' };
  if (next === null) return { error: 'Choose the last day' };
  const to = next - 1;
  if (to <= from) return { error: 'The last day must not be before the first' };
  return { from, to };
}

/** The default range, and the quick ones: the last N days, following the clock past midnight. */
const DEFAULT_LAST_DAYS = 30;

export function PointsView() {
  const now = useNow(60_000);
  const today = dateText(now);
  const [lastDays, setLastDays] = useState<number | null>(DEFAULT_LAST_DAYS);
  const [fixed, setFixed] = useState<{ from: number; to: number } | null>(null);
  const [fromText, setFromText] = useState(() => dateText(lastDaysRange(DEFAULT_LAST_DAYS, now).from));
  const [toText, setToText] = useState(today);
  const draft = rangeOf(fromText, toText);
  const applied: PointsRange | null = lastDays !== null ? { lastDays, today } : fixed;
  // A "last N days" range moves on at midnight, and the dates shown with it.
  useEffect(() => {
    if (lastDays === null) return;
    setFromText(dateText(lastDaysRange(lastDays, Date.now()).from));
    setToText(today);
  }, [lastDays, today]);
  const credited = useCreditedPoints(applied);
  const data = credited.data;
  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>Points</h1>
        <span className="muted">Points credited to your main wallet for bridges and swaps</span>
      </div>
      <div className="points-layout">
        <Panel title="Range">
          <form
            className="section"
            aria-label="Points range"
            onSubmit={(e) => {
              e.preventDefault();
              if ('error' in draft) return;
              setFixed(draft);
              setLastDays(null);
            }}
          >
            <div className="grid2">
              <TextField label="From" type="date" value={fromText} max={toText} onChange={(e) => setFromText(e.target.value)} />
              <TextField label="To" type="date" value={toText} min={fromText} max={today} onChange={(e) => setToText(e.target.value)} error={'error' in draft ? draft.error : undefined} />
            </div>
            <div className="row wrap" role="group" aria-label="Quick ranges">
              {[7, 30, 90].map((d) => (
                <Button
                  key={d}
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setLastDays(d);
                    setFromText(dateText(lastDaysRange(d).from));
                    setToText(dateText(Date.now()));
                  }}
                >
                  Last {d} days
                </Button>
              ))}
            </div>
            <div className="actions">
              <Button type="submit" variant="primary" disabled={'error' in draft} busy={credited.isFetching}>
                Show points
              </Button>
            </div>
          </form>
        </Panel>
        <Panel title="Credited points">
          <div className="section">
            {credited.isPending && applied && <Loading label="Reading points" />}
            {credited.error && <ErrorState error={credited.error} title="Could not read the points" onRetry={() => void credited.refetch()} />}
            {data && (
              <>
                <p className="muted">
                  {fmtDateTime(data.from * 1000)} – {fmtDateTime(data.to * 1000)} · <span className="addr">{data.user}</span>
                </p>
                <div className="points-cards" aria-label="Points summary">
                  <div className="points-card">
                    <span className="label">Base points</span>
                    <span className="value">{fmtPoints(data.point)}</span>
                  </div>
                  <div className="points-card">
                    <span className="label">{data.partner_code ? `Partner bonus · ${data.partner_code}` : 'Partner bonus'}</span>
                    <span className="value">{data.partner_code ? fmtPoints(data.partner_bonus ?? 0) : '—'}</span>
                  </div>
                  <div className="points-card">
                    <span className="label">All partner bonuses</span>
                    <span className="value">{fmtPoints(data.partner_bonuses.reduce((s, b) => s + b.bonus, 0))}</span>
                  </div>
                </div>
                {!data.partner_code && <p className="notice notice-info">No partner code is set: set one under Settings → Companion services to earn its bonus.</p>}
                {data.partner_bonuses.length === 0 ? (
                  <EmptyState title="No partner bonuses in this range">Bonuses appear here for each partner code your transfers carried.</EmptyState>
                ) : (
                  <table className="dt" aria-label="Partner bonuses">
                    <thead>
                      <tr>
                        <th scope="col">Partner code</th>
                        <th scope="col" className="r">Bonus points</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.partner_bonuses.map((b) => (
                        <tr key={b.code} className={b.code === data.partner_code ? 'row-current' : undefined}>
                          <td>
                            {b.code}
                            {b.code === data.partner_code && <span className="faint"> · this app’s code</span>}
                          </td>
                          <td className="r num">{fmtPoints(b.bonus)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </>
            )}
          </div>
        </Panel>
      </div>
    </div>
  );
}
