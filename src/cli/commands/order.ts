/**
 * `perps order place|batch|get|cancel|cancel-all|modify`: orders of one wallet, signed by its trading key.
 *
 *   order place --wallet ADDR --market SYM --side buy|sell --size DEC [--type market|limit|trigger]
 *               [--price DEC] [--tif gtc|ioc|alo] [--reduce-only] [--leverage N]
 *               [--trigger-price DEC --tpsl tp|sl] [--tp DEC] [--sl DEC] [--slippage-bps N] [--wait]
 *       --price is the limit price of a LIMIT order, the explicit slippage bound of a MARKET order and the
 *       fire price of a TRIGGER; --tp/--sl attach whole-position bracket legs to the entry.
 *   order batch --wallet ADDR FILE [--wait]        legs as JSON: an array (or { "orders": [...] }) of legs
 *                                                   in the API's field names, values as decimal strings
 *   order get ID [--wait] [--wallet ADDR]
 *   order cancel ID --wallet ADDR [--type limit|trigger]
 *   order cancel-all --wallet ADDR [--market SYM]
 *   order modify ID --wallet ADDR --price DEC --size DEC [--trigger-price DEC] [--wait]
 *
 * Every rule is checked against the live market record before anything is signed (exit 2 naming the
 * field). A leg the service rejects, or that ends without doing what was asked (a MARKET order that did
 * not fill, a FAILED order), makes the command exit 1 after printing every leg's result.
 */
import { readJsonFile } from '../jsonFile.js';
import type { Command } from 'commander';
import type { ListedOrder } from '../../shared/protocol/index.js';
import { ValidationError } from '../../main/services/errors.js';
import {
  cancelAll,
  cancelOrder,
  followOrder,
  isFilled,
  modifyOrder,
  placeOrders,
  bracketLegInputs,
  newClientOrderId,
  type CancelLegResult,
  type CancelResult,
  type LegInput,
  type PlacedLeg,
  type PlaceOrdersResult,
  type TrackedOrder,
} from '../../main/services/orders/index.js';
import { contextOf, globalsOf, type GlobalOptions } from '../globals.js';
import { formatFields, formatTable, formatTime, runAction, type Column, type Output } from '../output.js';
import { parseIntegerOption, parseNumberOption } from '../parse.js';
import { createProgress, type Progress } from '../progress.js';

interface PlaceOpts {
  wallet: string;
  market: string;
  side: string;
  size: string;
  type?: string;
  price?: string;
  tif?: string;
  reduceOnly?: boolean;
  leverage?: string;
  triggerPrice?: string;
  tpsl?: string;
  tp?: string;
  sl?: string;
  slippageBps?: string;
  wait?: boolean;
  timeout?: string;
}

export function timeoutOf(value: string | undefined): number | undefined {
  const s = parseNumberOption(value, 'timeout');
  if (s === undefined) return undefined;
  if (s <= 0) throw new ValidationError('must be a positive number of seconds', { field: 'timeout' });
  return s * 1000;
}

/** --json and --csv both claim stdout. */
export function checkFormats(g: GlobalOptions, csv: boolean | undefined): void {
  if (g.json === true && csv === true) throw new ValidationError('choose one of --json and --csv', { field: 'csv', code: 'USAGE' });
}

