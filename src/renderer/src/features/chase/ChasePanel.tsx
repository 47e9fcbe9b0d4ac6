/**
 * The Chase tab of the algorithms panel: every chase of the wallet (market and side, filled of size, where
 * its order rests now and where the best was at the start, the distance the best has run of the max, how
 * many re-prices, its state and what it did last), who runs it, and Stop: leave the order resting or cancel
 * it. A chase whose stored record is damaged is listed too, with what is wrong and no actions: nothing is
 * ever sent for it.
 */
import type { ChaseView, DamagedChaseView } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { fmt } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { useChaseStop, useChases } from './chaseQueries';

/** Why a chase ended, as a trader reads it. */
const END_TEXT: Record<NonNullable<ChaseView['end_reason']>, string> = {
  filled: 'filled',
  max_distance: 'max distance',
  timeout: 'timed out',
  stopped: 'stopped',
  order_gone: 'order gone',
  taker_unfilled: 'cross unfilled',
  refused: 'refused',
};

function stateOf(c: ChaseView): { text: string; tone: 'buy' | 'sell' | 'warn' | 'info' | undefined } {
  if (c.status === 'working') return c.runner ? { text: 'chasing', tone: 'info' } : { text: 'waiting', tone: 'warn' };
  const reason = c.end_reason ?? 'stopped';
  return { text: END_TEXT[reason], tone: reason === 'filled' ? 'buy' : reason === 'order_gone' || reason === 'refused' ? 'sell' : undefined };
}

/** The latest note without its timestamp (the time is in the title). */
function noteText(note: string | null): { text: string; at: string | undefined } {
  if (!note) return { text: '—', at: undefined };
  const m = /^(\S+Z) (.*)$/s.exec(note);
  return m ? { text: m[2]!, at: m[1] } : { text: note, at: undefined };
}

function ChaseRow({ c }: { c: ChaseView }) {
  const stop = useChaseStop();
  const name = `${c.market} chase ${c.id}`;
  const note = noteText(c.last_note);
  const state = stateOf(c);
  const buy = c.side === 'BUY';
  return (
    <tr aria-label={name}>
      <td>
        <button type="button" className="link-btn strong" onClick={() => selectMarket(c.market)}>
          {c.market}
        </button>
        <div className="num">
          <span className={buy ? 'buy' : 'sell'}>{buy ? 'Buy' : 'Sell'}</span> <span className="faint">{c.leverage}x</span>
        </div>
        <Badge tone={state.tone}>{state.text}</Badge>
        {c.runner && !c.runner.this_process && <div className="faint oco-watch">terminal {c.runner.pid}</div>}
      </td>
      {/* What it has done and where it rests, stacked: the row reads whole in the smallest window. */}
      <td className="num chase-order">
        <div>
          <span aria-label="Filled">
            {fmt(c.filled)} / {fmt(c.size)}
          </span>{' '}
          <span className="faint">filled</span>
        </div>
        <div>
          <span aria-label="Price now">{c.order ? `${fmt(c.order.price)}${c.order.kind === 'taker' ? ' IOC' : ''}` : '—'}</span>{' '}
          <span className="faint" aria-label="Start price">
            from {fmt(c.start_price)}
          </span>
        </div>
        <div className="faint">
          <span aria-label="Distance">{c.max_distance === null ? (c.distance_used !== null ? `${fmt(c.distance_used)} run · no max` : 'no max') : `${c.distance_used !== null ? fmt(c.distance_used) : '—'} of ${fmt(c.max_distance_price)} (${c.max_distance})`}</span>
          {' · '}
          <span aria-label="Re-prices">{c.moves}</span> re-price{c.moves === 1 ? '' : 's'}
        </div>
        <div className="faint oco-note" aria-label="Last" title={note.at}>
          {note.text}
        </div>
      </td>
      <td className="dt-sticky">
        {c.status === 'working' && (
          <span className="chase-actions">
            <Button size="sm" variant="ghost" busy={stop.isPending && stop.variables?.order === 'leave'} disabled={stop.isPending} onClick={() => stop.mutate({ id: c.id, order: 'leave' })} aria-label={`Stop · leave, ${name}: its order keeps resting`}>
              Stop · leave
            </Button>
            <Button size="sm" variant="danger" busy={stop.isPending && stop.variables?.order === 'cancel'} disabled={stop.isPending} onClick={() => stop.mutate({ id: c.id, order: 'cancel' })} aria-label={`Stop · cancel, ${name}: its order is cancelled`}>
              Stop · cancel
            </Button>
          </span>
        )}
        {stop.error && <ErrorLine error={stop.error} />}
      </td>
    </tr>
  );
}

function DamagedChaseRow({ d }: { d: DamagedChaseView }) {
  const name = `${d.market ?? 'Unknown market'} chase ${d.id} (damaged)`;
  return (
    <tr aria-label={name} className="twap-damaged-row">
      <td>
        <span className="strong">{d.market ?? 'Unknown market'}</span>
        <div className="faint num">{d.id}</div>
        <Badge tone="sell">damaged</Badge>
      </td>
      <td>
        <div className="twap-damage" aria-label="Damage">
          {d.damage}
        </div>
        <div className="faint twap-damage">Never run; nothing is sent for it. Check Open orders for its order; `perps order chase --list` names its file to restore or remove.</div>
      </td>
      <td className="dt-sticky r faint">—</td>
    </tr>
  );
}

export function ChasePanel() {
  const chases = useChases();
  if (chases.isPending) return <Loading label="Loading chases" rows={2} />;
  if (chases.error) return <ErrorState error={chases.error} title="Chases unavailable" onRetry={() => void chases.refetch()} />;
  const { chases: list, damaged } = chases.data;
  if (list.length === 0 && damaged.length === 0) return <EmptyState title="No chases">A Chase from the ticket rests post-only at the best bid or ask and follows it until it fills. Chases show here.</EmptyState>;
  return (
    <table className="dt" aria-label="Chases">
      <thead>
        <tr>
          <th scope="col">Market · state</th>
          <th scope="col">Filled · price · distance · last</th>
          <th scope="col" className="r dt-sticky">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {damaged.map((d) => (
          <DamagedChaseRow key={d.id} d={d} />
        ))}
        {list.map((c) => (
          <ChaseRow key={c.id} c={c} />
        ))}
      </tbody>
    </table>
  );
}
