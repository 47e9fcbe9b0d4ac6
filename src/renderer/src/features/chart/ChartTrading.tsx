/**
 * Trading from the chart, drawn over the candles: each open order's and trigger's line gets a grip (drag
 * it to a new price: a modify, or a trigger's new level) and an “×” (cancel); the position's line gets a
 * grip too (drag it away to set a take-profit on the profitable side or a stop-loss on the other); a “+”
 * beside the price axis follows the crosshair and opens a limit ticket at that price. Prices snap to the
 * tick. A price alert's line gets a grip (drag it to a new level: stored by main at once, no review, since
 * nothing is sent to the venue) and an “×” (remove). A drop on the wrong side is refused with the reason (chartDrag.ts) and the line goes back. Each
 * action goes through a review (or the TP/SL dialog) unless the review setting is off.
 *
 * The grips are HTML over the canvas, moved to their line's y on the frames after anything that can move
 * the price scale (data, zoom, scroll, resize, a pointer on the chart, a line held or let go), so a drag
 * never fights the chart's own panning.
 */
import type { IChartApi, IPriceLine, ISeriesApi } from 'lightweight-charts';
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { AlertView, MarketView, PositionView } from '../../../../shared/ipc';
import { useRemoveAlert, useSetAlertLevel } from '../alerts/alertQueries';
import { getUi, pickLimitPrice, setUi, useUi } from '../../app/uiStore';
import { liveMarkNow } from '../markets/live';
import { useSettings } from '../../ipc/queries';
import { fmt, placesOfStep, plotNumber } from '../../lib/decimal';
import { judgeLimitMove, judgePositionDrag, judgeTriggerMove, snapToTick } from './chartDrag';
import { describeOrder, toastFailure, useChartActions } from './ChartActionDialogs';
import type { ChartAction, LineOrder } from './chartActionTypes';

/** A line the person can act on. */
export interface TradableLine {
  key: string;
  price: string;
  title: string;
  order?: LineOrder;
  position?: PositionView;
  alert?: AlertView;
}

/**
 * Frames the grips are placed on after something that can move them: the chart draws a change on its own
 * next frame, so a few frames cover it however the two frame callbacks are ordered.
 */
const WAKE_FRAMES = 4;

interface Drag {
  key: string;
  line: TradableLine;
  startY: number;
  price: string;
  moved: boolean;
}