/** The legs of `order place` from its flags. */
export function placeLegs(opts: PlaceOpts): { legs: LegInput[]; labels: string[] } {
  let type = opts.type?.toUpperCase();
  // Without --type: a trigger when a trigger price is given, else the spec's default, MARKET.
  if (type === undefined) type = opts.triggerPrice !== undefined ? 'TRIGGER' : 'MARKET';
  if (type === 'TRIGGER') {
    if (opts.triggerPrice === undefined) throw new ValidationError('a trigger order needs --trigger-price', { field: 'trigger-price' });
    if (opts.tpsl === undefined) throw new ValidationError('a trigger order needs --tpsl tp|sl', { field: 'tpsl' });
    if (opts.tif !== undefined) throw new ValidationError("a trigger order takes no --tif (its time in force derives from is_market; it can't be post-only)", { field: 'tif' });
  } else if (opts.triggerPrice !== undefined || opts.tpsl !== undefined) {
    throw new ValidationError('--trigger-price and --tpsl belong to --type trigger', { field: opts.triggerPrice !== undefined ? 'trigger-price' : 'tpsl' });
  }
  if (type === 'LIMIT' && opts.price === undefined) throw new ValidationError('a limit order needs --price', { field: 'price' });
  if ((opts.tp !== undefined || opts.sl !== undefined) && type === 'TRIGGER') throw new ValidationError('--tp/--sl attach to a market or limit entry, not to a trigger', { field: opts.tp !== undefined ? 'tp' : 'sl' });
  const leverage = parseIntegerOption(opts.leverage, 'leverage');
  const slippage = parseIntegerOption(opts.slippageBps, 'slippage-bps');
  const entry: LegInput = {
    market: opts.market,
    side: opts.side,
    size: opts.size,
    order_type: type,
    reduce_only: opts.reduceOnly === true,
    client_order_id: newClientOrderId(),
  };
  if (opts.price !== undefined) entry.limit_price = opts.price;
  if (opts.tif !== undefined) entry.time_in_force = opts.tif;
  if (leverage !== undefined) entry.leverage = leverage;
  if (slippage !== undefined) entry.slippage_bps = slippage;
  if (type === 'TRIGGER') entry.trigger = { trigger_price: opts.triggerPrice!, tpsl: opts.tpsl!, is_market: true };
  const legs = [entry];
  const labels = ['order'];
  if (opts.tp !== undefined || opts.sl !== undefined) {
    const side = opts.side.toUpperCase();
    if (side !== 'BUY' && side !== 'SELL') throw new ValidationError(`'${opts.side}' is not buy or sell`, { field: 'side' });
    const kids = bracketLegInputs(
      { market: opts.market, side, client_order_id: entry.client_order_id! },
      { ...(opts.tp !== undefined ? { tp: opts.tp } : {}), ...(opts.sl !== undefined ? { sl: opts.sl } : {}), ...(slippage !== undefined ? { slippage_bps: slippage } : {}) },
    );
    for (const k of kids) {
      legs.push(k);
      labels.push(k.trigger!.tpsl.toLowerCase());
    }
  }
  return { legs, labels };
}

/** A leg that did not do what was asked: rejected, lost, FAILED, or a take-or-cancel order that did not fill. */
export function legFailed(p: PlacedLeg): boolean {
  if (p.status !== 'SUBMITTED') return true;
  const f = p.final;
  if (!f) return false;
  if (f.status === 'REJECTED' || f.status === 'FAILED') return true;
  const takeOrCancel = p.leg.order_type === 'MARKET' || p.leg.time_in_force === 'IOC';
  return takeOrCancel && f.terminal && !isFilled(f);
}

const LEG_COLUMNS = (labels: readonly string[]): Column<PlacedLeg & { i: number }>[] => [
  { header: 'LEG', value: (p) => labels[p.i] ?? `orders[${p.i}]` },
  { header: 'ORDER', value: (p) => p.order_id ?? '-' },
  { header: 'TYPE', value: (p) => `${p.leg.order_type}${p.leg.time_in_force ? ' ' + p.leg.time_in_force : ''}${p.leg.reduce_only ? ' RO' : ''}` },
  { header: 'SIDE', value: (p) => p.leg.side },
  { header: 'SIZE', value: (p) => p.leg.size, align: 'right' },
  { header: 'PRICE', value: (p) => p.leg.limit_price, align: 'right' },
  { header: 'TRIGGER', value: (p) => (p.leg.trigger ? `${p.leg.trigger.tpsl} ${p.leg.trigger.trigger_price}` : '') },
  { header: 'STATUS', value: (p) => p.final?.status ?? p.status },
  { header: 'FILL', value: (p) => (p.final?.avg_fill_price ? `${p.final.filled_size ?? ''} @ ${p.final.avg_fill_price}` : '') },
  { header: 'REASON', value: (p) => p.final?.reason ?? p.reason ?? '' },
];

