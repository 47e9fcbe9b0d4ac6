/**
 * `perps order place|batch|get|cancel|cancel-all|modify`: orders of one wallet, signed by its trading key.
 *
 *   order place --wallet ADDR --market SYM --side buy|sell (--size DEC | --usd AMOUNT) [--type market|limit|trigger]
 *               [--price DEC] [--tif gtc|ioc|alo] [--reduce-only] [--leverage N]
 *               [--trigger-price DEC --tpsl tp|sl] [--tp DEC] [--sl DEC] [--slippage-bps N] [--wait] [--dry-run]
 *               [--allow-far-price] [--allow-large]
 *       --price is the limit price of a LIMIT order and the fire price of a TRIGGER; on a MARKET order (the
 *       default --type) it is refused, exit 2 PRICE_NEEDS_LIMIT (its bound comes from the mark and
 *       --slippage-bps); --tp/--sl attach whole-position bracket legs to the entry.
 *   order scale --wallet ADDR --market SYM --side buy|sell --from DEC --to DEC --count N (--total-size DEC | --usd AMOUNT)
 *               [--skew K] [--tif gtc|alo] [--reduce-only] [--leverage N] [--wait] [--dry-run]
 *               [--allow-far-price] [--allow-large]
 *       a ladder of N limit legs from --from to --to (src/shared/orders/scaleLadder.ts), sent as one batch
 *   order batch --wallet ADDR FILE [--wait] [--dry-run] [--allow-far-price] [--allow-large]
 *                                                         legs as JSON: an array (or { "orders": [...] })
 *                                                         in the API's field names, values as decimal strings
 *   order get ID [--wait] [--wallet ADDR]
 *   order cancel ID --wallet ADDR [--type limit|trigger] [--dry-run]
 *   order cancel-all --wallet ADDR [--market SYM] [--dry-run]
 *   order modify ID --wallet ADDR --price DEC [--size DEC] [--trigger-price DEC] [--wait] [--dry-run]
 *       without --size the order keeps the size it has left (a whole-position trigger stays whole)
 *
 * Each signing command runs the services' prepare step (the same one the app's review runs: every rule
 * against the live market record, the leverage default, the free balance) and then submits exactly what
 * was prepared; --dry-run prints it instead, signs and sends nothing (exit 0). A refused input is exit 2
 * with nothing sent; that includes the fat-finger guard: a limit price (or an explicit market bound) that
 * crosses the mark by more than the market's slippage_bps needs --allow-far-price, and an order above your
 * notional cap (`perps config max-notional`) needs --allow-large. A leg the service rejects, or that ends without doing what was asked (a MARKET order
 * that did not fill, a FAILED order), makes the command exit 1 after printing every leg's result.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../main/services/errors.js';
import {
  followOrder,
  prepareCancel,
  prepareCancelAll,
  prepareLegs,
  prepareModify,
  prepareOrder,
  submitCancel,
  submitModify,
  submitOrder,
  cancelAll,
  type GuardAllowance,
  type PreparedOrder,
} from '../../main/services/orders/index.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { prepareOrderIntent, protectionLost, submitOrderIntent, type IntentPlaceResult, type PreparedIntentOrder } from '../../main/services/positions/scaleOut.js';
import { printDryRun } from '../dryRun.js';
import { contextOf, globalsOf } from '../globals.js';
import { readBatchFile, withDefaultLeverage } from '../orders/batchFile.js';
import { placeIntent, type PlaceFlags } from '../orders/placeIntent.js';
import { isMaxLeverage, LEVERAGE_FLAG, leverageChoice, resolveLeverage, type ResolvedLeverage } from '../orders/leverageFlag.js';
import { scaleIntent, type ScaleFlags } from '../orders/scaleIntent.js';
import { checkSizeOrUsd, resolveUsd, type ResolvedUsd } from '../orders/usdSize.js';
import { scaleMeanPrice } from '../../shared/orders/usdSizing.js';
import { scalePrices } from '../../shared/orders/scaleLadder.js';
import { reportCancel, reportPlacement, sizeText, trackedView } from '../orders/reports.js';
import { formatFields, runAction, type Output } from '../output.js';
import { durationFlag, timeoutOf } from '../parse.js';
import { createProgress } from '../progress.js';
import { registerOcoCommand } from './orderOco.js';
import { registerChaseCommand } from './orderChase.js';

const DRY_RUN_HELP = 'check everything and print what would be signed (the review, typed data, digests); sign and send nothing';

interface GuardFlags {
  allowFarPrice?: boolean;
  allowLarge?: boolean;
}

interface PlaceOpts extends PlaceFlags, GuardFlags {
  wallet: string;
  wait?: boolean;
  timeout?: string;
  dryRun?: boolean;
}

const ALLOW_FAR_PRICE_HELP = "send a limit price (or an explicit market bound) that crosses the mark by more than the market's slippage bound";
const ALLOW_LARGE_HELP = 'send an order whose notional is above your cap (`perps config max-notional`)';

function allowanceOf(opts: GuardFlags): GuardAllowance {
  return { farPrice: opts.allowFarPrice === true, large: opts.allowLarge === true };
}

/** Each guard let through by a flag is said on stderr: the person asked for something unusual on purpose. */
function noteConfirmations(out: Output, prepared: PreparedOrder): void {
  for (const c of prepared.view.confirmations) out.note(`confirmed by flag [${c.code}]: ${c.message}`);
}

