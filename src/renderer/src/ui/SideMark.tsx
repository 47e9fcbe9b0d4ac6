/**
 * The shape that says a side without colour (issue 31: colour is never the only signal): ▲ buy, the ask
 * side above the spread; ▼ sell, the bid side below it. Hidden from screen readers, whose names of the
 * same things already say "Buy", "Sell", "Asks" or "Bids".
 */
export function SideMark({ up }: { up: boolean }) {
  return (
    <span className="side-mark" aria-hidden="true">
      {up ? '▲' : '▼'}
    </span>
  );
}
