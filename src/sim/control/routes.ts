/**
 * The control API under /sim, for tests and demos (never part of the service). Same envelope as the
 * trading API; bad input is 400 INVALID_REQUEST naming the field. Every number is bounded: money,
 * marks, rates and advances by the config's control_limits, chaos by its schema; a value out of range
 * is refused with its field and range, never clamped. Only local programs may call it
 * (./localOnly.ts): a loopback Host, no foreign Origin, and JSON writes; else 403 or 415.
 *
 *   GET  /sim/state                     summary: clock, chaos, timings, accounts, positions, pending jobs, job errors
 *   GET  /sim/config                    the resolved simulator config (markets with sim knobs, timings, limits)
 *   POST /sim/deposit                   {wallet, amount, rail?: 'hypercore'|'arbitrum'|..., source?} -> deposit
 *   POST /sim/mark                      {market: symbol, price} -> sets the venue mark (triggers, fills, liquidations follow)
 *   POST /sim/advance                   {ms: 0..max_advance_ms} -> moves the SimClock (the only way time moves with --manual-clock)
 *   POST /sim/chaos                     {error_rate?, latency_ms?, persist_lag_ms?, drop_rate?} -> current chaos
 *   POST /sim/withdrawal-outcome        {withdrawal_id | next: true, outcome: 'REFUNDED'|'FAILED'|'REJECTED'}
 *   POST /sim/margin-outcome            {request_id | next: true, outcome: 'TRANSFER_DECLINED'|'DECLINED'}
 *   POST /sim/order-outcome             {order_id | next: true, outcome: 'FAILED'} (venue cannot route the order)
 *   POST /sim/fill-resting              {order_id, size} -> a maker fill of part (or all) of a resting LIMIT at its price
 *   POST /sim/liquidate                 {wallet | account_id, market, orphan?: boolean} -> forced (ORPHAN_)LIQUIDATION
 *   POST /sim/funding-rate              {market, rate} -> venue hourly rate from now on
 *   POST /sim/freeze-marks              {} -> stops the venue's random walk for good (marks move only via /sim/mark)
 *   POST /sim/drop-sockets              {} -> terminates every venue WebSocket without a close frame
 *   GET  /sim/storm                     the venue's storm: factor, tick, and what it printed so far
 *   POST /sim/storm                     {factor: 1..100 | '10x'} -> marks, books and trades at factor times the normal rates (1: calm)
 *   POST /sim/save                      {} -> writes the state file now (400 without --state)
 */
import { z } from 'zod';
import { parseAccountId, toChecksumAddress } from '../../shared/identity/index.js';
import { canonical, parseDecimal } from '../../shared/decimal/index.js';
import { decimalIn, signedDecimalIn } from '../../shared/fieldSchemas.js';
import type { RouteModule, SimRequest, SimResponse } from '../runtime/http.js';
import type { SimClock } from '../runtime/clock.js';
import { ApiFailure, errorResponse, invalidRequest, okResponse } from '../core/response.js';
import { jsonBody, parseOr400 } from '../core/validate.js';
import { ChaosSchema, type ControlLimits } from '../config/schema.js';
import type { SimEngine } from '../engine.js';
import { DepositInputError, depositView, simulateDeposit } from '../money/deposits.js';
import { forceWithdrawalOutcome, withdrawalView } from '../money/withdrawals.js';
import { forceMarginOutcome } from '../money/margin.js';
import { liquidate } from '../liquidation/liquidation.js';
import { orderRecord } from '../orders/views.js';
import { fillResting } from '../orders/triggers.js';
import { localOnlyRefusal } from './localOnly.js';
import { parseStormFactor } from '../venue/stormFactor.js';

export interface ControlVenue {
  setMark(venueSymbol: string, price: string): void;
  getMark(venueSymbol: string): string;
  setFundingRate(venueSymbol: string, rate: string): void;
  stop(): void;
  isFollowed(venueSymbol: string): boolean;
  setStorm(factor: number): void;
  storm(): unknown;
}

