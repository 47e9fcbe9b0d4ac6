/** The terminal frame: top bar with navigation and account status, the current view, a status bar. */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TradingKeyRow } from '../../../shared/ipc';
import { persistFirstScreen } from '../ipc/firstScreenCache';
import { goTo, setUi, toggleAssistant, useUi, type View } from './uiStore';
import { useAppInfo, useBalance, useKeys, useNotificationPrefs, useProfile, useWallet } from '../ipc/queries';
import { fmtUsd } from '../lib/decimal';
import { Countdown } from '../ui/Countdown';
import { TradeView } from './TradeView';
import { useAfterFirstPaint } from '../lib/afterFirstPaint';
import { appExtras, AssistantPanel, BridgeView, HistoryView, KeysView, PointsView, PortfolioView, SettingsView, SwapView, ViewSuspense, WithdrawView } from './lazyViews';
import { useHasLiveMarks } from '../features/markets/markStore';
import { Badge } from '../ui/Badge';
import { LiveRegion } from '../ui/LiveRegion';
import { SimFeedBanner, useSimFeedBannerShown } from '../features/simFeed/SimFeedBanner';
import { useSimFeed } from '../features/simFeed/simFeedQueries';
import { RoomLeft } from '../features/limits/RoomLeft';
import { LockoutBanner, useLockoutShown } from '../features/limits/LockoutBanner';
import { PanicHost } from '../features/limits/PanicHost';

export const NAV: { id: View; label: string }[] = [
  { id: 'trade', label: 'Trade' },
  { id: 'history', label: 'History' },
  { id: 'portfolio', label: 'Portfolio' },
  { id: 'withdraw', label: 'Withdraw' },
  { id: 'bridge', label: 'Bridge' },
  { id: 'swap', label: 'Swap' },
  { id: 'points', label: 'Points' },
  { id: 'keys', label: 'Keys' },
  { id: 'settings', label: 'Settings' },
];

const ASSISTANT_ID = 'assistant-panel';

function shortAddress(a: string): string {
  return `${a.slice(0, 6)}…${a.slice(-4)}`;
}

/** The active key that expires first (the one to watch). */
function watchedKey(keys: readonly TradingKeyRow[] | undefined): TradingKeyRow | undefined {
  return keys?.filter((k) => k.status === 'ACTIVE' && k.stored_locally && k.expires_at).sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0))[0];
}

function TopBar() {
  const view = useUi((s) => s.view);
  const assistantOpen = useUi((s) => s.assistantOpen);
  const profile = useProfile();
  const wallet = useWallet();
  const balance = useBalance();
  const keys = useKeys();
  const key = watchedKey(keys.data?.keys);
  const sim = profile.data?.active !== 'mainnet';
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Perps Desk</span>
      </div>
      <nav className="nav" aria-label="Main">
        {NAV.map((n) => (
          <button key={n.id} type="button" className="nav-item" aria-current={view === n.id ? 'page' : undefined} onClick={() => goTo(n.id)}>
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
              <span className="profile-short">Sim · paper</span>
            </>
          ) : (
            'Mainnet'
          )}
        </span>
      )}
      <div className="topbar-stat" title="Free balance">
        <span className="label">Free balance</span>
        <span className="value">{fmtUsd(balance.data?.free_balance)}</span>
      </div>
      <RoomLeft enabled={Boolean(wallet.data?.address)} />
      {/* Named by what it shows ("Trading key 29d 23h"): the space is for that name, the column layout ignores it. */}
      <button type="button" className="topbar-stat link-like" onClick={() => goTo('keys')} title="Trading key: time left">
        <span className="label">Trading key</span>{' '}
        <span className="value">
          {key?.expires_at ? (
            <Countdown at={key.expires_at} warnWithinMs={(key.expiring_soon ? Infinity : 0) || 14 * 86_400_000} />
          ) : keys.data ? (
            <Badge tone="sell">none active</Badge>
          ) : (
            '…'
          )}
        </span>
      </button>
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
