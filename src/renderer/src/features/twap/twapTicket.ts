/**
 * The ticket's TWAP tab as data: a total size sent as market slices over a duration, with optional
 * randomization of slice times and sizes. The checks here are the ones a person can fix before main
 * prepares it (main's twap:preview applies the schedule rules again and checks every slice's order).
 */
import type { IpcRequest, MarketView } from '../../../../shared/ipc';
import { TWAP_MAX_DURATION_MS, TWAP_MAX_SIZE_RANDOMIZATION_PCT, TWAP_MAX_SLICES, TWAP_MAX_TIME_RANDOMIZATION_PCT, TWAP_MIN_INTERVAL_MS, TWAP_MIN_SLICES } from '../../../../shared/algos/twap/twapSchedule';
import { checkSize } from '../../../../shared/protocol/marketRules';
import { formatDuration, isDurationText, parseDuration } from '../../../../shared/duration/duration';
import { dec, isDecimalText, typedDecimal, type DecimalValue } from '../../lib/decimal';

export interface TwapFields {
  /** A span in the one duration grammar of src/shared/duration ("90s", "30m", "1h30m"), as the command line's --duration. */
  duration: string;
  slices: string;
  randomizeTimePct: string;
  randomizeSizePct: string;
}

export const initialTwap: TwapFields = { duration: '5m', slices: '10', randomizeTimePct: '0', randomizeSizePct: '0' };

export interface TwapCheck {
  errors: Partial<Record<keyof TwapFields | 'size', string>>;
  /** Seconds between slices. */
  intervalS: number | null;
  /** The even share of one slice, and its value at the mark. */
  sliceSize: DecimalValue | null;
  sliceValue: DecimalValue | null;
  ok: boolean;
}

function intIn(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

export function checkTwap(f: TwapFields, size: string, market: MarketView, mark: string | null): TwapCheck {
  const errors: TwapCheck['errors'] = {};
  const total = typedDecimal(size);
  if (size.trim() === '') errors.size = 'Enter the total size';
  else if (!isDecimalText(size)) errors.size = 'Not a number (digits with one optional “.” between them, no spaces)';
  else if (!total || total.lte(0)) errors.size = 'Size must be greater than 0';
  else if (checkSize(market, size)) errors.size = `At most ${market.sz_decimals} decimal places`;
  const durationMs = isDurationText(f.duration) ? parseDuration(f.duration) : null;
  if (durationMs === null) errors.duration = 'A span such as 90s, 30m or 1h30m (largest unit first)';
  else if (durationMs <= 0) errors.duration = 'A span longer than 0s';
  else if (durationMs > TWAP_MAX_DURATION_MS) errors.duration = `At most ${formatDuration(TWAP_MAX_DURATION_MS)}`;
  const slices = intIn(f.slices, TWAP_MIN_SLICES, TWAP_MAX_SLICES);
  if (slices === null) errors.slices = `${TWAP_MIN_SLICES} to ${TWAP_MAX_SLICES} slices`;
  if (intIn(f.randomizeTimePct, 0, TWAP_MAX_TIME_RANDOMIZATION_PCT) === null) errors.randomizeTimePct = `0 to ${TWAP_MAX_TIME_RANDOMIZATION_PCT} %`;
  if (intIn(f.randomizeSizePct, 0, TWAP_MAX_SIZE_RANDOMIZATION_PCT) === null) errors.randomizeSizePct = `0 to ${TWAP_MAX_SIZE_RANDOMIZATION_PCT} %`;
  let intervalS: number | null = null;
  if (durationMs !== null && errors.duration === undefined && slices !== null) {
    const durationS = durationMs / 1000;
    intervalS = durationS / slices;
    if (intervalS * 1000 < TWAP_MIN_INTERVAL_MS) errors.slices = `Slices ${intervalS.toFixed(1)} s apart; at least ${TWAP_MIN_INTERVAL_MS / 1000} s: use at most ${Math.floor(durationS / (TWAP_MIN_INTERVAL_MS / 1000))} slices`;
  }
  const m = dec(mark);
  const sliceSize = total && total.gt(0) && slices !== null ? total.div(slices) : null;
  const sliceValue = sliceSize && m ? sliceSize.mul(m) : null;
  if (!errors.size && sliceValue && market.min_order_value && sliceValue.lt(market.min_order_value)) {
    errors.size = `Each slice would be worth about ${sliceValue.toFixed(2)} USDC, below the minimum ${market.min_order_value}: raise the size or use fewer slices`;
  }
  return { errors, intervalS, sliceSize, sliceValue, ok: Object.keys(errors).length === 0 };
}

export function twapRequest(f: TwapFields, o: { market: MarketView; side: 'BUY' | 'SELL'; size: string; leverage: number; reduceOnly: boolean; slippageBps: number | null }): IpcRequest<'twap:preview'> {
  return {
    market: o.market.symbol,
    side: o.side,
    total_size: o.size,
    duration_s: parseDuration(f.duration) / 1000,
    slices: Number(f.slices),
    randomize_time_pct: Number(f.randomizeTimePct),
    randomize_size_pct: Number(f.randomizeSizePct),
    ...(o.reduceOnly ? { reduce_only: true } : { leverage: o.leverage }),
    ...(o.slippageBps !== null ? { slippage_bps: o.slippageBps } : {}),
  };
}
