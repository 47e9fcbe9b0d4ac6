/**
 * TP/SL on an open position: set, move or remove its whole-position take-profit and stop-loss in one
 * reviewed action.
 *
 * The position's levels are its armed whole-position triggers (position-triggers rows on the market:
 * reduce-only TRIGGER, size 0, not waiting for an entry). For each level asked about:
 *  - a price where none is armed SETS one: a reduce-only TRIGGER of size 0 on the closing side (it closes
 *    the whole position when it fires), its fire price the slippage bound around the trigger price (the
 *    user's default tolerance, else the market's slippage_bps);
 *  - a price where one is armed MOVES it: a Modify of that trigger (new trigger and fire price, size
 *    unchanged), so it is never unarmed in between;
 *  - null REMOVES it: a Cancel;
 *  - undefined leaves it as it is.
 *
 * Levels derive from the current mark (spec, "Position lifecycle rules" 6): a long's TP must be above
 * the mark and its SL below; a short's the other way. A level on the wrong side would fire at once (the
 * service rejects a trigger already past the mark), so it is refused here as a ValidationError before any
 * nonce is reserved. Everything is prepared together (one Prepared, action 'tpsl', whose view says in
 * words what changes) and submitted in the order cancels, modifies, new triggers.
 */
import { Decimal, canonical, decimalTextProblem } from '../../../shared/decimal/index.js';
import type { ListedOrder, Position, Side } from '../../../shared/protocol/index.js';
import type { Signer } from '../../signers/signer.js';
import { ValidationError } from '../errors.js';
import { prepareCancelOrders, submitCancel, type CancelLegResult, type PreparedCancel } from '../orders/cancelOrders.js';
import { prepareModify, submitModify, type ModifyOrderResult, type PreparedModify } from '../orders/modifyOrder.js';
import { readMark, walletIds, type TradingContext } from '../orders/orderContext.js';
import { prepareLegs, type PreparedOrder } from '../orders/prepareOrder.js';
import { slippageBound, slippageBpsFor } from '../orders/slippage.js';
import { stopToleranceBpsFor } from '../../../shared/orders/stopTolerance.js';
import { submitOrder, type PlacedLeg } from '../orders/submitOrder.js';
import { readPreferences } from '../settings/preferences.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { readPosition } from './positionWaits.js';

export type TpslKind = 'tp' | 'sl';
export type TpslAction = 'set' | 'move' | 'remove';

export interface PositionTpslInput {
  wallet: string;
  market: string;
  /** A trigger price sets or moves the take-profit; null removes it; undefined leaves it as it is. */
  tp?: string | null;
  /** A trigger price sets or moves the stop-loss; null removes it; undefined leaves it as it is. */
  sl?: string | null;
  /** Tolerance of the fire price around the trigger price; default the user's default, else the market's slippage_bps. */
  slippageBps?: number;
}

/** An armed whole-position trigger of the position. */
export interface ArmedLevel {
  order_id: string;
  trigger_price: string;
  /** Its fire price. */
  limit_price: string;
}

export interface TpslChange {
  kind: TpslKind;
  action: TpslAction;
  /** The armed trigger moved or removed; null for a new one. */
  order_id: string | null;
  /** Trigger price before (null: none armed). */
  from: string | null;
  /** Trigger price after (null: removed). */
  to: string | null;
  /** Fire price of the new or moved trigger (null: removed). */
  fire_price: string | null;
  /** The change in words: "Move the stop-loss from 3,100 to 3,150". */
  summary: string;
}

export interface PreparedPositionTpsl extends PreparedBase<'tpsl'> {
  readonly market: string;
  readonly accountId: string;
  readonly position: Position;
  readonly changes: readonly TpslChange[];
  /** Removed levels. */
  readonly cancel: PreparedCancel | null;
  /** Moved levels, one Modify each. */
  readonly modifies: readonly { kind: TpslKind; prepared: PreparedModify }[];
  /** New levels, one batch (labels 'tp', 'sl'). */
  readonly place: PreparedOrder | null;
  readonly view: {
    wallet: string;
    market: string;
    side: 'LONG' | 'SHORT';
    size: string;
    entry_price: string;
    /** The mark the levels were checked against. */
    mark: string;
    before: { tp: ArmedLevel | null; sl: ArmedLevel | null };
    /** Trigger prices once applied (null: none). */
    after: { tp: string | null; sl: string | null };
    changes: TpslChange[];
    summary: string[];
    warnings: string[];
  };
}

/** What became of one change: done (armed, moved, gone), rejected, dropped (the original stays), pending or unknown. */
export type TpslChangeStatus = 'done' | 'rejected' | 'dropped' | 'pending' | 'unknown';

