/** Requests main sends that need an answer (Ledger blind signing, offline signature), queued for dialogs. */
import { useSyncExternalStore } from 'react';
import type { BlindSigningRequest, OfflineSignatureRequest } from '../../../shared/ipc';

export type PendingPrompt = { kind: 'blind'; request: BlindSigningRequest } | { kind: 'offline'; request: OfflineSignatureRequest };

let queue: PendingPrompt[] = [];
const subs = new Set<() => void>();
const notify = () => subs.forEach((f) => f());

export function pushPrompt(p: PendingPrompt): void {
  queue = [...queue, p];
  notify();
}

export function resolvePrompt(promptId: string): void {
  queue = queue.filter((p) => p.request.prompt_id !== promptId);
  notify();
}

export function usePrompts(): PendingPrompt[] {
  return useSyncExternalStore(
    (f) => {
      subs.add(f);
      return () => subs.delete(f);
    },
    () => queue,
  );
}
