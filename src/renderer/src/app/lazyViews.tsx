/**
 * The screens the Trade view does not show load on demand: each is its own chunk, fetched from app://
 * the first time it opens (issue 17: the first screen loads only what it shows). The Trade view, the
 * frame and the event streams stay in the first script.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Loading } from '../ui/States';
import { loaderOf } from '../lib/afterFirstPaint';

export const HistoryView = lazy(() => import('../features/history/HistoryView').then((m) => ({ default: m.HistoryView })));
export const PortfolioView = lazy(() => import('../features/portfolio/PortfolioView').then((m) => ({ default: m.PortfolioView })));
export const WithdrawView = lazy(() => import('../features/withdraw/WithdrawView').then((m) => ({ default: m.WithdrawView })));
export const BridgeView = lazy(() => import('../features/bridge/BridgeView').then((m) => ({ default: m.BridgeView })));
export const SwapView = lazy(() => import('../features/swap/SwapView').then((m) => ({ default: m.SwapView })));
export const PointsView = lazy(() => import('../features/points/PointsView').then((m) => ({ default: m.PointsView })));
export const KeysView = lazy(() => import('../features/keys/KeysView').then((m) => ({ default: m.KeysView })));
export const SettingsView = lazy(() => import('../features/settings/SettingsView').then((m) => ({ default: m.SettingsView })));
export const Onboarding = lazy(() => import('../features/onboarding/Onboarding').then((m) => ({ default: m.Onboarding })));
export const PriceChart = lazy(() => import('../features/chart/PriceChart').then((m) => ({ default: m.PriceChart })));

// The Trade view's panels around the ticket (TradeView.tsx): one chunk, loaded as the Trade view first
// renders (not at start, where it would compete with main's first answers) and mounted after the ticket's
// first frame (lib/afterFirstPaint.ts).
export const tradePanels = loaderOf(() => import('./TradePanels'));

// The frame's prompt dialogs and shortcut sheet (appExtras.tsx), mounted after the first frame.
export const appExtras = loaderOf(() => import('./appExtras'));

export const AssistantPanel = lazy(() => import('../features/assistant/AssistantPanel').then((m) => ({ default: m.AssistantPanel })));

/** The placeholder while a screen's chunk loads (a local file: a frame or two). */
export function ViewSuspense({ label, children }: { label: string; children: ReactNode }) {
  return <Suspense fallback={<Loading label={`Opening ${label}`} rows={3} />}>{children}</Suspense>;
}
