/**
 * The Scale tab's fields and its ladder: from and to prices, the number of legs, the total size and the
 * skew, then every rung (price and size) as it will be sent, with the totals. The rungs are also drawn on
 * the chart while the ticket shows them (uiStore's `ladder`).
 */
import { useEffect } from 'react';
import type { MarketView } from '../../../../shared/ipc';
import { setUi } from '../../app/uiStore';
import { fmt, fmtUsd, placesOfStep } from '../../lib/decimal';
import { TextField } from '../../ui/Field';
import type { ScaleCheck, ScaleFields } from './scaleTicket';

export function ScaleSection({ market, fields, check, onChange, mark }: { market: MarketView; fields: ScaleFields; check: ScaleCheck; onChange: (patch: Partial<ScaleFields>) => void; mark: string | null }) {
  const places = placesOfStep(market.tick_size);
  const rungs = check.rungs;
  // The ladder on the chart follows the ticket; it leaves with the Scale tab.
  useEffect(() => {
    setUi({ ladder: rungs ? { market: market.symbol, rungs: rungs.map((r) => ({ price: r.price, size: r.size })) } : null });
  }, [rungs, market.symbol]);
  useEffect(() => () => setUi({ ladder: null }), []);
  const shown = (v: string) => (v ? check.errors : {});
  return (
    <>
      <div className="ticket-row">
        <TextField label="From price" inputMode="decimal" value={fields.from} onChange={(e) => onChange({ from: e.target.value })} error={shown(fields.from).from} hint="First leg" />
        <TextField label="To price" inputMode="decimal" value={fields.to} onChange={(e) => onChange({ to: e.target.value })} error={shown(fields.to).to} hint={`Mark ${fmt(mark, { places })}`} />
      </div>
      <div className="ticket-row">
        <TextField label="Legs" inputMode="numeric" value={fields.count} onChange={(e) => onChange({ count: e.target.value })} error={check.errors.count} hint="2 to 20, one batch" />
        <TextField label="Skew" inputMode="decimal" value={fields.skew} onChange={(e) => onChange({ skew: e.target.value })} error={check.errors.skew} hint="Last leg ÷ first (1 = equal)" />
      </div>
      <TextField label={`Total size (${market.symbol})`} inputMode="decimal" value={fields.total} onChange={(e) => onChange({ total: e.target.value })} error={shown(fields.total).total} suffix={market.symbol} />
      {check.errors.form && <p className="error-line">{check.errors.form}</p>}
      {rungs && (
        <table className="ladder" aria-label="Scale ladder">
          <thead>
            <tr>
              <th scope="col">Leg</th>
              <th scope="col">Price</th>
              <th scope="col">Size</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {rungs.map((r) => (
              <tr key={r.index}>
                <td>{r.index + 1}</td>
                <td className="num">{fmt(r.price, { places })}</td>
                <td className="num">{fmt(r.size)}</td>
                <td className="num">{fmtUsd(r.notional)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {check.averagePrice && <p className="ticket-note">Average price if every leg fills: <span className="num strong">{fmt(check.averagePrice, { places: places + 1 })}</span></p>}
    </>
  );
}
