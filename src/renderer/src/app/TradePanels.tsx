/**
 * The Trade view's panels around the ticket: the market list, the chart with the book and trades tape,
 * the account tables, and the hosts for TWAP restarts, trade hotkeys and chart actions. Their own chunk,
 * mounted just after the ticket's first frame (TradeView.tsx), so a trader can start an order while these
 * fill in (issue 17).
 */
import { Suspense, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { MarketView } from '../../../shared/ipc';
import { useOpenOrders, usePositions, useTriggers } from '../ipc/queries';
import { useActivity } from '../ipc/orderActivity';
import { PriceChart } from './lazyViews';
import { OrderBook } from '../features/orderBook/OrderBook';
import { TradesTape } from '../features/tradesTape/TradesTape';
import { ActivityTable } from '../features/orders/ActivityTable';
import { OpenOrdersTable, TriggersTable } from '../features/orders/OpenOrdersTable';
import { CloseAllDialog } from '../features/positions/CloseAllDialog';
import { PositionsTable } from '../features/positions/PositionsTable';
import { Button } from '../ui/Button';
import { RecentFills } from '../features/history/RecentFills';
import { TwapPanel } from '../features/twap/TwapPanel';
import { OcoPanel } from '../features/oco/OcoPanel';
import { useOcos } from '../features/oco/ocoQueries';
import { ChasePanel } from '../features/chase/ChasePanel';
import { useChases } from '../features/chase/chaseQueries';
import { AlertsPanel } from '../features/alerts/AlertsPanel';
import { useAlerts } from '../features/alerts/alertQueries';
import { TwapRestartPrompt } from '../features/twap/TwapRestartPrompt';
import { TradeHotkeysHost } from '../features/hotkeys/TradeHotkeysHost';
import { ChartActionDialogs } from '../features/chart/ChartActionDialogs';
import { useTwaps } from '../features/twap/twapQueries';
import { Tabs } from '../ui/Tabs';

export { MarketList } from '../features/markets/MarketList';

type BottomTab = 'positions' | 'open' | 'triggers' | 'twap' | 'oco' | 'chase' | 'alerts' | 'activity' | 'fills';

/**
 * The chart (lightweight-charts, a quarter of the first script) loads in its own chunk just after the
 * ticket and the book are interactive; its panel keeps its place meanwhile.
 */
function ChartSlot({ market }: { market: MarketView }) {
  return (
    <Suspense fallback={<div className="chart-panel" role="figure" aria-label={`${market.symbol} price chart`} aria-busy="true" />}>
      <PriceChart market={market} />
    </Suspense>
  );
}

/** A tab's count, with the space before it: the tab reads "Open orders 1", or just "Open orders". */
function Count({ n }: { n: number | undefined }) {
  return n ? (
    <>
      {' '}
      <span className="count">{n}</span>
    </>
  ) : null;
}

/** A tab's accessible name with its count, as its full label reads. */
function named(label: string, n: number | undefined): string {
  return n ? `${label} ${n}` : label;
}

export function BottomPanel() {
  const [tab, setTab] = useState<BottomTab>('positions');
  const positions = usePositions();
  const open = useOpenOrders();
  const triggers = useTriggers();
  const activity = useActivity();
  const twaps = useTwaps();
  const ocos = useOcos();
  const chases = useChases();
  const alerts = useAlerts();
  // A damaged alert counts too: it needs the person's attention (it is never evaluated).
  const activeAlerts = alerts.data ? alerts.data.alerts.filter((a) => a.status === 'active').length + alerts.data.damaged.length : undefined;
  // A damaged TWAP counts too: it needs the person's attention (it never runs).
  const activeTwaps = twaps.data ? twaps.data.twaps.filter((t) => t.status === 'running' || t.status === 'paused' || t.status === 'interrupted').length + twaps.data.damaged.length : undefined;
  // A damaged pair counts too: it needs the person's attention (it is never watched).
  const activeOcos = ocos.data ? ocos.data.pairs.filter((p) => p.status === 'working').length + ocos.data.damaged.length : undefined;
  // A damaged chase counts too: it needs the person's attention (it never runs).
  const activeChases = chases.data ? chases.data.chases.filter((c) => c.status === 'working').length + chases.data.damaged.length : undefined;
  const [closingAll, setClosingAll] = useState(false);
  const openCount = open.data?.orders.reduce((n, o) => n + 1 + o.legs.length, 0);
  const positionCount = positions.data?.positions.length ?? 0;
  return (
    <section className="panel bottom-panel row-actions-host" aria-label="Account activity">
      <Tabs<BottomTab>
        label="Account tables"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'positions', label: <>Positions<Count n={positions.data?.positions.length} /></> },
          // A narrow panel shows shorter labels, each inside the tab's whole name ("Orders 1" of "Open orders 1").
          { id: 'open', name: named('Open orders', openCount), label: <>Open orders<Count n={openCount} /></>, short: <>Orders<Count n={openCount} /></> },
          { id: 'triggers', label: <>Triggers<Count n={triggers.data?.triggers.length} /></> },
          { id: 'twap', label: <>TWAP<Count n={activeTwaps} /></> },
          { id: 'oco', label: <>OCO<Count n={activeOcos} /></> },
          { id: 'chase', label: <>Chase<Count n={activeChases} /></> },
          { id: 'alerts', label: <>Alerts<Count n={activeAlerts} /></> },
          // Narrow, this session's activity count is in the tab's name only (the visible label stays part of the name).
          { id: 'activity', name: named('Activity', activity.length), label: <>Activity<Count n={activity.length} /></>, short: 'Activity' },
          { id: 'fills', name: 'Fills', label: 'Fills' },
        ]}
        // In the tab bar, not under the table: in view however many positions there are.
        actions={
          tab === 'positions' && positionCount > 0 ? (
            <Button size="sm" variant="danger" onClick={() => setClosingAll(true)} aria-label="Close all positions">
              Close all
            </Button>
          ) : undefined
        }
      >
        {tab === 'positions' && <PositionsTable />}
        {tab === 'open' && <OpenOrdersTable />}
        {tab === 'triggers' && <TriggersTable />}
        {tab === 'twap' && <TwapPanel />}
        {tab === 'oco' && <OcoPanel />}
        {tab === 'chase' && <ChasePanel />}
        {tab === 'alerts' && <AlertsPanel />}
        {tab === 'activity' && <ActivityTable />}
        {tab === 'fills' && <RecentFills />}
      </Tabs>
      {closingAll && <CloseAllDialog onClose={() => setClosingAll(false)} />}
    </section>
  );
}