export interface ControlDeps {
  engine: SimEngine;
  venue: ControlVenue;
  /** The venue's WebSocket hub: chaos drops its clients. */
  venueSockets: { dropAll(): void };
  clock: SimClock;
  /** Saves the state file; returns its path, or null when no state file is configured. */
  save(): string | null;
  /** The upstream feed's status when the venue follows a real one (perps sim --follow-venue), else null. */
  follow?: () => unknown;
}

// The one decimal grammar of src/shared: the control API takes what every other input takes.
const decimalText = decimalIn;
const signedDecimalText = signedDecimalIn;

const DepositBody = z.object({
  wallet: z.string(),
  amount: decimalText,
  rail: z.string().default('hypercore'),
  source: z.enum(['send', 'spotTransfer', 'internalTransfer']).optional(),
});
const StormBody = z.object({ factor: z.union([z.number(), z.string()]) });
const MarkBody = z.object({ market: z.string(), price: decimalText });
const AdvanceBody = z.object({ ms: z.number().int().nonnegative() });
const WithdrawalOutcomeBody = z.object({
  withdrawal_id: z.string().optional(),
  next: z.literal(true).optional(),
  outcome: z.enum(['REFUNDED', 'FAILED', 'REJECTED']),
});
const MarginOutcomeBody = z.object({
  request_id: z.string().optional(),
  next: z.literal(true).optional(),
  outcome: z.enum(['TRANSFER_DECLINED', 'DECLINED']),
});
const OrderOutcomeBody = z.object({ order_id: z.string().optional(), next: z.literal(true).optional(), outcome: z.literal('FAILED') });
const FillRestingBody = z.object({ order_id: z.string(), size: z.string() });
const LiquidateBody = z.object({ wallet: z.string().optional(), account_id: z.string().optional(), market: z.string(), orphan: z.boolean().optional() });
const FundingRateBody = z.object({ market: z.string(), rate: signedDecimalText });

/** The 400 for a number outside its control limit: the field, the range, and the config key behind it. */
function outOfRange(field: string, range: string, limitKey: keyof ControlLimits): ApiFailure {
  return invalidRequest(`${field}: must be ${range} (control_limits.${limitKey} of the simulator config)`);
}

function exactlyOne(a: unknown, b: unknown, names: string): void {
  if ((a === undefined) === (b === undefined)) throw invalidRequest(`${names}: give exactly one`);
}

