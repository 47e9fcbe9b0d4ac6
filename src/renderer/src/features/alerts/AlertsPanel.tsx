/**
 * The Alerts tab: a form to add one (market, condition, level, a move's window, repeat, a note), the
 * profile's alerts with their state and last firing, and the latest firings of the alerts log. Main keeps
 * and evaluates the alerts (the page never does), so they fire with the window hidden, and `perps alert`
 * in a terminal sees the same list. The form checks what is typed with the same shared parser as
 * `perps alert add` before asking main, which checks it again: the same input is refused the same way.
 * Price alerts are also drawn on the chart, where their line can be dragged to a new level.
 *
 * A stored alert that fails the rules of a new one (edited by hand, written by an older version, on a
 * market the service no longer lists) is listed too, first, as its own row: that it is damaged, why (the
 * problems main found, already cleaned of control and bidi characters), that it is not evaluated, and a
 * Remove button. It never fires, so hiding it would leave the person trusting an alert that is dead.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { describeRule } from '../../../../shared/alerts/alertEvaluation';
import { ALERT_VALUE_FIELD, parseAlertInput } from '../../../../shared/alerts/alertInput';
import type { AlertKind, AlertView, DamagedAlertView, WalletView } from '../../../../shared/ipc';
import { selectMarket, useUi } from '../../app/uiStore';
import { qk, useMarkets } from '../../ipc/queries';
import { fmtTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextField } from '../../ui/Field';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { useAddAlert, useAlerts, useRemoveAlert } from './alertQueries';

const CONDITIONS: { value: AlertKind; label: string; unit: string; placeholder: string }[] = [
  { value: 'price_above', label: 'Mark rises to', unit: 'USDC', placeholder: 'price' },
  { value: 'price_below', label: 'Mark falls to', unit: 'USDC', placeholder: 'price' },
  { value: 'move', label: 'Mark moves by', unit: '%', placeholder: '2' },
  { value: 'funding_above', label: 'Funding rises to', unit: '/h', placeholder: '0.0001' },
  { value: 'funding_below', label: 'Funding falls to', unit: '/h', placeholder: '0' },
  { value: 'pnl_above', label: 'Position PnL rises to', unit: 'USDC', placeholder: '250' },
  { value: 'pnl_below', label: 'Position PnL falls to', unit: 'USDC', placeholder: '-100' },
  { value: 'liq_distance_below', label: 'Liquidation within', unit: '%', placeholder: '10' },
];

function stateOf(a: AlertView): { text: string; tone?: 'info' | 'warn' | 'buy' } {
  if (a.status === 'done') return { text: 'fired', tone: 'buy' };
  if (a.rule.kind === 'move') return { text: 'watching', tone: 'info' };
  if (a.armed === null) return { text: 'waiting' };
  return a.armed ? { text: 'armed', tone: 'info' } : { text: 'past level', tone: 'warn' };
}

function AddAlertForm() {
  const markets = useMarkets();
  const current = useUi((u) => u.market);
  const add = useAddAlert();
  const client = useQueryClient();
  const symbols = (markets.data?.markets ?? []).filter((m) => m.is_active).map((m) => m.symbol);
  const [market, setMarket] = useState<string | null>(null);
  const [kind, setKind] = useState<AlertKind>('price_above');
  const [value, setValue] = useState('');
  const [window, setWindow] = useState('5m');
  const [repeat, setRepeat] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const chosen = market ?? current ?? symbols[0] ?? '';
  const condition = CONDITIONS.find((c) => c.value === kind)!;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const request = { market: chosen, kind, value: value.trim(), ...(kind === 'move' ? { window: window.trim() } : {}), repeat, note };
    try {
      // The command line's parser: what it refuses is refused here before main is asked.
      // A position alert watches the connected wallet's position (main takes the wallet from the session).
      parseAlertInput({ ...request, wallet: client.getQueryData<WalletView>(qk.wallet)?.address ?? null }, symbols);
    } catch (err) {
      const e2 = err as { field?: string; message: string };
      return setError({ field: e2.field ?? 'value', message: e2.message.replace(/^[a-z-]+: /, '') });
    }
    setError(null);
    add.mutate(request, {
      onSuccess: () => {
        setValue('');
        setNote('');
      },
    });
  };
  const valueField = ALERT_VALUE_FIELD[kind];
  return (
    <form className="alert-form" aria-label="Add an alert" onSubmit={submit}>
      <SelectField label="Market" value={chosen} onChange={(e) => setMarket(e.target.value)} options={symbols.map((s) => ({ value: s, label: s }))} error={error?.field === 'market' ? error.message : undefined} />
      <SelectField label="When" value={kind} onChange={(e) => setKind(e.target.value as AlertKind)} options={CONDITIONS.map((c) => ({ value: c.value, label: c.label }))} />
      <TextField label="Level" inputMode="decimal" placeholder={condition.placeholder} value={value} onChange={(e) => setValue(e.target.value)} suffix={condition.unit} error={error?.field === valueField ? error.message : undefined} />
      {kind === 'move' && <TextField label="Within" placeholder="5m" value={window} onChange={(e) => setWindow(e.target.value)} error={error?.field === 'window' ? error.message : undefined} hint="90s, 10m, 1h30m" />}
      <TextField label="Note" placeholder="optional" maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} error={error?.field === 'note' ? error.message : undefined} />
      <Checkbox label="Repeat" checked={repeat} onChange={(e) => setRepeat(e.target.checked)} />
      <Button type="submit" variant="primary" size="sm" busy={add.isPending}>
        Add alert
      </Button>
      {error && !['market', valueField, 'window', 'note'].includes(error.field) && <p className="field-msg field-msg-error" role="alert">{error.message}</p>}
      {add.error && <ErrorLine error={add.error} />}
    </form>
  );
}

function AlertRow({ a }: { a: AlertView }) {
  const remove = useRemoveAlert();
  const state = stateOf(a);
  const what = describeRule(a.market, a.rule);
  return (
    <tr aria-label={`Alert ${what}`}>
      <td>
        <button type="button" className="link-btn strong" onClick={() => selectMarket(a.market)}>
          {a.market}
        </button>
      </td>
      <td>{what.slice(a.market.length + 1)}</td>
      <td>{a.repeat ? 'repeat' : 'once'}</td>
      <td>
        <Badge tone={state.tone}>{state.text}</Badge>
      </td>
      <td className="num" title={a.last_fired_at ? `last fired ${fmtTime(a.last_fired_at)}` : undefined}>
        {a.fired_count > 0 ? `${a.fired_count}× at ${a.last_fired_value}` : '—'}
      </td>
      <td className="faint">{a.note}</td>
      <td className="dt-sticky r">
        <Button size="sm" variant="ghost" busy={remove.isPending} onClick={() => remove.mutate(a.id)} aria-label={`Remove alert ${what}`}>
          Remove
        </Button>
        {remove.error && <ErrorLine error={remove.error} />}
      </td>
    </tr>
  );
}

const KIND_WORDS: Record<AlertKind, string> = {
  price_above: 'mark above',
  price_below: 'mark below',
  move: 'mark move',
  funding_above: 'funding above',
  funding_below: 'funding below',
  pnl_above: 'PnL above',
  pnl_below: 'PnL below',
  liq_distance_below: 'liquidation within',
};

/** A stored alert that fails the rules of a new one: which, why, that it is not evaluated, and Remove. */
function DamagedAlertRow({ d }: { d: DamagedAlertView }) {
  const remove = useRemoveAlert();
  const what = `${d.market} ${KIND_WORDS[d.kind]}`;
  return (
    <tr aria-label={`Damaged alert ${what} (${d.id})`} className="alert-damaged-row">
      <td>
        <span className="strong">{d.market}</span>
        <div className="faint num">{d.id}</div>
      </td>
      <td>{KIND_WORDS[d.kind]}</td>
      <td className="faint">—</td>
      <td>
        {/* Why sits under the badge, in the column every width shows (the table scrolls sideways at 1024 px). */}
        <Badge tone="sell">damaged</Badge>
        <div className="faint alert-damage">not evaluated: it never fires</div>
        <ul className="alert-damage" aria-label="What is wrong">
          {d.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      </td>
      <td className="num faint">—</td>
      <td className="faint">—</td>
      <td className="dt-sticky r">
        <Button size="sm" variant="ghost" busy={remove.isPending} onClick={() => remove.mutate(d.id)} aria-label={`Remove damaged alert ${what} (${d.id})`}>
          Remove
        </Button>
        {remove.error && <ErrorLine error={remove.error} />}
      </td>
    </tr>
  );
}

export function AlertsPanel() {
  const alerts = useAlerts();
  return (
    <div className="alerts-panel">
      <AddAlertForm />
      {alerts.isPending ? (
        <Loading label="Loading alerts" rows={2} />
      ) : alerts.error ? (
        <ErrorState error={alerts.error} title="Alerts unavailable" onRetry={() => void alerts.refetch()} />
      ) : alerts.data.alerts.length === 0 && alerts.data.damaged.length === 0 ? (
        <EmptyState title="No alerts">Add one above, or with `perps alert add`: the app watches the venue for you and notifies you, even in the background.</EmptyState>
      ) : (
        <table className="dt" aria-label="Alerts">
          <thead>
            <tr>
              <th scope="col">Market</th>
              <th scope="col">When</th>
              <th scope="col">Mode</th>
              <th scope="col">State</th>
              <th scope="col" className="r">Fired</th>
              <th scope="col">Note</th>
              <th scope="col" className="r dt-sticky">Actions</th>
            </tr>
          </thead>
          <tbody>
            {alerts.data.damaged.map((d) => (
              <DamagedAlertRow key={d.id} d={d} />
            ))}
            {alerts.data.alerts.map((a) => (
              <AlertRow key={a.id} a={a} />
            ))}
          </tbody>
        </table>
      )}
      {alerts.data && alerts.data.recent.length > 0 && (
        <ul className="alert-recent faint" aria-label="Recent alert firings">
          {alerts.data.recent.slice(0, 5).map((f) => (
            <li key={`${f.id}-${f.at}`}>
              {fmtTime(f.at)} {f.message}
              {f.note ? ` · ${f.note}` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