/** Below this width (px) the chart and the book share the space as tabs; from it up, they sit side by side. */
const SPLIT_MIN_WIDTH = 640;
type MarketTab = 'chart' | 'book' | 'trades';

/** Whether `ref`'s element is at least `min` px wide; re-evaluated on resize only. */
function useWideEnough(ref: RefObject<HTMLElement | null>, min: number): boolean {
  const [wide, setWide] = useState(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWide(el.getBoundingClientRect().width >= min);
    const observer = new ResizeObserver((entries) => {
      const w = entries[entries.length - 1]?.contentRect.width;
      if (w !== undefined) setWide(w >= min);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, min]);
  return wide;
}

/**
 * The chart and the order book: side by side when the centre column is wide enough, otherwise as two
 * tabs (the smallest window, or the assistant open beside the view); the trades tape sits under the book,
 * or under its own tab. A book or tape out of sight is unmounted, which stops main following it; the chart stays mounted behind its tab, so coming back is instant.
 */
export function MarketArea({ market }: { market: MarketView }) {
  const ref = useRef<HTMLDivElement>(null);
  const wide = useWideEnough(ref, SPLIT_MIN_WIDTH);
  const [tab, setTab] = useState<MarketTab>('chart');
  // The tab bar's slot for the book's own controls (feed state, grouping), set once it is mounted.
  const [bookTools, setBookTools] = useState<HTMLDivElement | null>(null);
  return (
    <div ref={ref} className={`market-area ${wide ? 'market-split' : 'market-tabbed'}`}>
      {wide ? (
        <>
          <ChartSlot market={market} />
          {/* The book over the trades tape: the two a trader reads together. */}
          <div className="book-panel">
            <OrderBook market={market} />
            <TradesTape market={market} />
          </div>
        </>
      ) : (
        <Tabs<MarketTab>
          label="Chart and order book"
          value={tab}
          onChange={setTab}
          tabs={[
            { id: 'chart', label: 'Chart' },
            { id: 'book', label: 'Order book' },
            { id: 'trades', label: 'Trades' },
          ]}
          actions={tab === 'book' ? <div ref={setBookTools} className="book-tools" /> : undefined}
        >
          <div className={`market-pane${tab === 'chart' ? '' : ' is-hidden'}`}>
            <ChartSlot market={market} />
          </div>
          {tab === 'book' && <OrderBook market={market} toolbarIn={bookTools} />}
          {tab === 'trades' && <TradesTape market={market} titled={false} />}
        </Tabs>
      )}
    </div>
  );
}

/** What listens on the Trade view without a place of its own: TWAP restarts, trade hotkeys, chart actions. */
export function TradeHosts() {
  return (
    <>
      <TwapRestartPrompt />
      <TradeHotkeysHost />
      <ChartActionDialogs />
    </>
  );
}