export function ChartTrading({
  chart,
  series,
  priceLines,
  lines,
  market,
}: {
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  priceLines: React.RefObject<Map<string, IPriceLine>>;
  lines: TradableLine[];
  market: MarketView;
}) {
  const settings = useSettings();
  const layer = useRef<HTMLDivElement>(null);
  const rows = useRef(new Map<string, HTMLDivElement>());
  const drag = useRef<Drag | null>(null);
  /** A line held at a price other than its own: while dragged, and while its review is open. */
  const held = useRef<{ key: string; price: string } | null>(null);
  const lastHeld = useRef<string | null>(null);
  const [dragLabel, setDragLabel] = useState<{ key: string; price: string } | null>(null);
  const pending = useUi((u) => u.chartAction);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [plus, setPlus] = useState<{ y: number; price: string } | null>(null);
  const overPlus = useRef(false);
  const places = placesOfStep(market.tick_size);
  const describe = describeOrder(places);
  const linesRef = useRef(lines);
  linesRef.current = lines;
  /** Places the grips on the next frames (set by the frame loop's effect). */
  const wake = useRef<() => void>(() => {});
  const chartHeld = useUi((u) => u.chartHeld);

  // Grips follow their lines; a held line stays where it was dropped (the chart redraws its lines whenever
  // positions or orders change). A frame in which nothing moved writes nothing: a style write invalidates
  // the page's style, and the layer's height read after one forced a whole layout every frame, the trade
  // view's largest cost in a mark storm (issue 29). The height comes from a ResizeObserver instead, and
  // each grip and held line is written only when its place changes.
  //
  // The loop runs only for WAKE_FRAMES frames after something that can move a line's y: the series' data
  // (autoscale), the visible range (zoom, scroll, its kinetic glide), the chart's size, a pointer or wheel
  // on the chart or the grips (a price-axis drag, a grip's drag), the lines, a line held or let go. A loop
  // on every frame kept the page drawing 60 frames a second with nothing moving (2.7% of the main thread
  // idle, issue 37).
  useEffect(() => {
    let frame = 0;
    let awake = 0;
    let height = layer.current?.clientHeight ?? 0;
    const placed = new WeakMap<HTMLDivElement, string>();
    let heldAt: string | null = null;
    const loop = () => {
      frame = --awake > 0 ? requestAnimationFrame(loop) : 0;
      const h = held.current ?? getUi().chartHeld;
      // A line let go since the last frame (its review closed) goes back to its own price.
      if (lastHeld.current && lastHeld.current !== h?.key) {
        const gone = linesRef.current.find((x) => x.key === lastHeld.current);
        if (gone) priceLines.current.get(gone.key)?.applyOptions({ price: plotNumber(gone.price) });
      }
      lastHeld.current = h?.key ?? null;
      if (!h) heldAt = null;
      for (const l of linesRef.current) {
        const el = rows.current.get(l.key);
        const price = h && h.key === l.key ? h.price : l.price;
        if (h && h.key === l.key && heldAt !== `${h.key}@${price}`) {
          heldAt = `${h.key}@${price}`;
          priceLines.current.get(l.key)?.applyOptions({ price: plotNumber(price) });
        }
        if (!el) continue;
        const y = series.priceToCoordinate(plotNumber(price));
        const place = y === null || y < 0 || y > height ? 'hidden' : String(Math.round(y));
        if (placed.get(el) === place) continue;
        placed.set(el, place);
        if (place === 'hidden') {
          el.style.visibility = 'hidden';
        } else {
          el.style.visibility = 'visible';
          el.style.transform = `translateY(${place}px)`;
        }
      }
    };
    const wakeUp = () => {
      awake = WAKE_FRAMES;
      if (!frame) frame = requestAnimationFrame(loop);
    };
    wake.current = wakeUp;
    const resize = new ResizeObserver((entries) => {
      const el = entries[entries.length - 1]?.target;
      if (el instanceof HTMLElement) height = el.clientHeight;
      wakeUp();
    });
    if (layer.current) resize.observe(layer.current);
    const time = chart.timeScale();
    series.subscribeDataChanged(wakeUp);
    time.subscribeVisibleLogicalRangeChange(wakeUp);
    time.subscribeSizeChange(wakeUp);
    const surfaces = [chart.chartElement(), layer.current].filter((el): el is HTMLDivElement => el !== null);
    const inputs = ['pointerdown', 'pointermove', 'pointerup', 'wheel', 'dblclick'] as const;
    for (const el of surfaces) for (const type of inputs) el.addEventListener(type, wakeUp, { capture: true, passive: true });
    wakeUp();
    return () => {
      cancelAnimationFrame(frame);
      frame = 0;
      wake.current = () => {};
      resize.disconnect();
      series.unsubscribeDataChanged(wakeUp);
      time.unsubscribeVisibleLogicalRangeChange(wakeUp);
      time.unsubscribeSizeChange(wakeUp);
      for (const el of surfaces) for (const type of inputs) el.removeEventListener(type, wakeUp, { capture: true });
    };
  }, [chart, series, priceLines]);

  // New or moved lines, and a line held by a review or let go, are placed on the next frames.
  useEffect(() => wake.current(), [lines, chartHeld]);

  // The “+” beside the price axis follows the crosshair.
  useEffect(() => {
    const onMove = (p: { point?: { x: number; y: number } }) => {
      if (!p.point) {
        if (!overPlus.current) setPlus(null);
        return;
      }
      const price = series.coordinateToPrice(p.point.y);
      if (price === null || !Number.isFinite(price) || price <= 0) return;
      setPlus({ y: p.point.y, price: snapToTick(price, market.tick_size) });
    };
    chart.subscribeCrosshairMove(onMove);
    return () => chart.unsubscribeCrosshairMove(onMove);
  }, [chart, series, market.tick_size]);

  useEffect(() => {
    if (!refusal) return;
    const t = setTimeout(() => setRefusal(null), 6_000);
    return () => clearTimeout(t);
  }, [refusal]);

  /** Lets a dragged line go: the frame loop puts it back at its own price. */
  const release = () => {
    held.current = null;
    wake.current();
  };

  const confirm = settings.data?.confirm_orders ?? true;
  const { modify, cancel, tpslDirect } = useChartActions(market, release);
  const setAlertLevel = useSetAlertLevel();
  const removeAlert = useRemoveAlert();

  const act = (p: ChartAction) => {
    if (confirm) return setUi({ chartAction: p, chartHeld: held.current });
    const failed = (what: string) => (err: unknown) => {
      release();
      toastFailure(market.symbol, what, err);
    };
    if (p.kind === 'modify') modify.mutate(p, { onError: failed('Modify') });
    else if (p.kind === 'cancel') cancel.mutate(p.order, { onError: failed('Cancel') });
    else tpslDirect.mutate(p, { onError: failed('TP/SL') });
  };

  const onDown = (line: TradableLine) => (e: ReactPointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0 || pending) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { key: line.key, line, startY: e.clientY, price: line.price, moved: false };
    setRefusal(null);
  };
  const onMove = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    const box = layer.current?.getBoundingClientRect();
    if (!d || !box) return;
    if (!d.moved && Math.abs(e.clientY - d.startY) < 3) return;
    d.moved = true;
    const raw = series.coordinateToPrice(e.clientY - box.top);
    if (raw === null || !Number.isFinite(raw) || raw <= 0) return;
    d.price = snapToTick(raw, market.tick_size);
    held.current = { key: d.key, price: d.price };
    setDragLabel({ key: d.key, price: d.price });
  };
  const onUp = (e: ReactPointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    drag.current = null;
    setDragLabel(null);
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    if (!d || !d.moved) return;
    const refuse = (reason: string) => {
      release();
      setRefusal(reason);
    };
    const { line } = d;
    // The mark as it is at the drop, read from the store: the chart is not re-rendered by every mark.
    const mark = liveMarkNow(market);
    if (line.alert) {
      // An alert moves nothing at the venue: no review; main checks the level as it checks a new alert.
      if (d.price === line.price) return release();
      setAlertLevel.mutate({ id: line.alert.id, level: d.price }, { onSettled: release, onError: (err) => toastFailure(market.symbol, 'Alert', err) });
      return;
    }
    if (line.order) {
      const o = line.order;
      if (o.order_type === 'TRIGGER' && o.trigger_price) {
        const v = judgeTriggerMove({ side: o.side, tpsl: o.tpsl, trigger_price: o.trigger_price, limit_price: o.limit_price }, d.price, mark, market.tick_size);
        if (!v.ok) return refuse(v.reason);
        if (v.value.trigger === o.trigger_price) return release();
        act({ kind: 'modify', order: o, price: v.value.fire, trigger: v.value.trigger, key: line.key });
      } else {
        const v = judgeLimitMove(o.side, d.price, mark);
        if (!v.ok) return refuse(v.reason);
        if (v.value === o.limit_price) return release();
        act({ kind: 'modify', order: o, price: v.value, key: line.key });
      }
    } else if (line.position) {
      const p = line.position;
      const v = judgePositionDrag(p.side, d.price, mark, p.liquidation_price);
      if (!v.ok) return refuse(v.reason);
      act({ kind: 'tpsl', position: p, level: v.value.kind, price: v.value.price, key: line.key });
    }
  };

  return (
    <div ref={layer} className="chart-trade-layer">
      {lines.map((l) => {
        const dragging = dragLabel?.key === l.key;
        const what = l.alert ? `the ${market.symbol} alert at ${fmt(l.price, { places })}` : l.order ? describe(l.order) : `${l.position?.side === 'LONG' ? 'Long' : 'Short'} position`;
        const canDrag = l.alert !== undefined || l.position !== undefined || (l.order !== undefined && !l.order.pending_parent && !l.order.is_modifying);
        return (
          <div
            key={l.key}
            className="chart-line-tools"
            ref={(el) => {
              if (el) rows.current.set(l.key, el);
              else rows.current.delete(l.key);
            }}
          >
            {canDrag && (
              <button
                type="button"
                className={`chart-grip${l.alert ? ' chart-grip-alert' : ''}${dragging ? ' is-dragging' : ''}`}
                // The name starts with what the grip shows ("TP/SL", "Alert"), then says what dragging does.
                aria-label={l.position ? `TP/SL: drag from the ${market.symbol} position line to set a take-profit or stop-loss` : l.alert ? `Alert: drag to move ${what}` : `Drag to move ${what}`}
                title={l.position ? 'Drag up or down to set a take-profit or stop-loss' : l.alert ? 'Drag the alert to a new level' : 'Drag to a new price'}
                onPointerDown={onDown(l)}
                onPointerMove={onMove}
                onPointerUp={onUp}
                onPointerCancel={() => {
                  drag.current = null;
                  setDragLabel(null);
                  release();
                }}
              >
                ⇕ {dragging ? fmt(dragLabel.price, { places }) : l.position ? 'TP/SL' : l.alert ? 'Alert' : ''}
              </button>
            )}
            {l.alert && (
              <button type="button" className="chart-x" aria-label={`Remove ${what}`} title="Remove this alert" onClick={() => removeAlert.mutate(l.alert!.id, { onError: (err) => toastFailure(market.symbol, 'Alert', err) })}>
                ×
              </button>
            )}
            {l.order && (
              <button type="button" className="chart-x" aria-label={`Cancel ${what}`} title="Cancel this order" onClick={() => act({ kind: 'cancel', order: l.order! })}>
                ×
              </button>
            )}
          </div>
        );
      })}
      {plus && (
        <button
          type="button"
          className="chart-plus"
          style={{ transform: `translateY(${Math.round(plus.y)}px)`, right: chart.priceScale('right').width() + 2 }}
          aria-label={`Limit order at ${fmt(plus.price, { places })}`}
          title={`Open a limit ticket at ${fmt(plus.price, { places })}`}
          onMouseEnter={() => (overPlus.current = true)}
          onMouseLeave={() => (overPlus.current = false)}
          onClick={() => pickLimitPrice(plus.price)}
        >
          +
        </button>
      )}
      {refusal && (
        <p className="chart-refusal notice notice-warn" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}
