/**
 * The receiver allowlist as the renderer sees it: main's list (the only addresses besides the main wallet
 * that bridges and swaps may deliver to), read through companion:listReceivers, and a hand-off from the
 * Bridge and Swap forms to Settings when the user typed an address that is not on it yet.
 */
import { useQuery } from '@tanstack/react-query';
import { goTo } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';

export const receiversKey = ['companion', 'receivers'] as const;

export const useReceivers = () => useQuery({ queryKey: receiversKey, queryFn: () => unwrap(perps().companion.listReceivers()) });

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** 0x1234…abcd, for labels where the whole address does not fit (the full one is always shown next to it). */
export const shortAddress = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** An address the Bridge or Swap form asked Settings to start adding (taken once by the Receivers section). */
let requested: string | null = null;

/** Opens Settings with `address` in the add-receiver form; the user still reads the warning and confirms there. */
export function addReceiverInSettings(address: string): void {
  requested = address;
  goTo('settings');
}

export function takeRequestedReceiver(): string | null {
  const a = requested;
  requested = null;
  return a;
}