export function createControlModule(deps: ControlDeps): RouteModule {
  const { engine, venue, clock } = deps;
  const ctx = () => engine.ctx;
  const limits = (): ControlLimits => ctx().config.control_limits;
  const marketOf = (symbol: string) => {
    const m = ctx().markets.get(symbol);
    if (!m) throw invalidRequest(`market: unknown market ${JSON.stringify(symbol)}`);
    return m;
  };
  const walletOf = (raw: string, field: string): string => {
    try {
      return toChecksumAddress(raw, field).toLowerCase();
    } catch (err) {
      throw invalidRequest((err as Error).message);
    }
  };

  const handlers: Record<string, (req: SimRequest) => unknown> = {
    'GET /state': () => {
      const c = ctx();
      const accounts = [...c.store.accounts.values()].map((a) => ({
        wallet: toChecksumAddress(a.wallet),
        account_id: a.wallet + '0'.repeat(24),
        free_balance: a.free,
        positions: [...(c.store.positions.get(a.wallet)?.values() ?? [])],
        live_orders: [...c.store.liveOf(a.wallet)].map(orderRecord),
      }));
      return {
        now: clock.now(),
        manual_clock: clock.manual,
        environment: c.env.environment,
        trading_chain_id: c.env.tradingChainId,
        arbitrum_chain_id: c.env.arbitrumChainId,
        chaos: c.chaos,
        timings: c.timings,
        marks: Object.fromEntries(c.markets.all().map((m) => [m.symbol, venue.getMark(m.venueSymbol)])),
        accounts,
        pending_jobs: c.jobs.size(),
        job_errors: c.jobs.errors,
        counts: { orders: c.store.orders.size, withdrawals: c.store.withdrawals.size, deposits: c.store.deposits.size, margin_requests: c.store.margin.size },
      };
    },
    'GET /config': () => ctx().config,
    // Where prices come from: {mode: 'walk'}, or the upstream feed's state and which markets follow it.
    'GET /follow': () => {
      const status = deps.follow?.() ?? null;
      return status === null ? { mode: 'walk' } : { mode: 'follow', ...(status as object) };
    },
    'POST /deposit': (req) => {
      const b = parseOr400(DepositBody, jsonBody(req));
      const { max_deposit } = limits();
      if (parseDecimal(b.amount).gt(max_deposit)) throw outOfRange('amount', `above 0 and at most ${max_deposit} USDC`, 'max_deposit');
      try {
        return depositView(simulateDeposit(ctx(), { wallet: b.wallet, amount: b.amount, rail: b.rail, ...(b.source ? { source: b.source } : {}) }));
      } catch (err) {
        if (err instanceof DepositInputError || (err as Error).name === 'IdentifierError') throw invalidRequest((err as Error).message);
        throw err;
      }
    },
    'POST /mark': (req) => {
      const b = parseOr400(MarkBody, jsonBody(req));
      const m = marketOf(b.market);
      const { max_mark } = limits();
      if (canonical(b.price) === '0' || parseDecimal(b.price).gt(max_mark)) throw outOfRange('price', `above 0 and at most ${max_mark}`, 'max_mark');
      if (venue.isFollowed(m.venueSymbol)) throw invalidRequest(`market: ${m.symbol} follows the upstream venue; its mark comes from there`);
      venue.setMark(m.venueSymbol, b.price);
      return { market: m.symbol, venue_symbol: m.venueSymbol, mark: venue.getMark(m.venueSymbol), now: clock.now() };
    },
    'POST /advance': (req) => {
      const b = parseOr400(AdvanceBody, jsonBody(req));
      const { max_advance_ms } = limits();
      if (b.ms > max_advance_ms) throw outOfRange('ms', `an integer from 0 to ${max_advance_ms}; advance a longer span in several calls`, 'max_advance_ms');
      const before = ctx().jobs.errors.length;
      clock.advance(b.ms);
      const errors = ctx().jobs.errors.slice(before);
      if (errors.length > 0) throw new ApiFailure(500, 'INTERNAL_ERROR', `simulator job failed during advance: ${errors.map((e) => `${e.kind}: ${e.message.split('\n')[0]}`).join('; ')}`);
      return { now: clock.now() };
    },
    'POST /chaos': (req) => {
      const b = parseOr400(ChaosSchema.partial(), jsonBody(req));
      const c = ctx();
      c.chaos = { ...c.chaos, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) };
      return c.chaos;
    },
    'POST /withdrawal-outcome': (req) => {
      const b = parseOr400(WithdrawalOutcomeBody, jsonBody(req));
      exactlyOne(b.withdrawal_id, b.next, 'withdrawal_id / next');
      if (b.next) {
        ctx().store.forcedNext.withdrawal = b.outcome;
        return { next: b.outcome };
      }
      try {
        return withdrawalView(forceWithdrawalOutcome(ctx(), b.withdrawal_id!, b.outcome));
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
    },
    'POST /margin-outcome': (req) => {
      const b = parseOr400(MarginOutcomeBody, jsonBody(req));
      exactlyOne(b.request_id, b.next, 'request_id / next');
      if (b.next) {
        ctx().store.forcedNext.margin = b.outcome;
        return { next: b.outcome };
      }
      try {
        const r = forceMarginOutcome(ctx(), b.request_id!, b.outcome);
        return { request_id: r.request_id, status: r.status, reason: r.reason };
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
    },
    'POST /order-outcome': (req) => {
      const b = parseOr400(OrderOutcomeBody, jsonBody(req));
      exactlyOne(b.order_id, b.next, 'order_id / next');
      if (b.next) {
        ctx().store.forcedNext.orderFailed = true;
        return { next: b.outcome };
      }
      const order = ctx().store.orders.get(b.order_id!);
      if (!order) throw invalidRequest(`order_id: unknown order ${b.order_id}`);
      if (order.status !== 'SUBMITTED' || order.order_type === 'TRIGGER') throw invalidRequest(`order_id: only a SUBMITTED non-trigger order can be failed (it is ${order.status})`);
      order.forced_failure = true;
      return orderRecord(order);
    },
    'POST /fill-resting': (req) => {
      const b = parseOr400(FillRestingBody, jsonBody(req));
      const order = ctx().store.orders.get(b.order_id);
      if (!order) throw invalidRequest(`order_id: unknown order ${b.order_id}`);
      if (order.order_type !== 'LIMIT' || order.time_in_force === 'IOC' || order.status !== 'ACCEPTED') throw invalidRequest(`order_id: only a resting LIMIT can be filled (it is ${order.order_type} ${order.status})`);
      let size;
      try {
        size = parseDecimal(b.size, 'size');
      } catch (err) {
        throw invalidRequest((err as Error).message);
      }
      if (!size.gt(0)) throw invalidRequest('size: must be greater than 0');
      fillResting(ctx(), order, size);
      return orderRecord(order);
    },
    'POST /liquidate': (req) => {
      const b = parseOr400(LiquidateBody, jsonBody(req));
      exactlyOne(b.wallet, b.account_id, 'wallet / account_id');
      let wallet: string;
      if (b.wallet !== undefined) wallet = walletOf(b.wallet, 'wallet');
      else {
        try {
          wallet = parseAccountId(b.account_id).slice(0, 42);
        } catch (err) {
          throw invalidRequest((err as Error).message);
        }
      }
      const m = marketOf(b.market);
      const order = liquidate(ctx(), wallet, m.symbol, b.orphan ? 'ORPHAN_LIQUIDATION' : 'LIQUIDATION');
      if (!order) throw invalidRequest(`market: no open position on ${m.symbol}`);
      return orderRecord(order);
    },
    'POST /funding-rate': (req) => {
      const b = parseOr400(FundingRateBody, jsonBody(req));
      const { max_funding_rate } = limits();
      if (parseDecimal(b.rate).abs().gt(max_funding_rate)) throw outOfRange('rate', `from -${max_funding_rate} to ${max_funding_rate}`, 'max_funding_rate');
      const m = marketOf(b.market);
      if (venue.isFollowed(m.venueSymbol)) throw invalidRequest(`market: ${m.symbol} follows the upstream venue; its funding rate comes from there`);
      venue.setFundingRate(m.venueSymbol, b.rate);
      return { market: m.symbol, rate: b.rate };
    },
    'POST /freeze-marks': () => {
      venue.stop();
      return { frozen: true };
    },
    'GET /storm': () => venue.storm(),
    'POST /storm': (req) => {
      const b = parseOr400(StormBody, jsonBody(req));
      let factor: number;
      try {
        factor = parseStormFactor(b.factor);
      } catch (err) {
        throw invalidRequest(`factor: ${(err as Error).message}`);
      }
      venue.setStorm(factor);
      return venue.storm();
    },
    'POST /drop-sockets': () => {
      deps.venueSockets.dropAll();
      return { dropped: true };
    },
    'POST /save': () => {
      const file = deps.save();
      if (file === null) throw invalidRequest('no state file: start the simulator with --state FILE');
      return { saved: file };
    },
  };

  return {
    handle(req: SimRequest): SimResponse {
      const refusal = localOnlyRefusal(req);
      if (refusal) return errorResponse(refusal.status, refusal.code, refusal.message, clock.now());
      const handler = handlers[`${req.method} ${req.path}`];
      if (!handler) return errorResponse(404, 'NOT_FOUND', `no control route ${req.method} /sim${req.path}`, clock.now());
      try {
        return okResponse(handler(req), clock.now());
      } catch (err) {
        if (err instanceof ApiFailure) return errorResponse(err.status, err.code, err.message, clock.now());
        throw err;
      }
    },
  };
}
