/**
 * A chase prepared for review: every setting checked, the book read from the venue's info API and checked
 * as a whole, the first order (a post-only LIMIT at the best bid or ask, or offset ticks inside it) built
 * and checked by every order rule (prepareLegs: the grid, min_order_value, the open-order cap, the free
 * balance, the trader's risk limits), its nonce reserved and its exact typed data made. Nothing is sent.
 */
import { randomBytes } from 'node:crypto';
import { Decimal, canonical, roundToPlaces } from '../../../../shared/decimal/index.js';
import { groupedDecimal } from '../../../../shared/decimal/display.js';
import { checkChaseBook } from '../../../../shared/algos/chase/chaseBook.js';
import type { BestPrices } from '../../../../shared/algos/chase/chasePrice.js';
import { chaseTarget, followedBest, maxDistancePrice, type ChaseSide } from '../../../../shared/algos/chase/chasePrice.js';
import { chaseClientOrderId } from '../../../../shared/algos/chase/chaseRecord.js';
import type { ChaseSettings } from '../../../../shared/algos/chase/chaseFlags.js';
import type { Market } from '../../../../shared/protocol/index.js';
import { OperationError, ValidationError } from '../../errors.js';
import { decimalInput, parseSide } from '../../orders/buildOrder.js';
import { walletIds, type TradingContext } from '../../orders/orderContext.js';
import { prepareLegs, type PreparedOrder } from '../../orders/prepareOrder.js';
import type { PreparedBase } from '../../signing/prepared.js';

export interface ChaseInput {
  wallet: string;
  market: string;
  side: string;
  /** The size to fill; or `usd`, a notional in USDC turned into a size at the first price. */
  size?: string;
  usd?: string;
  settings: ChaseSettings;
  leverage?: number;
}

export interface PreparedChase extends PreparedBase<'chase'> {
  readonly id: string;
  readonly order: PreparedOrder;
  readonly market: Market;
  readonly side: ChaseSide;
  readonly size: string;
  readonly best: BestPrices;
  readonly settings: ChaseSettings;
  readonly leverage: number;
  readonly view: {
    market: string;
    side: ChaseSide;
    size: string;
    price: string;
    best_bid: string;
    best_ask: string;
    tick_size: string;
    offset_ticks: number;
    post_only: true;
    leverage: number;
    max_distance: string | null;
    timeout_ms: number | null;
    interval_ms: number;
    taker_after_ms: number | null;
    on_limit: 'leave' | 'cancel';
    summary: string[];
  };
}

/** The book of `market` now, from the venue's info API, checked as a whole. */
export async function readChaseBook(ctx: Pick<TradingContext, 'venue'>, market: Market): Promise<BestPrices> {
  const raw = await ctx.venue.l2Book(market.venue_symbol);
  const checked = checkChaseBook(raw, market.venue_symbol);
  if (!checked.ok) {
    throw new OperationError('CHASE_BOOK_UNUSABLE', `the venue's ${market.symbol} book cannot be chased: ${checked.problem}; nothing was sent`, { kind: 'transient', hint: 'Try again in a moment.' });
  }
  return checked.best;
}

function seconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

