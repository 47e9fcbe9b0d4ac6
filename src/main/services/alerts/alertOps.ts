/**
 * Adding, listing, re-levelling and removing alerts: the use cases `perps alert` and the app's alerts desk
 * share. Input goes through the one shared parser (src/shared/alerts/alertInput.ts) against the markets
 * the service lists now; nothing is stored unless it passes.
 */
import { stepThreshold } from '../../../shared/alerts/alertEvaluation.js';
import { parseAlertInput, withLevel, type AlertInput } from '../../../shared/alerts/alertInput.js';
import type { AlertSpec, AlertView } from '../../../shared/alerts/alertRule.js';
import { Decimal } from '../../../shared/decimal/index.js';
import { readMarketsWithVenue, type MarketDataContext } from '../reads/marketData.js';
import type { ServiceContext } from '../serviceContext.js';
import { AlertStore, alertNotFound, alertView, type DamagedAlert } from './alertStore.js';

export function alertStoreOf(ctx: Pick<ServiceContext, 'profile'>): AlertStore {
  return new AlertStore(ctx.profile.dataDir);
}

async function activeSymbols(ctx: Pick<ServiceContext, 'config'>): Promise<string[]> {
  return (await ctx.config.markets()).filter((m) => m.is_active).map((m) => m.symbol);
}

/**
 * The crossing state a new market alert starts in, from the venue's mark and funding now: a level the
 * market is already past waits for it to come back (nothing was crossed). Null when the venue cannot be
 * read now (or for a position alert): the evaluator's first observation decides then, the same way.
 */
async function initialArmed(ctx: MarketDataContext, spec: AlertSpec): Promise<boolean | null> {
  const rule = spec.rule;
  if (rule.kind === 'move' || spec.wallet !== null) return null;
  let now;
  try {
    now = (await readMarketsWithVenue(ctx)).find((m) => m.symbol === spec.market);
  } catch {
    return null;
  }
  const value = rule.kind === 'price_above' || rule.kind === 'price_below' ? now?.mark : now?.funding_rate;
  return value ? stepThreshold(rule, null, new Decimal(value)).armed : null;
}

export async function addAlert(ctx: MarketDataContext & Pick<ServiceContext, 'profile'>, input: AlertInput, store: AlertStore = alertStoreOf(ctx)): Promise<AlertView> {
  const spec = parseAlertInput(input, await activeSymbols(ctx));
  return store.add(ctx.profile.name, spec, await initialArmed(ctx, spec));
}

export function listAlerts(ctx: Pick<ServiceContext, 'profile'>, store: AlertStore = alertStoreOf(ctx)): AlertView[] {
  return store.list(ctx.profile.name);
}

/**
 * This profile's alerts held to every rule of a new one, the service's markets included: those that
 * pass, and beside them those that fail with why (shown, never evaluated: damage is never hidden).
 */
export async function listAlertsChecked(ctx: Pick<ServiceContext, 'profile' | 'config'>, store: AlertStore = alertStoreOf(ctx)): Promise<{ alerts: AlertView[]; damaged: DamagedAlert[] }> {
  return store.checked(ctx.profile.name, await activeSymbols(ctx));
}

export function removeAlert(ctx: Pick<ServiceContext, 'profile'>, id: string, store: AlertStore = alertStoreOf(ctx)): AlertView {
  return store.remove(ctx.profile.name, id);
}

/**
 * A new level for a price, funding, PnL or distance alert (a line dragged on the chart): the same checks
 * as a new alert; the crossing state starts again from the mark at hand, and the alert is active again.
 * A price line dragged to the other side of the mark turns round (an "above" alert below the mark becomes
 * a "below" one): the person put the line where the mark should reach, and that is what fires it.
 */
export async function moveAlertLevel(ctx: MarketDataContext & Pick<ServiceContext, 'profile'>, id: string, level: string, store: AlertStore = alertStoreOf(ctx)): Promise<AlertView> {
  const symbols = await activeSymbols(ctx);
  const current = store.list(ctx.profile.name).find((a) => a.id === id);
  if (!current) throw alertNotFound(id, ctx.profile.name);
  let spec = withLevel(current, level, symbols);
  let armed = await initialArmed(ctx, spec);
  if (armed === false && (spec.rule.kind === 'price_above' || spec.rule.kind === 'price_below')) {
    spec = { ...spec, rule: { kind: spec.rule.kind === 'price_above' ? 'price_below' : 'price_above', level: spec.rule.level } };
    armed = await initialArmed(ctx, spec);
  }
  return store.update(ctx.profile.name, id, (stored) => {
    // Set by a person, not read off a stream: every evaluator adopts this state at once (state_at 0, no state_by).
    const { state_by: _by, ...rest } = stored;
    const alert = { ...rest, rule: spec.rule, armed, status: 'active' as const, state_at: 0 };
    return { alert, result: alertView(alert) };
  });
}