function checkDryRun(opts: { dryRun?: boolean; wait?: boolean }): void {
  if (opts.dryRun === true && opts.wait === true) throw new ValidationError('--dry-run sends nothing, so there is nothing to --wait for', { field: 'dry-run', code: 'USAGE' });
}

/** The flags with --leverage replaced by a resolved whole number (or left out: the prepare step's default). */
function withLeverage<T extends { leverage?: string }>(opts: T, leverage: number | undefined): T {
  const { leverage: _given, ...rest } = opts;
  return (leverage === undefined ? rest : { ...rest, leverage: String(leverage) }) as T;
}

/** The review printed by --dry-run, with a USD sizing and a `--leverage max` resolution when there are. */
function reviewWith(view: object, usd: ResolvedUsd | undefined, lev: ResolvedLeverage): object {
  return { ...view, ...(usd ? { usd_sizing: usd.sizing } : {}), ...(lev.note !== null ? { leverage_max: { leverage: lev.leverage, source: lev.note } } : {}) };
}

/** Says which leverage is signed on each opening leg and where it came from (never a silent 0). */
export function noteLeverage(out: Output, prepared: PreparedOrder, given: string | undefined): void {
  for (const [i, leg] of prepared.legs.entries()) {
    if (leg.reduce_only || leg.leverage === undefined) continue;
    out.note(`${prepared.labels[i]}: signed with leverage ${leg.leverage}x${given === undefined ? ' (your default; set it with `perps config leverage`)' : isMaxLeverage(given) ? " (the market's maximum, --leverage max)" : ''}`);
  }
}

/** Submits a prepared order with the wallet's trading key and prints every leg; exit 1 when one failed. */
export async function submitAndReport(ctx: ServiceContext, out: Output, prepared: PreparedOrder, opts: { wait?: boolean; timeout?: string }, json: boolean): Promise<1 | undefined> {
  const waitTimeoutMs = timeoutOf(opts.timeout);
  const progress = createProgress({ json });
  try {
    const result = await submitOrder(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) });
    progress.done();
    return reportPlacement(out, result, prepared.labels);
  } finally {
    progress.done();
  }
}

/**
 * Submits a scale-out (a reduce-only ladder that lifts the armed TP/SL) and prints every leg, the triggers
 * cancelled first and what became of the lifted levels. A level not back on the position (the mark has
 * passed it, or the service refused the re-arm) is an error line and exit 1: the position is less
 * protected than the trader set it.
 */
