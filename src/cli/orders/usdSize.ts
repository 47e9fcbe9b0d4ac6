/**
 * `--usd AMOUNT` on order place, order scale and twap start: the size comes from the amount over the
 * order's reference price (src/shared/orders/usdSizing.ts), rounded down to sz_decimals; the size it
 * became is said before anything is signed and carried in the review (`usd_sizing`).
 */
import { ValidationError } from '../../main/services/errors.js';
import { readMark } from '../../main/services/orders/orderContext.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { describeUsdSizing, sizeFromUsd, type UsdSizing } from '../../shared/orders/usdSizing.js';
import type { Decimal } from '../../shared/decimal/index.js';
import { parseDecimalOption } from '../parse.js';

/** Exactly one of the size flag and --usd (checked before anything is read). */
export function checkSizeOrUsd(size: string | undefined, usd: string | undefined, sizeFlag = 'size'): void {
  if (size !== undefined && usd !== undefined) throw new ValidationError(`give --${sizeFlag} or --usd, not both`, { field: 'usd', code: 'USAGE' });
  if (size === undefined && usd === undefined) throw new ValidationError(`--${sizeFlag} or --usd is required`, { field: sizeFlag, code: 'USAGE' });
  if (usd !== undefined) parseDecimalOption(usd, 'usd');
}

export interface ResolvedUsd {
  sizing: UsdSizing;
  /** The review's line: "250 USD at mark 95000 = 0.00263 BTC (...)". */
  description: string;
}

/**
 * The size of `usd` at `reference` (a typed price, or the market's mark when 'mark'). Refused (exit 2,
 * USD_TOO_SMALL) when it is less than one size step: nothing is rounded up.
 */
export async function resolveUsd(ctx: ServiceContext, marketText: string, usd: string, reference: { price: string | Decimal; label: string } | 'mark'): Promise<ResolvedUsd> {
  const market = await ctx.config.market(marketText);
  const ref = reference === 'mark' ? { price: await readMark(ctx, market), label: 'the mark' } : reference;
  const r = sizeFromUsd(usd, ref.price, market);
  if (!r.ok) throw new ValidationError(r.reason, { field: 'usd', code: 'USD_TOO_SMALL' });
  return { sizing: r.sizing, description: describeUsdSizing(r.sizing, market, ref.label) };
}