export interface TpslChangeResult extends TpslChange {
  /** The order that now carries the level: the new trigger, or the one that replaced the moved one. */
  new_order_id: string | null;
  status: TpslChangeStatus;
  reason: string | null;
}

export interface PositionTpslResult {
  wallet: string;
  market: string;
  changes: TpslChangeResult[];
  /** Every change done (or, without waiting, accepted and pending). */
  ok: boolean;
}

export interface PositionTpslOptions {
  /** Follow each change until it is done (default true): armed, replaced, confirmed gone. */
  wait?: boolean;
  timeoutMs?: number;
  onProgress?: (text: string) => void;
}

const NAME: Record<TpslKind, string> = { tp: 'take-profit', sl: 'stop-loss' };

/** 3100.5 as "3,100.5": levels read the way a trader writes them. */
export function groupDigits(value: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(value);
  if (!m) return value;
  return `${m[1]}${BigInt(m[2]!).toLocaleString('en-US')}${m[3] ?? ''}`;
}

function levelInput(value: string | null | undefined, kind: TpslKind): Decimal | null | undefined {
  if (value === undefined || value === null) return value;
  // The one decimal grammar (no sign): a refusal names the level ('tp' / 'sl') the user gave.
  const problem = decimalTextProblem(value);
  if (problem !== null) throw new ValidationError(`the ${NAME[kind]} price: ${problem}`, { field: kind, code: 'INVALID_PRICE' });
  const d = new Decimal(value);
  if (d.lte(0)) throw new ValidationError(`the ${NAME[kind]} price must be greater than 0, got ${value}`, { field: kind, code: 'INVALID_PRICE' });
  return d;
}

/**
 * Rule 6: a long's TP above the mark and SL below it; a short's TP below and SL above. Equal to the mark
 * is wrong too: it would fire at once.
 */
function checkSide(kind: TpslKind, level: Decimal, mark: Decimal, long: boolean, market: string): void {
  const above = (kind === 'tp') === long;
  if (above ? level.gt(mark) : level.lt(mark)) return;
  throw new ValidationError(
    `a ${long ? 'long' : 'short'}'s ${NAME[kind]} must be ${above ? 'above' : 'below'} the current ${market} mark ${groupDigits(canonical(mark))}; ${groupDigits(canonical(level))} is ${level.eq(mark) ? 'at' : above ? 'below' : 'above'} it and would fire at once`,
    {
      field: kind,
      code: 'TPSL_WRONG_SIDE',
      hint: `Stop levels derive from the current mark, not the entry price: set the ${NAME[kind]} ${above ? 'above' : 'below'} ${canonical(mark)}.`,
    },
  );
}

/** The position's armed whole-position triggers on `market`, by kind. */
function armedLevels(rows: readonly ListedOrder[], market: string): Record<TpslKind, ListedOrder[]> {
  const out: Record<TpslKind, ListedOrder[]> = { tp: [], sl: [] };
  for (const o of rows) {
    if (o.market !== market || o.order_type !== 'TRIGGER' || !o.reduce_only || o.parent_order_id || o.status !== 'open') continue;
    if (!new Decimal(o.size).isZero() || (o.tpsl !== 'tp' && o.tpsl !== 'sl')) continue;
    out[o.tpsl].push(o);
  }
  return out;
}

function levelOf(row: ListedOrder | undefined): ArmedLevel | null {
  return row ? { order_id: row.order_id, trigger_price: row.trigger_price ?? '0', limit_price: row.limit_price } : null;
}