/** Prints a placement and returns 1 when a leg failed (after noting why on stderr). */
export function reportPlacement(out: Output, result: PlaceOrdersResult, labels: readonly string[]): 1 | undefined {
  const failed = result.legs.filter(legFailed);
  out.result(result, () => {
    const head = result.reconciled ? 'note: the service answer was lost; these orders were found in order-history\n' : '';
    return head + formatTable(result.legs.map((p, i) => ({ ...p, i })), LEG_COLUMNS(labels));
  });
  for (const p of failed) {
    const reason = p.final?.reason ?? p.reason;
    out.note(`error [${reason ?? p.final?.status ?? p.status}]: ${labels[result.legs.indexOf(p)] ?? 'leg'} ${p.order_id ?? p.client_order_id} ${p.final?.status ?? p.status}${reason ? ` (${reason})` : ''}`);
  }
  if (failed.length > 0) out.note(legHint(failed));
  return failed.length > 0 ? 1 : undefined;
}

function legHint(failed: PlacedLeg[]): string {
  const reasons = new Set(failed.map((p) => p.final?.reason ?? p.reason ?? ''));
  if (reasons.has('post_only_would_take')) return 'hint: a post-only (ALO) order would have crossed the book; move the price away from the market.';
  if (reasons.has('close_trigger_coexistence')) return 'hint: cancel the armed TP/SL triggers first, or use `perps position close`.';
  if (reasons.has('no_liquidity_within_limit') || failed.some((p) => p.final?.status === 'CANCELLED')) return 'hint: nothing filled within the price bound; widen --slippage-bps or give --price.';
  if (failed.some((p) => p.status === 'UNKNOWN')) return 'hint: the answer was lost and the order is not in history yet; check `perps orders history` before placing again.';
  return 'hint: the reason is the service\'s; see `perps orders history --wallet ADDR`.';
}

function progressFor(json: boolean): Progress {
  return createProgress({ json });
}

