/**
 * Decimal text for people: thousands separators, no trailing zeros, never rounded (a price or size shown
 * in a review is exactly the one signed). Pure and shared, so the review lines main writes and the app's
 * screens spell numbers the same way.
 */
import { Decimal, parseDecimal } from './decimal.js';

/** "3328" -> "3,328"; "-1234567.25" -> "-1,234,567.25"; "0.50" -> "0.5". */
export function groupedDecimal(value: Decimal | string): string {
  const d = typeof value === 'string' ? parseDecimal(value) : value;
  const text = d.isZero() ? '0' : d.toFixed();
  const negative = text.startsWith('-');
  const [int = '0', frac] = (negative ? text.slice(1) : text).split('.');
  return `${negative ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac !== undefined ? `.${frac}` : ''}`;
}
