import { fmtCountdown, DAY_MS } from '../lib/time';
import { useNow } from './useNow';

/** Time left until `at` (Unix ms); amber inside `warnWithinMs`, red once expired. */
export function Countdown({ at, warnWithinMs = 7 * DAY_MS, label }: { at: number; warnWithinMs?: number; label?: string }) {
  const now = useNow(1000);
  const left = at - now;
  const tone = left <= 0 ? 'sell' : left < warnWithinMs ? 'warn' : 'muted';
  return (
    <span className={`countdown ${tone}`} aria-label={label ? `${label}: ${fmtCountdown(left)}` : undefined}>
      {fmtCountdown(left)}
    </span>
  );
}
