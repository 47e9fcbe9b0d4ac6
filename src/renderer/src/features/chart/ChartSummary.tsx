/**
 * The chart's text alternative: what its lines show, as a list a screen reader reads (the canvas says
 * nothing to it). The position with its entry and mark, its liquidation estimate with the distance, and
 * each open order, trigger and alert line at its price. Visually hidden: the chart and its line list show
 * the same to the eye; the chart names this list as its description (aria-describedby).
 */
import type { MarketView, PositionView } from '../../../../shared/ipc';
import { fmt, fmtUsd, placesOfStep } from '../../lib/decimal';
import { distanceText, liquidationText, liveLiquidationDistance } from '../risk/liquidation';
import { useLiveMark } from '../markets/live';

export interface SummaryLine {
  key: string;
  title: string;
  price: string;
  text?: string;
}

/** The list's items as words (exported for the chart's description and its test). */
export function chartSummaryItems(market: MarketView, position: PositionView | undefined, mark: string | null, lines: readonly SummaryLine[]): string[] {
  const places = placesOfStep(market.tick_size);
  const price = (p: string | null) => fmt(p, { places });
  const items: string[] = [];
  if (position) {
    const size = position.size.replace(/^-/, '');
    items.push(`Position: ${position.side.toLowerCase()} ${size} ${market.symbol} at entry ${price(position.entry_price)}, mark ${price(mark ?? position.mark)}, unrealized PnL ${fmtUsd(position.unrealized_pnl, { signed: true })}.`);
    const distance = liveLiquidationDistance(position.size, mark ?? position.mark, position.liquidation_price);
    items.push(`Liquidation estimate: ${liquidationText(position.size, position.liquidation_price, market)}${distance ? `, ${distanceText(distance)} from the mark` : ''}.`);
  } else {
    items.push(`Position: none in ${market.symbol}.`);
  }
  // Every other line: resting orders, triggers, bracket legs, alerts, a trailing stop, a scale ladder.
  const others = lines.filter((l) => l.key !== 'entry' && l.key !== 'liq');
  if (others.length === 0) items.push('Orders, triggers and alerts on the chart: none.');
  else for (const l of others) items.push(`${l.title} at ${l.text ?? price(l.price)}.`);
  return items;
}

/** Follows the mark itself, so a mark re-renders this list and not the whole chart (issue 29's storm path). */
export function ChartSummary({ id, market, position, lines }: { id: string; market: MarketView; position: PositionView | undefined; lines: readonly SummaryLine[] }) {
  const mark = useLiveMark(market);
  return (
    // Unlabelled on purpose: a description is read from the text of what it points at, and a label there
    // would replace the items with itself.
    <div id={id} className="visually-hidden">
      <p>{market.symbol} chart summary:</p>
      <ul>
        {chartSummaryItems(market, position, mark, lines).map((text, i) => (
          <li key={i}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
