/**
 * The root: the query client, main's event streams, then either onboarding (no wallet, or no usable
 * trading key yet) or the terminal.
 */
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Shell } from './app/Shell';
import { useIpcEvents } from './ipc/events';
import { createQueryClient } from './ipc/queryClient';
import { prefetchFirstScreen, useKeys, useSettings, useWallet } from './ipc/queries';
import { forgetFirstScreen, invalidateRestored, restoreFirstScreen } from './ipc/firstScreenCache';
import { afterNextFrame } from './lib/afterFirstPaint';
import { usableKey, type OnboardingStep } from './features/onboarding/onboardingGate';
import { Onboarding, ViewSuspense } from './app/lazyViews';
import { PromptDialogs } from './features/notifications/PromptDialogs';
import { useGlobalShortcuts } from './features/shortcuts/shortcuts';
import { Toaster } from './ui/toast';
import { ErrorState, Loading } from './ui/States';

/**
 * `resumed`: the last session's terminal was restored (ipc/firstScreenCache.ts), so the terminal opens at
 * once; the live answers then confirm it, or send the user to onboarding when the wallet is gone.
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
  const [mode, setMode] = useState<{ kind: 'onboarding'; step: OnboardingStep } | { kind: 'terminal' } | null>(() => (resumed ? { kind: 'terminal' } : null));

  useEffect(() => {
    if (wallet.isPending) return;
    if (!hasWallet) {
      forgetFirstScreen();
      if (mode?.kind !== 'onboarding') setMode({ kind: 'onboarding', step: 'profile' });
      return;
    }
    if (mode !== null) return;
    if (keys.isPending) return;
    // Keys that cannot be read (service down) should not trap the user in onboarding: the Keys view shows the error.
    if (keys.error || usableKey(keys.data?.keys)) setMode({ kind: 'terminal' });
    else setMode({ kind: 'onboarding', step: 'key' });
  }, [wallet.isPending, hasWallet, keys.isPending, keys.error, keys.data, mode]);

  useGlobalShortcuts(mode?.kind === 'terminal');
  useEffect(() => {
    document.documentElement.dataset['theme'] = settings.data?.theme ?? 'dark';
  }, [settings.data?.theme]);

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

export function App() {
  const [{ client, resumed }] = useState(() => {
    const c = createQueryClient();
    const restored = restoreFirstScreen(c);
    if (!restored) prefetchFirstScreen(c);
    return { client: c, resumed: restored };
  });
  // The last session's terminal is drawn first; main is asked right after that frame.
  useEffect(() => {
    if (!resumed) return;
    const frame = afterNextFrame();
    void frame.done.then(async () => {
      await invalidateRestored(client);
      prefetchFirstScreen(client);
    });
    return frame.cancel;
  }, [client, resumed]);
  return (
    <QueryClientProvider client={client}>
      <Gate resumed={resumed} />
      <PromptDialogs />
      <Toaster />
    </QueryClientProvider>
  );
}
