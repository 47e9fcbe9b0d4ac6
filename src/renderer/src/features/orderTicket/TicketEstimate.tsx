/** The ticket's order estimate: what the order costs and leaves, for the type picked (single, scale ladder, TWAP, OCO pair, chase). */
import type { OcoLegsCheck } from '../../../../shared/algos/ocoLegs';
import type { MarketView } from '../../../../shared/ipc';
import { dec, fmt, fmtPct, fmtUsd } from '../../lib/decimal';
import { KV, KVList } from '../../ui/Panel';
import type { TwapCheck } from '../twap/twapTicket';
import type { ChaseCheck } from '../chase/chaseTicket';
import type { ScaleCheck } from './scaleTicket';
import { TicketPositionAfterRows } from './TicketPositionAfter';
import type { TicketCheck, TicketState } from './ticketModel';

export function TicketEstimate({ t, market, mark, freeBalance, check, scaleCheck, twapCheck, twapSlices, ocoCheck, chaseCheck }: { t: TicketState; market: MarketView; mark: string | null; freeBalance: string | undefined; check: TicketCheck; scaleCheck: ScaleCheck | null; twapCheck: TwapCheck | null; twapSlices: string; ocoCheck: OcoLegsCheck | null; chaseCheck?: ChaseCheck | null }) {
  return (
    <div className="ticket-summary">
      {scaleCheck ? (
        <KVList label="Order estimate">
          <KV k="Notional (all legs)">{fmtUsd(scaleCheck.notional)}</KV>
          <KV k="Fees if all fill">{fmtUsd(scaleCheck.fee)}</KV>
          {!t.reduceOnly && <KV k="Margin required">{fmtUsd(scaleCheck.margin)}</KV>}
          <KV k="Free balance">{fmtUsd(freeBalance)}</KV>
          {market.min_order_value && <KV k="Min order value (each leg)">{fmtUsd(market.min_order_value)}</KV>}
        </KVList>
      ) : ocoCheck ? (
        <KVList label="Order estimate">
          <KV k="Buy leg value">{fmtUsd(ocoCheck.buyValue)}</KV>
          <KV k="Sell leg value">{fmtUsd(ocoCheck.sellValue)}</KV>
          <KV k={`Margin per leg at ${t.leverage}x`}>{fmtUsd(ocoCheck.sellValue?.div(t.leverage) ?? null)}</KV>
          <KV k="Free balance">{fmtUsd(freeBalance)}</KV>
        </KVList>
      ) : chaseCheck ? (
        <KVList label="Order estimate">
          <KV k="Notional (at the mark)">{fmtUsd(dec(t.size) && dec(mark) ? dec(t.size)!.mul(dec(mark)!) : null)}</KV>
          <KV k={`Fee (maker ${fmtPct(market.maker_fee_rate, 3)})`}>{fmtUsd(dec(t.size) && dec(mark) && dec(market.maker_fee_rate) ? dec(t.size)!.mul(dec(mark)!).mul(dec(market.maker_fee_rate)!) : null)}</KV>
          <KV k={`Margin at ${t.leverage}x`}>{fmtUsd(dec(t.size) && dec(mark) ? dec(t.size)!.mul(dec(mark)!).div(t.leverage) : null)}</KV>
          <KV k="Free balance">{fmtUsd(freeBalance)}</KV>
          {market.min_order_value && <KV k="Min order value">{fmtUsd(market.min_order_value)}</KV>}
        </KVList>
      ) : twapCheck ? (
        <KVList label="Order estimate">
          <KV k="Notional (at the mark)">{fmtUsd(dec(t.size) && dec(mark) ? dec(t.size)!.mul(dec(mark)!) : null)}</KV>
          <KV k="Slices">{twapCheck.intervalS !== null ? `${twapSlices} × ~${fmt(twapCheck.sliceSize?.toDecimalPlaces(market.sz_decimals) ?? null)}` : '—'}</KV>
          <KV k="Free balance">{fmtUsd(freeBalance)}</KV>
          {market.min_order_value && <KV k="Min order value (each slice)">{fmtUsd(market.min_order_value)}</KV>}
        </KVList>
      ) : (
        <KVList label="Order estimate">
          <KV k="Notional">{fmtUsd(check.notional)}</KV>
          <KV k={`Fee (${check.feeKind} ${fmtPct(check.feeRate, 3)})`}>{fmtUsd(check.fee)}</KV>
          {t.type !== 'TRIGGER' && !t.reduceOnly && <KV k="Margin required">{fmtUsd(check.margin)}</KV>}
          {check.positionAfter !== undefined && <TicketPositionAfterRows after={check.positionAfter} market={market} />}
          <KV k="Free balance">{fmtUsd(freeBalance)}</KV>
          {market.min_order_value && <KV k="Min order value">{fmtUsd(market.min_order_value)}</KV>}
        </KVList>
      )}
    </div>
  );
}
