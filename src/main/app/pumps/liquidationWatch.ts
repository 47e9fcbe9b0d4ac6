/**
 * The liquidation warning of issue 14: whenever the positions are re-priced, the positions whose mark is
 * within the user's distance (settings liquidation_warning_pct, percent of the mark) of their liquidation
 * estimate are published on the riskWarning stream (the banner: the whole current set, empty once none is
 * left), and each crossing into the zone raises one native notification ('liquidation_warning' in the
 * notification preferences).
 *
 * Once per crossing: a position that was notified is notified again only after it has recovered, that is
 * after its distance went back above the threshold by a quarter of it (10 % warns, 12.5 % re-arms). Without
 * that margin a mark wobbling by a tick across the line would notify on every wobble. A position that is
 * closed or liquidated is forgotten.
 */
import { Decimal } from '../../../shared/decimal/index.js';
import type { PositionView, RiskWarning, RiskWarningEvent } from '../../../shared/ipc.js';
import { streamThrottle, type PumpHost } from './pump.js';

/** How far past the threshold a warned position must recover before a new crossing notifies again. */
const REARM_FACTOR = new Decimal('1.25');

export class LiquidationWatch {
  private readonly throttle;
  /** Positions (by id) inside the zone since their last notification. */
  private readonly warned = new Set<string>();
  /** Whether the last published set was non-empty (an empty set is published once, to clear the banner). */
  private showing = false;

  constructor(private readonly host: PumpHost) {
    this.throttle = streamThrottle<RiskWarningEvent>(host, () => 'snapshot', (events) => host.send('riskWarning', events[events.length - 1]!));
  }

  /** Looks at freshly priced positions. */
  update(views: readonly PositionView[], at: number): void {
    const pct = this.host.liquidationWarningPct();
    const threshold = new Decimal(String(pct)).div(100);
    const warnings: RiskWarning[] = [];
    const present = new Set<string>();
    for (const v of views) {
      present.add(v.id);
      if (v.liquidation_distance === null || v.liquidation_price === null || v.mark === null) continue;
      const distance = new Decimal(v.liquidation_distance);
      if (distance.lte(threshold)) {
        warnings.push({ position_id: v.id, market: v.market, side: v.side, size: v.size, mark: v.mark, liquidation_price: v.liquidation_price, distance: v.liquidation_distance });
        if (!this.warned.has(v.id)) {
          this.warned.add(v.id);
          const pctText = distance.mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
          this.host.notify(
            'liquidation_warning',
            `${v.market} ${v.side.toLowerCase()} near liquidation`,
            `Mark ${v.mark} is ${pctText}% from the estimated liquidation price ${v.liquidation_price}. Add margin or reduce the position.`,
          );
        }
      } else if (distance.gt(threshold.mul(REARM_FACTOR))) {
        this.warned.delete(v.id);
      }
    }
    for (const id of [...this.warned]) if (!present.has(id)) this.warned.delete(id);
    if (warnings.length > 0 || this.showing) this.throttle.push({ warnings, threshold_pct: pct, at });
    this.showing = warnings.length > 0;
  }

  close(): void {
    this.throttle.close();
  }
}
