/** The trading screen: markets, the selected market's header and chart, account tables, and the ticket. */
import { useState } from 'react';
import { useOpenOrders, usePositions, useTriggers } from '../ipc/queries';
import { useActivity } from '../ipc/orderActivity';
import { PriceChart } from '../features/chart/PriceChart';
import { MarketHeader } from '../features/markets/MarketHeader';
import { MarketList } from '../features/markets/MarketList';
import { useSelectedMarket } from '../features/markets/useSelectedMarket';
import { OrderTicket } from '../features/orderTicket/OrderTicket';
import { ActivityTable } from '../features/orders/ActivityTable';
import { OpenOrdersTable, TriggersTable } from '../features/orders/OpenOrdersTable';
import { PositionsTable } from '../features/positions/PositionsTable';
import { RecentFills } from '../features/history/RecentFills';
import { AccountSummary } from './AccountSummary';
import { Panel } from '../ui/Panel';
import { Tabs } from '../ui/Tabs';
import { ErrorState, Loading } from '../ui/States';

type BottomTab = 'positions' | 'open' | 'triggers' | 'activity' | 'fills';

function Count({ n }: { n: number | undefined }) {
  return n ? <span className="count">{n}</span> : null;
}

function BottomPanel() {
  const [tab, setTab] = useState<BottomTab>('positions');
  const positions = usePositions();
  const open = useOpenOrders();
  const triggers = useTriggers();
  const activity = useActivity();
  const openCount = open.data?.orders.reduce((n, o) => n + 1 + o.legs.length, 0);
  return (
    <section className="panel bottom-panel" aria-label="Account activity">
      <Tabs<BottomTab>
        label="Account tables"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'positions', name: 'Positions', label: <>Positions<Count n={positions.data?.positions.length} /></> },
          { id: 'open', name: 'Open orders', label: <>Open orders<Count n={openCount} /></> },
          { id: 'triggers', name: 'Triggers', label: <>Triggers<Count n={triggers.data?.triggers.length} /></> },
          { id: 'activity', name: 'Activity', label: <>Activity<Count n={activity.length} /></> },
          { id: 'fills', name: 'Fills', label: 'Fills' },
        ]}
      >
        {tab === 'positions' && <PositionsTable />}
        {tab === 'open' && <OpenOrdersTable />}
        {tab === 'triggers' && <TriggersTable />}
        {tab === 'activity' && <ActivityTable />}
        {tab === 'fills' && <RecentFills />}
      </Tabs>
    </section>
  );
}

export function TradeView() {
  const { market, isPending, error } = useSelectedMarket();
  return (
    <div className="trade">
      <Panel name="Markets" className="markets-panel" bodyClassName="no-scroll">
        <MarketList />
      </Panel>
      <div className="trade-center">
        {market ? <MarketHeader market={market} /> : <div className="mkt-head">{isPending ? <Loading label="Loading markets" /> : error ? <ErrorState error={error} compact /> : <span className="muted">Choose a market</span>}</div>}
        {market ? <PriceChart market={market} /> : <div className="chart-panel" />}
        <BottomPanel />
      </div>
      <aside className="trade-side" aria-label="Trading">
        <AccountSummary />
        <Panel title="Order ticket">{market ? <OrderTicket key={market.symbol} market={market} /> : <Loading label="Waiting for markets" />}</Panel>
      </aside>
    </div>
  );
}
