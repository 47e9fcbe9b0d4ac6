/**
 * What a typed command asks for (src/shared/commands/phraseGrammar.ts reads it), in the terms the app's
 * own actions already use: an order becomes the ticket's SingleIntent, a TWAP the ticket's twap:preview
 * request, a close the positions:close request. The palette and `perps do` hand these to the same
 * prepare step and the same review as the ticket and `perps order place`; nothing here signs.
 */
import type { BracketIntent, SingleIntent } from '../orders/intents.js';
import type { TwapPreviewRequest } from '../ipc/twap.js';
import type { CommandView } from './commandViews.js';

export type CommandSide = 'BUY' | 'SELL';

/**
 * A market (price null) or limit order of one leg, with the words a trader adds to a phrase: post only,
 * reduce only, a leverage ("10x"), TP/SL levels (a bracket) and a size in USD. The optional fields are
 * present only when the phrase says them.
 */
export interface OrderCommand {
  kind: 'order';
  side: CommandSide;
  market: string;
  /** Canonical decimal text, exactly what was typed (trailing zeros aside): never rounded. With `usd`, the USD amount. */
  size: string;
  /** LIMIT price, on the market's tick; null: at market. */
  price: string | null;
  /** The size is an amount in USD ("250 usd of btc"): the size in the market's unit is worked out at the review. */
  usd?: true;
  /** Post-only (ALO): a limit order that never takes. */
  post_only?: true;
  reduce_only?: true;
  /** "10x": the leverage to sign. */
  leverage?: number;
  /** Whole-position take-profit / stop-loss trigger prices ("with tp 3600 sl 3200"): a bracket. */
  tp?: string;
  sl?: string;
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
    case 'order': {
      const what = c.usd ? `${c.size} USD of ${c.market}` : `${c.size} ${c.market}`;
      const extras = [
        c.post_only ? 'post only' : null,
        c.reduce_only ? 'reduce only' : null,
        c.leverage !== undefined ? `${c.leverage}x` : null,
        c.tp !== undefined ? `TP ${c.tp}` : null,
        c.sl !== undefined ? `SL ${c.sl}` : null,
      ].filter((x): x is string => x !== null);
      return `${sideWord(c.side)} ${what}${c.price === null ? ' at market' : `, limit ${c.price}`}${extras.length > 0 ? `, ${extras.join(', ')}` : ''}`;
    }
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

/**
 * The order ticket's intent for an order command (what the phrase leaves out: main's defaults): a bracket
 * when it names TP/SL levels, else a single order. A USD-sized command needs its size in the market's
 * unit first (`size`, from src/shared/orders/usdSizing.ts at the review's price).
 */
export function orderIntentOf(c: OrderCommand, size: string = c.size): SingleIntent | BracketIntent {
  if (c.usd && size === c.size) throw new Error('internal: a USD-sized order command needs its size worked out first');
  const common = {
    market: c.market,
    side: c.side,
    size,
    ...(c.price === null ? { order_type: 'MARKET' as const } : { order_type: 'LIMIT' as const, limit_price: c.price }),
    ...(c.post_only ? { time_in_force: 'ALO' as const } : {}),
    ...(c.leverage !== undefined ? { leverage: c.leverage } : {}),
  };
  if (c.tp !== undefined || c.sl !== undefined) {
    return { kind: 'bracket', ...common, ...(c.tp !== undefined ? { tp: { trigger_price: c.tp } } : {}), ...(c.sl !== undefined ? { sl: { trigger_price: c.sl } } : {}) };
  }
  return { kind: 'single', ...common, ...(c.reduce_only ? { reduce_only: true } : {}) };
}

/** The ticket's twap:preview request for a TWAP command (leverage and slippage: main's defaults). */
export function twapRequestOf(c: TwapCommand): TwapPreviewRequest {
  return { market: c.market, side: c.side, total_size: c.size, duration_s: c.duration_ms / 1000, slices: c.slices };
}