async function submitScaleOutAndReport(ctx: ServiceContext, out: Output, prepared: PreparedIntentOrder, opts: { wait?: boolean; timeout?: string }, json: boolean): Promise<1 | undefined> {
  const waitTimeoutMs = timeoutOf(opts.timeout);
  const progress = createProgress({ json });
  let result: IntentPlaceResult;
  try {
    result = await submitOrderIntent(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) });
  } finally {
    progress.done();
  }
  const code = reportPlacement(out, result, prepared.labels);
  out.note(`triggers cancelled first: ${result.cancelled_triggers.map((c) => c.order_id).join(', ')}`);
  const rearm = result.rearm;
  const lost = protectionLost(rearm);
  for (const line of rearm?.summary ?? []) out.note(lost ? `warning: ${line}` : line);
  if (!lost) return code;
  const market = prepared.lift!.market;
  out.note(`error [PROTECTION_NOT_RESTORED]: the ${market} position is less protected than before the scale-out: ${[...rearm!.past_mark.map((p) => `${p.kind.toUpperCase()} ${p.trigger_price} (the mark ${p.mark} is past it)`), ...rearm!.failed.map((f) => `${f.kind.toUpperCase()} ${f.trigger_price} (${f.message})`)].join(', ')} not re-armed`);
  out.note(`  close the rest: perps position close --wallet ${prepared.wallet} --market ${market}`);
  out.note(`  or set a level again: perps position tpsl --wallet ${prepared.wallet} --market ${market} --tp PRICE --sl PRICE`);
  return 1;
}

