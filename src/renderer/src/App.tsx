/**
 * The root: the query client, main's event streams, then either onboarding (no wallet, or no usable
 * trading key yet) or the terminal.
 */
import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Shell } from './app/Shell';
import { useIpcEvents } from './ipc/events';
import { useKeys, useSettings, useWallet } from './ipc/queries';
import { forgetFirstScreen } from './ipc/firstScreenCache';
import { usableKey, type OnboardingStep } from './features/onboarding/onboardingGate';
import { appExtras, Onboarding, ViewSuspense } from './app/lazyViews';
import { useAfterFirstPaint } from './lib/afterFirstPaint';
import { useGlobalShortcuts } from './features/shortcuts/shortcuts';
import { Toaster } from './ui/toast';
import { ErrorState, Loading } from './ui/States';
import { VaultGuard } from './features/vault/VaultClosed';

type Mode = { kind: 'onboarding'; step: OnboardingStep } | { kind: 'terminal' };

/** Where a wallet's session opens, once its keys are known (null: not yet). */
function openingMode(keys: Pick<ReturnType<typeof useKeys>, 'isPending' | 'error' | 'data'>): Mode | null {
  if (keys.isPending) return null;
  // Keys that cannot be read (service down) should not trap the user in onboarding: the Keys view shows the error.
  return keys.error || usableKey(keys.data?.keys) ? { kind: 'terminal' } : { kind: 'onboarding', step: 'key' };
}

/**
 * `resumed`: the last session's terminal was restored (ipc/firstScreenCache.ts), so the terminal opens at
 * once; the live answers then confirm it, or send the user to onboarding when the wallet is gone.
 * Otherwise the first render already decides when main's first-screen answer is in (firstScreenRead.ts).
 */
function Gate({ resumed }: { resumed: boolean }) {
  const client = useQueryClient();
  useIpcEvents(client);
  const wallet = useWallet();
  const hasWallet = Boolean(wallet.data?.address);
  const keys = useKeys({ enabled: hasWallet });
  const settings = useSettings();
  // Decided once per session (and again when the wallet is forgotten): later key changes do not yank
  // the user out of the terminal or back into it mid-step.
  const [mode, setMode] = useState<Mode | null>(() => {
    if (resumed) return { kind: 'terminal' };
    if (wallet.isPending) return null;
    return hasWallet ? openingMode(keys) : { kind: 'onboarding', step: 'profile' };
  });

  useEffect(() => {
    if (wallet.isPending) return;
    if (!hasWallet) {
      forgetFirstScreen();
      if (mode?.kind !== 'onboarding') setMode({ kind: 'onboarding', step: 'profile' });
      return;
    }
    if (mode !== null) return;
    // By its fields, not the whole result: a query result is a new object on every render.
    const opening = openingMode({ isPending: keys.isPending, error: keys.error, data: keys.data });
    if (opening) setMode(opening);
  }, [wallet.isPending, hasWallet, keys.isPending, keys.error, keys.data, mode]);

  useGlobalShortcuts(mode?.kind === 'terminal');
  useEffect(() => {
    document.documentElement.dataset['theme'] = settings.data?.theme ?? 'dark';
  }, [settings.data?.theme]);
  useEffect(() => {
    document.documentElement.dataset['palette'] = settings.data?.palette ?? 'default';
  }, [settings.data?.palette]);

  if (wallet.error) {
    return (
      <main className="onb">
        <div className="onb-card">
          <ErrorState error={wallet.error} title="Could not reach the app core" onRetry={() => void wallet.refetch()} />
        </div>
      </main>
    );
  }
  if (mode === null) {
    return (
      <main className="onb">
        <Loading label="Starting Perps Desk" />
      </main>
    );
  }
  return mode.kind === 'onboarding' ? (
    <ViewSuspense label="onboarding">
      <Onboarding key={mode.step} initialStep={mode.step} onFinish={() => setMode({ kind: 'terminal' })} />
    </ViewSuspense>
  ) : (
    <Shell />
  );
}

/** `client` holds what main.tsx restored and asked for before this first render. */
export function App({ client, resumed }: { client: QueryClient; resumed: boolean }) {
  // Main's prompts wait in their store (ipc/prompts.ts) until the dialogs are in, a frame after the first.
  const extras = useAfterFirstPaint(appExtras);
  return (
    <QueryClientProvider client={client}>
      <VaultGuard>
        <Gate resumed={resumed} />
      </VaultGuard>
      {extras && <extras.PromptDialogs />}
      <Toaster />
    </QueryClientProvider>
  );
}