export async function preparePositionTpsl(ctx: TradingContext, input: PositionTpslInput): Promise<PreparedPositionTpsl> {
  const { wallet, accountId } = walletIds(input.wallet);
  const wanted = { tp: levelInput(input.tp, 'tp'), sl: levelInput(input.sl, 'sl') };
  if (wanted.tp === undefined && wanted.sl === undefined) {
    throw new ValidationError('give a take-profit or a stop-loss: a price sets or moves it, none removes it', { field: 'tp', code: 'NOTHING_TO_CHANGE' });
  }
  const market = await ctx.config.market(input.market);
  const position = await readPosition(ctx, accountId, input.market);
  if (!position || new Decimal(position.size).isZero()) {
    throw new ValidationError(`${wallet} has no open ${input.market} position`, {
      field: 'market',
      code: 'NO_OPEN_POSITION',
      hint: 'TP/SL levels belong to an open position; for an order that is not filled yet, attach them as a bracket (`perps order place --tp/--sl`).',
    });
  }
  const long = new Decimal(position.size).isPos();
  const closing: Side = long ? 'SELL' : 'BUY';
  const mark = await readMark(ctx, market);
  for (const kind of ['tp', 'sl'] as const) {
    const level = wanted[kind];
    if (level) checkSide(kind, level, mark, long, market.symbol);
  }

  const armed = armedLevels((await ctx.api.positionTriggers(wallet)).orders, market.symbol);
  const prefs = readPreferences(ctx.settings);
  // A take-profit fires into a move in the trader's favour: the market's slippage. A stop-loss fires with
  // the stop tolerance (default 10%) so a gap through its level still closes the position.
  const bpsOf = (kind: TpslKind): number => slippageBpsFor(market, input.slippageBps ?? (kind === 'sl' ? stopToleranceBpsFor(prefs, market.symbol) : (prefs.default_slippage_bps ?? undefined)));
  const changes: TpslChange[] = [];
  const unchanged: string[] = [];
  for (const kind of ['tp', 'sl'] as const) {
    const level = wanted[kind];
    const rows = armed[kind];
    if (level === undefined) continue;
    if (level === null) {
      if (rows.length === 0) unchanged.push(`no ${NAME[kind]} is armed on ${market.symbol}`);
      for (const row of rows) {
        changes.push({ kind, action: 'remove', order_id: row.order_id, from: row.trigger_price ?? null, to: null, fire_price: null, summary: `Remove the ${NAME[kind]} at ${groupDigits(row.trigger_price ?? '?')}` });
      }
      continue;
    }
    if (rows.length > 1) {
      throw new ValidationError(`${market.symbol} has ${rows.length} armed whole-position ${NAME[kind]} triggers (${rows.map((r) => r.order_id).join(', ')}); it is not clear which to move`, {
        field: kind,
        code: 'AMBIGUOUS_TRIGGERS',
        hint: `Remove them first (${kind} none), then set one level.`,
      });
    }
    const to = canonical(level);
    const fire = canonical(slippageBound(closing, level, bpsOf(kind), market, `${kind}.limit_price`));
    const row = rows[0];
    if (!row) {
      changes.push({
        kind,
        action: 'set',
        order_id: null,
        from: null,
        to,
        fire_price: fire,
        summary: `Set a ${NAME[kind]} at ${groupDigits(to)}: the whole ${long ? 'long' : 'short'} closes at market when the mark ${(kind === 'tp') === long ? 'rises' : 'falls'} to it (${closing.toLowerCase()}, no worse than ${groupDigits(fire)})`,
      });
    } else if (row.trigger_price !== undefined && row.trigger_price !== null && new Decimal(row.trigger_price).eq(level)) {
      unchanged.push(`the ${NAME[kind]} is already at ${groupDigits(to)}`);
    } else {
      changes.push({ kind, action: 'move', order_id: row.order_id, from: row.trigger_price ?? null, to, fire_price: fire, summary: `Move the ${NAME[kind]} from ${groupDigits(row.trigger_price ?? '?')} to ${groupDigits(to)}` });
    }
  }
  if (changes.length === 0) throw new ValidationError(`nothing to change: ${unchanged.join('; ')}`, { field: 'tp', code: 'NOTHING_TO_CHANGE' });

  // New triggers first: their batch is checked against every order rule (past the mark, open-order cap)
  // before the modifies and cancels reserve nonces.
  const sets = changes.filter((c) => c.action === 'set');
  const place =
    sets.length === 0
      ? null
      : await prepareLegs(ctx, {
          wallet,
          legs: sets.map((c) => ({ market: market.symbol, side: closing, size: '0', order_type: 'TRIGGER', reduce_only: true, limit_price: c.fire_price!, trigger: { trigger_price: c.to!, tpsl: c.kind.toUpperCase(), is_market: true } })),
          labels: sets.map((c) => c.kind),
          kind: 'tpsl',
        });
  const modifies: { kind: TpslKind; prepared: PreparedModify }[] = [];
  for (const c of changes.filter((x) => x.action === 'move')) {
    const row = armed[c.kind][0]!;
    modifies.push({ kind: c.kind, prepared: await prepareModify(ctx, { wallet, orderId: c.order_id!, price: c.fire_price!, size: row.size, triggerPrice: c.to! }) });
  }
  const removes = changes.filter((c) => c.action === 'remove');
  const cancel = removes.length === 0 ? null : await prepareCancelOrders(ctx, { wallet, targets: removes.map((c) => ({ order_id: c.order_id!, order_type: 'TRIGGER' as const })) });

  const signer = place?.signer ?? modifies[0]?.prepared.signer ?? cancel!.signer;
  const after = (kind: TpslKind): string | null => {
    const c = changes.find((x) => x.kind === kind);
    if (!c) return armed[kind][0]?.trigger_price ?? null;
    return c.to;
  };
  const warnings: string[] = [];
  if (unchanged.length > 0) warnings.push(...unchanged);
  return {
    action: 'tpsl',
    profile: ctx.profile.name,
    wallet,
    signer,
    // In the order submit signs them: cancels, modifies, new triggers.
    requests: [...(cancel?.requests ?? []), ...modifies.flatMap((m) => m.prepared.requests), ...(place?.requests ?? [])],
    market: market.symbol,
    accountId,
    position,
    changes,
    cancel,
    modifies,
    place,
    view: {
      wallet,
      market: market.symbol,
      side: long ? 'LONG' : 'SHORT',
      size: position.size,
      entry_price: position.entry_price,
      mark: canonical(mark),
      before: { tp: levelOf(armed.tp[0]), sl: levelOf(armed.sl[0]) },
      after: { tp: after('tp'), sl: after('sl') },
      changes,
      summary: changes.map((c) => c.summary),
      warnings,
    },
  };
}

