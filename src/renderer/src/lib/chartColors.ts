/**
 * The charts' colours, read from the theme's CSS custom properties (styles/theme.css): a canvas cannot
 * read CSS variables itself, so the charts ask here and redraw when the theme or the colour palette
 * (data-theme, data-palette on the root element) changes. One source, so a chart's buy candle is the
 * same colour as a buy in the tables in every palette.
 */
import { useMemo, useSyncExternalStore } from 'react';

export interface ChartColors {
  text: string;
  grid: string;
  border: string;
  /** Up candles, buy orders and fills, profit. */
  up: string;
  /** Down candles, sell orders and fills, loss. */
  down: string;
  /** The position's entry and the equity curve. */
  accent: string;
  tp: string;
  sl: string;
  /** A bracket leg waiting for its entry. */
  pending: string;
  /** The liquidation estimate. */
  liq: string;
}

/** The dark default palette, for a property the stylesheet does not set (never expected in the app). */
const FALLBACK: Record<string, string> = {
  '--chart-text': '#808b9b',
  '--border': '#222a36',
  '--border-strong': '#2e3848',
  '--buy': '#1fbf75',
  '--sell': '#f0485b',
  '--accent': '#4c8dff',
  '--buy-strong': '#26d984',
  '--sell-strong': '#ff5d6f',
  '--warn': '#f2b93b',
  '--liq': '#ff9f43',
};

export function readChartColors(): ChartColors {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim() || FALLBACK[name] || '#808b9b';
  return {
    text: v('--chart-text'),
    grid: v('--border'),
    border: v('--border-strong'),
    up: v('--buy'),
    down: v('--sell'),
    accent: v('--accent'),
    tp: v('--buy-strong'),
    sl: v('--sell-strong'),
    pending: v('--warn'),
    liq: v('--liq'),
  };
}

/** `#rrggbb` (or the minified `#rgb`) with an alpha (0–1) as `#rrggbbaa`; other colour forms are returned as they are. */
export function withAlpha(color: string, alpha: number): string {
  const full = /^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((c) => c + c).join('')}` : color;
  if (!/^#[0-9a-f]{6}$/i.test(full)) return color;
  return full + Math.round(alpha * 255).toString(16).padStart(2, '0');
}

// The root's theme and palette attributes, as a store React can subscribe to. The snapshot is the
// attributes themselves, so a change made before the subscription starts is still seen.
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-palette'] });
  return () => observer.disconnect();
}
const rootLook = () => `${document.documentElement.dataset['theme'] ?? ''}|${document.documentElement.dataset['palette'] ?? ''}`;

/** The chart colours now, read again whenever the theme or the palette changes. */
export function useChartColors(): ChartColors {
  const look = useSyncExternalStore(subscribe, rootLook);
  return useMemo(() => {
    void look;
    return readChartColors();
  }, [look]);
}
