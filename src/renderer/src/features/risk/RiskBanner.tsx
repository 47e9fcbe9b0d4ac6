/**
 * The liquidation-risk banner of the trade view: every position whose mark is within the user's warning
 * distance of its liquidation estimate (main's riskWarning event), one line each, naming the market, the
 * distance, the mark and the estimate. It goes away by itself when main sends the empty set.
 */
import { goTo, selectMarket } from '../../app/uiStore';
import { useMarkets } from '../../ipc/queries';
import { riskWarningDetail } from './liquidation';
import { useRiskWarnings } from './riskWarningStore';

export function RiskBanner() {
  const event = useRiskWarnings();
  const markets = useMarkets();
  if (!event) return null;
  const bySymbol = new Map((markets.data?.markets ?? []).map((m) => [m.symbol, m]));
  return (
    <div className="risk-banner" role="alert" aria-label="Liquidation risk">
      <span className="risk-banner-icon" aria-hidden="true">
        ⚠
      </span>
      <div className="risk-banner-body">
        <strong className="risk-banner-title">Liquidation risk</strong>
        <ul className="risk-banner-list">
          {event.warnings.map((w) => (
            <li key={w.position_id}>
              <button type="button" className="link-btn strong" onClick={() => selectMarket(w.market)} aria-label={`Show ${w.market}`}>
                {w.market}
              </button>{' '}
              <span>{riskWarningDetail(w, bySymbol.get(w.market))}</span>
            </li>
          ))}
        </ul>
      </div>
      <span className="risk-banner-note">
        Within {event.threshold_pct}% of the mark ·{' '}
        <button type="button" className="link-btn" onClick={() => goTo('settings')}>
          change
        </button>
        . Add margin or reduce the position.
      </span>
    </div>
  );
}