/** Reads and parses a batch file: an array of legs or { orders: [...] }. */
async function readBatchFile(file: string): Promise<LegInput[]> {
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

function trackedView(o: TrackedOrder): string {
  return formatFields([
    ['order', o.order_id],
    ['status', `${o.status}${o.list_status ? ` (listed: ${o.list_status})` : ''}`],
    ...(o.market ? ([['market', o.market]] as const) : []),
    ...(o.order_type ? ([['type', o.order_type]] as const) : []),
    ...(o.filled_size ? ([['filled', o.filled_size]] as const) : []),
    ...(o.avg_fill_price ? ([['avg price', o.avg_fill_price]] as const) : []),
    ...(o.reason ? ([['reason', o.reason]] as const) : []),
    ...(o.armed ? ([['armed', 'yes']] as const) : []),
  ]);
}

const CANCEL_COLUMNS: Column<CancelLegResult>[] = [
  { header: 'ORDER', value: (r) => r.order_id },
  { header: 'TYPE', value: (r) => r.order_type },
  { header: 'CANCEL', value: (r) => r.status },
  { header: 'REASON', value: (r) => r.reason ?? '' },
  { header: 'CONFIRMED', value: (r) => (r.confirmed ? 'yes' : 'no') },
  { header: 'FINAL', value: (r) => `${r.final_status ?? ''}${r.final_reason ? ` (${r.final_reason})` : ''}` },
];

function reportCancel(out: Output, result: CancelResult): 1 | undefined {
  out.result(result, () => {
    const table = formatTable(result.results, CANCEL_COLUMNS, 'nothing to cancel');
    const left = result.remaining && result.remaining.length > 0 ? `\nstill open: ${result.remaining.map((r) => r.order_id).join(', ')}` : '';
    return table + left;
  });
  // A cancel succeeded when the order is no longer open, whatever the answer (a FILLED order is not open either).
  const bad = result.results.filter((r) => !r.confirmed);
  for (const r of bad) out.note(`error [${r.reason ?? 'UNCONFIRMED'}]: cancel of ${r.order_id} answered ${r.status} and it is still listed as open`);
  if (bad.length > 0) out.note('hint: check `perps orders open --wallet ADDR` and cancel again (a new cancel is safe).');
  return bad.length > 0 || (result.remaining?.length ?? 0) > 0 ? 1 : undefined;
}

export function registerOrderCommands(program: Command): void {
  const order = program.command('order').description('place, follow, modify and cancel orders (signed by the wallet\'s trading key)');

  order
    .command('place')
    .description('place one order, optionally with --tp/--sl bracket legs')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol, e.g. BTC')
    .requiredOption('--side <side>', 'buy or sell')
    .requiredOption('--size <decimal>', 'size in the base asset, at most sz_decimals places')
    .option('--type <type>', 'market (default), limit or trigger')
    .option('--price <decimal>', 'limit price; on a market order the explicit slippage bound; on a trigger the fire price')
    .option('--tif <tif>', 'gtc (limit default), ioc (market) or alo (post-only, limit only)')
    .option('--reduce-only', 'only reduce the position')
    .option('--leverage <n>', 'leverage of this order, 1..max_leverage')
    .option('--trigger-price <decimal>', 'trigger: the mark price that fires it')
    .option('--tpsl <kind>', 'trigger: tp or sl')
    .option('--tp <decimal>', 'attach a take-profit trigger at this price (bracket)')
    .option('--sl <decimal>', 'attach a stop-loss trigger at this price (bracket)')
    .option('--slippage-bps <n>', "tolerance of a computed bound, default the market's slippage_bps")
    .option('--wait', 'follow the orders until filled or resting (market orders until terminal)')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(async (opts: PlaceOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const { legs, labels } = placeLegs(opts);
        const waitTimeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const progress = progressFor(json);
        try {
          const result = await placeOrders(ctx, { wallet: opts.wallet, legs, labels }, { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) });
          progress.done();
          return reportPlacement(out, result, labels);
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('batch')
    .description('place 1..20 legs from a JSON file in one request (brackets via parent_client_order_id)')
    .argument('<file>', 'JSON: an array of legs, or { "orders": [...] }')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--wait', 'follow the orders until filled or resting')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(async (file: string, opts: { wallet: string; wait?: boolean; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const waitTimeoutMs = timeoutOf(opts.timeout);
        const legs = await readBatchFile(file);
        const labels = legs.map((_, i) => `orders[${i}]`);
        const ctx = contextOf(g);
        const progress = progressFor(json);
        try {
          const result = await placeOrders(ctx, { wallet: opts.wallet, legs, labels }, { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) });
          progress.done();
          return reportPlacement(out, result, labels);
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('get')
    .description('an order\'s status; --wait follows it to a terminal status')
    .argument('<id>', 'order id')
    .option('--wait', 'follow it until FILLED, CANCELLED, REJECTED, ... (through order-history when the wallet is known)')
    .option('--wallet <address>', 'the owning wallet (lets --wait use one list read per poll)')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(async (id: string, opts: { wait?: boolean; wallet?: string; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const progress = progressFor(json);
        try {
          const o = await followOrder(ctx, id, {
            wait: opts.wait === true,
            ...(opts.wallet ? { wallet: opts.wallet } : {}),
            ...(timeoutMs ? { timeoutMs } : {}),
            onChange: (s) => progress.update(`order ${s.order_id}: ${s.status}`),
          });
          progress.done();
          out.result(o, () => trackedView(o));
          return opts.wait === true && (o.status === 'REJECTED' || o.status === 'FAILED') ? 1 : undefined;
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('cancel')
    .description('cancel one order and confirm it left open-orders')
    .argument('<id>', 'order id')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--type <type>', 'limit or trigger (read from open-orders when omitted)')
    .option('--timeout <seconds>', 'give up confirming after this long')
    .action(async (id: string, opts: { wallet: string; type?: string; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const type = opts.type?.toUpperCase();
        if (type !== undefined && type !== 'LIMIT' && type !== 'TRIGGER') throw new ValidationError(`'${opts.type}' is not limit or trigger`, { field: 'type' });
        const timeoutMs = timeoutOf(opts.timeout);
        const progress = progressFor(json);
        try {
          const result = await cancelOrder(contextOf(g), { wallet: opts.wallet, orderId: id, ...(type ? { orderType: type } : {}) }, { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          return reportCancel(out, result);
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('cancel-all')
    .description('cancel every open order of the wallet (resting, armed triggers, bracket legs), optionally on one market')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--market <symbol>', 'only this market')
    .option('--timeout <seconds>', 'give up confirming after this long')
    .action(async (opts: { wallet: string; market?: string; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutMs = timeoutOf(opts.timeout);
        const progress = progressFor(json);
        try {
          const result = await cancelAll(contextOf(g), { wallet: opts.wallet, ...(opts.market ? { market: opts.market } : {}) }, { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          return reportCancel(out, result);
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('modify')
    .description('replace an open order\'s price and size (and a trigger\'s trigger price); the order gets a new id')
    .argument('<id>', 'order id')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--price <decimal>', 'new limit price (a trigger\'s fire price)')
    .requiredOption('--size <decimal>', 'new size ("0" only on a TP/SL trigger: the whole position)')
    .option('--trigger-price <decimal>', 'new trigger price (trigger orders; default unchanged)')
    .option('--wait', 'follow the new order until it is live (or the modify was dropped)')
    .option('--timeout <seconds>', 'with --wait: give up after this long')
    .action(async (id: string, opts: { wallet: string; price: string; size: string; triggerPrice?: string; wait?: boolean; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const waitTimeoutMs = timeoutOf(opts.timeout);
        const progress = progressFor(json);
        try {
          const r = await modifyOrder(
            contextOf(g),
            { wallet: opts.wallet, orderId: id, price: opts.price, size: opts.size, ...(opts.triggerPrice !== undefined ? { triggerPrice: opts.triggerPrice } : {}) },
            { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) },
          );
          progress.done();
          out.result(r, () =>
            formatFields([
              ['old order', r.old_order_id],
              ['new order', r.new_order_id ?? '-'],
              ['status', r.status],
              ...(r.reason ? ([['reason', r.reason]] as const) : []),
              ['outcome', r.outcome],
              ...(r.final ? ([['new order status', r.final.status]] as const) : []),
            ]),
          );
          if (r.status === 'REJECTED' || r.outcome === 'rejected' || r.outcome === 'dropped') {
            out.note(`error [${r.final?.reason ?? r.reason ?? r.outcome.toUpperCase()}]: the modify of ${r.old_order_id} was ${r.outcome}`);
            out.note(r.outcome === 'dropped' ? 'hint: the original order stays live (it fired, filled or the open-order cap no longer allowed the swap).' : 'hint: the original order is unchanged.');
            return 1;
          }
          if (r.status === 'UNKNOWN') {
            out.note('error [LANDED_RESULT_UNKNOWN]: the modify reached the service but its answer was lost and the new order was not found');
            out.note('hint: check `perps orders open --wallet ADDR` before modifying again.');
            return 1;
          }
          return undefined;
        } finally {
          progress.done();
        }
      });
    });
}

/** Rows of open-orders, position-triggers and order-history as a table. */
export const LISTED_ORDER_COLUMNS: Column<ListedOrder>[] = [
  { header: 'ORDER', value: (o) => o.order_id },
  { header: 'MARKET', value: (o) => o.market },
  { header: 'SIDE', value: (o) => o.side },
  { header: 'TYPE', value: (o) => `${o.order_type}${o.time_in_force && o.order_type !== 'TRIGGER' ? ' ' + o.time_in_force : ''}${o.reduce_only ? ' RO' : ''}` },
  { header: 'SIZE', value: (o) => o.size, align: 'right' },
  { header: 'FILLED', value: (o) => o.filled_size, align: 'right' },
  { header: 'PRICE', value: (o) => o.limit_price, align: 'right' },
  { header: 'TRIGGER', value: (o) => (o.trigger_price ? `${(o.tpsl ?? '').toUpperCase()} ${o.trigger_price}` : '') },
  { header: 'STATUS', value: (o) => `${o.status}${o.parent_order_id ? ` (awaits ${o.parent_order_id})` : ''}${o.is_modifying ? ' (modifying)' : ''}` },
  { header: 'REASON', value: (o) => o.reason ?? '' },
  { header: 'AT', value: (o) => formatTime(o.status_at) },
];
