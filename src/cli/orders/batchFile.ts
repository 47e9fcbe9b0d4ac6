/**
 * `perps order batch FILE`: legs in the API's field names (an array, or { "orders": [...] }), values as
 * decimal strings. A leg that opens and names no leverage gets the user's default for its market (the
 * same rule as `order place` and the app), so a batch never signs leverage 0 by omission.
 */
import type { LegInput } from '../../main/services/orders/index.js';
import { ValidationError } from '../../main/services/errors.js';
import { readJsonFile } from '../jsonFile.js';
import { defaultLeverageFor, readPreferences } from '../../main/services/settings/preferences.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';

/** Reads and parses a batch file: an array of legs or { orders: [...] } (a malformed file is located, never quoted). */
export async function readBatchFile(file: string): Promise<LegInput[]> {
  const parsed = await readJsonFile(file, { what: 'a JSON batch of orders', field: 'FILE' });
  const legs = Array.isArray(parsed) ? parsed : typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { orders?: unknown }).orders) ? (parsed as { orders: unknown[] }).orders : null;
  if (!legs) throw new ValidationError(`${file} must hold an array of legs or { "orders": [...] }`, { field: 'FILE' });
  for (const [i, leg] of legs.entries()) {
    if (typeof leg !== 'object' || leg === null || Array.isArray(leg)) throw new ValidationError('must be an object', { field: `orders[${i}]` });
    for (const k of ['nonce', 'signature']) {
      if (k in leg) throw new ValidationError(`'${k}' is set by the app; leave it out of the file`, { field: `orders[${i}].${k}` });
    }
  }
  return legs as LegInput[];
}

/** Opening legs without a leverage get the user's default for their market (unknown markets are left for prepare to refuse). */
export async function withDefaultLeverage(ctx: Pick<ServiceContext, 'config' | 'settings'>, legs: readonly LegInput[]): Promise<LegInput[]> {
  const prefs = readPreferences(ctx.settings);
  const markets = new Map((await ctx.config.markets()).map((m) => [m.symbol, m]));
  return legs.map((leg) => {
    const market = markets.get(leg.market);
    if (leg.leverage !== undefined || leg.reduce_only === true || !market) return leg;
    return { ...leg, leverage: defaultLeverageFor(prefs, market) };
  });
}
