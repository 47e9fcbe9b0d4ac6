/**
 * What a typed command asks for (src/shared/commands/phraseGrammar.ts reads it), in the terms the app's
 * own actions already use: an order becomes the ticket's SingleIntent, a TWAP the ticket's twap:preview
 * request, a close the positions:close request. The palette and `perps do` hand these to the same
 * prepare step and the same review as the ticket and `perps order place`; nothing here signs.
 */
import type { SingleIntent } from '../orders/intents.js';
import type { TwapPreviewRequest } from '../ipcTwap.js';
import type { CommandView } from './commandViews.js';

export type CommandSide = 'BUY' | 'SELL';

/** A market (price null) or limit order of one leg. */
export interface OrderCommand {
  kind: 'order';
  side: CommandSide;
  market: string;
  /** Canonical decimal text, exactly what was typed (trailing zeros aside): never rounded. */
  size: string;
  /** LIMIT price, on the market's tick; null: at market. */
  price: string | null;
}

/** Close one position at market: all that is closeable (percent null) or a percentage of it. */
export interface CloseCommand {
  kind: 'close';
  market: string;
  /** 1 to 100 (decimal text), below 100; null: the whole closeable size. */
  percent: string | null;
}

export interface CloseAllCommand {
  kind: 'close_all';
}

/** Cancel every open order (resting, triggers, bracket legs) on one market, or on every market (null). */
export interface CancelAllCommand {
  kind: 'cancel_all';
  market: string | null;
}

/** A TWAP: `size` sent as market slices over `duration`. */
export interface TwapCommand {
  kind: 'twap';
  side: CommandSide;
  market: string;
  size: string;
  /** The duration as the one grammar writes it ("30m", "1h30m"). */
  duration: string;
  duration_ms: number;
  slices: number;
}

/** Go to a view. */
export interface ViewCommand {
  kind: 'view';
  view: CommandView;
}

/** Open a market in the Trade view. */
export interface MarketCommand {
  kind: 'market';
  market: string;
}

export type TradeCommand = OrderCommand | CloseCommand | CloseAllCommand | CancelAllCommand | TwapCommand;
export type CommandIntent = TradeCommand | ViewCommand | MarketCommand;

const TRADE_KINDS: ReadonlySet<CommandIntent['kind']> = new Set(['order', 'close', 'close_all', 'cancel_all', 'twap']);

/** A command that would sign something once reviewed (as opposed to going somewhere). */
export function isTradeCommand(c: CommandIntent): c is TradeCommand {
  return TRADE_KINDS.has(c.kind);
}

const sideWord = (s: CommandSide): string => (s === 'BUY' ? 'Buy' : 'Sell');

/** The command in a trader's words, as the palette lists it and `perps do` says it before the review. */
export function describeCommand(c: CommandIntent): string {
  switch (c.kind) {
    case 'order':
      return c.price === null ? `${sideWord(c.side)} ${c.size} ${c.market} at market` : `${sideWord(c.side)} ${c.size} ${c.market}, limit ${c.price}`;
    case 'close':
      return c.percent === null ? `Close the whole ${c.market} position at market` : `Close ${c.percent}% of the ${c.market} position at market`;
    case 'close_all':
      return 'Close every open position at market';
    case 'cancel_all':
      return c.market === null ? 'Cancel every open order on every market' : `Cancel every open order on ${c.market}`;
    case 'twap':
      return `TWAP: ${sideWord(c.side).toLowerCase()} ${c.size} ${c.market} over ${c.duration} in ${c.slices} market slices`;
    case 'view':
      return `Go to ${c.view.charAt(0).toUpperCase()}${c.view.slice(1)}`;
    case 'market':
      return `Open the ${c.market} market`;
  }
}

/** The order ticket's intent for an order command (leverage, time in force and the bound: main's defaults). */
export function orderIntentOf(c: OrderCommand): SingleIntent {
  return c.price === null
    ? { kind: 'single', market: c.market, side: c.side, order_type: 'MARKET', size: c.size }
    : { kind: 'single', market: c.market, side: c.side, order_type: 'LIMIT', size: c.size, limit_price: c.price };
}

/** The ticket's twap:preview request for a TWAP command (leverage and slippage: main's defaults). */
export function twapRequestOf(c: TwapCommand): TwapPreviewRequest {
  return { market: c.market, side: c.side, total_size: c.size, duration_s: c.duration_ms / 1000, slices: c.slices };
}