export function registerOrderCommands(program: Command): void {
  const order = program.command('order').description("place, follow, modify and cancel orders (signed by the wallet's trading key)");
  registerOcoCommand(order);
  registerChaseCommand(order);

  order
    .command('place')
    .description('place one order, optionally with --tp/--sl bracket legs')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol, e.g. BTC')
    .requiredOption('--side <side>', 'buy or sell')
    .option('--size <decimal>', 'size in the base asset, at most sz_decimals places (or --usd)')
    .option('--usd <amount>', 'size in USD instead: the amount over the limit price (the mark for a market order, the trigger price for a trigger), rounded down to sz_decimals; the size is shown before signing')
    .option('--type <type>', 'market (default), limit or trigger')
    .option('--price <decimal>', 'limit price (with --type limit); on a trigger the fire price; refused on a market order (PRICE_NEEDS_LIMIT)')
    .option('--tif <tif>', 'gtc (limit default), ioc (market) or alo (post-only, limit only)')
    .option('--reduce-only', 'only reduce the position')
    .option(LEVERAGE_FLAG, "leverage of this order, 1..max_leverage, or max (the market's max_leverage read from /markets; refused on a reduce-only order or a trigger). Default: your default for the market, `perps config leverage`, else 1x; stated in the output")
    .option('--trigger-price <decimal>', 'trigger: the mark price that fires it')
    .option('--tpsl <kind>', 'trigger: tp or sl')
    .option('--tp <decimal>', 'attach a take-profit trigger at this price (bracket)')
    .option('--sl <decimal>', 'attach a stop-loss trigger at this price (bracket)')
    .option('--slippage-bps <n>', "tolerance of a computed bound, default the market's slippage_bps")
    .option('--wait', 'follow the orders until filled or resting (market orders until terminal)')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--allow-far-price', ALLOW_FAR_PRICE_HELP)
    .option('--allow-large', ALLOW_LARGE_HELP)
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: PlaceOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        checkDryRun(opts);
        checkSizeOrUsd(opts.size, opts.usd);
        // The flags are checked before anything is read (a USD size is worked out from the live market next;
        // --leverage max from its max_leverage).
        const trigger = (opts.type ?? (opts.triggerPrice !== undefined ? 'trigger' : 'market')).toLowerCase() === 'trigger';
        const choice = leverageChoice(opts.leverage, opts.reduceOnly === true ? 'on a reduce-only order: it signs no leverage (it posts no margin)' : trigger ? 'on a trigger: a reduce-only TP/SL signs no leverage' : undefined);
        let intent = placeIntent({ ...withLeverage(opts, choice.value), size: opts.size ?? '1' });
        timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const lev = await resolveLeverage(ctx, opts.market, choice);
        const flags = withLeverage(opts, lev.leverage);
        if (lev.note) out.note(lev.note);
        let usd: ResolvedUsd | undefined;
        if (opts.usd !== undefined) {
          const reference = intent.kind === 'single' && intent.order_type === 'TRIGGER' ? { price: opts.triggerPrice!, label: 'the trigger price' } : opts.price !== undefined ? { price: opts.price, label: 'the limit price' } : ('mark' as const);
          usd = await resolveUsd(ctx, opts.market, opts.usd, reference);
          out.note(`size: ${usd.description}`);
        }
        intent = placeIntent({ ...flags, size: usd ? usd.sizing.size : (opts.size ?? '1') });
        const prepared = await prepareOrder(ctx, { wallet: opts.wallet, intent, allow: allowanceOf(opts) });
        if (opts.dryRun === true) return printDryRun(out, prepared, reviewWith(prepared.view, usd, lev));
        noteLeverage(out, prepared, opts.leverage);
        noteConfirmations(out, prepared);
        return submitAndReport(ctx, out, prepared, opts, json);
      });
    });

  order
    .command('scale')
    .description('a ladder of 2..20 limit legs between two prices, sizes equal or skewed, sent as one batch')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--market <symbol>', 'market symbol, e.g. BTC')
    .requiredOption('--side <side>', 'buy or sell')
    .requiredOption('--from <decimal>', "the first leg's price")
    .requiredOption('--to <decimal>', "the last leg's price")
    .requiredOption('--count <n>', 'number of legs, 2..20')
    .option('--total-size <decimal>', 'the sum of the legs, exactly (at most sz_decimals places; or --usd)')
    .option('--usd <amount>', "the ladder's size in USD instead: the amount over the size-weighted mean of its prices, rounded down to sz_decimals")
    .option('--skew <k>', "the last leg's size over the first's (default 1: equal sizes)")
    .option('--tif <tif>', 'gtc (default) or alo (post-only)')
    .option('--reduce-only', 'only reduce the position (exempt from min_order_value); with a TP/SL armed, it is lifted first and re-armed once the ladder rests')
    .option(LEVERAGE_FLAG, "leverage of the legs, 1..max_leverage, or max (the market's max_leverage read from /markets; refused with --reduce-only). Default: your default for the market, else 1x")
    .option('--wait', 'follow the legs until resting or filled')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--allow-far-price', ALLOW_FAR_PRICE_HELP)
    .option('--allow-large', ALLOW_LARGE_HELP)
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: Omit<ScaleFlags, 'totalSize'> & { totalSize?: string; usd?: string } & GuardFlags & { wallet: string; wait?: boolean; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        checkDryRun(opts);
        checkSizeOrUsd(opts.totalSize, opts.usd, 'total-size');
        const choice = leverageChoice(opts.leverage, opts.reduceOnly === true ? 'on a reduce-only ladder: it signs no leverage (it posts no margin)' : undefined);
        let intent = scaleIntent({ ...withLeverage(opts, choice.value), totalSize: opts.totalSize ?? '1' });
        timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const lev = await resolveLeverage(ctx, opts.market, choice);
        const flags = withLeverage(opts, lev.leverage);
        if (lev.note) out.note(lev.note);
        let usd: ResolvedUsd | undefined;
        if (opts.usd !== undefined) {
          const market = await ctx.config.market(opts.market);
          const mean = scaleMeanPrice(scalePrices(market, opts.from, opts.to, intent.count), opts.skew);
          usd = await resolveUsd(ctx, opts.market, opts.usd, { price: mean, label: "the ladder's size-weighted mean price" });
          out.note(`total size: ${usd.description}`);
        }
        intent = scaleIntent({ ...flags, totalSize: usd ? usd.sizing.size : (opts.totalSize ?? '1') });
        // A reduce-only ladder on a position whose TP/SL is armed is a scale-out: the triggers are lifted
        // first and re-armed once it rests (services/positions/scaleOut.ts), as the app's ticket does.
        const prepared = await prepareOrderIntent(ctx, { wallet: opts.wallet, intent, allow: allowanceOf(opts) });
        if (opts.dryRun === true) return printDryRun(out, prepared, reviewWith(prepared.view, usd, lev));
        noteLeverage(out, prepared, opts.leverage);
        noteConfirmations(out, prepared);
        if (!prepared.lift) return submitAndReport(ctx, out, prepared, opts, json);
        for (const line of prepared.view.protection?.summary ?? []) out.note(`note: ${line}`);
        return submitScaleOutAndReport(ctx, out, prepared, opts, json);
      });
    });

  order
    .command('batch')
    .description('place 1..20 legs from a JSON file in one request (brackets via parent_client_order_id)')
    .argument('<file>', 'JSON: an array of legs, or { "orders": [...] }')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .option('--wait', 'follow the orders until filled or resting')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--allow-far-price', ALLOW_FAR_PRICE_HELP)
    .option('--allow-large', ALLOW_LARGE_HELP)
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (file: string, opts: { wallet: string; wait?: boolean; timeout?: string; dryRun?: boolean } & GuardFlags, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        checkDryRun(opts);
        timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const legs = await withDefaultLeverage(ctx, await readBatchFile(file));
        const prepared = await prepareLegs(ctx, { wallet: opts.wallet, legs, labels: legs.map((_, i) => `orders[${i}]`), kind: 'batch', allow: allowanceOf(opts) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        noteConfirmations(out, prepared);
        return submitAndReport(ctx, out, prepared, opts, json);
      });
    });

  order
    .command('get')
    .description("an order's status; --wait follows it to a terminal status")
    .argument('<id>', 'order id')
    .option('--wait', 'follow it until FILLED, CANCELLED, REJECTED, ... (through order-history when the wallet is known)')
    .option('--wallet <address>', 'the owning wallet (lets --wait use one list read per poll)')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .action(async (id: string, opts: { wait?: boolean; wallet?: string; timeout?: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const progress = createProgress({ json });
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
    .option('--timeout <duration>', 'give up confirming after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (id: string, opts: { wallet: string; type?: string; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const type = opts.type?.toUpperCase();
        if (type !== undefined && type !== 'LIMIT' && type !== 'TRIGGER') throw new ValidationError(`'${opts.type}' is not limit or trigger`, { field: 'type' });
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareCancel(ctx, { wallet: opts.wallet, orderId: id, ...(type ? { orderType: type } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        const progress = createProgress({ json });
        try {
          const result = await submitCancel(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
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
    .option('--timeout <duration>', 'give up confirming after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (opts: { wallet: string; market?: string; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const input = { wallet: opts.wallet, ...(opts.market ? { market: opts.market } : {}) };
        if (opts.dryRun === true) {
          const prepared = await prepareCancelAll(ctx, input);
          return printDryRun(out, prepared, prepared.view);
        }
        const progress = createProgress({ json });
        try {
          const result = await cancelAll(ctx, input, { onProgress: (t) => progress.update(t), ...(timeoutMs ? { timeoutMs } : {}) });
          progress.done();
          return reportCancel(out, result);
        } finally {
          progress.done();
        }
      });
    });

  order
    .command('modify')
    .description("replace an open order's price and size (and a trigger's trigger price); the order gets a new id")
    .argument('<id>', 'order id')
    .requiredOption('--wallet <address>', 'main wallet (its trading key signs)')
    .requiredOption('--price <decimal>', "new limit price (a trigger's fire price)")
    .option('--size <decimal>', 'new size (default: the size the order has left, kept as it is; "0" only on a TP/SL trigger: the whole position)')
    .option('--trigger-price <decimal>', 'new trigger price (trigger orders; default unchanged)')
    .option('--wait', 'follow the new order until it is live (or the modify was dropped)')
    .option('--timeout <duration>', 'with --wait: give up after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--dry-run', DRY_RUN_HELP)
    .action(async (id: string, opts: { wallet: string; price: string; size?: string; triggerPrice?: string; wait?: boolean; timeout?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        checkDryRun(opts);
        const waitTimeoutMs = timeoutOf(opts.timeout);
        const ctx = contextOf(g);
        const prepared = await prepareModify(ctx, { wallet: opts.wallet, orderId: id, price: opts.price, ...(opts.size !== undefined ? { size: opts.size } : {}), ...(opts.triggerPrice !== undefined ? { triggerPrice: opts.triggerPrice } : {}) });
        if (opts.dryRun === true) return printDryRun(out, prepared, prepared.view);
        if (opts.size === undefined) out.note(`size kept: ${sizeText(prepared.view.after.size, prepared.row)}`);
        const progress = createProgress({ json });
        try {
          const r = await submitModify(ctx, prepared, await ctx.tradingSigner(prepared.wallet), { wait: opts.wait === true, onProgress: (t) => progress.update(t), ...(waitTimeoutMs ? { waitTimeoutMs } : {}) });
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
