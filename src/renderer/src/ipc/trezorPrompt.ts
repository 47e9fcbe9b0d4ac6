/** What the Trezor needs from the person now (main's latest trezorPrompt), or null when it needs nothing. */
import { useSyncExternalStore } from 'react';
import type { TrezorPrompt } from '../../../shared/ipc';

let current: TrezorPrompt | null = null;
const subs = new Set<() => void>();

export function setTrezorPrompt(p: TrezorPrompt | null): void {
  current = p !== null && p.kind === 'idle' ? null : p;
  subs.forEach((f) => f());
}

export function useTrezorPrompt(): TrezorPrompt | null {
  return useSyncExternalStore(
    (f) => {
      subs.add(f);
      return () => subs.delete(f);
    },
    () => current,
  );
}
