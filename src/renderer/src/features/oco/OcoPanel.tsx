/**
 * The OCO tab of the algorithms panel: every pair of the wallet with both legs (side, price, size, what
 * each is now, how much filled), who watches it (this app, or a terminal's `perps order oco`), what it
 * did last, and Cancel (both resting legs are cancelled and the pair ends). A pair whose stored record is
 * damaged is listed too, with what is wrong and no actions: nothing is ever sent for it.
 */
import type { DamagedOcoView, OcoView } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { fmt } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { useOcoCancel, useOcos } from './ocoQueries';

const STATUS_TONE: Record<OcoView['status'], 'buy' | 'sell' | 'warn' | 'info' | undefined> = { working: 'info', done: 'buy', cancelled: undefined, failed: 'sell' };

/** A leg as a trader reads it: "Buy 0.05 @ 3,300 · open" (how much filled when part of it did). */
function legText(l: OcoView['legs'][number]): string {
  const part = l.filled_size !== '0' && l.status !== 'filled' ? ` (${fmt(l.filled_size)} filled)` : '';
  return `${l.side === 'BUY' ? 'Buy' : 'Sell'} ${fmt(l.size)} @ ${fmt(l.price)} · ${l.status}${part}`;
}

/** The latest note without its timestamp (the time is in the title). */
function noteText(note: string | null): { text: string; at: string | undefined } {
  if (!note) return { text: '—', at: undefined };
  const m = /^(\S+Z) (.*)$/s.exec(note);
  return m ? { text: m[2]!, at: m[1] } : { text: note, at: undefined };
}

function OcoRow({ p }: { p: OcoView }) {
  const cancel = useOcoCancel();
  const name = `${p.market} OCO ${p.id}`;
  const note = noteText(p.last_note);
  return (
    <tr aria-label={name}>
      <td>
        <button type="button" className="link-btn strong" onClick={() => selectMarket(p.market)}>
          {p.market}
        </button>
        <div className="faint num">{p.leverage !== null ? `${p.leverage}x` : 'leverage not recorded'}</div>
      </td>
      <td>
        <Badge tone={STATUS_TONE[p.status]}>{p.status}</Badge>
        {p.runner && <div className="faint oco-watch">{p.runner.this_process ? 'watched here' : `watched by terminal ${p.runner.pid}`}</div>}
      </td>
      {/* Both legs and what the pair did last, stacked: the row reads whole in the smallest window. */}
      <td className="oco-legs">
        {p.legs.map((l, i) => (
          <div key={l.side} className="num" aria-label={`Leg ${i + 1}`}>
            <span className={l.side === 'BUY' ? 'buy' : 'sell'}>{legText(l)}</span>
            {p.winner === i && <span className="faint"> · filled first</span>}
          </div>
        ))}
        <div className="faint oco-note" aria-label="Last" title={note.at}>
          {note.text}
        </div>
      </td>
      <td className="dt-sticky">
        <span className="row" style={{ gap: 4, justifyContent: 'flex-end' }}>
          {p.status === 'working' && (
            <Button size="sm" variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate(p.id)} aria-label={`Cancel ${name}`}>
              Cancel
            </Button>
          )}
        </span>
        {cancel.error && <ErrorLine error={cancel.error} />}
      </td>
    </tr>
  );
}

function DamagedOcoRow({ d }: { d: DamagedOcoView }) {
  const name = `${d.market ?? 'Unknown market'} OCO ${d.id} (damaged)`;
  return (
    <tr aria-label={name} className="twap-damaged-row">
      <td>
        <span className="strong">{d.market ?? 'Unknown market'}</span>
        <div className="faint num">{d.id}</div>
      </td>
      <td>
        <Badge tone="sell">damaged</Badge>
      </td>
      <td>
        <div className="twap-damage" aria-label="Damage">
          {d.damage}
        </div>
        <div className="faint twap-damage">Never watched; nothing is sent for it. Check Open orders for its legs; `perps order oco --list` names its file to restore or remove.</div>
      </td>
      <td className="dt-sticky r faint">—</td>
    </tr>
  );
}

export function OcoPanel() {
  const ocos = useOcos();
  if (ocos.isPending) return <Loading label="Loading OCO pairs" rows={2} />;
  if (ocos.error) return <ErrorState error={ocos.error} title="OCO pairs unavailable" onRetry={() => void ocos.refetch()} />;
  const { pairs, damaged } = ocos.data;
  if (pairs.length === 0 && damaged.length === 0) return <EmptyState title="No OCO pairs">An OCO from the ticket rests a buy below the mark and a sell above it; the first fill cancels the other. Pairs show here.</EmptyState>;
  return (
    <table className="dt" aria-label="OCO pairs">
      <thead>
        <tr>
          <th scope="col">Market</th>
          <th scope="col">Status</th>
          <th scope="col">Legs · last</th>
          <th scope="col" className="r dt-sticky">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {damaged.map((d) => (
          <DamagedOcoRow key={d.id} d={d} />
        ))}
        {pairs.map((p) => (
          <OcoRow key={p.id} p={p} />
        ))}
      </tbody>
    </table>
  );
}
