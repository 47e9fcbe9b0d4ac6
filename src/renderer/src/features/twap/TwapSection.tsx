/** The TWAP tab's own fields in the order ticket: duration, slices and the randomization bounds. */
import type { MarketView } from '../../../../shared/ipc';
import { fmt, fmtUsd } from '../../lib/decimal';
import { TextField } from '../../ui/Field';
import type { TwapCheck, TwapFields } from './twapTicket';

export function TwapSection({ market, fields, check, onChange }: { market: MarketView; fields: TwapFields; check: TwapCheck; onChange: (patch: Partial<TwapFields>) => void }) {
  return (
    <>
      <div className="ticket-row">
        <TextField label="Duration" value={fields.duration} onChange={(e) => onChange({ duration: e.target.value })} error={check.errors.duration} hint="such as 90s, 30m, 1h30m" />
        <TextField label="Slices" inputMode="numeric" value={fields.slices} onChange={(e) => onChange({ slices: e.target.value })} error={check.errors.slices} hint={check.intervalS !== null ? `every ${check.intervalS.toFixed(check.intervalS % 1 === 0 ? 0 : 1)} s` : undefined} />
      </div>
      <div className="ticket-row">
        <TextField label="Randomize time ±%" inputMode="numeric" value={fields.randomizeTimePct} onChange={(e) => onChange({ randomizeTimePct: e.target.value })} error={check.errors.randomizeTimePct} hint="of the interval" />
        <TextField label="Randomize size ±%" inputMode="numeric" value={fields.randomizeSizePct} onChange={(e) => onChange({ randomizeSizePct: e.target.value })} error={check.errors.randomizeSizePct} hint="total stays exact" />
      </div>
      {check.sliceSize && (
        <p className="ticket-note">
          Market IOC slices of about <span className="num strong">{fmt(check.sliceSize.toDecimalPlaces(market.sz_decimals))} {market.symbol}</span> ({fmtUsd(check.sliceValue)}), each bounded by the mark at its time. Runs in the app until done; pause or cancel it from the TWAP tab.
        </p>
      )}
    </>
  );
}
