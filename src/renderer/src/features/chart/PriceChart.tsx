/**
 * The candle chart (lightweight-charts): venue candles for the selected market, the last candle moved
 * by live marks, and horizontal lines for the position's entry and estimated liquidation price, resting
 * orders, armed triggers, bracket legs waiting for their entry, a chase's live order, and the user's price alerts. Prices become JS numbers only here,
 * for plotting on a canvas.
 */
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  LineStyle,
  createChart,
  createSeriesMarkers,
  type AutoscaleInfo,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AlertView, CandleView, IpcRequest, ListedOrderView, MarketView, PositionView } from '../../../../shared/ipc';
import { useAlerts } from '../alerts/alertQueries';
import { useChases } from '../chase/chaseQueries';
import { useCandles, useOpenOrders, usePositions, useTriggers } from '../../ipc/queries';
import { dec, fmt, placesOfStep, plotNumber } from '../../lib/decimal';
import { Segmented } from '../../ui/Segmented';
import { ErrorState, Loading } from '../../ui/States';
import { getMark, onMarkFrame } from '../markets/markStore';
import { setUi, useUi } from '../../app/uiStore';
import { Decimal } from '../../lib/decimal';
import { roundToStep } from '../../../../shared/decimal/decimal';
import { liquidationText } from '../risk/liquidation';
import { useTwaps } from '../twap/twapQueries';
import { ChartTrading, type TradableLine } from './ChartTrading';
import { ChartSummary } from './ChartSummary';
import { useChartColors, withAlpha } from '../../lib/chartColors';

/** A plotted price (a float from the canvas) as decimal text on the market's tick, for the ticket. */
function pickPrice(price: number, tick: string): void {
  const onTick = roundToStep(new Decimal(price.toPrecision(12)), tick, 'nearest');
  setUi((u) => ({ pickedPrice: { price: onTick.toFixed(), seq: (u.pickedPrice?.seq ?? 0) + 1 } }));
}

type Interval = IpcRequest<'markets:candles'>['interval'];
const INTERVALS: Interval[] = ['1m', '5m', '15m', '1h', '4h', '1d'];
const INTERVAL_MS: Partial<Record<Interval, number>> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

/** Lines whose colour is not a trading role of the palette (the theme's roles come from lib/chartColors). */
const FIXED = {
  /** The Scale ticket's ladder, not yet sent. */
  ladder: '#b78cff',
  /** The user's price alerts (drag to a new level). */
  alert: '#3ec7e0',
  /** A chase's live order: main moves it, so it is not a plain (draggable) limit line. */
  chase: '#f0a040',
};

/**
 * The liquidation line widens the price scale only when it is this close to the mark (a fraction): a
 * far estimate would squash the candles into a sliver, and the line list above the chart still names it.
 */
const LIQ_SCALE_DISTANCE = new Decimal('0.2');


interface Bar {
  time: UTCTimestamp;
  open: number;
  high: number;
  low: number;
  close: number;
}

function toBar(c: CandleView): Bar {
  return { time: Math.floor(c.t / 1000) as UTCTimestamp, open: plotNumber(c.o), high: plotNumber(c.h), low: plotNumber(c.l), close: plotNumber(c.c) };
}

export interface ChartLine {
  key: string;
  price: string;
  title: string;
  color: string;
  style: LineStyle;
  /** The price as the line list shows it, when not the price itself (the liquidation estimate's safe rounding). */
  text?: string;
  /** Left out of the price scale's range (drawn only when the candles' range reaches it). */
  offScale?: boolean;
  /** The order the line is (drag to modify, × to cancel: ChartTrading). */
  order?: ListedOrderView & { legs?: readonly ListedOrderView[] };
  /** The position whose entry the line is (drag away for a TP or SL). */
  position?: PositionView;
  /** The price alert the line is (drag to a new level, × to remove). */
  alert?: AlertView;
}

