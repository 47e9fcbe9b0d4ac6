/**
 * The ticket's Chase type as data: the settings a trader types (offset ticks, max distance, timeout,
 * taker-after, what to do with the order at a limit), checked field by field with the command line's own
 * rules (shared/algos/chase/chaseFlags.ts, the one duration grammar), and the chase:preview request they
 * make. The side, size and leverage are the ticket's. Main checks everything again and reads the book.
 */
import type { IpcRequest, MarketView } from '../../../../shared/ipc';
import { parseMaxDistance, parseOffsetTicks, type OnLimit } from '../../../../shared/algos/chase/chaseFlags';
import { maxDistancePrice } from '../../../../shared/algos/chase/chasePrice';
import { parseDuration } from '../../../../shared/duration/duration';
import { checkSize } from '../../../../shared/protocol/marketRules';
import { dec, isDecimalText, typedDecimal } from '../../lib/decimal';

export interface ChaseFields {
  offsetTicks: string;
  /** Empty: no limit. `0.5%` or a price distance. */
  maxDistance: string;
  /** Empty: no timeout. A duration with its unit. */
  timeout: string;
  /** Empty: never crosses. */
  takerAfter: string;
  onLimit: OnLimit;
}

export const initialChase: ChaseFields = { offsetTicks: '0', maxDistance: '', timeout: '', takerAfter: '', onLimit: 'leave' };

/** Main's names of the chase's fields (its refusals are shown at them). */
export const CHASE_FIELDS = { offsetTicks: ['offset_ticks'], maxDistance: ['max_distance'], timeout: ['timeout'], takerAfter: ['taker_after'] } as const;

export interface ChaseCheck {
  errors: Partial<Record<keyof ChaseFields | 'size', string>>;
  /** The max distance as a price from the mark now (the review gives it from the best at the start). */
  maxDistanceNow: string | null;
  ok: boolean;
}

/** The rule's own message, without the field name it leads with ("max-distance: ..."): the field shows it. */
function ruleMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^[a-z-]+: /, '');
}

function attempt<T>(f: () => T): { value: T } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    return { error: ruleMessage(err) };
  }
}

export function checkChase(f: ChaseFields, size: string, market: MarketView, mark: string | null): ChaseCheck {
  const errors: ChaseCheck['errors'] = {};
  const total = typedDecimal(size);
  if (size.trim() === '') errors.size = 'Enter the size to fill';
  else if (!isDecimalText(size)) errors.size = 'Not a number (digits with one optional “.” between them, no spaces)';
  else if (!total || total.lte(0)) errors.size = 'Size must be greater than 0';
  else if (checkSize(market, size)) errors.size = `At most ${market.sz_decimals} decimal places`;
  const m = dec(mark);
  const value = !errors.size && total && m ? total.mul(m) : null;
  if (value && market.min_order_value && value.lt(market.min_order_value)) errors.size = `Worth about ${value.toFixed(2)} USDC, below the minimum ${market.min_order_value}`;
  const offset = attempt(() => parseOffsetTicks(f.offsetTicks));
  if ('error' in offset) errors.offsetTicks = offset.error;
  let maxDistanceNow: string | null = null;
  if (f.maxDistance !== '') {
    const max = attempt(() => parseMaxDistance(f.maxDistance));
    if ('error' in max) errors.maxDistance = max.error;
    else {
      if (max.value.kind === 'price' && dec(max.value.value)!.lt(market.tick_size)) errors.maxDistance = `Less than one tick (${market.tick_size}): the chase could never follow`;
      if (m) maxDistanceNow = maxDistancePrice(max.value, m.toFixed()).toFixed();
    }
  }
  const timeout = f.timeout === '' ? null : attempt(() => parseDuration(f.timeout, 'timeout'));
  if (timeout && 'error' in timeout) errors.timeout = timeout.error;
  else if (timeout && timeout.value <= 0) errors.timeout = 'Longer than 0s';
  const takerAfter = f.takerAfter === '' ? null : attempt(() => parseDuration(f.takerAfter, 'taker-after'));
  if (takerAfter && 'error' in takerAfter) errors.takerAfter = takerAfter.error;
  else if (takerAfter && takerAfter.value <= 0) errors.takerAfter = 'Longer than 0s';
  else if (takerAfter && timeout && 'value' in timeout && takerAfter.value >= timeout.value) errors.takerAfter = 'Shorter than the timeout (after the timeout the chase is over)';
  return { errors, maxDistanceNow, ok: Object.keys(errors).length === 0 };
}

export function chaseRequest(f: ChaseFields, o: { market: MarketView; side: 'BUY' | 'SELL'; size: string; leverage: number }): IpcRequest<'chase:preview'> {
  return {
    market: o.market.symbol,
    side: o.side,
    size: o.size.trim(),
    offset_ticks: f.offsetTicks.trim(),
    ...(f.maxDistance !== '' ? { max_distance: f.maxDistance.trim() } : {}),
    ...(f.timeout !== '' ? { timeout: f.timeout.trim() } : {}),
    ...(f.takerAfter !== '' ? { taker_after: f.takerAfter.trim() } : {}),
    on_limit: f.onLimit,
    leverage: o.leverage,
  };
}
