/** The ticket's OCO fields: the buy leg's price below the mark and the sell leg's above it (the size and leverage are the ticket's). */
import type { MarketView } from '../../../../shared/ipc';
import type { OcoLegsCheck } from '../../../../shared/algos/ocoLegs';
import { fmt, fmtUsd } from '../../lib/decimal';
import { TextField } from '../../ui/Field';
import type { OcoFields } from './ocoTicket';

export function OcoSection({ market, mark, fields, check, refused, onChange }: { market: MarketView; mark: string | null; fields: OcoFields; check: OcoLegsCheck; refused: { buy?: string | undefined; sell?: string | undefined }; onChange: (patch: Partial<OcoFields>) => void }) {
  return (
    <>
      <div className="ticket-row">
        <TextField label="Buy price (below the mark)" inputMode="decimal" value={fields.buy} onChange={(e) => onChange({ buy: e.target.value })} suffix="USD" error={(fields.buy ? check.errors.buy : undefined) ?? refused.buy} hint={`Mark ${fmt(mark)}`} />
        <TextField label="Sell price (above the mark)" inputMode="decimal" value={fields.sell} onChange={(e) => onChange({ sell: e.target.value })} suffix="USD" error={(fields.sell ? check.errors.sell : undefined) ?? refused.sell} hint={`Tick ${market.tick_size}`} />
      </div>
      <p className="ticket-note">
        Two resting limit orders (GTC): the first fill of either cancels the other at once. Watched by the app, in the tray too; cancel both from the OCO tab.
        {check.buyValue && check.sellValue && (
          <>
            {' '}
            Each leg about <span className="num strong">{fmtUsd(check.buyValue)}</span> / <span className="num strong">{fmtUsd(check.sellValue)}</span>.
          </>
        )}
      </p>
    </>
  );
}