export function PriceChart({ market }: { market: MarketView }) {
  const [interval, setInterval] = useState<Interval>('15m');
  const candles = useCandles(market.symbol, interval);
  const positions = usePositions();
  const open = useOpenOrders();
  const triggers = useTriggers();
  const ladder = useUi((s) => s.ladder);
  const twaps = useTwaps();
  const alerts = useAlerts();
  const chases = useChases();
  const markers = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volume = useRef<ISeriesApi<'Histogram'> | null>(null);
  const lines = useRef(new Map<string, IPriceLine>());
  const [ready, setReady] = useState<{ chart: IChartApi; series: ISeriesApi<'Candlestick'> } | null>(null);
  const last = useRef<Bar | null>(null);
  const [legend, setLegend] = useState<Bar | null>(null);
  const places = placesOfStep(market.tick_size);
  const summaryId = useId();
  const colors = useChartColors();
  const lineColors = useMemo(() => ({ ...FIXED, up: colors.up, down: colors.down, entry: colors.accent, tp: colors.tp, sl: colors.sl, pending: colors.pending, liq: colors.liq }), [colors]);
  const tickRef = useRef(market.tick_size);
  useEffect(() => {
    tickRef.current = market.tick_size;
  }, [market.tick_size]);

  // The chart object lives as long as the component; series data changes with market and interval.
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // Colours are set by the effect below, and again whenever the palette changes.
    const c = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, fontSize: 11 },
      crosshair: { mode: CrosshairMode.Normal },
      timeScale: { timeVisible: true, secondsVisible: false },
      // Reduced motion (the system setting): a flick does not keep the chart scrolling on its own.
      kineticScroll: { mouse: false, touch: !matchMedia('(prefers-reduced-motion: reduce)').matches },
    });
    const s = c.addSeries(CandlestickSeries, { borderVisible: false });
    const v = c.addSeries(HistogramSeries, { priceScaleId: 'vol', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    c.priceScale('vol').applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
    c.subscribeCrosshairMove((p) => {
      const d = p.seriesData.get(s) as Bar | undefined;
      setLegend(d ?? last.current);
    });
    // A click on the chart offers that price level to the order ticket (as a limit price).
    c.subscribeClick((p) => {
      if (!p.point) return;
      const price = s.coordinateToPrice(p.point.y);
      if (price !== null && Number.isFinite(price) && price > 0) pickPrice(price, tickRef.current);
    });
    chart.current = c;
    series.current = s;
    markers.current = createSeriesMarkers(s, []);
    setReady({ chart: c, series: s });
    volume.current = v;
    return () => {
      c.remove();
      chart.current = null;
      series.current = null;
      volume.current = null;
      markers.current = null;
      lines.current = new Map();
      setReady(null);
    };
  }, []);

  // The theme's and palette's colours: the chrome and the candles (volume and lines follow through their data).
  useEffect(() => {
    chart.current?.applyOptions({
      layout: { textColor: colors.text },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.border },
      timeScale: { borderColor: colors.border },
    });
    series.current?.applyOptions({ upColor: colors.up, downColor: colors.down, wickUpColor: colors.up, wickDownColor: colors.down });
  }, [colors, ready]);

  useEffect(() => {
    series.current?.applyOptions({ priceFormat: { type: 'price', precision: places, minMove: plotNumber(market.tick_size) || 0.01 } });
  }, [places, market.tick_size]);

  // Candle data.
  useEffect(() => {
    const s = series.current;
    const v = volume.current;
    if (!s || !v) return;
    const data = candles.data?.candles ?? [];
    const bars = data.map(toBar);
    s.setData(bars);
    v.setData(data.map((c) => ({ time: Math.floor(c.t / 1000) as UTCTimestamp, value: plotNumber(c.v), color: withAlpha(dec(c.c)?.gte(dec(c.o) ?? 0) ? colors.up : colors.down, 0.35) })));
    last.current = bars[bars.length - 1] ?? null;
    setLegend(last.current);
    if (bars.length > 0) chart.current?.timeScale().scrollToRealTime();
  }, [candles.data, colors]);

  // Live marks move the last candle (or open the next one when its interval has passed).
  useEffect(() => {
    const span = INTERVAL_MS[interval] ?? 60_000;
    return onMarkFrame((changed) => {
      if (!changed.has(market.symbol)) return;
      const tick = getMark(market.symbol);
      const s = series.current;
      const prev = last.current;
      if (!tick || !s || !prev) return;
      const price = plotNumber(tick.mark);
      if (!Number.isFinite(price)) return;
      const bucket = (Math.floor(tick.at / span) * span) / 1000;
      let bar: Bar;
      if (bucket > prev.time) bar = { time: bucket as UTCTimestamp, open: prev.close, high: Math.max(prev.close, price), low: Math.min(prev.close, price), close: price };
      else if (bucket === prev.time) bar = { ...prev, high: Math.max(prev.high, price), low: Math.min(prev.low, price), close: price };
      else return;
      last.current = bar;
      s.update(bar);
    });
  }, [market.symbol, interval]);

  const overlay = useMemo<ChartLine[]>(() => {
    const out: ChartLine[] = [];
    const pos = positions.data?.positions.find((p) => p.market === market.symbol);
    if (pos) out.push({ key: 'entry', price: pos.entry_price, title: `Entry ${pos.side === 'LONG' ? 'long' : 'short'}`, color: lineColors.entry, style: LineStyle.Solid, position: pos });
    if (pos?.liquidation_price) {
      const distance = dec(pos.liquidation_distance);
      out.push({
        key: 'liq',
        price: pos.liquidation_price,
        title: 'Liq. (est.)',
        color: lineColors.liq,
        style: LineStyle.Dashed,
        text: liquidationText(pos.size, pos.liquidation_price, market),
        offScale: distance === null || distance.abs().gt(LIQ_SCALE_DISTANCE),
      });
    }
    for (const o of open.data?.orders ?? []) {
      if (o.market !== market.symbol) continue;
      if (o.order_type === 'TRIGGER' && o.trigger_price) {
        out.push({ key: o.order_id, price: o.trigger_price, title: `${(o.tpsl ?? 'trg').toUpperCase()}${o.pending_parent ? ' (waiting)' : ''}`, color: o.pending_parent ? lineColors.pending : o.tpsl === 'tp' ? lineColors.tp : lineColors.sl, style: LineStyle.Dashed, order: o });
      } else {
        out.push({ key: o.order_id, price: o.limit_price, title: `${o.side === 'buy' ? 'Buy' : 'Sell'} ${o.size}`, color: o.side === 'buy' ? lineColors.up : lineColors.down, style: LineStyle.Solid, order: o });
      }
      for (const leg of o.legs) {
        if (leg.trigger_price) out.push({ key: leg.order_id, price: leg.trigger_price, title: `${(leg.tpsl ?? '').toUpperCase()} (waiting for entry)`, color: lineColors.pending, style: LineStyle.Dotted, order: leg });
      }
    }
    for (const t of triggers.data?.triggers ?? []) {
      if (t.market !== market.symbol || !t.trigger_price || out.some((l) => l.key === t.order_id)) continue;
      out.push({ key: t.order_id, price: t.trigger_price, title: (t.tpsl ?? 'trg').toUpperCase(), color: t.tpsl === 'tp' ? lineColors.tp : lineColors.sl, style: LineStyle.Dashed, order: t });
    }
    // The active price alerts of this market (main evaluates them; the line is where the mark must reach).
    for (const a of alerts.data?.alerts ?? []) {
      if (a.market !== market.symbol || a.status !== 'active' || (a.rule.kind !== 'price_above' && a.rule.kind !== 'price_below')) continue;
      out.push({ key: `alert-${a.id}`, price: a.rule.level, title: `Alert ${a.rule.kind === 'price_above' ? '▲' : '▼'}${a.note ? ` ${a.note.slice(0, 24)}` : ''}`, color: lineColors.alert, style: LineStyle.LargeDashed, alert: a });
    }
    // A trailing stop: its SL line says so, and its high-water mark (a long's high, a short's low) is drawn too.
    const trail = pos?.trailing;
    if (trail) {
      // Main moves this stop: its line comes from the position's trailing stop (never a stale trigger read), and is not dragged.
      if (trail.stop !== null) {
        for (let i = out.length - 1; i >= 0; i--) {
          const o = out[i]!.order;
          if (o && 'tpsl' in o && o.tpsl === 'sl' && !('pending_parent' in o && o.pending_parent)) out.splice(i, 1);
        }
        out.push({ key: 'trail-sl', price: trail.stop, title: `SL trailing ${trail.distance}`, color: lineColors.sl, style: LineStyle.Dashed });
      }
      if (trail.high_water) out.push({ key: 'trail-hw', price: trail.high_water, title: `Trail ${pos.side === 'LONG' ? 'high' : 'low'}`, color: lineColors.sl, style: LineStyle.Dotted });
    }
    // A working chase's live order: labelled Chase, drawn apart from a plain limit line, and not dragged
    // (main re-prices it by Modify; the line follows each re-price through the chase's view).
    for (const c of chases.data?.chases ?? []) {
      if (c.market !== market.symbol || c.status !== 'working' || !c.order) continue;
      const orderId = c.order.order_id;
      if (orderId !== null) {
        const i = out.findIndex((l) => l.key === orderId);
        if (i >= 0) out.splice(i, 1);
      }
      out.push({ key: `chase-${c.id}`, price: c.order.price, title: `Chase ${c.side === 'BUY' ? 'buy' : 'sell'} ${c.order.size}`, color: lineColors.chase, style: LineStyle.SparseDotted });
    }
    // The Scale ticket's ladder while it is being filled in: what the batch would rest, before it is sent.
    if (ladder && ladder.market === market.symbol) {
      ladder.rungs.forEach((r, i) => out.push({ key: `ladder-${i}`, price: r.price, title: `Scale ${i + 1}/${ladder.rungs.length} · ${r.size}`, color: lineColors.ladder, style: LineStyle.Dotted }));
    }
    return out;
  }, [positions.data, open.data, triggers.data, market, ladder, alerts.data, chases.data, lineColors]);

  // TWAP fills on this market: a marker at each fill's price, on its candle (the interval's bucket).
  useEffect(() => {
    const m = markers.current;
    if (!m) return;
    const span = INTERVAL_MS[interval] ?? 60_000;
    const out: SeriesMarker<Time>[] = [];
    for (const t of twaps.data?.twaps ?? []) {
      if (t.market !== market.symbol) continue;
      for (const slice of t.slices) {
        for (const f of slice.fills) {
          out.push({ time: (Math.floor(f.time / span) * span) / 1000 as UTCTimestamp, position: 'atPriceMiddle', price: plotNumber(f.price), shape: 'circle', color: t.side === 'BUY' ? lineColors.up : lineColors.down, size: 0.6, id: `${t.id}-${slice.index}-${f.time}` });
        }
      }
    }
    out.sort((a, b) => (a.time as number) - (b.time as number));
    m.setMarkers(out);
  }, [twaps.data, market.symbol, interval, candles.data, lineColors]);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    for (const l of lines.current.values()) s.removePriceLine(l);
    lines.current = new Map(overlay.map((l) => [l.key, s.createPriceLine({ price: plotNumber(l.price), color: l.color, lineStyle: l.style, lineWidth: 1, axisLabelVisible: true, title: l.title })]));
    // Keep every line on screen: the price scale spans the candles and the order/position levels.
    const levels = overlay
      .filter((l) => !l.offScale)
      .map((l) => plotNumber(l.price))
      .filter((n) => Number.isFinite(n));
    s.applyOptions({
      autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
        const info = base();
        if (!info?.priceRange || levels.length === 0) return info;
        return { ...info, priceRange: { minValue: Math.min(info.priceRange.minValue, ...levels), maxValue: Math.max(info.priceRange.maxValue, ...levels) } };
      },
    });
  }, [overlay, candles.data]);

  return (
    <div className="chart-panel" aria-label={`${market.symbol} price chart`} role="figure" aria-describedby={summaryId}>
      <ChartSummary id={summaryId} market={market} position={positions.data?.positions.find((p) => p.market === market.symbol)} lines={overlay} />
      <div className="chart-bar">
        <Segmented<Interval> label="Candle interval" size="sm" value={interval} onChange={setInterval} options={INTERVALS.map((i) => ({ value: i, label: i }))} />
        <span className="chart-lines faint" role="note" aria-label="Chart lines">
          {[
            ...overlay.filter((l) => !l.key.startsWith('ladder-')).map((l) => `${l.title} ${l.text ?? fmt(l.price, { places })}`),
            ...(ladder && ladder.market === market.symbol ? [`Scale ladder ${ladder.rungs.length} legs ${fmt(ladder.rungs[0]?.price, { places })}–${fmt(ladder.rungs.at(-1)?.price, { places })}`] : []),
          ].join(' · ')}
        </span>
      </div>
      <div className="chart-wrap">
        {legend && (
          <div className="chart-legend" aria-hidden="true">
            <span>O {legend.open.toFixed(places)}</span>
            <span>H {legend.high.toFixed(places)}</span>
            <span>L {legend.low.toFixed(places)}</span>
            <span>C {legend.close.toFixed(places)}</span>
          </div>
        )}
        <div ref={host} className="chart-canvas" />
        {ready && (
          <ChartTrading
            chart={ready.chart}
            series={ready.series}
            priceLines={lines}
            lines={overlay.filter((l): l is ChartLine & TradableLine => l.order !== undefined || l.position !== undefined || l.alert !== undefined)}
            market={market}
          />
        )}
        {candles.isPending && (
          <div className="chart-overlay">
            <Loading label="Loading candles" />
          </div>
        )}
        {candles.error && (
          <div className="chart-overlay">
            <ErrorState error={candles.error} title="Candles unavailable" onRetry={() => void candles.refetch()} />
          </div>
        )}
        {candles.data && candles.data.candles.length === 0 && (
          <div className="chart-overlay faint">No candles yet for {market.symbol}.</div>
        )}
      </div>
    </div>
  );
}
