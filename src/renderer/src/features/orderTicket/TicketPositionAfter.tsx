/** The ticket's "position after" rows: the position the order would leave, with its liquidation estimate. */
import type { MarketView } from '../../../../shared/ipc';
import { fmt, placesOfStep } from '../../lib/decimal';
import { KV } from '../../ui/Panel';
import { liquidationText } from '../risk/liquidation';
import type { TicketPositionAfter } from './ticketModel';

export /** The position the order would leave, with its liquidation estimate (after this fill, with this leverage). */
function TicketPositionAfterRows({ after, market }: { after: TicketPositionAfter | null; market: MarketView }) {
  if (after === null) return <KV k="Position after">flat</KV>;
  const places = placesOfStep(market.tick_size);
  return (
    <>
      <KV k="Position after (est.)">
        {after.size.isNegative() ? 'SHORT' : 'LONG'} {fmt(after.size.abs())} @ {fmt(after.entry_price, { places })}
      </KV>
      <KV k="Liq. price after (est.)" tone="liq">
        {liquidationText(after.size.toFixed(), after.liquidation_price?.toFixed() ?? null, market)}
      </KV>
    </>
  );
}
