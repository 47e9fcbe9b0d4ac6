/**
 * Close all: one confirmation listing every open position (what it is, its PnL now, the triggers that will
 * be cancelled), then positions:closeAll, which closes each at market on its own (lifecycle rule 4 per
 * market), and each market's outcome: closed, partly closed, failed (with why) or skipped.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { IpcResponse, MarketView, PositionView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { useMarkets, usePositions } from '../../ipc/queries';
import { dec, fmt, fmtUsd, placesOfStep, toneOf } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useInvalidateTrading } from './useInvalidateTrading';

type MarketOutcome = IpcResponse<'positions:closeAll'>['results'][number];

const OUTCOME: Record<MarketOutcome['outcome'], { text: string; tone: 'buy' | 'warn' | 'sell' | undefined }> = {
  closed: { text: 'Closed', tone: 'buy' },
  partly_closed: { text: 'Partly closed', tone: 'warn' },
  failed: { text: 'Failed', tone: 'sell' },
  skipped: { text: 'Skipped', tone: undefined },
};

function places(market: MarketView | undefined): { places?: number } {
  return market ? { places: placesOfStep(market.tick_size) } : {};
}

function triggersText(p: Pick<PositionView, 'tp' | 'sl'>, market: MarketView | undefined): string {
  const list = [p.tp ? `TP ${fmt(p.tp.trigger_price, places(market))}` : null, p.sl ? `SL ${fmt(p.sl.trigger_price, places(market))}` : null].filter(Boolean);
  return list.length > 0 ? list.join(' · ') : '—';
}

function OutcomeTable({ results, bySymbol }: { results: MarketOutcome[]; bySymbol: Map<string, MarketView> }) {
  return (
    <table className="dt dt-wrap" aria-label="Close all outcome">
      <thead>
        <tr>
          <th scope="col">Market</th>
          <th scope="col">Outcome</th>
          <th scope="col">Triggers cancelled</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.market} aria-label={`${r.market} outcome`}>
            <td className="strong">{r.market}</td>
            <td>
              <Badge tone={OUTCOME[r.outcome].tone}>{OUTCOME[r.outcome].text}</Badge>
            </td>
            <td>{r.cancelled.length > 0 ? r.cancelled.map((t) => `${t.tpsl === 'tp' ? 'TP' : t.tpsl === 'sl' ? 'SL' : 'Trigger'}${t.trigger_price ? ` ${fmt(t.trigger_price, places(bySymbol.get(r.market)))}` : ''}`).join(' · ') : '—'}</td>
            <td className="muted">
              {r.error ? (
                <>
                  <code className="err-code">{r.error.code}</code> {r.error.message}
                  {r.error.hint ? ` ${r.error.hint}` : ''}
                </>
              ) : r.position_after ? (
                `${r.position_after.side} ${fmt(dec(r.position_after.size)?.abs() ?? r.position_after.size)} left (resting reduce-only orders hold it)`
              ) : r.order_id ? (
                `order ${r.order_id}`
              ) : (
                ''
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CloseAllDialog({ onClose }: { onClose: () => void }) {
  const positions = usePositions();
  const markets = useMarkets();
  const refresh = useInvalidateTrading();
  const closeAll = useMutation({
    mutationFn: () => unwrap(perps().positions.closeAll({})),
    onSuccess: (r) => {
      refresh();
      const closed = r.results.filter((x) => x.outcome === 'closed').length;
      const bad = r.results.filter((x) => x.outcome === 'failed' || x.outcome === 'partly_closed');
      pushToast({ tone: bad.length > 0 ? 'warn' : 'success', title: `Close all: ${closed} of ${r.results.length} closed`, body: bad.map((x) => `${x.market} ${OUTCOME[x.outcome].text.toLowerCase()}`).join(' · ') || undefined });
    },
  });
  // What was confirmed stays listed while the closes run (the live list shrinks as they land).
  const [confirmedList, setConfirmedList] = useState<PositionView[] | null>(null);
  const bySymbol = new Map((markets.data?.markets ?? []).map((m) => [m.symbol, m]));
  const list = confirmedList ?? positions.data?.positions ?? [];
  const result = closeAll.data;
  const footer = result ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button variant="ghost" onClick={onClose} disabled={closeAll.isPending}>
        Cancel
      </Button>
      <Button
        variant="sell"
        busy={closeAll.isPending}
        disabled={list.length === 0}
        onClick={() => {
          setConfirmedList(list);
          closeAll.mutate();
        }}
      >
        Close {list.length === 1 ? 'the position' : `all ${list.length} positions`} at market
      </Button>
    </>
  );
  return (
    <Dialog open title="Close all positions" onClose={onClose} locked={closeAll.isPending} tone="danger" width={640} footer={footer}>
      {result ? (
        <OutcomeTable results={result.results} bySymbol={bySymbol} />
      ) : (
        <>
          <p className="muted">
            Each position is closed at market on its own: its armed TP/SL triggers are cancelled first, then one reduce-only market order within the market’s
            slippage bound. One failing does not stop the others.
          </p>
          <table className="dt dt-wrap" aria-label="Positions to close">
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col" className="r">Size</th>
                <th scope="col" className="r">Mark</th>
                <th scope="col" className="r">Unrealized PnL</th>
                <th scope="col">Cancels first</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.market} aria-label={`${p.market} to close`}>
                  <td>
                    <span className="strong">{p.market}</span> <Badge tone={p.side === 'LONG' ? 'buy' : 'sell'}>{p.side}</Badge>
                  </td>
                  <td className="r num">{fmt(dec(p.size)?.abs() ?? p.size)}</td>
                  <td className="r num">{fmt(p.mark, places(bySymbol.get(p.market)))}</td>
                  <td className={`r num ${toneOf(p.unrealized_pnl)}`}>{fmtUsd(p.unrealized_pnl, { signed: true })}</td>
                  <td>{triggersText(p, bySymbol.get(p.market))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {closeAll.error && <ErrorLine error={closeAll.error} />}
        </>
      )}
    </Dialog>
  );
}
