/**
 * What a chart action asks before it is sent (ChartTrading decides the action): the modify review (old
 * and new price, a trigger's fire price moving with it), the cancel confirmation, and the TP/SL dialog
 * started from the dropped level. Rendered outside the chart (TradeView), so a review stays open when the
 * chart is rebuilt (a window resize between side-by-side and tabs); the dragged line stays where it was
 * dropped until the review closes (uiStore's chartHeld).
 */
import { useMutation } from '@tanstack/react-query';
import type { ListedOrderView, MarketView } from '../../../../shared/ipc';
import { setUi, useUi } from '../../app/uiStore';
import { explainReason } from '../../ipc/events';
import { asIpcError, perps, unwrap } from '../../ipc/client';
import { useMarkets } from '../../ipc/queries';
import { fmt, placesOfStep } from '../../lib/decimal';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useLiveMark } from '../markets/live';
import { TpslDialog } from '../positions/TpslDialog';
import { useInvalidateTrading } from '../positions/useInvalidateTrading';
import type { ChartAction, LineOrder } from './chartActionTypes';


/** An order in words, prices at the market's tick places. */
export const describeOrder =
  (places: number) =>
  (o: ListedOrderView): string =>
    o.order_type === 'TRIGGER'
      ? `${o.tpsl === 'tp' ? 'Take profit' : o.tpsl === 'sl' ? 'Stop loss' : 'Trigger'} ${o.side} ${o.size === '0' ? 'whole position' : fmt(o.size)} at ${fmt(o.trigger_price, { places })}`
      : `${o.side === 'buy' ? 'Buy' : 'Sell'} ${fmt(o.size)} limit at ${fmt(o.limit_price, { places })}`;

/** The actions themselves; `done` runs after each (the line is let go). */
export function useChartActions(market: MarketView, done: () => void) {
  const refresh = useInvalidateTrading();
  const describe = describeOrder(placesOfStep(market.tick_size));
  const places = placesOfStep(market.tick_size);
  const modify = useMutation({
    mutationFn: (p: Extract<ChartAction, { kind: 'modify' }>) => unwrap(perps().orders.modify({ order_id: p.order.order_id, price: p.price, size: p.order.size, ...(p.trigger ? { trigger_price: p.trigger } : {}) })),
    onSuccess: (r, p) => {
      refresh();
      if (r.status === 'REJECTED') pushToast({ tone: 'error', title: `Modify rejected · ${market.symbol}`, body: explainReason(r.reason) });
      else pushToast({ tone: 'success', title: `Modify submitted · ${market.symbol}`, body: `${describe(p.order)} → ${fmt(p.trigger ?? p.price, { places })}` });
      done();
    },
  });
  const cancel = useMutation({
    mutationFn: (o: LineOrder) => unwrap(perps().orders.cancel({ order_id: o.order_id, order_type: o.order_type === 'TRIGGER' ? 'TRIGGER' : 'LIMIT' })),
    onSuccess: (r, o) => {
      refresh();
      const leg = r.results[0];
      if (leg && leg.status !== 'SUBMITTED') pushToast({ tone: 'error', title: `Cancel ${leg.status.toLowerCase()}`, body: explainReason(leg.reason) });
      else pushToast({ tone: 'info', title: `Cancel requested · ${market.symbol}`, body: describe(o) });
      done();
    },
  });
  const tpslDirect = useMutation({
    mutationFn: async (p: Extract<ChartAction, { kind: 'tpsl' }>) => {
      const review = await unwrap(perps().positions.previewTpsl({ market: p.position.market, [p.level]: p.price }));
      return unwrap(perps().positions.applyTpsl({ preview_id: review.preview_id }));
    },
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: r.ok ? 'success' : 'warn', title: `TP/SL ${r.ok ? 'updated' : 'partly updated'} · ${r.market}`, body: r.changes.map((c) => `${c.summary}: ${c.status}`).join(' · ') });
      done();
    },
  });
  return { modify, cancel, tpslDirect, describe };
}

/** Sent at once (the review setting is off): failures are toasts and the line goes back. */
export function toastFailure(market: string, what: string, err: unknown): void {
  pushToast({ tone: 'error', title: `${what} failed · ${market}`, error: asIpcError(err) });
}

export function ChartActionDialogs() {
  const pending = useUi((u) => u.chartAction);
  const markets = useMarkets();
  const market = pending ? markets.data?.markets.find((m) => m.symbol === (pending.kind === 'tpsl' ? pending.position.market : pending.order.market)) : undefined;
  if (!pending || !market) return null;
  return <Dialogs key={pending.kind === 'cancel' ? pending.order.order_id : pending.key} pending={pending} market={market} />;
}

function Dialogs({ pending, market }: { pending: ChartAction; market: MarketView }) {
  const close = () => setUi({ chartAction: null, chartHeld: null });
  const { modify, cancel, describe } = useChartActions(market, close);
  const mark = useLiveMark(market);
  const places = placesOfStep(market.tick_size);
  return (
    <>
      {pending?.kind === 'modify' && (
        <Dialog
          open
          title={`Review modify · ${market.symbol}`}
          onClose={close}
          locked={modify.isPending}
          footer={
            <>
              <Button variant="ghost" onClick={close} disabled={modify.isPending}>
                Keep it
              </Button>
              <Button variant="primary" busy={modify.isPending} onClick={() => modify.mutate(pending)}>
                Sign and modify
              </Button>
            </>
          }
        >
          <p className="leg-line">{describe(pending.order)}</p>
          <KVList label="Modify">
            {pending.trigger ? (
              <>
                <KV k="Trigger price">
                  {fmt(pending.order.trigger_price, { places })} → <strong>{fmt(pending.trigger, { places })}</strong>
                </KV>
                <KV k="Fire price (moves with it)">
                  {fmt(pending.order.limit_price, { places })} → {fmt(pending.price, { places })}
                </KV>
              </>
            ) : (
              <KV k="Limit price">
                {fmt(pending.order.limit_price, { places })} → <strong>{fmt(pending.price, { places })}</strong>
              </KV>
            )}
            <KV k="Size">{fmt(pending.order.size)}</KV>
            <KV k="Mark">{fmt(mark, { places })}</KV>
          </KVList>
          <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
            A modify replaces the order: the old one is cancelled and a new one with a new order id takes its place, signed by your trading key.
          </p>
          {modify.error && <ErrorLine error={modify.error} />}
        </Dialog>
      )}
      {pending?.kind === 'cancel' && (
        <Dialog
          open
          title={`Cancel order · ${market.symbol}`}
          onClose={close}
          locked={cancel.isPending}
          footer={
            <>
              <Button variant="ghost" onClick={close} disabled={cancel.isPending}>
                Keep it
              </Button>
              <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate(pending.order)}>
                Cancel order
              </Button>
            </>
          }
        >
          <p className="leg-line">{describe(pending.order)}</p>
          {(pending.order.legs?.length ?? 0) > 0 && <p className="muted">Its {pending.order.legs?.length} bracket leg(s) waiting for it are cancelled with it.</p>}
          {cancel.error && <ErrorLine error={cancel.error} />}
        </Dialog>
      )}
      {pending?.kind === 'tpsl' && (
        <TpslDialog
          position={pending.position}
          market={market}
          initial={{ [pending.level]: pending.price }}
          onClose={close}
        />
      )}
    </>
  );
}
