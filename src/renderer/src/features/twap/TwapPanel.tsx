/**
 * The TWAP tab: every TWAP of the wallet with its progress — filled of target (a bar), the average fill
 * price against the arrival mark (in bps, positive is worse for the trader), the next slice's time, the
 * slices sent and missed — and what can be done with it: pause, resume, cancel; an interrupted one
 * (the app quit or crashed while it ran) offers resume or stop and is never resumed on its own. A TWAP
 * whose stored record is damaged is listed too, with what is wrong and no actions: it is never run.
 */
import { noteText } from '../../../../shared/algos/algoNotes';
import type { DamagedTwapView, TwapView } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { dec, fmt } from '../../lib/decimal';
import { fmtCountdown, fmtTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { useNow } from '../../ui/useNow';
import { useTwapAction, useTwaps, type TwapAction } from './twapQueries';

const STATUS_TONE: Record<TwapView['status'], 'buy' | 'sell' | 'warn' | 'info' | undefined> = {
  running: 'info',
  paused: 'warn',
  interrupted: 'warn',
  completed: 'buy',
  cancelled: undefined,
  stopped: undefined,
  failed: 'sell',
};

/** The average fill against the arrival mark, as a trader reads it. */
export function slippageText(t: TwapView): string {
  if (t.avg_fill_price === null) return '—';
  const bps = dec(t.slippage_vs_arrival_bps);
  const word = bps === null || bps.isZero() ? 'at' : bps.gt(0) ? 'worse' : 'better';
  return `${fmt(t.avg_fill_price)} vs ${fmt(t.arrival_mark)} (${bps ? fmt(bps.abs(), { places: 1 }) : '—'} bps ${word})`;
}

function actionsOf(t: TwapView): { action: TwapAction; label: string; variant: 'ghost' | 'danger' | 'primary' }[] {
  const out: { action: TwapAction; label: string; variant: 'ghost' | 'danger' | 'primary' }[] = [];
  if (t.status === 'running' && t.requested === null) out.push({ action: 'pause', label: 'Pause', variant: 'ghost' });
  if (t.status === 'paused' || t.status === 'interrupted') out.push({ action: 'resume', label: 'Resume', variant: 'primary' });
  if (t.status === 'interrupted') out.push({ action: 'stop', label: 'Stop', variant: 'danger' });
  else if (t.status === 'running' || t.status === 'paused') out.push({ action: 'cancel', label: 'Cancel', variant: 'danger' });
  return out;
}

function TwapRow({ t, now }: { t: TwapView; now: number }) {
  const act = useTwapAction();
  const filled = dec(t.filled_size);
  const total = dec(t.total_size);
  const pct = filled && total && total.gt(0) ? filled.div(total).mul(100).toNumber() : 0;
  const name = `${t.market} TWAP ${t.id}`;
  // Notes are stamped with their time (shared/algos/algoNotes.ts): the text after it is what is read.
  const missedNote = t.notes.map(noteText).filter((n) => n.startsWith('missed')).at(-1);
  return (
    <tr aria-label={name}>
      <td>
        <button type="button" className="link-btn strong" onClick={() => selectMarket(t.market)}>
          {t.market}
        </button>{' '}
        <span className={t.side === 'BUY' ? 'buy' : 'sell'}>{t.side === 'BUY' ? 'Buy' : 'Sell'}</span>
        {t.reduce_only && <Badge tone="info">RO</Badge>}
      </td>
      <td title={t.stop_detail ?? undefined}>
        <Badge tone={STATUS_TONE[t.status]}>{t.status}</Badge>
        {t.requested && <Badge tone="warn">{t.requested} asked</Badge>}
        {t.runner && !t.runner.this_process && <Badge>terminal {t.runner.pid}</Badge>}
        {t.stop_detail && t.status !== 'running' && <div className="faint twap-detail">{t.stop_detail}</div>}
      </td>
      <td>
        <div className="twap-progress" role="progressbar" aria-label={`${name} filled`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)} aria-valuetext={`${fmt(t.filled_size)} of ${fmt(t.total_size)}`}>
          <span style={{ transform: `scaleX(${Math.min(1, pct / 100)})` }} />
        </div>
        <span className="num">
          {fmt(t.filled_size)} / {fmt(t.total_size)}
        </span>
      </td>
      <td className="num" aria-label="Average vs arrival">
        {slippageText(t)}
      </td>
      <td className="num" aria-label="Next slice">
        {t.next_slice_at !== null ? `${fmtTime(t.next_slice_at)} (${t.next_slice_at > now ? `in ${fmtCountdown(t.next_slice_at - now)}` : 'now'})` : '—'}
      </td>
      <td className="num">
        {t.slices_sent}/{t.slices_total}
        {t.slices_missed > 0 && (
          <span className="warn" title={missedNote}>
            {' '}
            · {t.slices_missed} missed
          </span>
        )}
      </td>
      <td className="dt-sticky">
        <span className="row" style={{ gap: 4, justifyContent: 'flex-end' }}>
          {actionsOf(t).map((a) => (
            <Button key={a.action} size="sm" variant={a.variant} busy={act.isPending && act.variables?.action === a.action} onClick={() => act.mutate({ id: t.id, action: a.action })} aria-label={`${a.label} ${name}`}>
              {a.label}
            </Button>
          ))}
        </span>
        {act.error && <ErrorLine error={act.error} />}
      </td>
    </tr>
  );
}

