/** The terminal frame: top bar with navigation and account status, the current view, a status bar. */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { persistFirstScreen } from '../ipc/firstScreenCache';
import { goTo, setUi, toggleAssistant, useUi, VIEWS } from './uiStore';
import { viewShortcut } from '../features/shortcuts/shortcuts';
import { useAppInfo, useNotificationPrefs, useProfile, useWallet } from '../ipc/queries';
import { TradeView } from './TradeView';
import { useAfterFirstPaint } from '../lib/afterFirstPaint';
import { appExtras, AssistantPanel, BridgeView, HistoryView, KeysView, PointsView, PortfolioView, SettingsView, SwapView, ViewSuspense, WithdrawView } from './lazyViews';
import { useHasLiveMarks } from '../features/markets/markStore';
import { HeaderFigures } from './HeaderFigures';
import { LiveRegion } from '../ui/LiveRegion';
import { SimFeedBanner, useSimFeedBannerShown } from '../features/simFeed/SimFeedBanner';
import { useSimFeed } from '../features/simFeed/simFeedQueries';
import { RoomLeft } from '../features/limits/RoomLeft';
import { LockoutBanner, useLockoutShown } from '../features/limits/LockoutBanner';
import { PanicHost } from '../features/limits/PanicHost';

export const NAV = VIEWS;

const ASSISTANT_ID = 'assistant-panel';

function shortAddress(a: string): string {
  return `${a.slice(0, 6)}…${a.slice(-4)}`;
}

function TopBar() {
  const view = useUi((s) => s.view);
  const assistantOpen = useUi((s) => s.assistantOpen);
  const profile = useProfile();
  const wallet = useWallet();
  const sim = profile.data?.active !== 'mainnet';
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Perps Desk</span>
      </div>
      <nav className="nav" aria-label="Main">
        {NAV.map((n) => (
          <button key={n.id} type="button" className="nav-item" aria-current={view === n.id ? 'page' : undefined} aria-keyshortcuts={viewShortcut(n.id)?.aria} title={viewShortcut(n.id)?.text} onClick={() => goTo(n.id)}>
            {n.label}
          </button>
        ))}
      </nav>
      <div className="topbar-spacer" />
      {profile.data && (
        <span className={`profile-chip ${sim ? 'profile-sim' : 'profile-mainnet'}`} title={sim ? 'Paper trading on the local simulator: no real funds' : 'Live mainnet: real funds'}>
          <span className="dot" aria-hidden="true" />
          {sim ? (
            <>
              {/* Narrow windows show the short form (styles/app.css); the chip's title says it in full. */}
              <span className="profile-long">Simulator · paper</span>
              <span className="profile-short">
                Sim<span className="profile-mode"> · paper</span>
              </span>
            </>
          ) : (
            'Mainnet'
          )}
        </span>
      )}
      <HeaderFigures />
      <RoomLeft enabled={Boolean(wallet.data?.address)} />
      {wallet.data?.address && (
        <span className="wallet-chip" title={`${wallet.data.address}${wallet.data.signer ? ` · ${wallet.data.signer.label}` : ' · signer not connected'}`}>
          {shortAddress(wallet.data.address)}
        </span>
      )}
      <button type="button" className={`btn btn-sm ${assistantOpen ? 'btn-secondary' : 'btn-ghost'}`} aria-pressed={assistantOpen} aria-controls={assistantOpen ? ASSISTANT_ID : undefined} onClick={toggleAssistant}>
        Assistant
      </button>
      <button type="button" className="btn btn-ghost btn-sm" aria-label="Keyboard shortcuts" onClick={() => setUi({ shortcutSheet: true })}>
        ?
      </button>
    </header>
  );
}

function hostOf(url: string | null): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return url ?? '';
  }
}

function StatusBar() {
  const info = useAppInfo();
  const profile = useProfile();
  const liveMarks = useHasLiveMarks();
  const feed = useSimFeed().data;
  const wallet = useWallet();
  return (
    <footer className="statusbar">
      <span className={profile.error ? 'conn-bad' : 'conn-ok'}>● {profile.error ? 'app core unreachable' : 'connected'}</span>
      <span>{profile.data ? `${profile.data.active} · ${profile.data.environment}` : ''}</span>
      {feed && (
        <span>
          {feed.source === 'venue' ? `prices: ${feed.feed === 'down' ? 'frozen' : 'live'} from ${hostOf(feed.info_url)}` : 'prices: simulated'}
          {feed.source === 'venue' && feed.feed === 'live' && feed.paused_markets.length > 0 ? ` · ${feed.paused_markets.map((m) => `${m.venue_symbol} ${m.state}`).join(', ')}` : ''}
        </span>
      )}
      <span>{liveMarks ? 'live marks' : 'waiting for live marks'}</span>
      {/* The top bar's wallet chip, where the top bar has no room for it (styles/app.css). */}
      {wallet.data?.address && <span className="statusbar-wallet" title={wallet.data.address}>wallet {shortAddress(wallet.data.address)}</span>}
      <RoomLeft enabled={Boolean(wallet.data?.address)} placement="statusbar" />
      <span className="sep" />
      <span>Press ? for shortcuts</span>
      <span>{info.data ? `${info.data.name} ${info.data.version}` : ''}</span>
    </footer>
  );
}

export function Shell() {
  // The shortcut sheet is in the chunk loaded after the first frame (appExtras.tsx); "?" before that opens it once it is in.
  const extras = useAfterFirstPaint(appExtras);
  // Read once for the terminal: the optional sounds (ipc/events.ts) check these switches on each event.
  useNotificationPrefs();
  // While the terminal is open, the next start can open it at once (ipc/firstScreenCache.ts).
  const client = useQueryClient();
  useEffect(() => persistFirstScreen(client), [client]);
  const view = useUi((s) => s.view);
  const assistantOpen = useUi((s) => s.assistantOpen);
  const feedBanner = useSimFeedBannerShown();
  const lockoutBanner = useLockoutShown();
  return (
    <div className={`app${feedBanner || lockoutBanner ? ' has-feed-banner' : ''}`}>
      <TopBar />
      {/* The banners share the frame's one banner row. */}
      {(feedBanner || lockoutBanner) && (
        <div className="app-banners">
          <SimFeedBanner />
          <LockoutBanner />
        </div>
      )}
      <div className={`app-body${assistantOpen ? ' with-assistant' : ''}`}>
        <main className="view" aria-label={NAV.find((n) => n.id === view)?.label}>
          {view === 'trade' && <TradeView />}
          {view !== 'trade' && (
            <ViewSuspense label={NAV.find((n) => n.id === view)?.label ?? view}>
              {view === 'history' && <HistoryView />}
              {view === 'portfolio' && <PortfolioView />}
              {view === 'withdraw' && <WithdrawView />}
              {view === 'bridge' && <BridgeView />}
              {view === 'swap' && <SwapView />}
              {view === 'points' && <PointsView />}
              {view === 'keys' && <KeysView />}
              {view === 'settings' && <SettingsView />}
            </ViewSuspense>
          )}
        </main>
        {assistantOpen && (
          <ViewSuspense label="Assistant">
            <AssistantPanel id={ASSISTANT_ID} />
          </ViewSuspense>
        )}
      </div>
      <StatusBar />
      {/* The one place fills, order results, alerts and liquidation warnings are spoken (ui/announcer.ts). */}
      <LiveRegion />
      <PanicHost />
      {extras && <extras.ShortcutSheet />}
      {extras && <extras.CommandPaletteHost />}
    </div>
  );
}
