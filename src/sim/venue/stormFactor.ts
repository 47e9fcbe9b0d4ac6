/**
 * The storm factor of `perps sim --storm 10x` and POST /sim/storm: how many times the normal rates of
 * marks, books and trades the venue runs at. Kept apart from the venue so the command line can check
 * its argument without loading the simulator.
 */

/** The strongest storm: beyond it a tick would be shorter than the timers that carry it. */
export const MAX_STORM_FACTOR = 100;

/** '10x', '10' or 10 -> 10; anything else (0, 1.5, '10 x', 'ten', above the maximum) is refused with the reason. */
export function parseStormFactor(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : null;
  const match = text === null ? null : /^([1-9]\d{0,2})x?$/.exec(text);
  const factor = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(factor) || factor > MAX_STORM_FACTOR) {
    throw new RangeError(`storm factor must be a whole number from 1 to ${MAX_STORM_FACTOR}, optionally followed by x (e.g. 10x); got ${JSON.stringify(value)?.slice(0, 20)}`);
  }
  return factor;
}
