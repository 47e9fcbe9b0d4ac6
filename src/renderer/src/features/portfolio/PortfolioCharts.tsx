/**
 * The Portfolio view's two charts (lightweight-charts 5): the equity or PnL curve of the range, and the
 * net PnL of each day as bars, up and down in the palette's profit and loss colours (lib/chartColors). Values arrive as decimal strings and are turned
 * into numbers only here, for drawing (lib/decimal.ts plotNumber). No series draws its last-value tag on
 * the price scale: it covered the scale's own labels (the summary cards above say the latest figures).
 */
import { AreaSeries, ColorType, HistogramSeries, createChart, type IChartApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { PortfolioReportView } from '../../../../shared/ipc';
import { plotNumber } from '../../lib/decimal';
import { useChartColors, withAlpha, type ChartColors } from '../../lib/chartColors';

/** One chart for the life of the host element; `draw` fills it whenever its data or the palette changes. */
function useChart(draw: (chart: IChartApi, colors: ChartColors) => () => void, deps: readonly unknown[], timeVisible: boolean) {
  const host = useRef<HTMLDivElement | null>(null);
  const theme = useChartColors();
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: theme.text, fontSize: 11 },
      grid: { vertLines: { color: theme.grid }, horzLines: { color: theme.grid } },
      rightPriceScale: { borderColor: theme.grid },
      timeScale: { borderColor: theme.grid, timeVisible, secondsVisible: false },
      localization: { priceFormatter: (p: number) => p.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) },
      handleScroll: false,
      handleScale: false,
    });
    const undraw = draw(chart, theme);
    chart.timeScale().fitContent();
    return () => {
      undraw();
      chart.remove();
    };
  }, [...deps, theme]);
  return host;
}

/** The curve: equity (or PnL since the range's start), one point per bar close and "now". */
export function EquityChart({ points, mode, intraday }: { points: PortfolioReportView['points']; mode: 'equity' | 'pnl'; intraday: boolean }) {
  const host = useChart(
    (chart, colors) => {
      const last = points.at(-1);
      const up = last ? plotNumber(last.pnl) >= 0 : true;
      const color = mode === 'pnl' ? (up ? colors.up : colors.down) : colors.accent;
      const series = chart.addSeries(AreaSeries, { lineColor: color, topColor: withAlpha(color, 0.33), bottomColor: withAlpha(color, 0.02), lineWidth: 2, priceLineVisible: false, lastValueVisible: false, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
      // Seconds for the chart; two points in one second (a bar close just before "now") keep the later.
      // The equity curve starts where the account first holds something (an empty account is no curve).
      const bySecond = new Map<number, number>();
      const first = mode === 'equity' ? Math.max(0, points.findIndex((p) => plotNumber(p.equity) !== 0)) : 0;
      for (const p of points.slice(first)) bySecond.set(Math.floor(p.time / 1000), plotNumber(mode === 'equity' ? p.equity : p.pnl));
      series.setData([...bySecond].map(([time, value]) => ({ time: time as UTCTimestamp, value })));
      return () => chart.removeSeries(series);
    },
    [points, mode],
    intraday,
  );
  return <div ref={host} className="portfolio-chart" role="figure" aria-label={mode === 'equity' ? 'Equity curve' : 'PnL curve'} />;
}

/** Net PnL per day (realized - fees + funding), as bars. */
export function DailyPnlChart({ days }: { days: PortfolioReportView['per_day'] }) {
  const host = useChart(
    (chart, colors) => {
      const series = chart.addSeries(HistogramSeries, { priceLineVisible: false, lastValueVisible: false, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
      series.setData(days.map((d) => ({ time: d.day, value: plotNumber(d.net), color: plotNumber(d.net) >= 0 ? colors.up : colors.down })));
      return () => chart.removeSeries(series);
    },
    [days],
    false,
  );
  return <div ref={host} className="portfolio-chart portfolio-chart-days" role="figure" aria-label="PnL per day" />;
}