export async function prepareChase(ctx: TradingContext, input: ChaseInput): Promise<PreparedChase> {
  const { wallet } = walletIds(input.wallet);
  const side = parseSide(input.side, 'chase') as ChaseSide;
  if ((input.size === undefined) === (input.usd === undefined)) throw new ValidationError('give the size (--size) or a notional in USDC (--usd), one of them', { field: 'size' });
  const market = await ctx.config.market(input.market);
  if (!market.is_active) throw new ValidationError(`${market.symbol} is not active`, { field: 'market' });
  const best = await readChaseBook(ctx, market);
  const s = input.settings;
  const price = chaseTarget(side, best, s.offset_ticks, market.tick_size);
  if (price === null) throw new OperationError('CHASE_BOOK_UNUSABLE', `no post-only price on ${market.symbol}'s grid rests below the best ask ${best.ask}; nothing was sent`, { kind: 'transient' });
  let size: string;
  let sizeNote = '';
  if (input.size !== undefined) size = decimalInput(input.size, 'chase', 'size');
  else {
    const usd = new Decimal(decimalInput(input.usd, 'chase', 'usd'));
    if (!usd.gt(0)) throw new ValidationError('must be greater than 0', { field: 'chase.usd' });
    const sized = roundToPlaces(usd.div(price), market.sz_decimals, 'down');
    if (!sized.gt(0)) throw new ValidationError(`${canonical(usd)} USDC is less than the smallest size of ${market.symbol} at ${price}`, { field: 'chase.usd' });
    size = canonical(sized);
    sizeNote = ` (${groupedDecimal(canonical(usd))} USDC at ${groupedDecimal(price)}, down to ${market.sz_decimals} decimal places)`;
  }
  if (s.max_distance?.kind === 'price' && new Decimal(s.max_distance.value).lt(market.tick_size)) {
    throw new ValidationError(`a max distance of ${s.max_distance.value} is less than one tick (${market.tick_size}) of ${market.symbol}: the chase could never follow`, { field: 'max-distance' });
  }
  const id = randomBytes(6).toString('hex');
  const order = await prepareLegs(ctx, {
    wallet,
    legs: [{ market: market.symbol, side, size, order_type: 'LIMIT', limit_price: price, time_in_force: 'ALO', client_order_id: chaseClientOrderId(id, 1), ...(input.leverage !== undefined ? { leverage: input.leverage } : {}) }],
    labels: ['chase'],
    kind: 'chase',
  });
  const leg = order.legs[0]!;
  const leverage = leg.leverage!;
  const startBest = followedBest(side, best);
  const limitText = s.max_distance === null ? null : s.max_distance.kind === 'percent' ? `${s.max_distance.value}%` : s.max_distance.value;
  const summary = [
    `${side === 'BUY' ? 'Buy' : 'Sell'} ${leg.size} ${market.symbol}${sizeNote} post-only at ${groupedDecimal(price)} (best bid ${groupedDecimal(best.bid)}, ask ${groupedDecimal(best.ask)}${s.offset_ticks > 0 ? `, ${s.offset_ticks} tick${s.offset_ticks === 1 ? '' : 's'} inside` : ''}), ${leverage}x${input.leverage === undefined ? ' (your default for the market)' : ''}`,
    `It follows the best ${side === 'BUY' ? 'bid' : 'ask'} by Modify, whole ticks of ${market.tick_size}, at most once every ${seconds(s.interval_ms)}, until it fills`,
    ...(limitText !== null ? [`It stops when the best ${side === 'BUY' ? 'bid' : 'ask'} is ${limitText} (${groupedDecimal(canonical(maxDistancePrice(s.max_distance!, startBest)))}) from ${groupedDecimal(startBest)}, and ${s.on_limit === 'cancel' ? 'cancels' : 'leaves'} the order`] : []),
    ...(s.timeout_ms !== null ? [`After ${seconds(s.timeout_ms)} it stops and ${s.on_limit === 'cancel' ? 'cancels' : 'leaves'} the order`] : []),
    ...(s.taker_after_ms !== null ? [`After ${seconds(s.taker_after_ms)} it crosses: an IOC limit for the remainder within ${market.slippage_bps} bps of the mark (the taker rate)`] : []),
  ];
  return {
    action: 'chase',
    profile: ctx.profile.name,
    wallet,
    signer: order.signer,
    requests: order.requests,
    id,
    order,
    market,
    side,
    size: leg.size,
    best,
    settings: s,
    leverage,
    view: {
      market: market.symbol,
      side,
      size: leg.size,
      price,
      best_bid: best.bid,
      best_ask: best.ask,
      tick_size: market.tick_size,
      offset_ticks: s.offset_ticks,
      post_only: true,
      leverage,
      max_distance: limitText,
      timeout_ms: s.timeout_ms,
      interval_ms: s.interval_ms,
      taker_after_ms: s.taker_after_ms,
      on_limit: s.on_limit,
      summary,
    },
  };
}
