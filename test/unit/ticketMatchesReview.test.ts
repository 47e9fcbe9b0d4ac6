/**
 * The ticket and the review show the same notional, fee and margin: the app's ticket (checkTicket) and
 * main's prepare step (prepareOrder's review) cost the same order with the same shared function, taking
 * the MARKET bound, the open position an order first closes, and a whole-position trigger's size into
 * account. Each case is the ticket's own intent prepared against the same marks and positions.
 */
import { describe, expect, it } from 'vitest';
import { prepareOrder } from '../../src/main/services/orders/index.js';
import { checkTicket, initialTicket, toIntent, type TicketState } from '../../src/renderer/src/features/orderTicket/ticketModel.js';
import { Decimal } from '../../src/shared/decimal/index.js';
import type { MarketView } from '../../src/shared/ipc.js';
import type { Market, Position } from '../../src/shared/protocol/index.js';
import { BTC, MAIN, position, tradingWorld } from './services/tradingFakes.js';

const MARK = '60000';

function view(m: Market): MarketView {
  return { ...m, joined: true, mark: MARK, oracle: MARK, mid: MARK, prev_day_px: MARK, change_24h: '0', funding_rate: '0', open_interest: '1', day_volume: '1' } as MarketView;
}

const six = (d: Decimal | null): string | null => (d === null ? null : d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed());

const CASES: { name: string; ticket: Partial<TicketState>; positions?: Position[]; slippageBps?: number }[] = [
  { name: 'a resting limit buy', ticket: { type: 'LIMIT', size: '0.1', price: '59000', leverage: 5 } },
  { name: 'a limit buy that crosses the mark (taker)', ticket: { type: 'LIMIT', size: '0.1', price: '60500', leverage: 5 } },
  { name: 'a market buy, costed at its bound', ticket: { type: 'MARKET', size: '0.1', leverage: 3 } },
  { name: 'a market buy with the user’s slippage', ticket: { type: 'MARKET', size: '0.25', leverage: 10 }, slippageBps: 120 },
  { name: 'a market sell', ticket: { type: 'MARKET', side: 'SELL', size: '0.1', leverage: 2 } },
  { name: 'a sell against a smaller long: only the rest opens', ticket: { type: 'LIMIT', side: 'SELL', size: '0.3', price: '61000', leverage: 4 }, positions: [position({ market: 'BTC', size: '0.1' })] },
  { name: 'a bracket', ticket: { type: 'LIMIT', size: '0.1', price: '59000', leverage: 5, bracket: true, tp: '65000', sl: '55000' } },
  { name: 'a reduce-only limit', ticket: { type: 'LIMIT', side: 'SELL', size: '0.1', price: '61000', reduceOnly: true }, positions: [position({ market: 'BTC', size: '0.2' })] },
  {
    name: 'a whole-position stop loss',
    ticket: { type: 'TRIGGER', side: 'SELL', tpsl: 'SL', triggerPrice: '55000', closeWhole: true, reduceOnly: true },
    positions: [position({ market: 'BTC', size: '0.2' })],
  },
];

describe('the ticket and the review agree', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const t: TicketState = { ...initialTicket(1), ...c.ticket };
      const slippage = c.slippageBps ?? null;
      const check = checkTicket(t, view(BTC), MARK, { positions: c.positions ?? [], slippageBps: slippage });
      expect(check.ok, JSON.stringify(check.errors)).toBe(true);
      const w = tradingWorld({ marks: { BTC: MARK }, ...(c.positions ? { positions: c.positions } : {}) });
      const p = await prepareOrder(w.ctx, { wallet: MAIN, intent: toIntent(t, view(BTC), slippage), allow: { farPrice: true, large: true } });
      // (The app prepares with the guards allowed and has the person confirm them; they do not change costs.)
      expect(six(check.notional)).toBe(p.view.total_notional);
      expect(six(check.fee)).toBe(p.view.total_fee_estimate);
      expect(six(check.margin)).toBe(p.view.margin_required);
      expect(check.feeKind).toBe(p.view.legs[0]!.fee_kind);
      // The price the ticket shows as the order's (a market order's worst price) is the one signed.
      expect(check.sentPrice?.toFixed()).toBe(p.legs[0]!.limit_price);
    });
  }
});
