/**
 * Settings › Risk: the stop tolerance (issue 35, item 1): how far past its trigger a fired stop-loss
 * (plain, bracket, trailing) may fill. Default 10%, the venue's stop-market tolerance; per market it can
 * differ. The same stored value as `perps config stop-tolerance`; percentages are parsed by the shared
 * rule, so the screen and the command line refuse the same text.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Settings } from '../../../../shared/ipc';
import { bpsAsPercent, parseStopTolerancePercent } from '../../../../shared/orders/stopTolerance';
import { perps, unwrap } from '../../ipc/client';
import { qk, useMarkets } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';

const percentText = (bps: number): string => bpsAsPercent(bps).replace(/%$/, '');

export function StopToleranceForm({ saved }: { saved: Settings }) {
  const client = useQueryClient();
  const markets = useMarkets();
  const [global, setGlobal] = useState(percentText(saved.stop_tolerance_bps));
  const [market, setMarket] = useState('');
  const [marketPct, setMarketPct] = useState('');
  const save = useMutation({
    mutationFn: (patch: Pick<Settings, 'stop_tolerance_bps' | 'stop_tolerance_by_market'>) => unwrap(perps().settings.set(patch)),
    onSuccess: (s) => {
      client.setQueryData(qk.settings, s);
      pushToast({ tone: 'success', title: 'Stop tolerance saved' });
      setMarket('');
      setMarketPct('');
    },
  });
  const globalParsed = parseStopTolerancePercent(global);
  const marketParsed = marketPct.trim() === '' ? null : parseStopTolerancePercent(marketPct);
  const byMarket = saved.stop_tolerance_by_market;
  const symbols = (markets.data?.markets ?? []).map((m) => m.symbol).filter((s) => byMarket[s] === undefined);
  return (
    <form
      className="stack"
      aria-label="Stop tolerance"
      onSubmit={(e) => {
        e.preventDefault();
        if (!globalParsed.ok) return;
        const next = { ...byMarket };
        if (market !== '' && marketParsed?.ok) next[market] = marketParsed.bps;
        save.mutate({ stop_tolerance_bps: globalParsed.bps, stop_tolerance_by_market: next });
      }}
    >
      <div className="grid2">
        <TextField
          label="Stop tolerance"
          value={global}
          inputMode="decimal"
          suffix="%"
          onChange={(e) => setGlobal(e.target.value)}
          error={globalParsed.ok ? undefined : globalParsed.message}
          hint="How far past its trigger a fired stop-loss may fill (plain, bracket, trailing). Default 10%. Take-profits keep the market’s slippage."
        />
        <div className="row" style={{ gap: 8, alignItems: 'flex-end' }}>
          <SelectField label="Own tolerance for" value={market} onChange={(e) => setMarket(e.target.value)} options={[{ value: '', label: 'Choose a market' }, ...symbols.map((s) => ({ value: s, label: s }))]} />
          <TextField label={`Tolerance for ${market || 'the market'}`} value={marketPct} inputMode="decimal" suffix="%" onChange={(e) => setMarketPct(e.target.value)} error={marketParsed && !marketParsed.ok ? marketParsed.message : undefined} />
        </div>
      </div>
      {Object.keys(byMarket).length > 0 && (
        <ul className="stack" aria-label="Stop tolerance by market">
          {Object.entries(byMarket).map(([s, bps]) => (
            <li key={s} className="row" style={{ gap: 8 }}>
              <span className="num">
                {s}: {bpsAsPercent(bps)}
              </span>
              <Button
                size="sm"
                aria-label={`Remove, ${s} stop tolerance`}
                onClick={() => {
                  const next = { ...byMarket };
                  delete next[s];
                  save.mutate({ stop_tolerance_bps: saved.stop_tolerance_bps, stop_tolerance_by_market: next });
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {save.error && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!globalParsed.ok || (market !== '' && !marketParsed?.ok)}>
          Save stop tolerance
        </Button>
      </div>
    </form>
  );
}
