/**
 * The trading screen: markets, the selected market's header, chart and order book, account tables, and the
 * ticket. The first frame holds the frame of the screen, the market header, the account summary and the
 * ticket; the panels around them (TradePanels.tsx, their own chunk, fetched while main answers the first
 * reads) mount just after it, so the ticket is usable at once (issue 17).
 */
import { MarketHeader } from '../features/markets/MarketHeader';
import { useSelectedMarket } from '../features/markets/useSelectedMarket';
import { OrderTicket } from '../features/orderTicket/OrderTicket';
import { RiskBanner } from '../features/risk/RiskBanner';
import { useRiskWarnings } from '../features/risk/riskWarningStore';
import { useAfterFirstPaint } from '../lib/afterFirstPaint';
import { AccountSummary } from './AccountSummary';
import { tradePanels } from './lazyViews';
import { Panel } from '../ui/Panel';
import { ErrorState, Loading } from '../ui/States';

export function TradeView() {
  const { market, isPending, error } = useSelectedMarket();
  const warned = useRiskWarnings() !== null;
  // The panels' code loads while the first frame is drawn; until it is in, each keeps its box (so nothing
  // moves when it arrives).
  const panels = useAfterFirstPaint(tradePanels);
  const chartPlaceholder = <div className="chart-panel" aria-busy={market ? 'true' : undefined} />;
  return (
    <div className="trade">
      <Panel name="Markets" className="markets-panel" bodyClassName="no-scroll">
        {panels ? <panels.MarketList /> : <Loading label="Loading markets" />}
      </Panel>
      <div className={`trade-center${warned ? ' has-banner' : ''}`}>
        <RiskBanner />
        {market ? <MarketHeader market={market} /> : <div className="mkt-head">{isPending ? <Loading label="Loading markets" /> : error ? <ErrorState error={error} compact /> : <span className="muted">Choose a market</span>}</div>}
        {market && panels ? <panels.MarketArea market={market} /> : chartPlaceholder}
        {panels ? <panels.BottomPanel /> : <section className="panel bottom-panel" aria-label="Account activity" aria-busy="true" />}
      </div>
      {panels && <panels.TradeHosts />}
      <aside className="trade-side" aria-label="Trading">
        <AccountSummary />
        <Panel title="Order ticket">{market ? <OrderTicket key={market.symbol} market={market} /> : <Loading label="Waiting for markets" />}</Panel>
      </aside>
    </div>
  );
}
