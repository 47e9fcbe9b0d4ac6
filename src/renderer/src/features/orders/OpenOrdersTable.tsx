/**
 * Resting orders and triggers: cancel, modify inline (price, size, trigger price), a badge while a modify
 * is in flight (re-read, never modify twice), and bracket legs waiting for their entry (PENDING_PARENT)
 * drawn attached under it. A waiting leg can be cancelled but not modified.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { ListedOrderView, OpenOrderView } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { explainReason } from '../../ipc/events';
import { perps, unwrap } from '../../ipc/client';
import { qk, useOpenOrders, useTriggers } from '../../ipc/queries';
import { dec, fmt, isDecimalText } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { RowActions } from '../../ui/RowActions';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';

function useRefreshOrders() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: qk.openOrders });
    void client.invalidateQueries({ queryKey: qk.triggers });
  };
}

export function OpenOrdersTable() {
  const open = useOpenOrders();
  const refresh = useRefreshOrders();
  const cancelAll = useMutation({
    mutationFn: () => unwrap(perps().orders.cancelAll({})),
    onSuccess: (r) => {
      refresh();
      const failed = r.results.filter((x) => x.status !== 'SUBMITTED');
      pushToast({ tone: failed.length ? 'warn' : 'success', title: `Cancel requested for ${r.results.length - failed.length} order(s)`, body: failed.map((f) => `${f.order_id}: ${f.reason ?? f.status}`).join('\n') || undefined });
    },
  });
  if (open.isPending) return <Loading label="Loading open orders" rows={3} />;
  if (open.error) return <ErrorState error={open.error} title="Open orders unavailable" onRetry={() => void open.refetch()} />;
  const orders = open.data.orders;
  if (orders.length === 0) return <EmptyState title="No open orders">Resting limit orders, armed triggers and bracket legs waiting for their entry appear here.</EmptyState>;
  return (
    <>
      <OrdersTable label="Open orders" rows={orders} />
      <div className="table-foot">
        {cancelAll.error && <ErrorLine error={cancelAll.error} />}
        <Button size="sm" variant="danger" busy={cancelAll.isPending} onClick={() => cancelAll.mutate()}>
          Cancel all
        </Button>
      </div>
    </>
  );
}

export function TriggersTable() {
  const triggers = useTriggers();
  if (triggers.isPending) return <Loading label="Loading triggers" rows={2} />;
  if (triggers.error) return <ErrorState error={triggers.error} title="Triggers unavailable" onRetry={() => void triggers.refetch()} />;
  const rows = triggers.data.triggers.map((t) => ({ ...t, legs: [] }));
  if (rows.length === 0) return <EmptyState title="No armed triggers">Armed take-profit and stop-loss orders on your positions appear here.</EmptyState>;
  return <OrdersTable label="Armed triggers" rows={rows} />;
}

function OrdersTable({ label, rows }: { label: string; rows: OpenOrderView[] }) {
  return (
    <table className="dt" aria-label={label}>
      <thead>
        <tr>
          {/* Status leads the secondary columns: "Modifying…" and "Waiting for entry" stay in view on a narrow window. */}
          <th scope="col">Market</th>
          <th scope="col">Type</th>
          <th scope="col">Side</th>
          <th scope="col" className="r">Price</th>
          <th scope="col">Status</th>
          <th scope="col" className="r">Filled / size</th>
          <th scope="col" className="r">Trigger</th>
          <th scope="col" className="r dt-sticky">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((o) => (
          <Fragment key={o.order_id}>
            <OrderRow order={o} />
            {o.legs.map((leg) => (
              <OrderRow key={leg.order_id} order={leg} child />
            ))}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

function statusBadge(o: ListedOrderView) {
  if (o.pending_parent) return <Badge tone="warn">Waiting for entry</Badge>;
  if (o.is_modifying) return <Badge tone="info">Modifying…</Badge>;
  if (o.armed) return <Badge tone="accent">Armed</Badge>;
  return <Badge>{o.status}</Badge>;
}

function typeLabel(o: ListedOrderView): string {
  if (o.order_type === 'TRIGGER') return o.tpsl === 'tp' ? 'Take profit' : o.tpsl === 'sl' ? 'Stop loss' : 'Trigger';
  return o.order_type === 'LIMIT' ? 'Limit' : o.order_type;
}

function OrderRow({ order: o, child = false }: { order: ListedOrderView; child?: boolean }) {
  const [editing, setEditing] = useState(false);
  const refresh = useRefreshOrders();
  const cancel = useMutation({
    mutationFn: () => unwrap(perps().orders.cancel({ order_id: o.order_id, order_type: o.order_type === 'TRIGGER' ? 'TRIGGER' : 'LIMIT' })),
    onSuccess: (r) => {
      refresh();
      const leg = r.results[0];
      if (leg && leg.status !== 'SUBMITTED') pushToast({ tone: 'error', title: `Cancel ${leg.status.toLowerCase()}`, body: explainReason(leg.reason) });
      else pushToast({ tone: 'info', title: 'Cancel requested', body: `${o.market} ${typeLabel(o)} ${o.order_id}` });
    },
  });
  const isTrigger = o.order_type === 'TRIGGER';
  const name = `${o.market} ${typeLabel(o)} ${o.side} ${o.order_id}`;
  if (editing) return <EditRow order={o} child={child} onDone={() => setEditing(false)} />;
  return (
    <tr className={child ? 'row-child' : undefined} aria-label={name}>
      <td>
        <button type="button" className="link-btn strong" onClick={() => selectMarket(o.market)}>
          {o.market}
        </button>
      </td>
      <td title={`Placed ${fmtDateTime(o.submitted_at)}`}>
        <span className="row" style={{ gap: 4 }}>
          {typeLabel(o)}
          {o.time_in_force === 'ALO' && <Badge>Post-only</Badge>}
          {o.time_in_force && o.time_in_force !== 'ALO' && !isTrigger && <Badge>{o.time_in_force}</Badge>}
          {o.reduce_only && <Badge tone="info">{isTrigger ? 'RO' : 'Reduce-only'}</Badge>}
        </span>
      </td>
      <td className={o.side === 'buy' ? 'buy' : 'sell'}>{o.side === 'buy' ? 'Buy' : 'Sell'}</td>
      <td className="r num">{fmt(o.limit_price)}</td>
      <td>{statusBadge(o)}</td>
      <td className="r num">
        {fmt(o.filled_size)} / {isTrigger && dec(o.size)?.isZero() ? 'whole position' : fmt(o.size)}
      </td>
      <td className="r num">{isTrigger ? fmt(o.trigger_price) : '—'}</td>
      <td className="dt-sticky">
        <RowActions
          name={name}
          actions={[
            {
              label: 'Modify',
              name: `Modify ${name}`,
              disabled: o.pending_parent || o.is_modifying,
              ...(o.pending_parent ? { title: 'A leg waiting for its entry cannot be modified (modify_not_modifiable); cancel it instead' } : o.is_modifying ? { title: 'A modify is in flight' } : {}),
              onSelect: () => setEditing(true),
            },
          ]}
          primary={
            <Button size="sm" variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate()} aria-label={`Cancel ${name}`}>
              Cancel
            </Button>
          }
        />
        {cancel.error && <ErrorLine error={cancel.error} />}
      </td>
    </tr>
  );
}

function EditRow({ order: o, child, onDone }: { order: ListedOrderView; child: boolean; onDone: () => void }) {
  const isTrigger = o.order_type === 'TRIGGER';
  const [price, setPrice] = useState(o.limit_price);
  const [size, setSize] = useState(o.size);
  const [trigger, setTrigger] = useState(o.trigger_price ?? '');
  const refresh = useRefreshOrders();
  const modify = useMutation({
    mutationFn: () => unwrap(perps().orders.modify({ order_id: o.order_id, price: price.trim(), size: size.trim(), ...(isTrigger && trigger.trim() ? { trigger_price: trigger.trim() } : {}) })),
    onSuccess: (r) => {
      refresh();
      if (r.status === 'REJECTED') {
        pushToast({ tone: 'error', title: 'Modify rejected', body: explainReason(r.reason) });
      } else {
        pushToast({ tone: 'success', title: 'Modify submitted', body: r.new_order_id ? `New order id ${r.new_order_id}` : undefined });
        onDone();
      }
    },
  });
  const ok = (s: string) => isDecimalText(s) && dec(s) !== null;
  const valid = ok(price) && ok(size) && (!isTrigger || trigger.trim() === '' || ok(trigger));
  return (
    <tr className={child ? 'row-child row-edit' : 'row-edit'} aria-label={`Modify ${o.market} ${o.order_id}`}>
      <td className="strong">{o.market}</td>
      <td>{typeLabel(o)}</td>
      <td className={o.side === 'buy' ? 'buy' : 'sell'}>{o.side === 'buy' ? 'Buy' : 'Sell'}</td>
      <td className="r">
        <input className="input cell-input" aria-label={isTrigger ? 'New fire price' : 'New price'} value={price} onChange={(e) => setPrice(e.target.value)} autoFocus />
      </td>
      <td>{modify.error ? <ErrorLine error={modify.error} /> : <span className="faint">Only price, size and trigger change</span>}</td>
      <td className="r">
        <input className="input cell-input" aria-label="New size" value={size} onChange={(e) => setSize(e.target.value)} />
      </td>
      <td className="r">{isTrigger ? <input className="input cell-input" aria-label="New trigger price" value={trigger} onChange={(e) => setTrigger(e.target.value)} /> : '—'}</td>
      <td className="dt-sticky">
        <div className="dt-actions">
          <Button size="sm" variant="ghost" onClick={onDone} disabled={modify.isPending}>
            Discard
          </Button>
          <Button size="sm" variant="primary" busy={modify.isPending} disabled={!valid} onClick={() => modify.mutate()}>
            Save
          </Button>
        </div>
      </td>
    </tr>
  );
}
