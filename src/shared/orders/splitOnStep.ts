/**
 * Splitting a total into parts on a size step (a scale ladder's legs, a TWAP's slices): each part is its
 * exact share floored to the step, and the steps the flooring lost go back one each to the parts that lost
 * most (largest remainder; ties to the lower index, so the result is deterministic). The parts then sum to
 * exactly `total` whenever `total` is itself on the step.
 */
import { Decimal } from '../decimal/decimal.js';

/** The parts of `total` closest to the `exact` shares (which sum to `total`), each a multiple of `step`. */
export function splitOnStep(total: Decimal, exact: readonly Decimal[], step: Decimal): Decimal[] {
  const parts = exact.map((e) => e.div(step).floor().mul(step));
  // Each floor lost less than one step, so fewer than `exact.length` steps are left to hand back.
  const left = total.minus(parts.reduce((a, s) => a.plus(s), new Decimal(0))).div(step).toNumber();
  const byLoss = exact
    .map((e, i) => ({ i, loss: e.minus(parts[i]!) }))
    .sort((a, b) => b.loss.comparedTo(a.loss) || a.i - b.i)
    .slice(0, left);
  for (const { i } of byLoss) parts[i] = parts[i]!.plus(step);
  return parts;
}