/** A TWAP whose record failed its check: which one it was (as far as can be read) and what is wrong; nothing to do here. */
function DamagedTwapRow({ d }: { d: DamagedTwapView }) {
  const name = `${d.market ?? 'Unknown market'} TWAP ${d.id} (damaged)`;
  return (
    <tr aria-label={name} className="twap-damaged-row">
      <td>
        <span className="strong">{d.market ?? 'Unknown market'}</span> {d.side && <span className={d.side === 'BUY' ? 'buy' : 'sell'}>{d.side === 'BUY' ? 'Buy' : 'Sell'}</span>}
        <div className="faint num">{d.id}</div>
      </td>
      <td>
        <Badge tone="sell">damaged</Badge>
        <div className="twap-damage" aria-label="Damage">
          {d.damage}
        </div>
        <div className="faint twap-damage">Never resumed; nothing is sent for it. Check History › Orders for what it sent; `perps twap status {d.id}` names its file to restore or remove.</div>
      </td>
      <td className="num" aria-label="Filled / target">
        ? / {d.total_size !== null ? fmt(d.total_size) : '?'}
      </td>
      <td className="num faint">—</td>
      <td className="num faint">—</td>
      <td className="num faint">—</td>
      <td className="dt-sticky r faint">—</td>
    </tr>
  );
}

export function TwapPanel() {
  const twaps = useTwaps();
  const now = useNow(1000);
  if (twaps.isPending) return <Loading label="Loading TWAPs" rows={2} />;
  if (twaps.error) return <ErrorState error={twaps.error} title="TWAPs unavailable" onRetry={() => void twaps.refetch()} />;
  const rows = twaps.data.twaps;
  const damaged = twaps.data.damaged;
  if (rows.length === 0 && damaged.length === 0) return <EmptyState title="No TWAPs">A TWAP from the ticket sends its size as market slices over time; its progress shows here.</EmptyState>;
  return (
    <table className="dt" aria-label="TWAPs">
      <thead>
        <tr>
          <th scope="col">Market</th>
          <th scope="col">Status</th>
          <th scope="col">Filled / target</th>
          <th scope="col">Avg vs arrival mark</th>
          <th scope="col">Next slice</th>
          <th scope="col">Slices</th>
          <th scope="col" className="r dt-sticky">Actions</th>
        </tr>
      </thead>
      <tbody>
        {damaged.map((d) => (
          <DamagedTwapRow key={d.id} d={d} />
        ))}
        {rows.map((t) => (
          <TwapRow key={t.id} t={t} now={now} />
        ))}
      </tbody>
    </table>
  );
}