function cancelStatus(r: CancelLegResult | undefined, waited: boolean): { status: TpslChangeStatus; reason: string | null } {
  if (!r) return { status: 'unknown', reason: null };
  if (r.confirmed) return { status: 'done', reason: null };
  if (r.status === 'REJECTED' || r.status === 'FAILED') return { status: 'rejected', reason: r.reason };
  if (r.status === 'UNKNOWN') return { status: 'unknown', reason: r.reason };
  return { status: waited ? 'unknown' : 'pending', reason: r.reason };
}

function modifyStatus(r: ModifyOrderResult): { status: TpslChangeStatus; reason: string | null } {
  const reason = r.final?.reason ?? r.reason;
  if (r.status === 'REJECTED' || r.outcome === 'rejected') return { status: 'rejected', reason };
  if (r.status === 'UNKNOWN') return { status: 'unknown', reason };
  if (r.outcome === 'dropped') return { status: 'dropped', reason };
  if (r.outcome === 'applied') return { status: 'done', reason: null };
  return { status: 'pending', reason };
}

function placedStatus(p: PlacedLeg | undefined): { status: TpslChangeStatus; reason: string | null } {
  if (!p) return { status: 'unknown', reason: null };
  if (p.status === 'REJECTED') return { status: 'rejected', reason: p.reason };
  if (p.status === 'UNKNOWN') return { status: 'unknown', reason: p.reason };
  if (!p.final) return { status: 'pending', reason: null };
  if (p.final.armed && !p.final.terminal) return { status: 'done', reason: null };
  if (p.final.terminal) return { status: 'rejected', reason: p.final.reason ?? p.final.status };
  return { status: 'pending', reason: null };
}

/** Signs and sends the prepared changes (cancels, modifies, new triggers) and says what became of each. */
export async function submitPositionTpsl(ctx: TradingContext, prepared: PreparedPositionTpsl, signer: Signer, options: PositionTpslOptions = {}): Promise<PositionTpslResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const wait = options.wait !== false;
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  const results: TpslChangeResult[] = [];
  if (prepared.cancel) {
    options.onProgress?.(`removing ${prepared.cancel.targets.length} level${prepared.cancel.targets.length === 1 ? '' : 's'}`);
    const res = await submitCancel(ctx, prepared.cancel, signer, { confirm: wait, ...timeout });
    for (const c of prepared.changes.filter((x) => x.action === 'remove')) {
      results.push({ ...c, new_order_id: null, ...cancelStatus(res.results.find((r) => r.order_id === c.order_id), wait) });
    }
  }
  for (const m of prepared.modifies) {
    const c = prepared.changes.find((x) => x.action === 'move' && x.kind === m.kind)!;
    options.onProgress?.(`moving the ${NAME[m.kind]} to ${c.to}`);
    const res = await submitModify(ctx, m.prepared, signer, { wait, ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}) });
    results.push({ ...c, new_order_id: res.new_order_id, ...modifyStatus(res) });
  }
  if (prepared.place) {
    options.onProgress?.(`arming ${prepared.place.labels.join(' and ').toUpperCase()}`);
    const res = await submitOrder(ctx, prepared.place, signer, { wait, ...(options.timeoutMs !== undefined ? { waitTimeoutMs: options.timeoutMs } : {}) });
    for (const c of prepared.changes.filter((x) => x.action === 'set')) {
      const leg = res.legs[prepared.place.labels.indexOf(c.kind)];
      results.push({ ...c, new_order_id: leg?.order_id ?? null, ...placedStatus(leg) });
    }
  }
  // Reported in the order the review listed them (take-profit first).
  results.sort((a, b) => prepared.changes.findIndex((c) => c.kind === a.kind && c.order_id === a.order_id) - prepared.changes.findIndex((c) => c.kind === b.kind && c.order_id === b.order_id));
  const ok = results.every((r) => r.status === 'done' || (!wait && r.status === 'pending'));
  return { wallet: prepared.wallet, market: prepared.market, changes: results, ok };
}
