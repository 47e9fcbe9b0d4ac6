/**
 * `--leverage N|max`: a whole number from 1 to the market's max_leverage, or `max`, which resolves to the
 * market's maximum as GET /markets says it now (never a number kept here). The resolved number is what is
 * signed and what the review and the output state ("40x, BTC's maximum"); nothing signs 0, which the
 * service would read as the maximum without anyone having said so.
 *
 * `max` is refused (exit 2, LEVERAGE_MAX_NOT_APPLICABLE) where it makes no sense: on a reduce-only order
 * or a trigger (they sign no leverage: they post no margin), and as an every-market default (`perps config
 * leverage max` without --market: markets have different maximums).
 */
import { ValidationError } from '../../main/services/errors.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { parseIntegerOption } from '../parse.js';

export const LEVERAGE_FLAG = '--leverage <n|max>';

export interface LeverageChoice {
  /** The whole number given, or null for `max` (resolved against /markets) or nothing given. */
  readonly value: number | undefined;
  /** `--leverage max` was given. */
  readonly max: boolean;
}

/** Whether the text is `max` (any case: traders type MAX too). */
export function isMaxLeverage(value: string | undefined): boolean {
  return value !== undefined && value.toLowerCase() === 'max';
}

/**
 * The flag's shape, checked before anything is read: a whole number, or `max` where it applies.
 * `notApplicable` names why `max` makes no sense for this order, or is undefined when it does.
 */
export function leverageChoice(value: string | undefined, notApplicable?: string): LeverageChoice {
  if (isMaxLeverage(value)) {
    if (notApplicable !== undefined) {
      throw new ValidationError(`--leverage max makes no sense ${notApplicable}`, {
        field: 'leverage',
        code: 'LEVERAGE_MAX_NOT_APPLICABLE',
        hint: 'Leave --leverage out, or give a whole number where leverage applies.',
      });
    }
    return { value: undefined, max: true };
  }
  if (value !== undefined && !/^(0|[1-9]\d*)$/.test(value)) {
    throw new ValidationError(`expected a whole number such as 5, or max (the market's maximum), got '${value}'`, { field: 'leverage' });
  }
  return { value: parseIntegerOption(value, 'leverage'), max: false };
}

export interface ResolvedLeverage {
  /** The leverage to sign (undefined: none given, the prepare step applies the user's default). */
  readonly leverage: number | undefined;
  /** For people: "--leverage max: 40x, BTC's max_leverage on /markets" (null unless max was asked for). */
  readonly note: string | null;
}

/** `max` as the market's max_leverage read from /markets now; a number as it is. */
export async function resolveLeverage(ctx: Pick<ServiceContext, 'config'>, market: string, choice: LeverageChoice): Promise<ResolvedLeverage> {
  if (!choice.max) return { leverage: choice.value, note: null };
  const m = await ctx.config.market(market);
  return { leverage: m.max_leverage, note: `--leverage max: ${m.max_leverage}x, ${m.symbol}'s max_leverage on /markets` };
}
